"""Barony: Sorcery reference sheets: the new rules (setup changes, exploring, casting and combining, the
nine spells, scoring, the rulebook notes) and a one-page player reference that also lists the fifth
player's pieces. All wording comes from the catalog's rule entries, spell texts and data notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from cardgen.catalog.barony_sorcery import BaronySorceryContent
from cardgen.render.markup import escape

from ..colour import tint
from ..documents import (
    SymbolCell,
    grid_style,
    notes_table,
    render_flowing_document,
    rule_text,
    rules_table,
)
from ..labels import counted, label
from ..options import ResolvedOptions
from ..pdf import pt
from ..registry import Progress
from .style import (
    MAGIC_INK,
    PLAYER_INKS,
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    BaronyStyle,
    style_for,
)
from .symbols import CATEGORY_DRAWERS, PIECE_DRAWERS, PLAYER_DRAWERS

GAME = "barony-sorcery."
ADDS = ("goal", "components", "location.no-build")
SETUP = ("setup.tiles", "setup.mysterious", "setup.spacing", "setup.first-cities", "setup.control", "setup.magic",
         "setup.spells")
EXPLORE = ("explore.control", "explore.reward", "explore.full", "explore.once", "explore.supply")
CAST = ("cast.action", "cast.single", "cast.combine", "cast.same-category", "cast.once", "cast.in-play", "cast.pay",
        "cast.one-action", "cast.lone")
SCORE = ("score.control", "score.base", "score.winner", "score.tie")


def word(key: str, **fields: object) -> str:
    return label("barony-sorcery-reference", key, **fields)


def player(key: str, **fields: object) -> str:
    return label("barony-sorcery-player-sheet", key, **fields)


def ids(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(GAME + name for name in names)


class _Styles:
    def __init__(self, style: BaronyStyle) -> None:
        ink, muted = style.ink, style.muted
        heading = MAGIC_INK if not style.ink_saver else style.ink
        self.title = ParagraphStyle("title", fontName=SERIF_BOLD, fontSize=24, leading=28, textColor=heading)
        self.subtitle = ParagraphStyle("subtitle", fontName=SANS, fontSize=9.5, leading=12.5, textColor=muted)
        self.h2 = ParagraphStyle("h2", fontName=SERIF_BOLD, fontSize=13.5, leading=16.5, textColor=heading,
                                 spaceBefore=7, spaceAfter=3)
        self.body = ParagraphStyle("body", fontName=SANS, fontSize=8.8, leading=11.4, textColor=ink)
        self.cell = ParagraphStyle("cell", fontName=SANS, fontSize=8.4, leading=10.4, textColor=ink)
        self.cell_bold = ParagraphStyle("cellb", parent=self.cell, fontName=SANS_BOLD)
        self.small = ParagraphStyle("small", fontName=SANS, fontSize=7.4, leading=9.2, textColor=muted)
        self.header_fill = "#FFFFFF" if style.ink_saver else tint(MAGIC_INK, 0.85)
        self.zebra = None if style.ink_saver else "#F6F3EC"


def _listed(s: _Styles, content: BaronySorceryContent, rule_ids: tuple[str, ...], width: float) -> Table:
    return rules_table(content, rule_ids, s.cell_bold, s.cell, width, label_mm=36, valign="TOP")


def board_table(content: BaronySorceryContent, s: _Styles, width: float, *, compact: bool = False) -> Table:
    """Tiles and Mysterious locations for each number of players."""
    head = (("players", "tiles_short", "mysterious_short", "other_short", "base_short") if compact else
            ("players", "tiles", "mysterious", "other", "base"))
    rows: list[list[Any]] = [[Paragraph(word(h), s.cell_bold) for h in head]]
    for players in range(content.min_players, content.max_players + 1):
        setup = content.setup_for(players)
        rows.append([Paragraph(f"<b>{players}</b>", s.cell), Paragraph(str(setup.tiles), s.cell),
                     Paragraph(str(setup.mysterious_tiles), s.cell), Paragraph(str(setup.other_expansion_tiles), s.cell),
                     Paragraph(str(setup.base_tiles), s.cell)])
    first = pt(14 if compact else 18)
    rest = (width - first) / 4
    table = Table(rows, colWidths=[first, rest, rest, rest, rest])
    table.setStyle(grid_style(s.header_fill, s.zebra))
    return table


def spell_table(content: BaronySorceryContent, s: _Styles, style: BaronyStyle, width: float,
                *, full_text: bool = True) -> Table:
    rows: list[list[Any]] = [[Paragraph(h, s.cell_bold) for h in ("", word("spell"), word("category"), word("cost"), word("effect"))]]
    for spell in content.spells:
        category = content.category(spell.category)
        ink = style.category_ink(category.colour)
        text = content.rule(spell.rule).text if full_text else spell.text
        rows.append([
            SymbolCell(CATEGORY_DRAWERS[category.symbol], pt(5.5), ink),
            Paragraph(f"<b>{escape(spell.name)}</b>", s.cell),
            Paragraph(word("category_line", category=escape(category.name), colour=category.colour,
                           symbol=escape(category.symbol_name)), s.cell),
            Paragraph(word("cost_cell", cost=spell.cost), s.cell),
            Paragraph(escape(text), s.cell),
        ])
    table = Table(rows, colWidths=[pt(8), pt(20), pt(38), pt(14), width - pt(80)], repeatRows=1)
    table.setStyle(grid_style(s.header_fill, s.zebra))
    return table


def _exploring(content: BaronySorceryContent, s: _Styles, width: float) -> list[Flowable]:
    arrivals = word("parts_separator").join(
        counted("barony-sorcery-reference", "visitor", reward, ordinal=word(f"ordinal_{k + 1}"))
        for k, reward in enumerate(content.exploration_rewards))
    return [Paragraph(word("exploring"), s.h2), _listed(s, content, ids(EXPLORE), width),
            Spacer(1, pt(1.2)),
            Paragraph(word("glance", arrivals=arrivals, points=content.points_per_control), s.small)]


def _combinations(content: BaronySorceryContent, s: _Styles) -> list[Flowable]:
    out: list[Flowable] = [Paragraph(word("combinations"), s.h2)]
    for example in content.combination_examples:
        names = " + ".join(content.spell(x).name for x in example.spells)
        costs = " + ".join(str(content.spell(x).cost) for x in example.spells)
        out.append(Paragraph(word("combination", names=escape(names), costs=costs, cost=example.cost,
                                  gives=escape(example.gives), not_more=escape(example.not_more)), s.body))
    return out


def _notes(content: BaronySorceryContent, s: _Styles, width: float) -> list[Flowable]:
    table = notes_table(content, s.cell_bold, s.cell, width, label_mm=34, header_fill=s.header_fill, zebra=s.zebra)
    return [Paragraph(word("notes"), s.h2), Paragraph(word("notes_intro"), s.body), Spacer(1, pt(1.5)), table]


def reference_story(content: BaronySorceryContent, resolved: ResolvedOptions, width: float) -> list[Flowable]:
    style = style_for(resolved.options.ink_saver)
    s = _Styles(style)
    story: list[Flowable] = [
        Paragraph(escape(content.title), s.title),
        Paragraph(word("subtitle", min=content.min_players, max=content.max_players, spells=len(content.spells),
                       tiles=len(content.tiles)), s.subtitle),
        Paragraph(word("adds"), s.h2), _listed(s, content, ids(ADDS), width),
        KeepTogether([Paragraph(word("setup"), s.h2), board_table(content, s, width), Spacer(1, pt(1.5)),
                      _listed(s, content, ids(SETUP), width)]),
        KeepTogether(_exploring(content, s, width)),
        KeepTogether([Paragraph(word("casting"), s.h2), _listed(s, content, ids(CAST), width)]),
        KeepTogether(_combinations(content, s)),
        KeepTogether([Paragraph(word("spells", count=len(content.spells)), s.h2),
                      Paragraph(word("spells_intro"), s.body), Spacer(1, pt(1.5)),
                      spell_table(content, s, style, width)]),
        KeepTogether([Paragraph(word("scoring"), s.h2), _listed(s, content, ids(SCORE), width)]),
    ]
    story += _notes(content, s, width)
    return story


def render_reference(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path,
                     progress: Progress) -> None:
    render_flowing_document(path, resolved.paper, title=word("title", game=content.title), subject=word("subject"),
                            footer=word("footer", game=content.title),
                            story=lambda width: reference_story(content, resolved, width))
    progress(1)


# -- the player reference ----------------------------------------------------------------------------------

def _pieces_table(content: BaronySorceryContent, s: _Styles, style: BaronyStyle, width: float) -> Table:
    fifth = next(c for c in content.player_colours if c.fifth_player)
    ink = PLAYER_INKS[fifth.id]
    pieces = content.fifth_player
    counts = (("knight", "knights", pieces.knights), ("city", "cities", pieces.cities),
              ("stronghold", "strongholds", pieces.strongholds), ("village", "villages", pieces.villages),
              ("score counter", "score_counters", pieces.score_counters))
    row: list[Any] = []
    for key, name, count in counts:
        row.append([SymbolCell(PIECE_DRAWERS[key], pt(7), ink), Paragraph(player(name, count=count), s.cell)])
    row.append([SymbolCell(PLAYER_DRAWERS[fifth.symbol], pt(7), ink),
                Paragraph(player("control_tokens", count=content.control_tokens_per_player), s.cell)])
    table = Table([row], colWidths=[width / len(row)] * len(row))
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                               ("BOX", (0, 0), (-1, -1), 0.6, ink)]))
    return table


def player_story(content: BaronySorceryContent, resolved: ResolvedOptions, width: float) -> list[Flowable]:
    style = style_for(resolved.options.ink_saver)
    s = _Styles(style)
    fifth = next(c for c in content.player_colours if c.fifth_player)
    return [
        Paragraph(player("heading", game=escape(content.title)), s.title),
        Paragraph(player("subtitle"), s.subtitle),
        Paragraph(player("turn"), s.h2),
        Paragraph(escape(content.rule(GAME + "cast.action").text) + " " + rule_text(content, ids(
            ("cast.single", "cast.combine", "cast.same-category", "cast.one-action"))), s.body),
        Paragraph(player("explore"), s.h2),
        Paragraph(rule_text(content, ids(("explore.control", "explore.reward", "explore.full", "explore.once"))), s.body),
        KeepTogether([Paragraph(player("spells"), s.h2), spell_table(content, s, style, width, full_text=False)]),
        Paragraph(player("end"), s.h2), Paragraph(rule_text(content, ids(("score.control",))), s.body),
        KeepTogether([Paragraph(player("fifth", colour=escape(fifth.name), symbol=escape(fifth.symbol_name)), s.h2),
                      Paragraph(player("fifth_intro"), s.body),
                      Spacer(1, pt(1.5)), _pieces_table(content, s, style, width)]),
    ]


def render_player_sheet(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path,
                        progress: Progress) -> None:
    render_flowing_document(path, resolved.paper, title=player("title", game=content.title), subject=player("subject"),
                            footer=player("footer", game=content.title),
                            story=lambda width: player_story(content, resolved, width))
    progress(1)
