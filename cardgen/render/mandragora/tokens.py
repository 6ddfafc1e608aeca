"""Mandragora markers and the Assistant on one sheet (front page, then the back page).

* the Curse marker, the same on both sides;
* the Endgame Countdown marker: III on the front page, II at the same spot on the back page
  (mirrored for long-edge duplex, or unmirrored to cut out and glue), and a fold-over copy
  (III and II side by side, folded on the dashed line) for single-sided printers;
* a fold-over Assistant standee: cut round the solid line, fold the dashed lines.

Every piece draws centred on its own origin (mm sizes below); this module places them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.catalog.mandragora import MandragoraContent

from ..colour import tint
from ..fonts import MIN_TEXT_PT
from ..imposition import draw_registration
from ..labels import label
from ..layout import Rect
from ..options import ResolvedOptions
from ..pdf import new_canvas, pt, set_page_boxes
from ..registry import Progress
from .style import (
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    SERIF_CAP_HEIGHT,
    MandragoraStyle,
    style_for,
)
from .symbols import assistant, evil_eye, hourglass


def word(key: str, **fields: object) -> str:
    return label("mandragora-tokens", key, **fields)

MARKER_MM = 38.0                 # diameter of the round markers
STANDEE_W, STANDEE_H, TAB_H = 30.0, 52.0, 12.0
CUT_LINE = "#8A8F9C"
WHITE = "#FFFFFF"

Piece = Callable[[Canvas, float], None]  # draws at the origin, given the bleed in mm


@dataclass(frozen=True)
class Placed:
    name: str
    x: float     # centre, mm from the page's left edge
    y: float     # centre, mm from the bottom
    width: float
    height: float
    front: Piece
    back: Piece | None

    @property
    def trim(self) -> Rect:
        return Rect(self.x - self.width / 2, self.y - self.height / 2, self.width, self.height)


class Markers:
    """The drawings of the markers and the standee in one style."""

    def __init__(self, style: MandragoraStyle, cut_lines: bool) -> None:
        self.style, self.cut_lines = style, cut_lines

    def _disc(self, canvas: Canvas, bleed: float, ground: str | None, ring: str) -> None:
        r = pt(MARKER_MM / 2)
        if ground:
            canvas.setFillColor(ground)
            canvas.circle(0, 0, r + pt(bleed), stroke=0, fill=1)
        canvas.setStrokeColor(ring)
        canvas.setLineWidth(1.2)
        canvas.circle(0, 0, r - pt(2.4), stroke=1, fill=0)
        canvas.setLineWidth(0.4)
        canvas.circle(0, 0, r - pt(3.4), stroke=1, fill=0)
        if self.cut_lines or not ground:
            canvas.setStrokeColor(CUT_LINE)
            canvas.setLineWidth(0.3)
            canvas.circle(0, 0, r, stroke=1, fill=0)

    def curse(self, canvas: Canvas, bleed: float) -> None:
        style = self.style
        ground = None if style.ink_saver else style.curse
        ink = style.curse if style.ink_saver else WHITE
        self._disc(canvas, bleed, ground, style.accent)
        evil_eye(canvas, 0, pt(1.5), pt(19), ink, ground or WHITE)
        canvas.setFillColor(ink)
        canvas.setFont(SERIF_BOLD, 10.5)
        canvas.drawCentredString(0, pt(8.5), word("curse"))
        canvas.setFont(SANS_BOLD, 7.5)
        canvas.drawCentredString(0, -pt(10.5), word("curse_points"))
        canvas.setFont(SANS, MIN_TEXT_PT)
        canvas.drawCentredString(0, -pt(12.8), word("curse_held"))  # 6 pt inside the inner ring

    def countdown(self, rounds: int) -> Piece:
        numeral = {3: "III", 2: "II"}[rounds]

        def draw(canvas: Canvas, bleed: float) -> None:
            style = self.style
            ground = None if style.ink_saver else style.night
            ink = style.ink if style.ink_saver else style.night_ink
            self._disc(canvas, bleed, ground, style.accent)
            hourglass(canvas, 0, pt(10.5), pt(5.5), style.accent, ground or WHITE)
            canvas.setFillColor(ink)
            canvas.setFont(SERIF_BOLD, 34)
            canvas.drawCentredString(0, -34 * SERIF_CAP_HEIGHT / 2 + pt(0.5), numeral)
            canvas.setFont(SANS_BOLD, 6.5)
            canvas.drawCentredString(0, -pt(10.0), word("rounds_left", count=rounds))
            canvas.setFont(SANS, MIN_TEXT_PT)
            canvas.drawCentredString(0, -pt(12.6), word("turn_over" if rounds == 3 else "last_round"))
        return draw

    def countdown_fold(self, canvas: Canvas, bleed: float) -> None:
        """III and II side by side, joined by a hinge: fold on the dashed line, glue back to back."""
        r = MARKER_MM / 2
        for rounds, dx in ((3, -r), (2, r)):
            canvas.saveState()
            canvas.translate(pt(dx), 0)
            self.countdown(rounds)(canvas, bleed)
            canvas.restoreState()
        hinge = 6.0
        if not self.style.ink_saver and self.style.night:
            canvas.setFillColor(self.style.night)
            canvas.rect(-pt(2), -pt(hinge + bleed), pt(4), pt(2 * (hinge + bleed)), stroke=0, fill=1)
        canvas.setStrokeColor(CUT_LINE)
        canvas.setLineWidth(0.3)
        path = canvas.beginPath()  # the cut outline: two circles and the hinge between them
        reach = r - math.sqrt(r * r - hinge * hinge)
        spread = math.degrees(math.atan2(hinge, r - reach))
        path.moveTo(pt(-reach), pt(hinge))
        path.arcTo(pt(-2 * r), pt(-r), 0, pt(r), startAng=spread, extent=360 - 2 * spread)
        path.lineTo(pt(reach), pt(-hinge))
        path.arcTo(0, pt(-r), pt(2 * r), pt(r), startAng=180 + spread, extent=360 - 2 * spread)
        path.close()
        canvas.drawPath(path, stroke=1, fill=0)
        _fold_line(canvas, 0, -hinge, 0, hinge, self.style.accent)

    def standee(self, canvas: Canvas, bleed: float) -> None:
        """Tab, front figure, back figure (upside down), tab: a strip centred on the origin."""
        style = self.style
        w, panel, tab = STANDEE_W, STANDEE_H, TAB_H
        total = 2 * (panel + tab)
        bottom = -total / 2
        ground = style.panel
        figure = style.item_frame or style.ink
        for _k, (y0, turned) in enumerate(((bottom + tab, False), (bottom + tab + panel, True))):
            canvas.saveState()
            canvas.translate(0, pt(y0 + panel / 2))
            if turned:
                canvas.rotate(180)
            if ground:
                canvas.setFillColor(ground)
                canvas.rect(pt(-w / 2), pt(-panel / 2), pt(w), pt(panel), stroke=0, fill=1)
            canvas.setStrokeColor(style.accent)
            canvas.setLineWidth(0.8)
            canvas.roundRect(pt(-w / 2 + 1.6), pt(-panel / 2 + 1.6), pt(w - 3.2), pt(panel - 3.2), pt(1.5), stroke=1,
                             fill=0)
            assistant(canvas, -pt(1.5), pt(2.5), pt(32), figure, ground or WHITE)
            canvas.setFillColor(style.ink)
            canvas.setFont(SANS_BOLD, 6.5)
            canvas.drawCentredString(0, pt(-panel / 2 + 4), word("assistant"))
            canvas.restoreState()
        for y0 in (bottom, bottom + tab + 2 * panel):  # the base tabs
            canvas.setFillColor(tint(style.accent, 0.7) if not style.ink_saver else WHITE)
            canvas.rect(pt(-w / 2), pt(y0), pt(w), pt(tab), stroke=0, fill=1)
            canvas.setFillColor(style.muted)
            canvas.setFont(SANS, MIN_TEXT_PT)
            canvas.drawCentredString(0, pt(y0 + tab / 2 - 1), word("base"))
        canvas.setStrokeColor(CUT_LINE)
        canvas.setLineWidth(0.3)
        canvas.rect(pt(-w / 2), pt(bottom), pt(w), pt(total), stroke=1, fill=0)
        for y in (bottom + tab, bottom + tab + panel, bottom + tab + 2 * panel):
            _fold_line(canvas, -w / 2, y, w / 2, y, style.muted)


def _fold_line(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, colour: str) -> None:
    canvas.saveState()
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(0.6)
    canvas.setDash([pt(1.6), pt(1.2)])
    canvas.line(pt(x0), pt(y0), pt(x1), pt(y1))
    canvas.restoreState()


def placements(markers: Markers, page_w: float, page_h: float) -> list[Placed]:
    """Where each piece goes (mm): the two duplex markers on top, then the standee with the fold-over
    countdown marker to its right (the how-to text goes below that)."""
    row = page_h - 50.0
    left = 22.0
    standee_h = 2 * (STANDEE_H + TAB_H)
    standee_top = row - MARKER_MM / 2 - 16.0
    fold_x = left + STANDEE_W + 16.0 + MARKER_MM
    return [
        Placed("curse_marker", left + MARKER_MM / 2, row, MARKER_MM, MARKER_MM, markers.curse, markers.curse),
        Placed("countdown_marker", left + MARKER_MM * 1.5 + 18.0, row, MARKER_MM, MARKER_MM,
               markers.countdown(3), markers.countdown(2)),
        Placed("fold_marker", fold_x, standee_top - MARKER_MM / 2 - 3.0, 2 * MARKER_MM, MARKER_MM,
               markers.countdown_fold, None),
        Placed("standee", left + STANDEE_W / 2, standee_top - standee_h / 2, STANDEE_W, standee_h,
               markers.standee, None),
    ]


def _draw_piece(canvas: Canvas, piece: Piece, x: float, y: float, bleed: float) -> None:
    canvas.saveState()
    canvas.translate(pt(x), pt(y))
    piece(canvas, bleed)
    canvas.restoreState()


def _captions(canvas: Canvas, content: MandragoraContent, style: MandragoraStyle, placed: list[Placed],
              page_w: float) -> None:
    canvas.setFillColor(style.ink)
    canvas.setFont(SERIF_BOLD, 16)
    canvas.drawString(pt(22), pt(placed[0].y + MARKER_MM / 2 + 9), word("heading", game=content.title))
    canvas.setFont(SANS, 6.8)
    canvas.setFillColor(style.muted)
    for piece in placed[:3]:
        canvas.drawCentredString(pt(piece.x), pt(piece.y - piece.height / 2 - 4.5), word(piece.name))
        canvas.drawCentredString(pt(piece.x), pt(piece.y - piece.height / 2 - 7.5), word(f"{piece.name}_note"))
    fold, standee = placed[2], placed[3]
    left = standee.x + STANDEE_W / 2 + 12
    width = page_w - 20 - left
    heading = ParagraphStyle("how-h", fontName=SERIF_BOLD, fontSize=12, leading=15, textColor=style.ink,
                             spaceAfter=3)
    body = ParagraphStyle("how", fontName=SANS, fontSize=8.4, leading=11.2, textColor=style.ink, spaceAfter=4)
    story = [
        Paragraph(word("how"), heading),
        Paragraph(word("how_duplex"), body),
        Paragraph(word("how_single"), body),
        Paragraph(word("how_standee"), body),
        Paragraph(word("how_curse", penalty=content.curse_penalty), body),
        Paragraph(word("how_countdown", rounds=content.countdown_rounds), body),
    ]
    y = pt(fold.y - fold.height / 2 - 13)
    for flowable in story:
        _, height = flowable.wrap(pt(width), pt(200))
        y -= height
        flowable.drawOn(canvas, pt(left), y)
        y -= flowable.getSpaceAfter()


def render_tokens(content: MandragoraContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    style = style_for(content, resolved.specs.theme(content.game), options.ink_saver)
    paper = resolved.paper
    markers = Markers(style, options.crop_marks)
    placed = placements(markers, paper.width, paper.height)
    canvas = new_canvas(path, paper.width, paper.height, title=word("heading", game=content.title), subject=word("subject"))
    trim = Rect(min(p.trim.x for p in placed), min(p.trim.y for p in placed), 0, 0)
    trim = Rect(trim.x, trim.y, max(p.trim.right for p in placed) - trim.x, max(p.trim.top for p in placed) - trim.y)
    b = options.bleed
    targets = [(paper.width / 2 - 30, paper.height - 8.0), (paper.width / 2 + 30, paper.height - 8.0)]

    for piece in placed:
        _draw_piece(canvas, piece.front, piece.x, piece.y, b)
    _captions(canvas, content, style, placed, paper.width)
    draw_registration(canvas, targets, resolved.specs.sheet)
    set_page_boxes(canvas, trim, trim.grown(b, b, b, b), paper.width, paper.height)
    canvas.showPage()

    mirrored = options.duplex
    dx, dy = (options.back_offset_x, options.back_offset_y) if mirrored else (0.0, 0.0)

    def back_x(x: float) -> float:
        return (paper.width - x if mirrored else x) + dx
    for piece in placed:
        if piece.back is not None:
            _draw_piece(canvas, piece.back, back_x(piece.x), piece.y + dy, b)
    canvas.setFont(SANS, 7)
    canvas.setFillColor(style.muted)
    canvas.drawCentredString(pt(paper.width / 2), pt(10), word("back_mirrored" if mirrored else "back_unmirrored", game=content.title))
    draw_registration(canvas, [(back_x(x), y + dy) for x, y in targets], resolved.specs.sheet)
    back_trim = Rect(back_x(trim.right) if mirrored else back_x(trim.x), trim.y + dy, trim.width, trim.height)
    set_page_boxes(canvas, back_trim, back_trim.grown(b, b, b, b), paper.width, paper.height)
    canvas.showPage()
    canvas.save()
    progress(1)
