"""The Barony: Sorcery setup card (A6, two-sided): the board for each number of players on the front, the
rest of the setup and the turn's new options on the back. Imposed like a card, so bleed, crop marks,
duplex backs and back offsets work as for the decks; the sheet holds two copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer

from cardgen.catalog.barony_sorcery import BaronySorceryContent
from cardgen.render.markup import escape

from ..documents import short_title
from ..imposition import ImpositionSettings, impose, sheet_label
from ..labels import label
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..print_specs import CardSize
from ..registry import Progress
from .reference import GAME, _Styles, board_table, ids
from .style import LIGHT_OUTLINE, MAGIC_INK, BaronyStyle, style_for

CARD_SIZE = CardSize("setup card", 105.0, 148.0, "A6 setup card")
PAD_MM = 7.0


def _frame(canvas: Canvas, size: CardSize, bleed_mm: float, style: BaronyStyle) -> None:
    w, h, b = pt(size.width), pt(size.height), pt(bleed_mm)
    if style.ink_saver:
        canvas.setStrokeColor(LIGHT_OUTLINE)
        canvas.setLineWidth(0.4)
        canvas.rect(0, 0, w, h, stroke=1, fill=0)
    else:
        canvas.setFillColor(MAGIC_INK)
        canvas.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        canvas.setFillColor(style.panel or "#FFFFFF")
        canvas.roundRect(pt(3), pt(3), w - pt(6), h - pt(6), pt(2.5), stroke=0, fill=1)
    canvas.setStrokeColor(MAGIC_INK)
    canvas.setLineWidth(0.8)
    canvas.roundRect(pt(4.2), pt(4.2), w - pt(8.4), h - pt(8.4), pt(2), stroke=1, fill=0)


def _flow(canvas: Canvas, size: CardSize, story: list[Flowable]) -> None:
    """Set the flowables top down inside the card's padding (each shrunk to fit if it must)."""
    width = pt(size.width - 2 * PAD_MM)
    y = pt(size.height - PAD_MM)
    for flowable in story:
        _, height = flowable.wrap(width, y)
        y -= height
        flowable.drawOn(canvas, pt(PAD_MM), y)
        y -= flowable.getSpaceAfter()


@dataclass(frozen=True)
class _SetupSide:
    """One side of the setup card: its frame, then its story flowed from the top."""

    content: BaronySorceryContent
    style: BaronyStyle
    size: CardSize = CARD_SIZE

    def draw(self, canvas: Canvas, bleed_mm: float) -> None:
        _frame(canvas, self.size, bleed_mm, self.style)
        _flow(canvas, self.size, self.story(_Styles(self.style)))

    def story(self, s: _Styles) -> list[Flowable]:
        raise NotImplementedError


def word(key: str, **fields: object) -> str:
    return label("barony-sorcery-setup", key, **fields)


class SetupFront(_SetupSide):
    def story(self, s: _Styles) -> list[Flowable]:
        content = self.content
        width = pt(self.size.width - 2 * PAD_MM)
        mysterious = label("card", "list_separator").join(word("players", count=n, locations=m)
                                                          for n, m in content.mysterious_by_players.items())
        return [
            Paragraph(word("heading", game=escape(content.title)), s.h2),
            Paragraph(word("board", tiles=content.tiles_per_player), s.body),
            Spacer(1, pt(2)), board_table(content, s, width, compact=True), Spacer(1, pt(2)),
            Paragraph(word("mysterious", players=mysterious, rule=escape(content.rule(GAME + "setup.spacing").text)),
                      s.cell),
            Spacer(1, pt(1.5)),
            Paragraph(word("mysterious_tiles", tiles=label("card", "list_separator").join(
                word("tile", number=t.number, location=escape(t.location)) for t in content.mysterious_tiles)), s.cell),
            Spacer(1, pt(1.5)),
            Paragraph(word("first_cities", rule=escape(content.rule(GAME + "setup.first-cities").text)), s.cell),
        ]


class SetupBack(_SetupSide):
    def story(self, s: _Styles) -> list[Flowable]:
        story: list[Flowable] = []
        for heading, rule_ids in ((word("then"), ids(("setup.control", "setup.magic", "setup.spells"))),
                                  (word("during"), ids(("explore.reward", "explore.full", "cast.action",
                                                           "cast.combine", "score.control")))):
            story.append(Paragraph(heading, s.h2))
            for rule_id in rule_ids:
                rule = self.content.rule(rule_id)
                story += [Paragraph(f"<b>{escape(short_title(rule.title))}.</b> {escape(rule.text)}", s.cell),
                          Spacer(1, pt(1.2))]
        return story


def render_setup_card(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path,
                      progress: Progress) -> None:
    options = resolved.options
    style = style_for(options.ink_saver)
    layout = resolved.layout_for(CARD_SIZE)
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=word("title", game=content.title, paper=resolved.paper.name), subject=word("subject"))
    # as many copies as the sheet holds (two A6 cards on A4 or Letter: one for each side of the table),
    # not one card on a sheet otherwise left empty
    copies = layout.per_sheet
    impose(canvas, layout, resolved.specs.sheet, [SetupFront(content, style)] * copies,
           [SetupBack(content, style)] * copies, ImpositionSettings.from_options(options),
           sheet_label(word("sheet")))
    canvas.save()
    progress(1)
