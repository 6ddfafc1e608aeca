"""Vector symbols of the Jonathan Strange & Mr Norrell kit, drawn with plain paths (no fonts, no images).

Each element has its own drawing (the catalog names them: bird in flight, twin hills, raindrops, standing
stone, oak tree, wind swirl; a compass rose for an element of any kind), each magician its own shape, so
colour is never the only cue. Every drawer takes ``(canvas, cx, cy, size, ink, light)`` and draws centred
on (cx, cy) inside a square ``size`` points wide, in unit coordinates (-0.5 .. 0.5).
"""

from __future__ import annotations

import math

from reportlab.pdfgen.canvas import Canvas

from ..symbols import Drawer, Unit, filled_circle, filled_shape, polygon, star_points

# -- the six elements and "any element" -------------------------------------------------------------

def bird_in_flight(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Two swept wings meeting at a small body."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        path = canvas.beginPath()
        path.moveTo(-0.5, 0.2)
        path.curveTo(-0.3, 0.3, -0.12, 0.18, 0.0, -0.1)
        path.curveTo(0.12, 0.18, 0.3, 0.3, 0.5, 0.2)
        path.curveTo(0.3, 0.16, 0.1, 0.02, 0.0, -0.3)
        path.curveTo(-0.1, 0.02, -0.3, 0.16, -0.5, 0.2)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.circle(0.0, -0.2, 0.07, stroke=0, fill=1)


def twin_hills(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Two rounded hills, the nearer one overlapping the further."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        path = canvas.beginPath()
        path.moveTo(-0.5, -0.35)
        path.curveTo(-0.4, 0.1, -0.05, 0.42, 0.12, 0.1)
        path.curveTo(0.25, 0.3, 0.45, 0.2, 0.5, -0.35)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.setStrokeColor(light)
        canvas.setLineWidth(0.05)
        arc = canvas.beginPath()
        arc.moveTo(-0.02, -0.35)
        arc.curveTo(0.05, -0.05, 0.2, 0.1, 0.3, 0.08)
        canvas.drawPath(arc, stroke=1, fill=0)


def _drop(canvas: Canvas, x: float, y: float, r: float) -> None:
    path = canvas.beginPath()
    path.moveTo(x, y + 2.2 * r)
    path.curveTo(x + 0.4 * r, y + 1.2 * r, x + r, y + 0.7 * r, x + r, y)
    path.curveTo(x + r, y - 1.3 * r, x - r, y - 1.3 * r, x - r, y)
    path.curveTo(x - r, y + 0.7 * r, x - 0.4 * r, y + 1.2 * r, x, y + 2.2 * r)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def raindrops(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Three falling drops."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        _drop(canvas, -0.26, 0.02, 0.13)
        _drop(canvas, 0.26, 0.02, 0.13)
        _drop(canvas, 0.0, -0.3, 0.13)


def standing_stone(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Two uprights and a lintel (a trilithon) on the ground."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.rect(-0.38, -0.42, 0.2, 0.62, stroke=0, fill=1)
        canvas.rect(0.18, -0.42, 0.2, 0.62, stroke=0, fill=1)
        canvas.rect(-0.46, 0.24, 0.92, 0.16, stroke=0, fill=1)
        canvas.rect(-0.5, -0.48, 1.0, 0.04, stroke=0, fill=1)


def oak_tree(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A round three-lobed crown on a trunk."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.rect(-0.07, -0.5, 0.14, 0.45, stroke=0, fill=1)
        for x, y, r in ((-0.2, 0.08, 0.2), (0.2, 0.08, 0.2), (0.0, 0.26, 0.23), (0.0, 0.02, 0.2)):
            canvas.circle(x, y, r, stroke=0, fill=1)


def wind_swirl(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Three streaming lines, the top one curling back."""
    with Unit(canvas, cx, cy, size):
        canvas.setStrokeColor(ink)
        canvas.setLineWidth(0.09)
        canvas.setLineCap(1)
        path = canvas.beginPath()
        path.moveTo(-0.46, 0.12)
        path.lineTo(0.18, 0.12)
        path.curveTo(0.46, 0.12, 0.44, 0.42, 0.24, 0.42)
        path.curveTo(0.1, 0.42, 0.08, 0.28, 0.18, 0.26)
        path.moveTo(-0.38, -0.06)
        path.lineTo(0.42, -0.06)
        path.moveTo(-0.46, -0.24)
        path.lineTo(0.06, -0.24)
        path.curveTo(0.3, -0.24, 0.3, -0.44, 0.14, -0.44)
        canvas.drawPath(path, stroke=1, fill=0)


def compass_rose(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """An element of any kind: an eight-pointed compass rose."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, star_points(4, 0.5, 0.12))
        polygon(canvas, star_points(4, 0.32, 0.1, math.pi / 4))
        canvas.setFillColor(light)
        canvas.circle(0, 0, 0.07, stroke=0, fill=1)


ELEMENT_DRAWERS: dict[str, Drawer] = {
    "bird-in-flight": bird_in_flight, "twin-hills": twin_hills, "raindrops": raindrops,
    "standing-stone": standing_stone, "oak-tree": oak_tree, "wind-swirl": wind_swirl,
    "compass-rose": compass_rose,
}


# -- magicians --------------------------------------------------------------------------------------

MAGICIAN_DRAWERS: dict[str, Drawer] = {
    "square": filled_shape([(-0.36, -0.36), (0.36, -0.36), (0.36, 0.36), (-0.36, 0.36)]),
    "circle": filled_circle(0.42),
    "triangle": filled_shape([(0, 0.46), (0.48, -0.38), (-0.48, -0.38)]),
    "diamond": filled_shape([(0, 0.5), (0.38, 0), (0, -0.5), (-0.38, 0)]),
}


# -- the tracks and the map --------------------------------------------------------------------------

def raven(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A raven in profile: body, head and beak, tail and a raised wing."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.5, -0.1), (-0.2, 0.02), (0.12, 0.08), (0.26, 0.2), (0.4, 0.2), (0.5, 0.12),
                         (0.38, 0.1), (0.3, -0.02), (0.1, -0.18), (-0.1, -0.2), (-0.3, -0.18)])
        polygon(canvas, [(-0.16, 0.0), (0.02, 0.44), (0.12, 0.06)])
        polygon(canvas, [(-0.02, -0.18), (-0.06, -0.42), (0.02, -0.42), (0.06, -0.17)])
        canvas.setFillColor(light)
        canvas.circle(0.36, 0.16, 0.025, stroke=0, fill=1)


def thistle_down(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """The fairy: a seed head of thistle-down, fine rays round a small seed."""
    with Unit(canvas, cx, cy, size):
        canvas.setStrokeColor(ink)
        canvas.setFillColor(ink)
        canvas.setLineWidth(0.035)
        path = canvas.beginPath()
        for k in range(16):
            angle = math.pi * 2 * k / 16
            path.moveTo(0.1 * math.cos(angle), 0.1 * math.sin(angle))
            path.lineTo(0.46 * math.cos(angle), 0.46 * math.sin(angle))
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.circle(0, 0, 0.1, stroke=0, fill=1)


def interlinked_rings(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A connexion: two linked rings."""
    with Unit(canvas, cx, cy, size):
        canvas.setStrokeColor(ink)
        canvas.setLineWidth(0.1)
        canvas.circle(-0.15, 0, 0.28, stroke=1, fill=0)
        canvas.circle(0.15, 0, 0.28, stroke=1, fill=0)


def wax_seal(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """The prestige track's start: a scalloped seal with a star pressed into it."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, star_points(12, 0.5, 0.42))
        canvas.setFillColor(light)
        polygon(canvas, star_points(5, 0.24, 0.1))


def hourglass(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """The year token."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.rect(-0.34, 0.38, 0.68, 0.08, stroke=0, fill=1)
        canvas.rect(-0.34, -0.46, 0.68, 0.08, stroke=0, fill=1)
        polygon(canvas, [(-0.26, 0.38), (0.26, 0.38), (0.04, 0.0), (0.26, -0.38), (-0.26, -0.38), (-0.04, 0.0)])
        canvas.setFillColor(light)
        polygon(canvas, [(-0.16, 0.3), (0.16, 0.3), (0.0, 0.06)])


def open_book(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.5, 0.3), (-0.04, 0.22), (-0.04, -0.36), (-0.5, -0.28)])
        polygon(canvas, [(0.5, 0.3), (0.04, 0.22), (0.04, -0.36), (0.5, -0.28)])


def l_badge(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """The London mark: a bold L in a square."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.rect(-0.46, -0.46, 0.92, 0.92, stroke=0, fill=1)
        canvas.setFillColor(light)
        polygon(canvas, [(-0.22, 0.32), (-0.06, 0.32), (-0.06, -0.16), (0.26, -0.16), (0.26, -0.3), (-0.22, -0.3)])


def magic_wand(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A spell: a wand with a spark."""
    with Unit(canvas, cx, cy, size):
        canvas.setStrokeColor(ink)
        canvas.setLineWidth(0.1)
        canvas.setLineCap(1)
        canvas.line(-0.4, -0.4, 0.12, 0.12)
        canvas.setFillColor(ink)
        polygon(canvas, [(x + 0.26, y + 0.26) for x, y in star_points(4, 0.24, 0.06)])


def envelope(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """An invitation: a sealed envelope."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.rect(-0.48, -0.32, 0.96, 0.64, stroke=0, fill=1)
        canvas.setStrokeColor(light)
        canvas.setLineWidth(0.05)
        path = canvas.beginPath()
        path.moveTo(-0.48, 0.32)
        path.lineTo(0.0, -0.04)
        path.lineTo(0.48, 0.32)
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.setFillColor(light)
        canvas.circle(0.0, -0.04, 0.09, stroke=0, fill=1)


def bust(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """An introduction: a person in silhouette."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.circle(0.0, 0.2, 0.2, stroke=0, fill=1)
        path = canvas.beginPath()
        path.moveTo(-0.42, -0.5)
        path.curveTo(-0.42, -0.1, -0.2, -0.04, 0.0, -0.04)
        path.curveTo(0.2, -0.04, 0.42, -0.1, 0.42, -0.5)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)


def star(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A feat of magic: a five-pointed star."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, star_points(5, 0.5, 0.21))


#: The picture on each deck's back.
DECK_DRAWERS: dict[str, Drawer] = {"invitation": envelope, "introduction": bust, "feat": star, "spell": magic_wand,
                                   "connexion": interlinked_rings, "book": open_book, "marseilles": raven}
