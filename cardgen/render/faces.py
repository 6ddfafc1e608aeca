"""What a face is, plus the small typesetting helpers faces share.

A face (a card front, a card back, later a tile or a token) knows its trim size and draws itself
with its trim's bottom-left corner at the canvas origin, in points. It may paint up to ``bleed``
millimetres beyond every trim edge; imposition clips whatever a given sheet position cannot show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, runtime_checkable

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from .fonts import MIN_TEXT_PT
from .pdf import draw_reused, pt
from .print_specs import CardSize
from .qr import QrMatrix, draw_qr
from .style import WHITE
from .symbols import Drawer


class Face(Protocol):
    @property
    def size(self) -> CardSize: ...

    def draw(self, canvas: Canvas, bleed_mm: float) -> None: ...


#: The poker card (mm) the card faces' proportions were designed on.
REFERENCE_CARD_MM = (63.0, 88.0)


def card_scale(size: CardSize) -> float:
    """How much bigger than a poker card a (portrait) card is: the card faces scale their sizes by it."""
    return min(size.width / REFERENCE_CARD_MM[0], size.height / REFERENCE_CARD_MM[1])


@dataclass(frozen=True)
class FaceProfile:
    """How a card size's faces are laid out beyond scaling the poker design by :func:`card_scale`.

    ``card_scale`` is bound by a card's width, so a tarot card (70 × 120 mm: 1.11 × a poker card's width,
    1.36 × its height) would otherwise keep the poker proportions and leave its extra height empty. Every
    game's faces read the profile of their size: text sizes are ``text(s)`` (``type_scale`` × the geometric
    scale), so the tall profile sets larger titles and card text and keeps more of the text; the compact
    profile (mini cards) keeps every text at :data:`~cardgen.render.fonts.MIN_TEXT_PT` or more and leaves
    off the lines a face declares optional (``compact``) instead of shrinking them.
    """

    name: str
    type_scale: float     # text sizes: this × the card's geometric scale
    compact: bool = False

    def text(self, scale: float) -> float:
        """The scale a face's text sizes use (its shapes keep ``scale``)."""
        return scale * self.type_scale


#: poker and bridge: the design as drawn; tarot: taller than wide by 1.6 or more; mini: under 50 mm wide.
STANDARD = FaceProfile("standard", 1.0)
TALL = FaceProfile("tall", 1.12)
COMPACT = FaceProfile("compact", 1.0, compact=True)


def face_profile(size: CardSize) -> FaceProfile:
    """The layout profile of a card size (either way round): compact under 50 mm across, tall when its long
    side is 1.6 times its short side or more, standard otherwise."""
    short, long = sorted((size.width, size.height))
    if short < 50.0:
        return COMPACT
    if long >= 1.6 * short:
        return TALL
    return STANDARD


def fit_font_size(text: str, font: str, max_width: float, largest: float, smallest: float) -> float:
    """The largest size (in steps of 0.25 pt) at which ``text`` fits ``max_width`` points, or ``smallest``
    (never below :data:`~cardgen.render.fonts.MIN_TEXT_PT`: a text that does not fit there must be laid out
    otherwise, not shrunk further)."""
    smallest = max(smallest, MIN_TEXT_PT)
    width_at_one = stringWidth(text, font, 1.0)
    if width_at_one <= 0:
        return largest
    size = min(largest, max_width / width_at_one)
    size = int(size * 4) / 4
    return max(smallest, size)


def stacked_lines(canvas: Canvas, lines: list[tuple[str, str]], left: float, bottom: float, width: float,
                  size: float) -> float:
    """Small (font, text) lines stacked upwards from ``bottom``, the last lowest, each shrunk (to
    ``MIN_TEXT_PT`` at the least) to fit ``width``, in the canvas's fill colour; returns the y above the top line.
    A line too long for ``width`` even at ``MIN_TEXT_PT`` (a mini card's footer) is left off (see
    :func:`fitting_lines`)."""
    y = bottom
    for font, text in reversed(fitting_lines(lines, width)):
        canvas.setFont(font, fit_font_size(text, font, width, size, MIN_TEXT_PT))
        canvas.drawString(left, y, text)
        y += size * 1.3
    return y


def fitting_lines(lines: list[tuple[str, str]], width: float) -> list[tuple[str, str]]:
    """The (font, text) lines that fit ``width`` points at :data:`~cardgen.render.fonts.MIN_TEXT_PT`, in their
    order: on a compact (mini) card the footers' longer, less important lines are left off rather than set
    smaller than 6 pt or past the card's edge."""
    return [(font, text) for font, text in lines if stringWidth(text, font, MIN_TEXT_PT) <= width]


def wrap(text: str, font: str, size: float, max_width: float) -> list[str]:
    """Greedy word wrap to ``max_width`` points."""
    return simpleSplit(text, font, size, max_width)


def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


@lru_cache(maxsize=4096)
def wrapped_paragraph(markup: str, font: str, size: float, leading: float, colour: str, width: float,
                      alignment: int = 0) -> Paragraph:
    """A ReportLab ``Paragraph`` already wrapped to ``width`` points (its ``height`` is set).

    Kept by its arguments: a deck sets the same trick or effect text on many cards, and at each
    size it tries while fitting, so parsing the markup and breaking the lines happens once each.
    Draw it with :func:`draw_paragraph`.
    """
    style = ParagraphStyle("card", fontName=font, fontSize=size, leading=leading, textColor=colour,
                           spaceBefore=0, spaceAfter=0, alignment=alignment)
    paragraph = Paragraph(markup, style)
    paragraph.wrap(width, 0)  # the height does not depend on the room offered
    return paragraph


def draw_paragraph(canvas: Canvas, paragraph: Paragraph, x: float, y: float) -> None:
    """``paragraph.drawOn(canvas, x, y)``, written once per canvas as a form and placed again where
    the same wrapped paragraph comes back (see :func:`wrapped_paragraph`)."""
    size = paragraph.style.fontSize
    box = (-2 * size, -2 * size, paragraph.width + 2 * size, paragraph.height + 2 * size)
    canvas.saveState()
    canvas.translate(x, y)
    draw_reused(canvas, ("paragraph", id(paragraph)), box, lambda: paragraph.drawOn(canvas, 0, 0), keep=paragraph)
    canvas.restoreState()


def tracked_text(canvas: Canvas, cx: float, y: float, text: str, font: str, size: float, tracking: float) -> None:
    """Display capitals centred on ``cx``, with extra space between letters (``tracking`` in ems)."""
    space = size * tracking
    width = text_width(text, font, size) + space * (len(text) - 1)
    canvas.setFont(font, size)
    canvas.drawString(cx - width / 2, y, text, charSpace=space)


def card_ground(canvas: Canvas, width: float, height: float, bleed_mm: float, fill: str | None, outline: str) -> None:
    """A face's ground: ``fill`` out to the bleed, or (no fill: ink-saver mode) a thin ``outline`` on the trim,
    as a cut guide. ``width`` and ``height`` are the trim in points."""
    if fill:
        b = pt(bleed_mm)
        canvas.setFillColor(fill)
        canvas.rect(-b, -b, width + 2 * b, height + 2 * b, stroke=0, fill=1)
    else:
        canvas.setStrokeColor(outline)
        canvas.setLineWidth(0.4)
        canvas.rect(0, 0, width, height, stroke=1, fill=0)


@dataclass(frozen=True)
class CodePlace:
    """Where a card face prints its QR code: a square (code and quiet zone) ``square_mm`` across, or more on a
    bigger card (``scale``), its quiet zone reaching 1 mm (scaled) past ``edge`` (the text area's left, or its
    right if ``right``) and ``bottom``, in points from the trim's bottom-left corner.

    Each game's card front computes it from its layout without drawing (``code_place()``, see :class:`CodedFace`)
    and draws its code with it (:func:`draw_card_qr`): score by photo reads the same answer to know where a
    card lies around its code (``companion/photo_outline.py``)."""

    edge: float
    bottom: float
    scale: float
    square_mm: float
    right: bool = False

    def square(self) -> tuple[float, float, float]:
        """The square (x, y, size) in points, its bottom-left corner from the trim's bottom-left."""
        size = pt(max(self.square_mm, self.square_mm * self.scale))
        x = self.edge - size + pt(1.0 * self.scale) if self.right else self.edge - pt(1.0 * self.scale)
        y = self.bottom - pt(1.0 * self.scale)
        return x, y, size

    def on_card(self, size: CardSize) -> tuple[float, float, float]:
        """The square on a card of trim ``size``: (left, top, side) in mm from the card's top-left corner, y down."""
        x, y, side = self.square()
        return x / pt(1.0), size.height - (y + side) / pt(1.0), side / pt(1.0)


@runtime_checkable
class CodedFace(Face, Protocol):
    """A card front that prints its card's QR code: where it goes, answered without drawing."""

    def code_place(self) -> CodePlace: ...


def draw_card_qr(canvas: Canvas, qr: QrMatrix, place: CodePlace, *, ink: str,
                 ink_saver: bool) -> tuple[float, float, float]:
    """A card's QR code in a bottom corner of its text area, where ``place`` says; dark modules in ``ink``
    (black in ink-saver mode). Returns the square (x, y, size)."""
    x, y, size = place.square()
    draw_qr(canvas, qr, x, y, size, dark=ink if not ink_saver else "#000000")
    return x, y, size


def emblem_back(canvas: Canvas, width: float, height: float, bleed_mm: float, scale: float, *, ground: str | None,
                outline: str, lines: str, emblem: Drawer, ring: float, emblem_size: float) -> tuple[float, float]:
    """A card back's ground (``ground`` to the bleed, or the ``outline`` cut guide), a double border and a ring
    (``ring`` × the card's short side in radius) round an ``emblem`` (``emblem_size`` × the ring's radius), all
    in ``lines``; the fill colour is left at ``lines`` for the back's words. Returns (border inset, ring radius)."""
    w, h, s = width, height, scale
    card_ground(canvas, w, h, bleed_mm, ground, outline)
    canvas.setStrokeColor(lines)
    inset = pt(max(2.6, 3.4 * s))
    double_border(canvas, inset, inset, w - 2 * inset, h - 2 * inset, s, 1.2)
    r = min(w, h) * ring
    canvas.setLineWidth(0.8 * s)
    canvas.circle(w / 2, h / 2, r, stroke=1, fill=0)
    emblem(canvas, w / 2, h / 2, r * emblem_size, lines, ground or WHITE)
    canvas.setFillColor(lines)
    return inset, r


def double_border(canvas: Canvas, x: float, y: float, width: float, height: float, scale: float,
                  line_width: float) -> None:
    """A rounded frame (``line_width`` points, times ``scale``) with a hairline frame just inside it, in the
    current stroke colour: the border of the card backs."""
    canvas.setLineWidth(line_width * scale)
    canvas.roundRect(x, y, width, height, radius=pt(2.2 * scale), stroke=1, fill=0)
    gap = pt(1.3 * scale)
    canvas.setLineWidth(0.35 * scale)
    canvas.roundRect(x + gap, y + gap, width - 2 * gap, height - 2 * gap, radius=pt(1.6 * scale), stroke=1, fill=0)


def double_ring(canvas: Canvas, cx: float, cy: float, radius: float, scale: float) -> None:
    """A ring with a hairline ring just inside it, in the current stroke colour."""
    canvas.setLineWidth(0.8 * scale)
    canvas.circle(cx, cy, radius, stroke=1, fill=0)
    canvas.setLineWidth(0.35 * scale)
    canvas.circle(cx, cy, radius * 0.9, stroke=1, fill=0)


def eight_pointed_star(canvas: Canvas, cx: float, cy: float, outer: float, inner: float, line_width: float) -> None:
    """The outline of an eight-pointed star (points ``outer`` from the centre, notches ``inner``), one point
    straight up, in the current stroke colour."""
    path = canvas.beginPath()
    for k in range(16):
        angle = math.pi / 2 + k * math.pi / 8
        r = outer if k % 2 == 0 else inner
        x, y = cx + r * math.cos(angle), cy + r * math.sin(angle)
        if k == 0:
            path.moveTo(x, y)
        else:
            path.lineTo(x, y)
    path.close()
    canvas.setLineWidth(line_width)
    canvas.drawPath(path, stroke=1, fill=0)
