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
SCORE = ("score.control", "score.base", "score.winner")


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
    head = (("Players", "Tiles", "With a location", "Other Sorcery", "Base game") if compact else
            ("Players", "Tiles in all", "Sorcery tiles with a Mysterious location", "Other Sorcery tiles",
             "Base-game tiles"))
    rows: list[list[Any]] = [[Paragraph(h, s.cell_bold) for h in head]]
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
    rows: list[list[Any]] = [[Paragraph(h, s.cell_bold) for h in ("", "Spell", "Category", "Cost", "Effect")]]
    for spell in content.spells:
        category = content.category(spell.category)
        ink = style.category_ink(category.colour)
        text = content.rule(spell.rule).text if full_text else spell.text
        rows.append([
            SymbolCell(CATEGORY_DRAWERS[category.symbol], pt(5.5), ink),
            Paragraph(f"<b>{escape(spell.name)}</b>", s.cell),
            Paragraph(f"{escape(category.name)} ({category.colour}, {escape(category.symbol_name)})", s.cell),
            Paragraph(f"<b>{spell.cost}</b> Magic", s.cell),
            Paragraph(escape(text), s.cell),
        ])
    table = Table(rows, colWidths=[pt(8), pt(20), pt(38), pt(14), width - pt(80)], repeatRows=1)
    table.setStyle(grid_style(s.header_fill, s.zebra))
    return table


def _exploring(content: BaronySorceryContent, s: _Styles, width: float) -> list[Flowable]:
    ordinals = ("first", "second", "third", "fourth", "fifth")
    arrivals = "; ".join(f"{ordinals[k]} visitor: {reward} Magic token{'s' if reward != 1 else ''}"
                         for k, reward in enumerate(content.exploration_rewards))
    return [Paragraph("Exploring Mysterious locations", s.h2), _listed(s, content, ids(EXPLORE), width),
            Spacer(1, pt(1.2)),
            Paragraph(f"<b>At a glance:</b> {arrivals}; then the location is full. Each Control token left on a "
                      f"location scores {content.points_per_control} points at the end.", s.small)]


def _combinations(content: BaronySorceryContent, s: _Styles) -> list[Flowable]:
    out: list[Flowable] = [Paragraph("The rulebook's combination examples", s.h2)]
    for example in content.combination_examples:
        names = " + ".join(content.spell(x).name for x in example.spells)
        costs = " + ".join(str(content.spell(x).cost) for x in example.spells)
        out.append(Paragraph(f"<b>{escape(names)}</b> ({costs} = {example.cost} Magic tokens): {escape(example.gives)} "
                             f"{escape(example.not_more)}", s.body))
    return out


def _notes(content: BaronySorceryContent, s: _Styles, width: float) -> list[Flowable]:
    table = notes_table(content, s.cell_bold, s.cell, width, label_mm=34, header_fill=s.header_fill, zebra=s.zebra)
    return [Paragraph("Notes on the rulebook", s.h2),
            Paragraph("Where the rulebook is unclear, slips or is silent, the cards, the companion and these sheets all "
                      "read it the same way:", s.body), Spacer(1, pt(1.5)), table]


def reference_story(content: BaronySorceryContent, resolved: ResolvedOptions, width: float) -> list[Flowable]:
    style = style_for(resolved.options.ink_saver)
    s = _Styles(style)
    story: list[Flowable] = [
        Paragraph(escape(content.title), s.title),
        Paragraph(f"Reference sheet for the new rules \u00b7 an expansion for Barony \u00b7 {content.min_players}"
                  f"\u2013{content.max_players} players \u00b7 {len(content.spells)} spells \u00b7 "
                  f"{len(content.tiles)} Territory tiles \u00b7 the base game's rules still apply", s.subtitle),
        Paragraph("What the expansion adds", s.h2), _listed(s, content, ids(ADDS), width),
        KeepTogether([Paragraph("Setup changes", s.h2), board_table(content, s, width), Spacer(1, pt(1.5)),
                      _listed(s, content, ids(SETUP), width)]),
        KeepTogether(_exploring(content, s, width)),
        KeepTogether([Paragraph("Casting and combining spells", s.h2), _listed(s, content, ids(CAST), width)]),
        KeepTogether(_combinations(content, s)),
        KeepTogether([Paragraph(f"The {len(content.spells)} spells", s.h2),
                      Paragraph("Cards come in three categories, told apart by colour, symbol and name. The cost, in "
                                "Magic tokens, stands on the left of each card.", s.body), Spacer(1, pt(1.5)),
                      spell_table(content, s, style, width)]),
        KeepTogether([Paragraph("Scoring", s.h2), _listed(s, content, ids(SCORE), width)]),
    ]
    story += _notes(content, s, width)
    return story


def render_reference(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path,
                     progress: Progress) -> None:
    render_flowing_document(path, resolved.paper, title=f"{content.title}: reference sheet",
                            subject="Setup changes, exploring, casting and combining, the 9 spells, scoring, notes",
                            footer=f"{content.title} \u00b7 reference",
                            story=lambda width: reference_story(content, resolved, width))
    progress(1)


# -- the player reference ----------------------------------------------------------------------------------

def _pieces_table(content: BaronySorceryContent, s: _Styles, style: BaronyStyle, width: float) -> Table:
    fifth = next(c for c in content.player_colours if c.fifth_player)
    ink = PLAYER_INKS[fifth.id]
    pieces = content.fifth_player
    counts = (("knight", "Knights", pieces.knights), ("city", "Cities", pieces.cities),
              ("stronghold", "Strongholds", pieces.strongholds), ("village", "Villages", pieces.villages),
              ("score counter", "Score counter", pieces.score_counters))
    row: list[Any] = []
    for key, name, count in counts:
        row.append([SymbolCell(PIECE_DRAWERS[key], pt(7), ink), Paragraph(f"<b>{count}</b> {name}", s.cell)])
    row.append([SymbolCell(PLAYER_DRAWERS[fifth.symbol], pt(7), ink),
                Paragraph(f"<b>{content.control_tokens_per_player}</b> Control tokens", s.cell)])
    table = Table([row], colWidths=[width / len(row)] * len(row))
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                               ("BOX", (0, 0), (-1, -1), 0.6, ink)]))
    return table


def player_story(content: BaronySorceryContent, resolved: ResolvedOptions, width: float) -> list[Flowable]:
    style = style_for(resolved.options.ink_saver)
    s = _Styles(style)
    fifth = next(c for c in content.player_colours if c.fifth_player)
    return [
        Paragraph(f"{escape(content.title)}: player reference", s.title),
        Paragraph("One per player. Your Barony player aid holds the base game's actions; this sheet covers what "
                  "Sorcery adds.", s.subtitle),
        Paragraph("On your turn", s.h2),
        Paragraph(escape(content.rule(GAME + "cast.action").text) + " " + rule_text(content, ids(
            ("cast.single", "cast.combine", "cast.same-category", "cast.one-action"))), s.body),
        Paragraph("When a knight reaches a Mysterious location", s.h2),
        Paragraph(rule_text(content, ids(("explore.control", "explore.reward", "explore.full", "explore.once"))), s.body),
        KeepTogether([Paragraph("The spells", s.h2), spell_table(content, s, style, width, full_text=False)]),
        Paragraph("At the end", s.h2), Paragraph(rule_text(content, ids(("score.control",))), s.body),
        KeepTogether([Paragraph(f"The fifth player's pieces ({escape(fifth.name)}, symbol: "
                                f"{escape(fifth.symbol_name)})", s.h2),
                      Paragraph("The expansion brings a fifth colour; print its pieces from the token sheet.", s.body),
                      Spacer(1, pt(1.5)), _pieces_table(content, s, style, width)]),
    ]


def render_player_sheet(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path,
                        progress: Progress) -> None:
    render_flowing_document(path, resolved.paper, title=f"{content.title}: player reference",
                            subject="Casting, exploring, the spells, scoring and the fifth player's pieces",
                            footer=f"{content.title} \u00b7 player reference",
                            story=lambda width: player_story(content, resolved, width))
    progress(1)
