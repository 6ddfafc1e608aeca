"""The Jonathan Strange & Mr Norrell quick reference: a year, a turn, visits, magic, confronting the fairy and
scoring, then the elements, actions and connexions, and the notes on the rulebook. All wording comes from
the catalog's rule entries, actions, connexion types and data notes (our own words).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table

from cardgen.catalog.jsmn import JsmnContent
from cardgen.render.markup import escape

from ..colour import tint
from ..documents import (
    Paragraph,
    SymbolCell,
    grid_style,
    notes_table,
    render_flowing_document,
    rules_table,
)
from ..labels import label
from ..options import ResolvedOptions
from ..pdf import pt
from ..registry import Progress
from .style import MAGICIAN_INKS, SANS, SANS_BOLD, SERIF_BOLD, JsmnStyle, style_for
from .symbols import ELEMENT_DRAWERS, MAGICIAN_DRAWERS

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("year", ("year.sequence", "year.advance", "year.marseilles", "year.books", "turn.order", "turn.next",
                "prestige.stack")),
    ("turn", ("turn.steps", "action.choose", "action.covered", "action.still", "tidy.draw", "hand.limit",
                "tidy.reset")),
    ("visits", ("visit.limits", "move.path", "move.first", "move.london", "engage.location", "engage.invitation",
                "feat.take", "engage.introduction", "connexion.gain", "connexion.limit", "connexion.named",
                "connexion.filled")),
    ("magic", ("magic.discard", "magic.available", "magic.place", "magic.exact", "magic.supply",
               "magic.spell-elements", "feat.complete", "book.use", "book.forms", "book.once", "spell.cast",
               "spell.discard", "spell.timing")),
    ("fairy", ("fairy.track", "fairy.confront", "fairy.defeat", "difficulty.advanced")),
    ("scoring", ("magicianship.total", "magicianship.secret", "end.total", "end.tie", "end.reign")),
)


def word(key: str, **fields: object) -> str:
    return label("jsmn-reference", key, **fields)


class _Styles:
    def __init__(self, style: JsmnStyle) -> None:
        ink, muted = style.ink, style.muted
        self.title = ParagraphStyle("title", fontName=SERIF_BOLD, fontSize=22, leading=26, textColor=ink)
        self.subtitle = ParagraphStyle("subtitle", fontName=SANS, fontSize=9, leading=12, textColor=muted)
        self.h2 = ParagraphStyle("h2", fontName=SERIF_BOLD, fontSize=13, leading=16, textColor=ink, spaceBefore=6,
                                 spaceAfter=2)
        self.body = ParagraphStyle("body", fontName=SANS, fontSize=8.6, leading=11, textColor=ink)
        self.cell = ParagraphStyle("cell", fontName=SANS, fontSize=8.2, leading=10.2, textColor=ink)
        self.cell_bold = ParagraphStyle("cellb", parent=self.cell, fontName=SANS_BOLD)
        self.header_fill = "#FFFFFF" if style.ink_saver else tint("#23233F", 0.85)
        self.zebra = None if style.ink_saver else "#F6F3EC"


def _short(title: str) -> str:
    return title.split(": ", 1)[-1]


def _rules(content: JsmnContent, s: _Styles, names: tuple[str, ...], width: float) -> Table:
    return rules_table(content, ("jsmn." + n for n in names), s.cell_bold, s.cell, width, label_mm=38, valign="TOP",
                       title=_short)


def _elements(content: JsmnContent, s: _Styles, style: JsmnStyle, width: float) -> Table:
    row: list[Any] = []
    for element in content.elements:
        row.append([SymbolCell(ELEMENT_DRAWERS[element.symbol], pt(7), style.element_ink(element.id)),
                    Paragraph(word("element", element=element.name, symbol=escape(element.symbol_name)), s.cell)])
    row.append([SymbolCell(ELEMENT_DRAWERS[content.any_element_symbol], pt(7), style.ink),
                Paragraph(word("any_element"), s.cell)])
    table = Table([row], colWidths=[width / len(row)] * len(row))
    table.setStyle(grid_style("#FFFFFF", None, header=False, valign="TOP"))
    return table


def _actions(content: JsmnContent, s: _Styles, style: JsmnStyle, width: float) -> Table:
    rows: list[list[Any]] = [[Paragraph(h, s.cell_bold) for h in ("", word("action"), word("what_it_does"))]]
    for action in content.actions:
        rows.append(["", Paragraph(f"<b>{escape(action.name)}</b>", s.cell), Paragraph(escape(action.text), s.cell)])
    for magician in content.magicians:
        rows.append([SymbolCell(MAGICIAN_DRAWERS[magician.symbol], pt(5.5), MAGICIAN_INKS[magician.colour]),
                     Paragraph(f"<b>{escape(magician.name)}</b>: {escape(magician.unique_action)}", s.cell),
                     Paragraph(escape(magician.unique_text), s.cell)])
    table = Table(rows, colWidths=[pt(8), pt(55), width - pt(63)], repeatRows=1)
    table.setStyle(grid_style(s.header_fill, s.zebra))
    return table


def _connexions(content: JsmnContent, s: _Styles, width: float) -> Table:
    rows: list[list[Any]] = [[Paragraph(h, s.cell_bold) for h in (word("connexion"), word("lasting"), word("named"))]]
    for kind in content.connexion_types:
        named = [c.name for c in content.named_connexions if c.connexion_type == kind.id]
        rows.append([Paragraph(f"<b>{escape(kind.name)}</b>", s.cell), Paragraph(escape(kind.text), s.cell),
                     Paragraph(escape(label("card", "list_separator").join(named)) or "\u2013", s.cell)])
    table = Table(rows, colWidths=[pt(30), width - pt(72), pt(42)], repeatRows=1)
    table.setStyle(grid_style(s.header_fill, s.zebra))
    return table


def reference_story(content: JsmnContent, resolved: ResolvedOptions, width: float) -> list[Flowable]:
    style = style_for(resolved.options.ink_saver)
    s = _Styles(style)
    t = content.tracks
    ravens = label("card", "list_separator").join(str(y) for y in t.raven_years)
    story: list[Flowable] = [
        Paragraph(escape(content.title), s.title),
        Paragraph(word("subtitle", min=content.min_players, max=content.max_players, first=t.first_year,
                       last=t.last_year, ravens=ravens, fairy=t.fairy_start,
                       advanced=word("advanced_or").join(str(v) for v in t.fairy_advanced)), s.subtitle),
    ]
    for heading, names in SECTIONS:
        story.append(KeepTogether([Paragraph(word(heading), s.h2), _rules(content, s, names, width)]))
    m = content.magicianship
    story.append(Paragraph(word("glance", feats="/".join(map(str, m.feat_values)), book=m.book, pupil=m.pupil,
                                spell=m.spell), s.body))
    story += [KeepTogether([Paragraph(word("elements"), s.h2), _elements(content, s, style, width)]),
              KeepTogether([Paragraph(word("actions"), s.h2), _actions(content, s, style, width)]),
              KeepTogether([Paragraph(word("connexions"), s.h2),
                            Paragraph(word("connexion_spaces", spaces=label("card", "list_separator").join(
                                str(v) for v in t.connexion_spaces)), s.body),
                            Spacer(1, pt(1)), _connexions(content, s, width)])]
    table = notes_table(content, s.cell_bold, s.cell, width, label_mm=34, header_fill=s.header_fill, zebra=s.zebra)
    story += [Paragraph(word("notes"), s.h2), table]
    return story


def render_reference(content: JsmnContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    render_flowing_document(path, resolved.paper, title=word("title", game=content.title), subject=word("subject"),
                            footer=word("footer", game=content.title),
                            story=lambda width: reference_story(content, resolved, width))
    progress(1)
