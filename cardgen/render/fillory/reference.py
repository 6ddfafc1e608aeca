"""The Magicians of Fillory reference sheet: setup, the five phases, abilities, card tricks by trait,
the n-squared scoring table, all 27 traits with their card counts, and the notes on the card list.

All wording comes from the catalog's rule entries, trait tricks and data notes (our own words).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from cardgen.catalog.fillory import FilloryContent
from cardgen.render.markup import escape

from ..colour import tint
from ..documents import (
    GRID_LINE,
    Paragraph,
    grid_style,
    note_markup,
    render_flowing_document,
    rule_text,
)
from ..labels import label
from ..options import ResolvedOptions
from ..pdf import pt
from ..registry import Progress
from .style import BOLD, REGULAR, FilloryStyle, fillory_style

SCORING_ROWS = 10


def word(key: str, **fields: object) -> str:
    return label("fillory-reference", key, **fields)

PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("phase_draw", ("fillory.draw.one", "fillory.draw.reshuffle")),
    ("phase_action", ("fillory.action.play", "fillory.ability.when")),
    ("phase_trick", ("fillory.trick.discard",)),
    ("phase_score", ("fillory.score.square", "fillory.score.once", "fillory.score.no-character")),
    ("phase_end", ("fillory.end.hand-limit",)),
)
SETUP_RULES = ("fillory.setup.neutral", "fillory.setup.deal", "fillory.goal.victory")
ABILITY_RULES = ("fillory.summon", "fillory.banish", "fillory.ability.target")


class _Styles:
    def __init__(self, ink: str, heading: str, muted: str) -> None:
        self.title = ParagraphStyle("title", fontName=BOLD, fontSize=22, leading=26, textColor=heading)
        self.subtitle = ParagraphStyle("subtitle", fontName=REGULAR, fontSize=10, leading=13, textColor=muted)
        self.h2 = ParagraphStyle("h2", fontName=BOLD, fontSize=12.5, leading=15, textColor=heading,
                                 spaceBefore=9, spaceAfter=4)
        self.body = ParagraphStyle("body", fontName=REGULAR, fontSize=9, leading=11.6, textColor=ink)
        self.cell = ParagraphStyle("cell", fontName=REGULAR, fontSize=8.6, leading=10.6, textColor=ink)
        self.cell_bold = ParagraphStyle("cellb", parent=self.cell, fontName=BOLD)
        self.small = ParagraphStyle("small", fontName=REGULAR, fontSize=7.6, leading=9.4, textColor=muted)


class _Swatch(Flowable):
    """A small filled pill used in the trait-family legend."""

    def __init__(self, colour: str, edge: str, width: float = pt(6), height: float = pt(3.2)) -> None:
        super().__init__()
        self.colour, self.edge, self.width, self.height = colour, edge, width, height

    def draw(self) -> None:
        self.canv.setFillColor(self.colour)
        self.canv.setStrokeColor(self.edge)
        self.canv.setLineWidth(0.6)
        self.canv.roundRect(0, 0, self.width, self.height, self.height / 2, stroke=1, fill=1)


def _subject_label(content: FilloryContent, subject: str) -> str:
    if subject == "rulebook":
        return word("rulebook")
    if subject.startswith("trait:"):
        return word("trait_subject", trait=subject[6:])
    card = content.find_card(subject)
    return word("card_subject", name=card.name, number=card.number) if card else subject


def reference_story(content: FilloryContent, resolved: ResolvedOptions, width: float) -> list[Flowable]:
    """The flowables of the reference sheet, in reading order."""
    style = fillory_style(resolved.specs.theme(content.game), resolved.options.ink_saver)
    heading = style.frame or style.ink
    s = _Styles(style.ink, heading, style.muted)
    header_fill = tint(heading, 0.86) if not style.ink_saver else "#FFFFFF"
    zebra = None if style.ink_saver else "#F6F4EE"
    line = GRID_LINE
    story: list[Flowable] = [
        Paragraph(escape(content.title), s.title),
        Paragraph(word("subtitle", min=content.min_players, max=content.max_players, points=content.victory_points,
                    cards=len(content.cards)), s.subtitle),
        Spacer(1, pt(2)),
        Paragraph(word("setup"), s.h2),
        Paragraph(rule_text(content, SETUP_RULES), s.body),
        Paragraph(word("phases"), s.h2),
    ]
    rows = [[Paragraph(word("phase"), s.cell_bold), Paragraph(word("what_you_do"), s.cell_bold)]]
    rows += [[Paragraph(escape(word(name)), s.cell_bold), Paragraph(rule_text(content, ids), s.cell)]
             for name, ids in PHASES]
    table = Table(rows, colWidths=[pt(26), width - pt(26)])
    table.setStyle(grid_style(header_fill, zebra, valign="TOP"))
    story += [table, Paragraph(word("abilities"), s.h2), Paragraph(rule_text(content, ABILITY_RULES), s.body)]

    tricks = [t for t in content.traits if t.trick is not None]
    rows = [[Paragraph(h, s.cell_bold) for h in (word("trait"), word("trick_head"), word("cards"))]]
    rows += [[Paragraph(escape(t.name), s.cell_bold), Paragraph(escape(t.trick.text), s.cell),  # type: ignore[union-attr]
              Paragraph(str(len(content.cards_with(t.name))), s.cell)] for t in tricks]
    table = Table(rows, colWidths=[pt(26), width - pt(26) - pt(14), pt(14)], repeatRows=1)
    table.setStyle(grid_style(header_fill, zebra, valign="TOP"))
    untricked = label("card", "list_separator").join(t.name for t in content.traits if t.trick is None)
    story += [Paragraph(word("tricks", count=len(tricks), traits=len(content.traits)), s.h2),
              table, Spacer(1, pt(1.5)),
              Paragraph(word("no_trick", traits=escape(untricked)), s.small)]

    squares = [[Paragraph(word("cards"), s.cell_bold)] + [str(n) for n in range(1, SCORING_ROWS + 1)],
               [Paragraph(word("vp"), s.cell_bold)] + [str(n * n) for n in range(1, SCORING_ROWS + 1)]]
    cell_w = (width - pt(18)) / SCORING_ROWS
    table = Table(squares, colWidths=[pt(18)] + [cell_w] * SCORING_ROWS)
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, line),
        ("BACKGROUND", (0, 0), (0, -1), header_fill),
        ("ALIGN", (1, 0), (-1, -1), "CENTER"),
        ("FONTNAME", (1, 1), (-1, 1), BOLD),
        ("FONTSIZE", (1, 0), (-1, -1), 10),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ]))
    story.append(KeepTogether([
        Paragraph(word("scoring"), s.h2), table, Spacer(1, pt(1.5)),
        Paragraph(rule_text(content, ("fillory.score.once", "fillory.score.no-character")), s.small),
    ]))

    story += _trait_table(content, style, s, width, header_fill, line)
    story += _notes(content, s, width, header_fill, zebra)
    return story


def _trait_table(content: FilloryContent, style: FilloryStyle, s: _Styles, width: float, header_fill: str,
                 line: str) -> list[Flowable]:
    """All traits in three side-by-side groups: name (family colour swatch), cards, trick, scoring."""
    entries = []
    for t in content.traits:
        chip = style.chip(t.name)
        marks = []
        if t.trick is not None:
            marks.append(word("mark_trick"))
        if not t.scorable:
            marks.append(word("mark_never"))
        entries.append([_Swatch(chip.fill or "#FFFFFF", chip.edge), Paragraph(escape(t.name), s.cell_bold),
                        Paragraph(str(len(content.cards_with(t.name))), s.cell),
                        Paragraph(label("card", "list_separator").join(marks), s.small)])
    groups = 3
    per_group = -(-len(entries) // groups)
    group_w = width / groups
    col_widths: list[float] = []
    for _ in range(groups):
        col_widths += [pt(8), group_w * 0.40, pt(12), group_w - pt(20) - group_w * 0.40]
    header: list[Any] = []
    for _ in range(groups):
        header += ["", Paragraph(word("trait"), s.cell_bold), Paragraph(word("cards"), s.cell_bold), ""]
    rows = [header]
    for r in range(per_group):
        row: list[Any] = []
        for g in range(groups):
            i = g * per_group + r
            row += entries[i] if i < len(entries) else ["", "", "", ""]
        rows.append(row)
    table = Table(rows, colWidths=col_widths)
    table.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), header_fill),
        ("LINEBELOW", (0, 0), (-1, -1), 0.4, line),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.4),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]))
    legend = " · ".join(f"<font color='{f.colour}'><b>{escape(f.name)}</b></font>: {escape(label('card', 'list_separator').join(f.traits))}"
                        for f in style.theme.families)
    return [KeepTogether([
        Paragraph(word("traits", count=len(content.traits)), s.h2), table,
        Spacer(1, pt(1.5)),
        Paragraph(word("families", legend=legend), s.small),
    ])]


def _notes(content: FilloryContent, s: _Styles, width: float, header_fill: str,
           zebra: str | None) -> list[Flowable]:
    """The data notes grouped by the card (or rule) they concern."""
    grouped: dict[str, list[str]] = {}
    for note in content.notes:
        grouped.setdefault(_subject_label(content, note.subject), []).append(note_markup(note))
    rows: list[list[Any]] = [[Paragraph(label("document", "concerns"), s.cell_bold), Paragraph(word("notes_head"), s.cell_bold)]]
    for subject, described in grouped.items():
        rows.append([Paragraph(escape(subject), s.cell_bold),
                     [Paragraph(markup, s.cell) for markup in described]])
    table = Table(rows, colWidths=[pt(42), width - pt(42)], repeatRows=1)
    table.setStyle(grid_style(header_fill, zebra, valign="TOP"))
    return [Paragraph(word("notes"), s.h2), Paragraph(word("notes_intro"), s.body), Spacer(1, pt(1.5)), table]


def render_reference(content: FilloryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    render_flowing_document(path, resolved.paper, title=word("title", game=content.title), subject=word("subject"),
                            footer=word("footer", game=content.title),
                            story=lambda width: reference_story(content, resolved, width))
    progress(1)
