"""Drawing primitives shared by every game's vector symbols (plain paths: no fonts, no images).

A symbol drawer takes ``(canvas, cx, cy, size, ink, light)`` and draws centred on (cx, cy) inside a square
``size`` points wide, in unit coordinates (-0.5 .. 0.5): ``with Unit(canvas, cx, cy, size) as u: ...``
sets that square up and ``u.line(pt)`` gives a line width in points. Each game keeps its own symbol table
(``cardgen/render/<game>/symbols.py``); only these building blocks live here.
"""

from __future__ import annotations

import math
from typing import Callable

from reportlab.pdfgen.canvas import Canvas

Drawer = Callable[[Canvas, float, float, float, str, str], None]
Points = list[tuple[float, float]]


class Unit:
    """Draw in a unit square: ``with Unit(canvas, cx, cy, size) as u: ...``; ``u.line(pt)`` sets widths."""

    def __init__(self, canvas: Canvas, cx: float, cy: float, size: float) -> None:
        self.canvas, self.cx, self.cy, self.size = canvas, cx, cy, size

    def __enter__(self) -> "Unit":
        self.canvas.saveState()
        self.canvas.translate(self.cx, self.cy)
        self.canvas.scale(self.size, self.size)
        return self

    def __exit__(self, *_: object) -> None:
        self.canvas.restoreState()

    def line(self, width_pt: float) -> None:
        self.canvas.setLineWidth(width_pt / self.size)


def polygon(canvas: Canvas, points: Points, *, fill: bool = True, stroke: bool = False) -> None:
    """A closed path through ``points``, filled (and/or stroked) with the current colours."""
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.drawPath(path, fill=1 if fill else 0, stroke=1 if stroke else 0)


def star_points(points: int, outer: float, inner: float, turn: float = math.pi / 2) -> Points:
    """The corners of a star with ``points`` tips, alternating radii ``outer`` and ``inner``."""
    out = []
    for k in range(points * 2):
        angle = turn + k * math.pi / points
        r = outer if k % 2 == 0 else inner
        out.append((r * math.cos(angle), r * math.sin(angle)))
    return out


def filled_shape(points: Points) -> Drawer:
    """A drawer for one polygon filled with the ink (player and magician shapes)."""
    def draw(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
        with Unit(canvas, cx, cy, size):
            canvas.setFillColor(ink)
            polygon(canvas, points)
    return draw


def filled_circle(radius: float) -> Drawer:
    """A drawer for a disc of ``radius`` (unit coordinates) filled with the ink."""
    def draw(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
        with Unit(canvas, cx, cy, size):
            canvas.setFillColor(ink)
            canvas.circle(0, 0, radius, stroke=0, fill=1)
    return draw
