"""The Mandragora reference sheet: setup, the two turn choices, every spell with its kind and values,
colours and symbols, the curse, the endgame countdown, scoring (with the rulebook's example
recomputed), removals for fewer sorcerers, the team variant, the shop tiles and the rulebook notes.

All wording comes from the catalog's rule entries, spell texts and data notes (our own words).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Spacer, Table, TableStyle

from cardgen.catalog.mandragora import EFFECT_KINDS, MandragoraContent
from cardgen.render.markup import escape

from ..colour import tint
from ..documents import (
    Paragraph,
    SymbolCell,
    grid_style,
    notes_table,
    render_flowing_document,
    rule_text,
    rules_table,
    short_title,
)
from ..labels import counted, label
from ..options import ResolvedOptions
from ..pdf import pt
from ..registry import Progress
from .glyphs import spell_glyph
from .style import SANS, SANS_BOLD, SERIF_BOLD, MandragoraStyle, style_for
from .symbols import EFFECT_DRAWERS, Drawer, colour_symbol, mandrake, scroll

SETUP = ("mandragora.setup.shops", "mandragora.setup.spells", "mandragora.setup.markers", "mandragora.setup.players",
         "mandragora.setup.mandrake", "mandragora.setup.deck", "mandragora.setup.stock", "mandragora.turn.order")
SEEK = ("mandragora.seek.move", "mandragora.seek.gain", "mandragora.seek.scrolls", "mandragora.seek.restock",
        "mandragora.seek.day-night", "mandragora.seek.empty-deck")
CAST = ("mandragora.spell.prepare", "mandragora.spell.one-book", "mandragora.spell.same-colour",
        "mandragora.spell.power", "mandragora.spell.take", "mandragora.spell.empty-stack", "mandragora.black.magic",
        "mandragora.mandrake.wild", "mandragora.mandrake.as-book", "mandragora.spell.one-mandrake")
CURSE = ("mandragora.curse.count", "mandragora.curse.most", "mandragora.curse.tie", "mandragora.curse.nobody",
         "mandragora.curse.penalty")
END = ("mandragora.end.countdown", "mandragora.end.drop-out", "mandragora.end.game-over")
SCORE = ("mandragora.score.spells", "mandragora.score.mandrake-book", "mandragora.score.colours",
         "mandragora.score.white", "mandragora.score.curse", "mandragora.score.winner")
TEAM = ("mandragora.team.seating", "mandragora.team.exchange", "mandragora.team.score", "mandragora.team.tie")


class _Styles:
    def __init__(self, ink: str, heading: str, muted: str) -> None:
        self.title = ParagraphStyle("title", fontName=SERIF_BOLD, fontSize=26, leading=30, textColor=heading)
        self.subtitle = ParagraphStyle("subtitle", fontName=SANS, fontSize=10, leading=13, textColor=muted)
        self.h2 = ParagraphStyle("h2", fontName=SERIF_BOLD, fontSize=14, leading=17, textColor=heading,
                                 spaceBefore=8, spaceAfter=4)
        self.body = ParagraphStyle("body", fontName=SANS, fontSize=8.8, leading=11.4, textColor=ink)
        self.cell = ParagraphStyle("cell", fontName=SANS, fontSize=8.4, leading=10.4, textColor=ink)
        self.cell_bold = ParagraphStyle("cellb", parent=self.cell, fontName=SANS_BOLD)
        self.small = ParagraphStyle("small", fontName=SANS, fontSize=7.4, leading=9.2, textColor=muted)


def _drawer(draw: Callable[..., None], *args: str) -> Drawer:
    """A symbol drawer with its leading arguments fixed (e.g. the symbol's name)."""
    def bound(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
        draw(canvas, *args, cx, cy, size, ink, light)
    return bound


def word(key: str, **fields: object) -> str:
    return label("mandragora-reference", key, **fields)


def _listed(s: _Styles, content: MandragoraContent, ids: tuple[str, ...], width: float) -> Table:
    """Rule entries as a two-column list: title, then the rule in our words."""
    return rules_table(content, ids, s.cell_bold, s.cell, width, label_mm=34)


def _turn(content: MandragoraContent, s: _Styles, style: MandragoraStyle, width: float, header_fill: str) -> list[Flowable]:
    half = (width - pt(4)) / 2

    def column(title: str, ids: tuple[str, ...]) -> list[Flowable]:
        out: list[Flowable] = [Paragraph(title, s.cell_bold)]
        for rule_id in ids:
            rule = content.rule(rule_id)
            out.append(Paragraph(f"<b>{escape(short_title(rule.title))}.</b> {escape(rule.text)}", s.cell))
        return out
    table = Table([[column(word("seek"), SEEK),
                    column(word("cast"), CAST)]], colWidths=[half, half])
    table.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("BACKGROUND", (0, 0), (-1, -1), header_fill),
        ("LEFTPADDING", (0, 0), (-1, -1), 6), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
        ("LINEAFTER", (0, 0), (0, 0), 0.8, style.accent),
    ]))
    return [Paragraph(word("turn"), s.h2), Paragraph(rule_text(content, ("mandragora.turn.choice",)),
                                                                          s.body), Spacer(1, pt(1.5)), table]


def _spells(content: MandragoraContent, s: _Styles, style: MandragoraStyle, width: float, header_fill: str,
            zebra: str | None) -> list[Flowable]:
    ink = style.theme.colour("spell_frame")
    rows: list[list[Any]] = [[Paragraph(h, s.cell_bold) for h in ("", word("spell"), word("values"), word("when"), word("effect"))]]
    for spell in content.spells:
        values = label("card", "list_separator").join(str(v) for v in spell.values)
        rows.append([
            SymbolCell(_drawer(spell_glyph, spell.effect, spell.kind), pt(7), ink),
            Paragraph(f"<b>{escape(spell.name)}</b> \u00d7{spell.count}", s.cell),
            Paragraph(values, s.cell),
            [SymbolCell(EFFECT_DRAWERS[spell.kind], pt(3.6), style.ink), Paragraph(EFFECT_KINDS[spell.kind], s.cell)],
            Paragraph(escape(content.rule(spell.rule).text), s.cell),
        ])
    table = Table(rows, colWidths=[pt(10), pt(30), pt(17), pt(22), width - pt(79)], repeatRows=1)
    table.setStyle(grid_style(header_fill, zebra))
    per_value = {v: sum(1 for c in content.spell_cards if c.value == v)
                 for v in range(content.spell_values[0], content.spell_values[1] + 1)}
    stacks = label("card", "list_separator").join(counted("mandragora-reference", "stack", n, value=v)
                                                 for v, n in per_value.items())
    return [Paragraph(word("spells", count=len(content.spells), cards=len(content.spell_cards)), s.h2),
            Paragraph(rule_text(content, ("mandragora.effect.kinds",)), s.body), Spacer(1, pt(1.5)), table,
            Spacer(1, pt(1.2)), Paragraph(word("stacks", stacks=stacks), s.small)]


def _colours(content: MandragoraContent, s: _Styles, style: MandragoraStyle, width: float, header_fill: str,
             zebra: str | None) -> list[Flowable]:
    rows: list[list[Any]] = [[Paragraph(h, s.cell_bold) for h in
                              ("", word("colour"), word("symbol"), word("ingredients"), word("spellbooks"), word("name_from"))]]
    for colour in content.colours:
        ink = style.colour_ink(colour.id)
        books = content.cards_of("spellbook", colour.id)
        rows.append([
            SymbolCell(_drawer(colour_symbol, colour.symbol), pt(5.5), ink),
            Paragraph(word("colour_black" if colour.black_magic else "colour_name", colour=escape(colour.name)), s.cell),
            Paragraph(escape(colour.symbol_name), s.cell),
            Paragraph(str(len(content.cards_of("ingredient", colour.id))), s.cell),
            Paragraph(word("books", count=len(books), values=label("card", "list_separator").join(str(b.value) for b in books)),
                      s.cell),
            Paragraph(word("from_rulebook" if colour.provenance == "rulebook" else "from_us"), s.cell),
        ])
    rows.append([SymbolCell(mandrake, pt(5.5), style.mandrake), Paragraph(word("mandrake"), s.cell),
                 Paragraph(word("mandrake_symbol"), s.cell), Paragraph(str(len(content.cards_of("mandrake"))), s.cell),
                 Paragraph(word("mandrake_books", colour=escape(content.mandrake_hand_colour)), s.cell),
                 Paragraph(word("from_rulebook"), s.cell)])
    scrolls = content.cards_of("cursed_scroll")
    split = label("card", "list_separator").join(f"{sum(1 for c in scrolls if c.curses == n)} \u00d7 {n}" for n in (1, 2, 3))
    rows.append([SymbolCell(scroll, pt(5.5), style.curse), Paragraph(word("scroll"), s.cell),
                 Paragraph(word("scroll_symbol"), s.cell), Paragraph(str(len(scrolls)), s.cell),
                 Paragraph(word("curses", split=split), s.cell), Paragraph(word("from_rulebook"), s.cell)])
    table = Table(rows, colWidths=[pt(9), pt(34), pt(24), pt(20), pt(48), width - pt(135)])
    table.setStyle(grid_style(header_fill, zebra))
    return [KeepTogether([
        Paragraph(word("items", count=len(content.items)), s.h2),
        Paragraph(rule_text(content, ("mandragora.components.colours",)), s.body), Spacer(1, pt(1.5)), table])]


def _scoring(content: MandragoraContent, s: _Styles) -> list[Flowable]:
    example = content.scoring_example
    result = content.example_breakdown()
    sums = label("card", "list_separator").join(f"{b} + {v} = {b + v}" for b, v in example.pairs)
    text = word("example", sums=sums, spells=result.spells_total, curse=result.curse, colours=example.colours_in_hand,
                cleared=example.colours_removed, penalty=result.colours, total=result.total,
                printed=example.printed_total)
    return [Paragraph(word("scoring"), s.h2), Paragraph(rule_text(content, SCORE), s.body), Spacer(1, pt(1.5)),
            Paragraph(text, s.body)]


def _removals(content: MandragoraContent, s: _Styles, width: float) -> list[Flowable]:
    rows = []
    for players in range(content.max_players, content.min_players - 1, -1):
        removal = content.removal_for(players)
        if removal is None:
            text = word("all_used")
        else:
            parts = [word("all_of", count=removal.colour_cards, colours=label("card", "list_separator").join(removal.colours))] \
                if removal.colours else []
            numbers: dict[str, list[int]] = {}
            for card_id in removal.cards:
                card = content.card(card_id)
                numbers.setdefault(content.label(card), []).append(card.number)
            parts += [word("item_many" if len(found) > 1 else "item_one", card=name,
                           numbers=label("card", "list_separator").join(str(n) for n in sorted(found)))
                      for name, found in numbers.items()]
            text = word("parts_separator").join(parts)
        rows.append([Paragraph(word("players", count=players), s.cell), Paragraph(escape(text), s.cell)])
    table = Table(rows, colWidths=[pt(26), width - pt(26)])
    table.setStyle(grid_style("#FFFFFF", None, header=False))
    return [KeepTogether([Paragraph(word("fewer"), s.h2),
                          Paragraph(rule_text(content, ("mandragora.setup.players",)), s.body), Spacer(1, pt(1.5)),
                          table])]


def _shops(content: MandragoraContent, s: _Styles) -> list[Flowable]:
    day = label("card", "list_separator").join(word("start_shop", shop=escape(x.name)) if x.start else escape(x.name) for x in content.shops if x.time == "day")
    night = label("card", "list_separator").join(escape(x.name) for x in content.shops if x.time == "night")
    circle = " \u00bb ".join(escape(content.shop(i).name) for i in content.circle_order)
    return [Paragraph(word("shops"), s.h2),
            Paragraph(word("day_night", day=day, night=night), s.body),
            Paragraph(word("circle", circle=circle), s.small)]


def _notes(content: MandragoraContent, s: _Styles, width: float, header_fill: str, zebra: str | None) -> list[Flowable]:
    table = notes_table(content, s.cell_bold, s.cell, width, label_mm=30, header_fill=header_fill, zebra=zebra)
    return [Paragraph(word("notes"), s.h2), Paragraph(word("notes_intro"), s.body), Spacer(1, pt(1.5)), table]


def reference_story(content: MandragoraContent, resolved: ResolvedOptions, width: float) -> list[Flowable]:
    style = style_for(content, resolved.specs.theme(content.game), resolved.options.ink_saver)
    heading = style.item_frame or style.ink
    s = _Styles(style.ink, heading, style.muted)
    header_fill = tint(style.accent, 0.82) if not style.ink_saver else "#FFFFFF"
    zebra = None if style.ink_saver else "#F7F4EC"
    story: list[Flowable] = [
        Paragraph(escape(content.title), s.title),
        Paragraph(word("subtitle", min=content.min_players, max=content.max_players, cards=len(content.cards),
                       items=len(content.items), spells=len(content.spell_cards), shops=len(content.shops)), s.subtitle),
        Paragraph(word("setup"), s.h2), _listed(s, content, SETUP, width),
    ]
    story += _turn(content, s, style, width, header_fill)
    story += _spells(content, s, style, width, header_fill, zebra)
    story += _colours(content, s, style, width, header_fill, zebra)
    story += [KeepTogether([Paragraph(word("curse"), s.h2), _listed(s, content, CURSE, width)])]
    story += [KeepTogether([Paragraph(word("end"), s.h2), _listed(s, content, END, width)])]
    story += [KeepTogether(_scoring(content, s))]
    story += _removals(content, s, width)
    story += [KeepTogether([Paragraph(word("team"), s.h2), _listed(s, content, TEAM, width)])]
    story += [KeepTogether(_shops(content, s))]
    story += _notes(content, s, width, header_fill, zebra)
    return story


def render_reference(content: MandragoraContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    render_flowing_document(path, resolved.paper, title=word("title", game=content.title), subject=word("subject"),
                            footer=word("footer", game=content.title),
                            story=lambda width: reference_story(content, resolved, width))
    progress(1)
