"""Simple vector symbols for the Mandragora print kit, drawn with plain paths (no fonts, no images).

Every colour has its own symbol (so colour is never the only cue, in ink-saver mode or for
colour-blind players), and the kit's other pictures are here too: mandrake, cursed scroll, the
evil eye of the curse, the three effect icons, sun and moon for the shop tiles, a spellbook and
the Assistant. Each function draws centred on (cx, cy) inside a square ``size`` points wide, in
unit coordinates (-0.5 .. 0.5) scaled to that square.
"""

from __future__ import annotations

import math

from reportlab.pdfgen.canvas import Canvas

from ..symbols import Drawer, Unit, polygon, star_points

# -- the colour symbols ---------------------------------------------------------------------------

def crystal(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A cut gem: a tall hexagon with facet lines."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        polygon(canvas, [(0, 0.5), (0.3, 0.2), (0.3, -0.2), (0, -0.5), (-0.3, -0.2), (-0.3, 0.2)])
        canvas.setStrokeColor(light)
        u.line(max(0.5, size * 0.035))
        path = canvas.beginPath()
        for a, b in (((-0.3, 0.2), (0, 0.08)), ((0.3, 0.2), (0, 0.08)), ((0, 0.08), (0, -0.5)),
                     ((0, 0.5), (0, 0.08))):
            path.moveTo(*a)
            path.lineTo(*b)
        canvas.drawPath(path, stroke=1, fill=0)


def flame(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A flame with three tongues and a light heart."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        path = canvas.beginPath()
        path.moveTo(0, -0.5)
        path.curveTo(0.26, -0.5, 0.42, -0.26, 0.36, 0.0)
        path.curveTo(0.34, 0.1, 0.33, 0.2, 0.34, 0.3)       # right tongue
        path.curveTo(0.24, 0.22, 0.18, 0.16, 0.14, 0.08)
        path.curveTo(0.16, 0.26, 0.12, 0.4, 0.02, 0.5)      # the tall middle tongue
        path.curveTo(-0.06, 0.36, -0.12, 0.24, -0.1, 0.1)
        path.curveTo(-0.16, 0.18, -0.24, 0.22, -0.3, 0.34)  # left tongue
        path.curveTo(-0.42, 0.12, -0.42, -0.18, -0.3, -0.36)
        path.curveTo(-0.22, -0.46, -0.12, -0.5, 0, -0.5)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.setFillColor(light)
        inner = canvas.beginPath()
        inner.moveTo(0.02, 0.04)
        inner.curveTo(0.1, -0.08, 0.2, -0.16, 0.18, -0.3)
        inner.curveTo(0.16, -0.4, 0.08, -0.44, 0.0, -0.44)
        inner.curveTo(-0.1, -0.44, -0.18, -0.38, -0.17, -0.27)
        inner.curveTo(-0.16, -0.14, -0.04, -0.08, 0.02, 0.04)
        inner.close()
        canvas.drawPath(inner, stroke=0, fill=1)


def leaf(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A leaf on a short stem, with a light midrib."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        canvas.setStrokeColor(ink)
        path = canvas.beginPath()
        path.moveTo(-0.3, -0.3)
        path.curveTo(-0.42, 0.1, -0.06, 0.44, 0.44, 0.44)
        path.curveTo(0.44, -0.06, 0.1, -0.42, -0.3, -0.3)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        u.line(max(0.7, size * 0.06))
        canvas.line(-0.3, -0.3, -0.46, -0.46)
        canvas.setStrokeColor(light)
        u.line(max(0.5, size * 0.035))
        canvas.line(-0.24, -0.24, 0.34, 0.34)


def flower(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Five round petals around a light heart."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        for k in range(5):
            angle = math.pi / 2 + k * 2 * math.pi / 5
            canvas.circle(0.27 * math.cos(angle), 0.27 * math.sin(angle), 0.2, stroke=0, fill=1)
        canvas.circle(0, 0, 0.2, stroke=0, fill=1)
        canvas.setFillColor(light)
        canvas.circle(0, 0, 0.11, stroke=0, fill=1)


def drop(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A water drop with a light gleam."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        path = canvas.beginPath()
        path.moveTo(0, 0.5)
        path.curveTo(0.1, 0.3, 0.36, 0.06, 0.36, -0.16)
        path.curveTo(0.36, -0.37, 0.2, -0.5, 0, -0.5)
        path.curveTo(-0.2, -0.5, -0.36, -0.37, -0.36, -0.16)
        path.curveTo(-0.36, 0.06, -0.1, 0.3, 0, 0.5)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.setStrokeColor(light)
        u.line(max(0.6, size * 0.05))
        canvas.setLineCap(1)
        gleam = canvas.beginPath()
        gleam.moveTo(-0.2, -0.14)
        gleam.curveTo(-0.2, -0.28, -0.12, -0.36, -0.02, -0.38)
        canvas.drawPath(gleam, stroke=1, fill=0)


def pentagram(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A five-pointed star inside a ring: black magic."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        canvas.setFillColor(ink)
        u.line(max(0.6, size * 0.06))
        canvas.circle(0, 0, 0.45, stroke=1, fill=0)
        polygon(canvas, star_points(5, 0.4, 0.16))


COLOUR_DRAWERS: dict[str, Drawer] = {
    "crystal": crystal, "flame": flame, "leaf": leaf, "flower": flower, "drop": drop, "pentagram": pentagram,
}


def colour_symbol(canvas: Canvas, symbol: str, cx: float, cy: float, size: float, ink: str,
                  light: str = "#FFFFFF") -> None:
    """Draw the named colour symbol (a key of cardgen.catalog.mandragora.COLOUR_SYMBOLS)."""
    COLOUR_DRAWERS[symbol](canvas, cx, cy, size, ink, light)


# -- the other pictures ---------------------------------------------------------------------------

def mandrake(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A mandrake root: three leaves over a forked, two-legged root with a face."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        for angle in (-35, 0, 35):
            canvas.saveState()
            canvas.translate(0, 0.16)
            canvas.rotate(angle)
            path = canvas.beginPath()
            path.moveTo(0, 0)
            path.curveTo(0.1, 0.1, 0.08, 0.26, 0, 0.34)
            path.curveTo(-0.08, 0.26, -0.1, 0.1, 0, 0)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)
            canvas.restoreState()
        body = canvas.beginPath()
        body.moveTo(-0.13, 0.2)
        body.curveTo(-0.27, 0.12, -0.28, -0.12, -0.14, -0.22)
        body.lineTo(-0.22, -0.47)
        body.lineTo(-0.13, -0.5)
        body.lineTo(-0.02, -0.27)
        body.lineTo(0.02, -0.27)
        body.lineTo(0.13, -0.5)
        body.lineTo(0.22, -0.47)
        body.lineTo(0.14, -0.22)
        body.curveTo(0.28, -0.12, 0.27, 0.12, 0.13, 0.2)
        body.close()
        canvas.drawPath(body, stroke=0, fill=1)
        for side in (-1, 1):  # little arms
            arm = canvas.beginPath()
            arm.moveTo(side * 0.2, -0.02)
            arm.curveTo(side * 0.3, -0.06, side * 0.34, -0.14, side * 0.36, -0.2)
            arm.lineTo(side * 0.31, -0.21)
            arm.curveTo(side * 0.29, -0.15, side * 0.26, -0.11, side * 0.19, -0.09)
            arm.close()
            canvas.drawPath(arm, stroke=0, fill=1)
        canvas.setFillColor(light)
        canvas.circle(-0.07, 0.03, 0.035, stroke=0, fill=1)
        canvas.circle(0.07, 0.03, 0.035, stroke=0, fill=1)
        canvas.ellipse(-0.04, -0.1, 0.04, -0.05, stroke=0, fill=1)


def evil_eye(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """The curse: an almond eye with a slit pupil."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        path = canvas.beginPath()
        path.moveTo(-0.5, 0)
        path.curveTo(-0.25, 0.34, 0.25, 0.34, 0.5, 0)
        path.curveTo(0.25, -0.34, -0.25, -0.34, -0.5, 0)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.setFillColor(light)
        canvas.circle(0, 0, 0.17, stroke=0, fill=1)
        canvas.setFillColor(ink)
        canvas.ellipse(-0.045, -0.15, 0.045, 0.15, stroke=0, fill=1)


def scroll(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A rolled scroll with a wax seal."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        canvas.rect(-0.3, -0.36, 0.6, 0.72, stroke=0, fill=1)
        for y in (0.36, -0.36):
            canvas.roundRect(-0.4, y - 0.08, 0.8, 0.16, 0.08, stroke=0, fill=1)
        canvas.setStrokeColor(light)
        u.line(max(0.5, size * 0.03))
        for y in (0.18, 0.08, -0.02):
            canvas.line(-0.2, y, 0.2, y)
        canvas.setFillColor(light)
        canvas.circle(0, -0.17, 0.09, stroke=0, fill=1)


def bolt(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Lightning bolt: an immediate effect."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        polygon(canvas, [(0.12, 0.5), (-0.28, -0.04), (-0.02, -0.04), (-0.14, -0.5), (0.28, 0.08),
                          (0.02, 0.08)])


def infinity(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Infinity sign: a permanent effect."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setStrokeColor(ink)
        u.line(max(0.9, size * 0.12))
        path = canvas.beginPath()
        path.moveTo(0, 0)
        path.curveTo(0.12, 0.2, 0.44, 0.2, 0.44, 0)
        path.curveTo(0.44, -0.2, 0.12, -0.2, 0, 0)
        path.curveTo(-0.12, 0.2, -0.44, 0.2, -0.44, 0)
        path.curveTo(-0.44, -0.2, -0.12, -0.2, 0, 0)
        canvas.drawPath(path, stroke=1, fill=0)


def hourglass(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """Hourglass: an end-of-game effect."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.rect(-0.32, 0.4, 0.64, 0.1, stroke=0, fill=1)
        canvas.rect(-0.32, -0.5, 0.64, 0.1, stroke=0, fill=1)
        polygon(canvas, [(-0.25, 0.4), (0.25, 0.4), (0.04, 0), (0.25, -0.4), (-0.25, -0.4), (-0.04, 0)])
        canvas.setFillColor(light)
        polygon(canvas, [(-0.15, 0.33), (0.15, 0.33), (0.0, 0.08)])


EFFECT_DRAWERS: dict[str, Drawer] = {"immediate": bolt, "permanent": infinity, "end_of_game": hourglass}


def sun(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A sun with twelve rays: day shops."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        canvas.circle(0, 0, 0.24, stroke=0, fill=1)
        for k in range(12):
            angle = k * math.pi / 6
            tip = (0.5 * math.cos(angle), 0.5 * math.sin(angle))
            left = (0.31 * math.cos(angle - 0.13), 0.31 * math.sin(angle - 0.13))
            right = (0.31 * math.cos(angle + 0.13), 0.31 * math.sin(angle + 0.13))
            polygon(canvas, [left, tip, right])


def moon(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A crescent moon with two small stars: night shops."""
    with Unit(canvas, cx, cy, size):
        canvas.setFillColor(ink)
        outer_r, inner_r, inner_c = 0.4, 0.34, (0.17, 0.1)
        # the two circles meet where |p| = outer_r and |p - inner_c| = inner_r
        d = math.hypot(*inner_c)
        a = (outer_r ** 2 - inner_r ** 2 + d ** 2) / (2 * d)
        h = math.sqrt(outer_r ** 2 - a ** 2)
        base = math.atan2(inner_c[1], inner_c[0])
        spread = math.atan2(h, a)
        start, end = math.degrees(base + spread), math.degrees(base - spread)
        inner_start = math.degrees(math.atan2(outer_r * math.sin(base - spread) - inner_c[1],
                                              outer_r * math.cos(base - spread) - inner_c[0]))
        inner_end = math.degrees(math.atan2(outer_r * math.sin(base + spread) - inner_c[1],
                                            outer_r * math.cos(base + spread) - inner_c[0]))
        path = canvas.beginPath()
        path.arc(-outer_r, -outer_r, outer_r, outer_r, startAng=start, extent=(end - start) % 360)
        path.arcTo(inner_c[0] - inner_r, inner_c[1] - inner_r, inner_c[0] + inner_r, inner_c[1] + inner_r,
                   startAng=inner_start, extent=-((inner_start - inner_end) % 360))
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
        for x, y, r in ((0.3, 0.36, 0.11), (0.4, 0.05, 0.07)):
            polygon(canvas, [(x + px * r / 0.5, y + py * r / 0.5) for px, py in star_points(4, 0.5, 0.16)])


def book(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """A closed spellbook seen from the front: cover, spine band and page edge (the symbol goes on top)."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(light)
        canvas.roundRect(-0.34, -0.47, 0.72, 0.94, 0.04, stroke=0, fill=1)  # pages peeking out
        canvas.setFillColor(ink)
        canvas.roundRect(-0.4, -0.44, 0.72, 0.92, 0.06, stroke=0, fill=1)
        canvas.setStrokeColor(light)
        u.line(max(0.5, size * 0.02))
        canvas.line(-0.3, -0.44, -0.3, 0.48)
        canvas.roundRect(-0.22, -0.34, 0.46, 0.72, 0.04, stroke=1, fill=0)


def assistant(canvas: Canvas, cx: float, cy: float, size: float, ink: str, light: str) -> None:
    """The Assistant: a hooded apprentice in a long cloak, leaning on a staff topped with a glowing orb."""
    with Unit(canvas, cx, cy, size) as u:
        canvas.setFillColor(ink)
        cloak = canvas.beginPath()
        cloak.moveTo(-0.06, 0.46)
        cloak.curveTo(0.06, 0.44, 0.13, 0.36, 0.12, 0.22)
        cloak.curveTo(0.2, 0.1, 0.22, -0.2, 0.26, -0.5)
        cloak.lineTo(-0.3, -0.5)
        cloak.curveTo(-0.26, -0.2, -0.22, 0.08, -0.16, 0.2)
        cloak.curveTo(-0.2, 0.34, -0.16, 0.44, -0.06, 0.46)
        cloak.close()
        canvas.drawPath(cloak, stroke=0, fill=1)
        tip = canvas.beginPath()  # the hood's point falls back over the shoulder
        tip.moveTo(-0.06, 0.46)
        tip.curveTo(-0.16, 0.5, -0.26, 0.44, -0.3, 0.34)
        tip.curveTo(-0.22, 0.38, -0.14, 0.38, -0.12, 0.36)
        tip.close()
        canvas.drawPath(tip, stroke=0, fill=1)
        canvas.setFillColor(light)
        canvas.ellipse(-0.1, 0.2, 0.06, 0.37, stroke=0, fill=1)   # the face in the hood
        canvas.setStrokeColor(light)
        u.line(max(0.4, size * 0.012))
        canvas.line(-0.02, 0.14, 0.0, -0.5)                       # the cloak's opening
        canvas.setStrokeColor(ink)
        u.line(max(0.8, size * 0.03))
        canvas.setLineCap(1)
        canvas.line(0.32, -0.5, 0.32, 0.36)                       # the staff
        canvas.setFillColor(ink)
        canvas.ellipse(0.14, 0.0, 0.34, 0.1, stroke=0, fill=1)    # the arm reaching for it
        canvas.setFillColor(light)
        canvas.setLineWidth(max(0.6, size * 0.02) / size)
        canvas.circle(0.32, 0.42, 0.07, stroke=1, fill=1)         # the orb
