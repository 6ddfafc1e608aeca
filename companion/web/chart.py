"""A score-over-time chart as inline SVG, readable without colour.

Each player's total is a step line over the move numbers: every line has its own dash pattern and its
own marker shape (at the moves where the total changed, thinned to a few), and its name and final
total stand at its right end, so lines are told apart in grey print, by people who do not see colour,
and in forced-colour modes. The colours (CSS classes ``series-N``) only help. The chart scales with its
box (``viewBox``); its text is the page's font. The page also lists the same figures as a table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from markupsafe import Markup, escape

#: Dash patterns and marker shapes, one per line in seat order (enough for six seats, the most any game has).
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 2 1 2 1 2", "12 4")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "star")
MAX_MARKERS = 8
WIDTH, HEIGHT = 360, 230
LEFT, RIGHT, TOP, BOTTOM = 34, 104, 10, 34  # room for the axes' numbers and the lines' end labels
LABEL_GAP = 12  # end labels at least this far apart, vertically
END_LABEL_CHARS = 8  # a longer name is cut at its end label (the table under the chart has it whole)


@dataclass(frozen=True)
class Series:
    """One line: its label and its (x, y) points, x rising (a total after move x)."""

    label: str
    points: tuple[tuple[int, int], ...]


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2, 5 × 10^n) giving about ``ticks`` intervals over ``span``."""
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return max(1, int(10 * power))  # pragma: no cover - the loop always returns


def spread_labels(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Label positions near ``ys`` (in order) at least ``gap`` apart, kept within [low, high]."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    previous = -math.inf
    for i in order:
        placed[i] = max(ys[i], previous + gap)
        previous = placed[i]
    overflow = max((placed[i] - high for i in order), default=0)
    if overflow > 0:  # pushed past the bottom: shift the whole stack up, keeping the gaps
        for i in order:
            placed[i] = max(low, placed[i] - overflow)
    return placed


def marker(shape: str, x: float, y: float, r: float = 3.2) -> str:
    """An SVG element drawing ``shape`` centred on (x, y)."""
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}"/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}"/>'
    if shape == "triangle":
        return f'<path d="M{x:.1f} {y - r - 0.6:.1f}L{x + r + 0.4:.1f} {y + r:.1f}H{x - r - 0.4:.1f}Z"/>'
    if shape == "diamond":
        return f'<path d="M{x:.1f} {y - r - 0.8:.1f}L{x + r + 0.8:.1f} {y:.1f}L{x:.1f} {y + r + 0.8:.1f}L{x - r - 0.8:.1f} {y:.1f}Z"/>'
    if shape == "cross":
        return f'<path class="stroke" fill="none" stroke="currentColor" stroke-width="1.8" d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}M{x + r:.1f} {y - r:.1f}L{x - r:.1f} {y + r:.1f}"/>'
    points = []  # a five-pointed star
    for k in range(10):
        radius = r + 1 if k % 2 == 0 else (r + 1) / 2.3
        angle = math.pi / 2 + k * math.pi / 5
        points.append(f"{x + radius * math.cos(angle):.1f} {y - radius * math.sin(angle):.1f}")
    return f'<path d="M{"L".join(points)}Z"/>'


def thinned(points: Sequence[tuple[int, int]], most: int) -> list[tuple[int, int]]:
    """At most ``most`` of the points where the value changed (the first and the last kept)."""
    changes = [p for i, p in enumerate(points) if i == 0 or p[1] != points[i - 1][1]]
    if len(changes) <= most:
        return changes
    step = (len(changes) - 1) / (most - 1)
    return [changes[round(k * step)] for k in range(most)]


def score_chart(series: Sequence[Series], *, title: str, x_label: str = "Move", y_label: str = "Points") -> Markup:
    """The chart as one ``<svg>`` (role img, titled, described by each line's final value)."""
    xs = [x for s in series for x, _ in s.points] or [0]
    ys = [y for s in series for _, y in s.points] or [0]
    x_max = max(max(xs), 1)
    y_low, y_high = min(0, min(ys)), max(max(ys), 1)
    y_step = nice_step(y_high - y_low)
    y_low = math.floor(y_low / y_step) * y_step
    y_high = math.ceil(y_high / y_step) * y_step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + plot_w * x / x_max

    def py(y: float) -> float:
        return TOP + plot_h * (y_high - y) / (y_high - y_low)

    parts = [f'<svg class="score-chart" role="img" aria-labelledby="chart-title chart-desc" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'xmlns="http://www.w3.org/2000/svg">',
             f'<title id="chart-title">{escape(title)}</title>',
             # str(...) first: a str added to Markup is escaped, which printed this element as text
             '<desc id="chart-desc">' + str(escape("; ".join(
                 f"{s.label}: {s.points[-1][1] if s.points else 0} at the end" for s in series))) + "</desc>",
             '<g class="grid">']
    for y in range(int(y_low), int(y_high) + 1, y_step):
        parts.append(f'<path d="M{LEFT} {py(y):.1f}H{LEFT + plot_w}"/>'
                     f'<text x="{LEFT - 4}" y="{py(y) + 3.5:.1f}" text-anchor="end">{y}</text>')
    x_step = nice_step(x_max)
    for x in range(0, x_max + 1, x_step):
        parts.append(f'<text x="{px(x):.1f}" y="{TOP + plot_h + 13}" text-anchor="middle">{x}</text>')
    parts.append(f'<path class="axis" d="M{LEFT} {TOP}V{TOP + plot_h}H{LEFT + plot_w}"/>'
                 f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle">{escape(x_label)}</text>'
                 f'<text x="10" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
                 f'transform="rotate(-90 10 {TOP + plot_h / 2:.1f})">{escape(y_label)}</text></g>')
    ends = [py(s.points[-1][1]) if s.points else py(0) for s in series]
    label_ys = spread_labels(ends, LABEL_GAP, TOP + 4, TOP + plot_h)
    for index, s in enumerate(series):
        dash = DASHES[index % len(DASHES)]
        shape = MARKERS[index % len(MARKERS)]
        points = list(s.points) or [(0, 0)]
        d = f"M{px(points[0][0]):.1f} {py(points[0][1]):.1f}"
        for (_x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            d += f"H{px(x1):.1f}" + (f"V{py(y1):.1f}" if y1 != y0 else "")
        d += f"H{px(x_max):.1f}"
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<g class="series series-{index}" data-label="{escape(s.label)}" data-shape="{shape}">'
                     f'<path class="line" d="{d}"{dash_attr}/>')
        parts.extend(marker(shape, px(x), py(y)) for x, y in thinned(points, MAX_MARKERS))
        final = points[-1][1]
        ly = label_ys[index]
        name = s.label if len(s.label) <= END_LABEL_CHARS else s.label[:END_LABEL_CHARS - 1] + "…"
        parts.append(marker(shape, LEFT + plot_w + 8, ly - 3.5) +
                     f'<text class="end-label" x="{LEFT + plot_w + 14}" y="{ly:.1f}">{escape(name)} {final}</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))
