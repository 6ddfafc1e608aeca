"""Vector symbols of the Barony: Sorcery print kit, drawn with plain paths (no fonts, no images).

Each spell category, player colour and land type has its own shape, so colour is never the only cue (in
ink-saver mode or for colour-blind players). Every drawer takes ``(canvas, cx, cy, size, ink, light)`` and
draws centred on (cx, cy) inside a square ``size`` points wide, in unit coordinates (-0.5 .. 0.5).
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from ..symbols import Drawer, Unit, filled_circle, filled_shape, polygon, star_points

# -- spell categories -------------------------------------------------------------------------------

def boot(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Movement: a winged boot."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.22, 0.42), (0.06, 0.42), (0.06, -0.12), (0.40, -0.20), (0.44, -0.42),
                         (-0.22, -0.42)])
        for k in range(3):  # three feathers of the wing, behind the heel
            y = 0.30 - k * 0.14
            polygon(canvas, [(-0.24, y), (-0.50 + k * 0.05, y + 0.10), (-0.46 + k * 0.05, y - 0.03),
                             (-0.24, y - 0.09)])
        canvas.setFillColor(light)
        canvas.rect(-0.22, -0.34, 0.64, 0.05, stroke=0, fill=1)


def banner(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Recruitment: a swallow-tailed banner on a pole."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.rect(-0.36, -0.50, 0.08, 1.0, stroke=0, fill=1)
        polygon(canvas, [(-0.28, 0.46), (0.44, 0.46), (0.44, -0.10), (0.08, 0.06), (-0.28, -0.10)])
        canvas.setFillColor(light)
        canvas.circle(0.08, 0.24, 0.09, stroke=0, fill=1)


def tower(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Construction: a crenellated tower with a door."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.30, -0.50), (-0.30, 0.30), (-0.40, 0.30), (-0.40, 0.50), (-0.24, 0.50), (-0.24, 0.40),
                         (-0.08, 0.40), (-0.08, 0.50), (0.08, 0.50), (0.08, 0.40), (0.24, 0.40), (0.24, 0.50),
                         (0.40, 0.50), (0.40, 0.30), (0.30, 0.30), (0.30, -0.50)])
        canvas.setFillColor(light)
        path = canvas.beginPath()
        path.moveTo(-0.11, -0.50)
        path.lineTo(-0.11, -0.22)
        path.arcTo(-0.11, -0.33, 0.11, -0.11, startAng=180, extent=-180)
        path.lineTo(0.11, -0.50)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.rect(-0.05, 0.08, 0.10, 0.16, stroke=0, fill=1)


CATEGORY_DRAWERS: dict[str, Drawer] = {"boot": boot, "banner": banner, "tower": tower}


# -- player colours ---------------------------------------------------------------------------------

PLAYER_DRAWERS: dict[str, Drawer] = {
    "disc": filled_circle(0.48),
    "square": filled_shape([(-0.33, -0.33), (0.33, -0.33), (0.33, 0.33), (-0.33, 0.33)]),
    "triangle": filled_shape([(0, 0.46), (0.46, -0.36), (-0.46, -0.36)]),
    "diamond": filled_shape([(0, 0.5), (0.36, 0), (0, -0.5), (-0.36, 0)]),
    "star": filled_shape(star_points(5, 0.5, 0.2)),
}


# -- land types --------------------------------------------------------------------------------------

def mountain(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.5, -0.34), (-0.14, 0.36), (0.06, -0.02), (0.2, 0.2), (0.5, -0.34)])
        canvas.setFillColor(light)
        polygon(canvas, [(-0.14, 0.36), (-0.26, 0.13), (-0.14, 0.18), (-0.04, 0.12)])


def forest(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        for dx, scale in ((-0.2, 0.8), (0.18, 1.0)):
            polygon(canvas, [(dx, 0.46 * scale), (dx + 0.24 * scale, 0.0), (dx + 0.14 * scale, 0.0),
                             (dx + 0.30 * scale, -0.28), (dx - 0.30 * scale, -0.28), (dx - 0.14 * scale, 0.0),
                             (dx - 0.24 * scale, 0.0)])
            canvas.rect(dx - 0.04, -0.44, 0.08, 0.18, stroke=0, fill=1)


def plains(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Open grassland: tufts of three blades fanning up from a ground line."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        u.line(max(0.6, size * 0.07))
        canvas.setLineCap(1)
        path = canvas.beginPath()
        path.moveTo(-0.46, -0.32)
        path.lineTo(0.46, -0.32)
        for x0, height in ((-0.26, 0.9), (0.0, 1.2), (0.26, 0.9)):
            for base, tip, top in ((-0.06, -0.16, 0.34), (0.0, 0.0, 0.5), (0.06, 0.16, 0.34)):
                path.moveTo(x0 + base, -0.32)
                path.lineTo(x0 + tip * height * 0.8, -0.32 + top * height * 0.9)
        canvas.drawPath(path, stroke=1, fill=0)


def fields(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A sheaf of wheat: a stalk with grains on both sides."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        canvas.setFillColor(ink)
        u.line(max(0.6, size * 0.06))
        for dx in (-0.22, 0.0, 0.22):
            canvas.line(dx, -0.46, dx, 0.3)
            for k in range(3):
                y = 0.0 + k * 0.14
                canvas.ellipse(dx - 0.11, y - 0.03, dx, y + 0.06, stroke=0, fill=1)
                canvas.ellipse(dx, y - 0.03, dx + 0.11, y + 0.06, stroke=0, fill=1)
            canvas.ellipse(dx - 0.04, 0.3, dx + 0.04, 0.46, stroke=0, fill=1)


def lake(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        u.line(max(0.6, size * 0.08))
        canvas.setLineCap(1)
        for y in (0.18, -0.04, -0.26):
            path = canvas.beginPath()
            path.moveTo(-0.42, y)
            path.curveTo(-0.28, y + 0.14, -0.14, y + 0.14, 0.0, y)
            path.curveTo(0.14, y - 0.14, 0.28, y - 0.14, 0.42, y)
            canvas.drawPath(path, stroke=1, fill=0)


def magic(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A four-pointed sparkle with two small ones: Magic tokens and the Mysterious locations."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, star_points(4, 0.42, 0.1))
        canvas.saveState()
        canvas.translate(0.3, 0.3)
        polygon(canvas, star_points(4, 0.14, 0.04))
        canvas.restoreState()
        canvas.saveState()
        canvas.translate(-0.3, -0.32)
        polygon(canvas, star_points(4, 0.11, 0.035))
        canvas.restoreState()


TERRAIN_DRAWERS: dict[str, Drawer] = {"mountain": mountain, "forest": forest, "plains": plains, "fields": fields,
                                      "lake": lake, "mysterious": magic}


# -- the fifth player's pieces ---------------------------------------------------------------------------

def knight(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A knight's helmet with a plume."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        path = canvas.beginPath()
        path.moveTo(-0.3, -0.46)
        path.lineTo(-0.3, 0.06)
        path.curveTo(-0.3, 0.34, 0.3, 0.34, 0.3, 0.06)
        path.lineTo(0.3, -0.46)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        polygon(canvas, [(0.0, 0.24), (0.1, 0.5), (0.3, 0.44), (0.08, 0.22)])
        canvas.setFillColor(light)
        canvas.rect(-0.22, -0.04, 0.44, 0.07, stroke=0, fill=1)
        canvas.rect(-0.03, -0.38, 0.06, 0.3, stroke=0, fill=1)


def village(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A small house."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.34, -0.4), (-0.34, 0.04), (0.0, 0.38), (0.34, 0.04), (0.34, -0.4)])
        canvas.setFillColor(light)
        canvas.rect(-0.08, -0.4, 0.16, 0.24, stroke=0, fill=1)


def city(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Houses behind a wall: a tall house and a low one."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.44, -0.42), (-0.44, 0.06), (-0.2, 0.3), (0.04, 0.06), (0.04, -0.42)])
        polygon(canvas, [(0.0, -0.42), (0.0, 0.22), (0.22, 0.46), (0.44, 0.22), (0.44, -0.42)])
        canvas.setFillColor(light)
        for x in (-0.26, 0.16):
            canvas.rect(x, -0.42, 0.1, 0.18, stroke=0, fill=1)
        canvas.rect(0.17, 0.06, 0.1, 0.1, stroke=0, fill=1)


def stronghold(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A keep with two towers."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(-0.46, -0.42), (-0.46, 0.42), (-0.34, 0.42), (-0.34, 0.34), (-0.26, 0.34), (-0.26, 0.42),
                         (-0.16, 0.42), (-0.16, 0.12), (0.16, 0.12), (0.16, 0.42), (0.26, 0.42), (0.26, 0.34),
                         (0.34, 0.34), (0.34, 0.42), (0.46, 0.42), (0.46, -0.42)])
        canvas.setFillColor(light)
        path = canvas.beginPath()
        path.moveTo(-0.12, -0.42)
        path.lineTo(-0.12, -0.14)
        path.arcTo(-0.12, -0.26, 0.12, -0.02, startAng=180, extent=-180)
        path.lineTo(0.12, -0.42)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)


def score_counter(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A laurel-free trophy cup: the score counter."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        path = canvas.beginPath()
        path.moveTo(-0.3, 0.44)
        path.lineTo(0.3, 0.44)
        path.curveTo(0.3, 0.0, 0.12, -0.1, 0.05, -0.12)
        path.lineTo(0.05, -0.3)
        path.lineTo(0.22, -0.38)
        path.lineTo(0.22, -0.46)
        path.lineTo(-0.22, -0.46)
        path.lineTo(-0.22, -0.38)
        path.lineTo(-0.05, -0.3)
        path.lineTo(-0.05, -0.12)
        path.curveTo(-0.12, -0.1, -0.3, 0.0, -0.3, 0.44)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.setStrokeColor(ink)
        u.line(max(0.5, size * 0.06))
        canvas.arc(-0.46, 0.12, -0.18, 0.4, startAng=90, extent=180)
        canvas.arc(0.18, 0.12, 0.46, 0.4, startAng=-90, extent=180)


PIECE_DRAWERS: dict[str, Drawer] = {"knight": knight, "city": city, "stronghold": stronghold, "village": village,
                                    "score counter": score_counter}
