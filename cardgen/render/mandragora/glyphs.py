"""One picture per spell effect for the spell cards, built from plain paths and the kit's symbols.

Keyed by the effect names of :data:`cardgen.catalog.mandragora.EFFECTS`, so a spell's picture
follows its data. Same conventions as :mod:`.symbols`: centred on (cx, cy), ``size`` points wide.
"""

from __future__ import annotations

import math

from reportlab.pdfgen.canvas import Canvas

from ..symbols import Drawer, Unit, star_points
from .style import SERIF_BOLD
from .symbols import EFFECT_DRAWERS, scroll


def _arrow(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, head: float) -> None:
    """A straight arrow in the current unit space (stroke colour and width already set)."""
    canvas.line(x0, y0, x1, y1)
    angle = math.atan2(y1 - y0, x1 - x0)
    path = canvas.beginPath()
    path.moveTo(x1, y1)
    path.lineTo(x1 - head * math.cos(angle - 0.5), y1 - head * math.sin(angle - 0.5))
    path.lineTo(x1 - head * math.cos(angle + 0.5), y1 - head * math.sin(angle + 0.5))
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _card_shape(canvas: Canvas, x: float, y: float, w: float, h: float, *, fill: bool) -> None:
    canvas.roundRect(x, y, w, h, min(w, h) * 0.12, stroke=0 if fill else 1, fill=1 if fill else 0)


def banish(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A cursed scroll struck through: Banishment."""
    scroll(canvas, cx, cy, size * 0.8, ink, light)
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        canvas.setLineCap(1)
        u.line(size * 0.07)
        canvas.line(-0.42, -0.42, 0.42, 0.42)


def give(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A scroll passed on with an arrow: Transfer."""
    scroll(canvas, cx - size * 0.16, cy, size * 0.62, ink, light)
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        canvas.setFillColor(ink)
        u.line(size * 0.06)
        _arrow(canvas, 0.12, 0, 0.48, 0, 0.16)


def swap(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Two cards crossing with curved arrows: Substitution."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        canvas.setStrokeColor(ink)
        _card_shape(canvas, -0.48, -0.26, 0.3, 0.44, fill=True)
        u.line(size * 0.04)
        _card_shape(canvas, 0.18, -0.18, 0.3, 0.44, fill=False)
        u.line(size * 0.05)
        top = canvas.beginPath()
        top.moveTo(-0.3, 0.26)
        top.curveTo(-0.2, 0.46, 0.18, 0.46, 0.28, 0.3)
        canvas.drawPath(top, stroke=1, fill=0)
        _arrow(canvas, 0.24, 0.36, 0.3, 0.28, 0.12)
        bottom = canvas.beginPath()
        bottom.moveTo(0.3, -0.26)
        bottom.curveTo(0.2, -0.46, -0.18, -0.46, -0.28, -0.32)
        canvas.drawPath(bottom, stroke=1, fill=0)
        _arrow(canvas, -0.24, -0.38, -0.3, -0.3, 0.12)


def lift(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A card floating up out of a shop: Levitation."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        canvas.setStrokeColor(ink)
        _card_shape(canvas, -0.16, 0.0, 0.32, 0.46, fill=True)
        u.line(size * 0.05)
        canvas.setLineCap(1)
        for x in (-0.3, 0.3):
            _arrow(canvas, x, -0.14, x, 0.3, 0.12)
        canvas.line(-0.46, -0.42, 0.46, -0.42)
        for x in (-0.2, 0.0, 0.2):
            canvas.line(x - 0.08, -0.3, x + 0.08, -0.3)


def again(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A loop arrow coming round again: Replication."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        canvas.setFillColor(ink)
        u.line(size * 0.08)
        path = canvas.beginPath()
        path.arc(-0.36, -0.36, 0.36, 0.36, startAng=120, extent=300)
        canvas.drawPath(path, stroke=1, fill=0)
        tip_angle = math.radians(60)
        tip = (0.36 * math.cos(tip_angle), 0.36 * math.sin(tip_angle))
        head = canvas.beginPath()
        head.moveTo(tip[0] + 0.2, tip[1] + 0.06)
        head.lineTo(tip[0] - 0.04, tip[1] + 0.2)
        head.lineTo(tip[0] - 0.02, tip[1] - 0.12)
        head.close()
        canvas.drawPath(head, stroke=0, fill=1)
        canvas.setFont(SERIF_BOLD, 0.42)
        canvas.drawCentredString(0, -0.14, "+1")


def dash(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Three chevrons racing ahead: Swiftness."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        for k, x in enumerate((-0.42, -0.1, 0.22)):
            path = canvas.beginPath()
            path.moveTo(x, 0.34)
            path.lineTo(x + 0.2, 0.34)
            path.lineTo(x + 0.42 - 0.02 * k, 0)
            path.lineTo(x + 0.2, -0.34)
            path.lineTo(x, -0.34)
            path.lineTo(x + 0.22, 0)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)


def vanish(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Cards fading into dots: Disappearance."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        canvas.setStrokeColor(ink)
        _card_shape(canvas, -0.46, -0.3, 0.32, 0.5, fill=True)
        u.line(size * 0.035)
        canvas.setDash([0.05, 0.05])
        _card_shape(canvas, -0.08, -0.24, 0.3, 0.46, fill=False)
        canvas.setDash()
        for x, y, r in ((0.32, 0.2, 0.05), (0.4, -0.02, 0.04), (0.3, -0.22, 0.03), (0.45, 0.3, 0.025)):
            canvas.circle(x, y, r, stroke=0, fill=1)


def cleanse(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A burst of sparkles: Purification."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        for x, y, r in ((0.0, 0.0, 0.36), (0.34, 0.32, 0.14), (-0.34, -0.3, 0.12), (-0.3, 0.34, 0.09)):
            path = canvas.beginPath()
            points = [(x + px * r / 0.5, y + py * r / 0.5) for px, py in star_points(4, 0.5, 0.12)]
            path.moveTo(*points[0])
            for point in points[1:]:
                path.lineTo(*point)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)


SPELL_GLYPHS: dict[str, Drawer] = {
    "remove_scroll": banish, "give_scroll": give, "swap_with_opponent": swap, "take_from_shop": lift,
    "extra_turn": again, "extra_move": dash, "discard_colour": vanish, "discard_hand": cleanse,
}


def spell_glyph(canvas: Canvas, effect: str, kind: str, cx: float, cy: float, size: float, ink: str,
                light: str) -> None:
    """The picture of a spell effect; an unknown effect falls back to its kind's icon."""
    drawer = SPELL_GLYPHS.get(effect) or EFFECT_DRAWERS[kind]
    drawer(canvas, cx, cy, size, ink, light)
