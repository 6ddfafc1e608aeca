"""The four magician boards, one landscape page each: the silver basin where the six action discs start,
six action slots (each with a slot for this turn's disc and the symbol a used disc covers; the sixth is the
magician's unique action), and the six connexion spaces with what each connexion does.

Discs are 12 mm (:mod:`.tokens`); every ring on the board is 15 mm across so a disc sits inside it.
"""

from __future__ import annotations

import math
from pathlib import Path

from reportlab.lib.enums import TA_LEFT
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from cardgen.catalog.jsmn import Action, JsmnContent, Magician

from ..documents import FOOTER_FONT, FOOTER_INK, retold_notice, set_full_page_boxes
from ..faces import draw_paragraph, wrapped_paragraph
from ..fonts import MIN_TEXT_PT
from ..labels import label
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt
from ..print_specs import PaperSize
from ..registry import Progress
from ..symbols import Drawer, Unit, polygon
from .card_frame import _escape
from .style import (
    MAGICIAN_INKS,
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    SILVER,
    WHITE,
    JsmnStyle,
    style_for,
)
from .symbols import ELEMENT_DRAWERS, MAGICIAN_DRAWERS, interlinked_rings, open_book

RING_MM = 15.0
ROW_MM = 26.0


def crown(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """The King's Roads: a crown."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.42, -0.3), (-0.46, 0.3), (-0.22, 0.05), (0.0, 0.4), (0.22, 0.05), (0.46, 0.3),
                         (0.42, -0.3)])


def landscape_paper(paper: PaperSize) -> tuple[float, float]:
    return paper.height, paper.width


def _ring(canvas: Canvas, x: float, y: float, ink: str, style: JsmnStyle, *, dashed: bool = False) -> None:
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(0.9)
    if dashed:
        canvas.setDash(3, 2)
    canvas.circle(pt(x), pt(y), pt(RING_MM / 2), stroke=1, fill=0)
    canvas.setDash()


def _paragraph(canvas: Canvas, markup: str, x: float, top: float, width: float, size: float, colour: str) -> float:
    para = wrapped_paragraph(markup, SANS, size, size * 1.22, colour, pt(width), TA_LEFT)
    draw_paragraph(canvas, para, pt(x), pt(top) - para.height)
    return top - float(para.height) / pt(1)


def _action_symbol(action: Action | None, magician: Magician, content: JsmnContent, style: JsmnStyle) -> list[
        tuple[Drawer, str, float]]:
    """What the covered-action circle shows: drawers with their colour and x offset (mm)."""
    ink = MAGICIAN_INKS[magician.colour]
    if action is None:
        return [(MAGICIAN_DRAWERS[magician.symbol], ink, 0.0)]
    if action.study:
        return [(ELEMENT_DRAWERS[content.element(e).symbol], style.element_ink(e), dx)
                for e, dx in zip(action.study, (-2.8, 2.8), strict=False)]
    return [(crown if action.id == "kings-roads" else open_book, style.ink, 0.0)]


def draw_board(canvas: Canvas, content: JsmnContent, magician: Magician, style: JsmnStyle, width: float,
               height: float) -> None:
    ink = MAGICIAN_INKS[magician.colour]
    margin = 10.0
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(2.0)
    if not style.ink_saver:  # the board's cream ground fills its frame (no home printer reaches the paper edge)
        canvas.setFillColor("#FBF7EE")
    canvas.rect(pt(margin - 2.5), pt(margin - 2.5), pt(width - 2 * margin + 5), pt(height - 2 * margin + 5), stroke=1,
                fill=0 if style.ink_saver else 1)
    top = height - margin - 3
    MAGICIAN_DRAWERS[magician.symbol](canvas, pt(margin + 6), pt(top - 6), pt(10), ink, WHITE)
    canvas.setFillColor(style.ink)
    canvas.setFont(SERIF_BOLD, 24)
    canvas.drawString(pt(margin + 14), pt(top - 9), magician.name)
    canvas.setFont(SANS, 8)
    canvas.setFillColor(style.muted)
    canvas.drawString(pt(margin + 14), pt(top - 14.5), word("subtitle", game=content.title, colour=magician.colour,
                                                                  symbol=magician.symbol))
    # the silver basin
    bx, by, br = margin + 45, (height - 20) / 2, 40.0
    silver = style.fill(SILVER)
    canvas.setStrokeColor("#7C828C")
    canvas.setLineWidth(1.2)
    if silver:
        canvas.setFillColor(silver)
    canvas.circle(pt(bx), pt(by), pt(br), stroke=1, fill=1 if silver else 0)
    canvas.circle(pt(bx), pt(by), pt(br - 3), stroke=1, fill=0)
    for k in range(6):
        angle = math.pi / 2 + k * math.pi / 3
        _ring(canvas, bx + 19 * math.cos(angle), by + 19 * math.sin(angle), "#5E6470", style, dashed=True)
    canvas.setFillColor(style.ink)
    canvas.setFont(SANS_BOLD, 9)
    canvas.drawCentredString(pt(bx), pt(by + br + 3), word("basin"))
    _paragraph(canvas, word("basin_text"), bx - br, by - br - 3, 2 * br, 7.5, style.ink)
    # the six action slots
    ax = margin + 88
    column_top = top - 22
    canvas.setFont(SANS_BOLD, 9)
    canvas.setFillColor(style.readable(ink))
    canvas.drawString(pt(ax), pt(column_top + 3), word("actions"))
    canvas.setFont(SANS, 6.5)
    canvas.setFillColor(style.muted)
    canvas.drawString(pt(ax + 17), pt(column_top + 3), word("actions_caption"))
    rows: list[tuple[Action | None, str, str]] = [(a, a.name, a.text) for a in content.actions]
    rows.append((None, word("unique", action=magician.unique_action), magician.unique_text))
    for index, (action, name, text) in enumerate(rows):
        y = column_top - 3 - RING_MM / 2 - index * ROW_MM
        _ring(canvas, ax + RING_MM / 2, y, ink, style)
        canvas.setFont(SANS, MIN_TEXT_PT)
        canvas.setFillColor(style.muted)
        canvas.drawCentredString(pt(ax + RING_MM / 2), pt(y - RING_MM / 2 - 2.2), word("slot"))
        sx = ax + RING_MM + 3 + RING_MM / 2
        _ring(canvas, sx, y, style.ink, style)
        for drawer, colour, dx in _action_symbol(action, magician, content, style):
            drawer(canvas, pt(sx + dx), pt(y), pt(5.5 if dx else 8.5), colour, WHITE)
        tx = ax + 2 * RING_MM + 6
        canvas.setFont(SANS_BOLD, 8.5)
        canvas.setFillColor(style.readable(ink) if action is None else style.ink)
        canvas.drawString(pt(tx), pt(y + 4.5), name)
        _paragraph(canvas, _escape(text), tx, y + 2.5, 54, 7.0, style.ink)
    # the six connexion spaces
    cx = margin + 182
    canvas.setFont(SANS_BOLD, 9)
    canvas.setFillColor(style.readable(ink))
    canvas.drawString(pt(cx), pt(column_top + 3), word("connexions"))
    canvas.setFont(SANS, 6.5)
    canvas.setFillColor(style.muted)
    caption = word("connexions_caption", count=content.contents.connexion_discs)
    room = pt(width - margin - 1 - (cx + 22))  # inside the frame, which is 2.5 mm outside the margin
    for line_no, line in enumerate(simpleSplit(caption, SANS, 6.5, room)):  # Letter: two lines
        canvas.drawString(pt(cx + 22), pt(column_top + 3 - line_no * 2.6), line)
    for index, kind in enumerate(content.connexion_types):
        y = column_top - 3 - RING_MM / 2 - index * ROW_MM
        _ring(canvas, cx + RING_MM / 2, y, ink, style)
        interlinked_rings(canvas, pt(cx + RING_MM / 2), pt(y), pt(7), style.muted, WHITE)
        tx = cx + RING_MM + 3
        canvas.setFont(SANS_BOLD, 8.5)
        canvas.setFillColor(style.ink)
        canvas.drawString(pt(tx), pt(y + 4.5), kind.name)
        _paragraph(canvas, _escape(kind.text), tx, y + 2.5, width - margin - tx - 2, 7.0, style.ink)
    canvas.setFont(FOOTER_FONT, 6)  # between the printable margin and the frame
    canvas.setFillColor(FOOTER_INK)
    canvas.drawString(pt(margin), pt(5.7), word("footer", game=content.title, magician=magician.name))
    canvas.drawRightString(pt(width - margin), pt(5.7), retold_notice())


def word(key: str, **fields: object) -> str:
    return label("jsmn-boards", key, **fields)


def render_boards(content: JsmnContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    style = style_for(resolved.options.ink_saver)
    width, height = landscape_paper(resolved.paper)
    canvas = new_canvas(path, width, height, title=word("title", game=content.title, paper=resolved.paper.name),
                        subject=word("subject"))
    page = PaperSize(resolved.paper.name, width, height)
    for magician in content.magicians:
        draw_board(canvas, content, magician, style, width, height)
        set_full_page_boxes(canvas, page)
        canvas.showPage()
    canvas.save()
    progress(1)
