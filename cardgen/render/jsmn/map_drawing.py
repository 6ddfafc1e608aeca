"""The map of Europe and London drawn once, in poster millimetres (the canvas is scaled to mm first), so the
poster's pages and the assembly guide's miniature place the very same drawing.

Our own typographic design: no coastlines or artwork, a light graticule every five degrees, locations as
rings at their projected coordinates with their names, paths as lines, the London space as a double ring
with the L badge, the City of London beside the map (its locations in one dashed outline: all joined to one another), and the
tracks and card slots round the edge.
"""

from __future__ import annotations

from typing import Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..labels import label
from ..layout import Rect
from .map_layout import MapLayout, Space
from .style import (
    FAIRY_INK,
    LONDON_INK,
    RAVEN_INK,
    RED_SLOT,
    SANS,
    SANS_BOLD,
    SERIF_BOLD,
    WHITE,
    JsmnStyle,
)
from .symbols import interlinked_rings, l_badge, raven, thistle_down, wax_seal

PT = 25.4 / 72          # one point in mm
LOCATION_R = 3.4
LABEL_PT = 10.0         # place names at 1:1 on the poster
TRACK_PT = 12.0         # the numbers of the year, fairy and prestige tracks
SMALL_PT = 6.0          # the least any map text is set at
PATH_INK = "#6B5A45"
SEA = "#E4ECEF"
PARCHMENT = "#F7F1E3"
GRID_INK = "#C9D3D8"


def _text_box(x: float, y: float, text: str, font: str, size_pt: float, anchor: str) -> Rect:
    width = stringWidth(text, font, size_pt) * PT
    height = size_pt * 0.72 * PT
    left = {"left": x, "right": x - width, "centre": x - width / 2}[anchor]
    return Rect(left, y, width, height)


def _overlap(a: Rect, b: Rect) -> float:
    dx = min(a.right, b.right) - max(a.x, b.x)
    dy = min(a.top, b.top) - max(a.y, b.y)
    return dx * dy if dx > 0 and dy > 0 else 0.0


def _along(segments: Sequence[tuple[tuple[float, float], tuple[float, float]]]) -> list[Rect]:
    """Small squares every 1.5 mm along each line: what a label should not sit on."""
    out = []
    for (x0, y0), (x1, y1) in segments:
        steps = max(1, int(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / 1.5))
        out += [Rect(x0 + (x1 - x0) * k / steps - 0.4, y0 + (y1 - y0) * k / steps - 0.4, 0.8, 0.8)
                for k in range(steps + 1)]
    return out


def place_labels(points: dict[str, tuple[float, float]], names: dict[str, str], panel: Rect, radius: float,
                 lines: Sequence[tuple[tuple[float, float], tuple[float, float]]] = ()) -> dict[str, tuple[float, float, str]]:
    """A position (x, baseline, anchor) for every name beside its point, each avoiding the rings, the lines
    and the labels already placed where it can (least overlap otherwise), inside ``panel``."""
    obstacles = [Rect(x - radius, y - radius, 2 * radius, 2 * radius) for x, y in points.values()] + _along(lines)
    bounds = [(o.x, o.y, o.right, o.top) for o in obstacles]  # for the search below: a thousand squares a label
    placed: dict[str, tuple[float, float, str]] = {}
    cap = LABEL_PT * 0.72 * PT
    gap = radius + 1.0
    for key in sorted(points, key=lambda k: (-points[k][1], points[k][0])):
        x, y = points[key]
        candidates = [(x + gap, y - cap / 2, "left"), (x - gap, y - cap / 2, "right"), (x, y + gap, "centre"),
                      (x, y - gap - cap, "centre"), (x + gap * 0.8, y + gap * 0.6, "left"),
                      (x - gap * 0.8, y + gap * 0.6, "right"), (x + gap * 0.8, y - gap * 0.6 - cap, "left"),
                      (x - gap * 0.8, y - gap * 0.6 - cap, "right")]
        boxes = [(cx, cy, anchor, _text_box(cx, cy, names[key], SANS_BOLD, LABEL_PT, anchor))
                 for cx, cy, anchor in candidates]
        # only obstacles that touch some candidate can cost anything: test those (same costs, far fewer calls)
        left, bottom = min(b.x for *_, b in boxes), min(b.y for *_, b in boxes)
        reach = Rect(left, bottom, max(b.right for *_, b in boxes) - left, max(b.top for *_, b in boxes) - bottom)
        rx, ry, rr, rt = reach.x, reach.y, reach.right, reach.top  # _overlap(reach, o) > 0, inlined
        near = [o for o, (ox, oy, orr, ot) in zip(obstacles, bounds, strict=True)
                if min(rr, orr) - max(rx, ox) > 0 and min(rt, ot) - max(ry, oy) > 0]
        best, best_cost = candidates[0], float("inf")
        for cx, cy, anchor, box in boxes:
            cost = sum(_overlap(box, o) for o in near)
            inside = panel.x <= box.x and box.right <= panel.right and panel.y <= box.y and box.top <= panel.top
            cost += 0 if inside else 1000.0
            if cost < best_cost:
                best, best_cost = (cx, cy, anchor), cost
            if cost == 0:
                break
        placed[key] = best
        obstacles.append(_text_box(best[0], best[1], names[key], SANS_BOLD, LABEL_PT, best[2]).grown(0.6, 0.6, 0.6, 0.6))
        bounds.append((obstacles[-1].x, obstacles[-1].y, obstacles[-1].right, obstacles[-1].top))
    return placed


def word(key: str, **fields: object) -> str:
    return label("jsmn-map", key, **fields)


def _label(canvas: Canvas, x: float, y: float, text: str, anchor: str, colour: str, font: str = SANS_BOLD,
           size_pt: float = LABEL_PT) -> None:
    canvas.setFillColor(colour)
    canvas.setFont(font, size_pt * PT)
    if anchor == "left":
        canvas.drawString(x, y, text)
    elif anchor == "right":
        canvas.drawRightString(x, y, text)
    else:
        canvas.drawCentredString(x, y, text)


def _panel(canvas: Canvas, rect: Rect, fill: str | None, stroke: str, *, radius: float = 2.0,
           dashed: bool = False, width: float = 0.4) -> None:
    canvas.setStrokeColor(stroke)
    canvas.setLineWidth(width)
    if dashed:
        canvas.setDash(2.0, 1.2)
    if fill:
        canvas.setFillColor(fill)
    canvas.roundRect(rect.x, rect.y, rect.width, rect.height, radius, stroke=1, fill=1 if fill else 0)
    canvas.setDash()


def draw_map(canvas: Canvas, layout: MapLayout, style: JsmnStyle) -> None:
    """The whole poster, in mm, at the current origin."""
    content = layout.content
    w, h = layout.size
    if not style.ink_saver:
        canvas.setFillColor(PARCHMENT)
        canvas.rect(0, 0, w, h, stroke=0, fill=1)
    canvas.setStrokeColor(style.ink)
    canvas.setLineWidth(0.8)
    canvas.rect(4, 4, w - 8, h - 8, stroke=1, fill=0)
    _europe(canvas, layout, style)
    _city(canvas, layout, style)
    _years(canvas, layout, style)
    _fairy(canvas, layout, style)
    _prestige(canvas, layout, style)
    _slots(canvas, layout, style)
    _label(canvas, w - 8, 5.2, word("caption", game=content.title),
           "right", style.muted, SANS, 6.5)


def _europe(canvas: Canvas, layout: MapLayout, style: JsmnStyle) -> None:
    content, panel, project = layout.content, layout.europe_panel, layout.europe
    _panel(canvas, panel, style.fill(SEA), style.muted, radius=3.0)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(panel.x, panel.y, panel.width, panel.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setStrokeColor(GRID_INK)
    canvas.setLineWidth(0.2)
    for lat in range(30, 65, 5):
        (x0, y), (x1, _) = project(lat, -30), project(lat, 40)
        canvas.line(x0, y, x1, y)
    for lon in range(-30, 45, 5):
        (x, y0), (_, y1) = project(20, lon), project(70, lon)
        canvas.line(x, y0, x, y1)
    canvas.restoreState()
    _label(canvas, panel.x + 6, panel.top - 11, word("europe"), "left", style.ink, SERIF_BOLD, 22)
    _label(canvas, panel.x + 6, panel.top - 16, word("europe_note"), "left", style.muted, SANS, 7.5)
    places = [loc for loc in content.map.locations if loc.region != "city"]
    points = {loc.id: layout.position(loc.id) for loc in places}
    canvas.setStrokeColor(PATH_INK)
    canvas.setLineWidth(0.7)
    for path in content.map.paths:
        (x0, y0), (x1, y1) = points[path.between[0]], points[path.between[1]]
        canvas.line(x0, y0, x1, y1)
    london = content.map.london_space
    for loc in places:
        x, y = points[loc.id]
        if loc.id == london:
            canvas.setStrokeColor(LONDON_INK)
            canvas.setFillColor(WHITE)
            canvas.setLineWidth(0.6)
            canvas.circle(x, y, LOCATION_R + 1.6, stroke=1, fill=1)
            canvas.circle(x, y, LOCATION_R + 0.6, stroke=1, fill=0)
            l_badge(canvas, x, y, 4.2, LONDON_INK, WHITE)
            continue
        canvas.setStrokeColor(style.ink)
        canvas.setFillColor(WHITE)
        canvas.setLineWidth(0.6)
        canvas.circle(x, y, LOCATION_R, stroke=1, fill=1)
    names = {loc.id: loc.name.upper() if loc.id == london else loc.name for loc in places}
    segments = [(points[p.between[0]], points[p.between[1]]) for p in content.map.paths]
    labels = place_labels(points, names, panel, LOCATION_R + 1.6, segments)
    ground = style.fill(SEA) or WHITE
    for key, (x, y, anchor) in labels.items():
        box = _text_box(x, y, names[key], SANS_BOLD, LABEL_PT, anchor).grown(0.5, 0.8, 0.5, 0.6)
        canvas.setFillColor(ground)
        canvas.rect(box.x, box.y, box.width, box.height, stroke=0, fill=1)
        _label(canvas, x, y, names[key], anchor, LONDON_INK if key == london else style.ink)
    lx, ly = points[london]
    _label(canvas, panel.right - 6, panel.y + 6, word("london_note"), "right", style.readable(LONDON_INK), SANS, 6.5)


def _city(canvas: Canvas, layout: MapLayout, style: JsmnStyle) -> None:
    content, panel = layout.content, layout.city_panel
    _panel(canvas, panel, style.pale(LONDON_INK, 0.9), LONDON_INK, radius=3.0, width=0.6)
    l_badge(canvas, panel.x + 6, panel.top - 6, 6.0, LONDON_INK, WHITE)
    _label(canvas, panel.x + 11, panel.top - 7.6, word("city"), "left", style.readable(LONDON_INK),
           SERIF_BOLD, 11)
    notes = (word("city_note_1"), word("city_note_2"), word("city_note_3"), word("city_note_4"))
    for i, line in enumerate(notes):
        _label(canvas, panel.x + 4, panel.y + 13 - i * 3.0, line, "left", style.ink, SANS, 6.3)
    city = content.map.of_region("city")
    points = {loc.id: layout.position(loc.id) for loc in city}
    # every City location is joined to every other: one dashed outline round them all says so (the 28 lines
    # between them ran under the names)
    xs, ys = [p[0] for p in points.values()], [p[1] for p in points.values()]
    pad = LOCATION_R + 4.0
    canvas.setStrokeColor(style.pale(LONDON_INK, 0.4) or LONDON_INK)
    canvas.setLineWidth(0.5)
    canvas.setDash(2.0, 1.2)
    canvas.roundRect(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad,
                     radius=pad, stroke=1, fill=0)
    canvas.setDash()
    for loc in city:
        x, y = points[loc.id]
        canvas.setStrokeColor(LONDON_INK)
        canvas.setFillColor(WHITE)
        canvas.setLineWidth(0.8)
        canvas.circle(x, y, LOCATION_R, stroke=1, fill=1)
    labels = place_labels(points, {loc.id: loc.name for loc in city}, panel, LOCATION_R)
    for loc in city:
        x, y, anchor = labels[loc.id]
        _label(canvas, x, y, loc.name, anchor, style.readable(LONDON_INK))


def _space(canvas: Canvas, space: Space, style: JsmnStyle, fill: str | None, text: str, *,
           size_pt: float = TRACK_PT) -> None:
    r = space.rect
    canvas.setStrokeColor(style.ink)
    canvas.setLineWidth(0.35)
    if fill:
        canvas.setFillColor(fill)
    canvas.rect(r.x, r.y, r.width, r.height, stroke=1, fill=1 if fill else 0)
    _label(canvas, r.x + 1.2, r.top - 1.0 - size_pt * 0.72 * PT, text, "left", style.ink, SANS_BOLD, size_pt)


def _years(canvas: Canvas, layout: MapLayout, style: JsmnStyle) -> None:
    tracks = layout.content.tracks
    first = layout.year_spaces[0].rect
    _label(canvas, first.x, first.top + 3, word("year"), "left", style.ink, SERIF_BOLD, 11)
    _label(canvas, first.x + 16, first.top + 3, word("year_note"), "left", style.muted, SANS, 6.5)
    for space in layout.year_spaces:
        raven_year = space.value in tracks.raven_years
        _space(canvas, space, style, style.pale(RAVEN_INK, 0.85) if raven_year else None, str(space.value))
        r = space.rect
        if raven_year:
            raven(canvas, r.right - 7, r.y + r.height / 2, 9, RAVEN_INK, WHITE)
            _label(canvas, r.x + 20, r.y + 4.8, word("raven_year"), "left", style.ink, SANS_BOLD, 6.2)
        elif space.value == tracks.first_year:
            _label(canvas, r.x + 20, r.y + 4.8, word("year_start"), "left", style.muted, SANS, 6.2)


def _band_title(canvas: Canvas, band: Rect, title: str, note: str, style: JsmnStyle) -> None:
    _label(canvas, band.x + 2, band.top - 4.2, title, "left", style.ink, SERIF_BOLD, 11)
    _label(canvas, band.x + 2, band.top - 8.4, note, "left", style.muted, SANS, 6.3)


def _fairy(canvas: Canvas, layout: MapLayout, style: JsmnStyle) -> None:
    tracks, band = layout.content.tracks, layout.fairy_band
    _band_title(canvas, band, word("fairy"), word("fairy_note"), style)
    thistle_down(canvas, band.x + 18, band.y + 11, 14, FAIRY_INK, WHITE)
    for space in layout.fairy_spaces:
        _space(canvas, space, style, style.pale(FAIRY_INK, 0.88) if space.value % 5 == 0 else None, str(space.value))
        r = space.rect
        if space.value == tracks.fairy_start:
            raven(canvas, r.x + r.width / 2 + 3, r.y + 4.5, 7, RAVEN_INK, WHITE)
        elif space.value in tracks.fairy_advanced:
            level = word("experienced" if space.value == tracks.fairy_advanced[0] else "foolhardy")
            _label(canvas, r.x + 1.2, r.y + 1.4, level, "left", style.muted, SANS, SMALL_PT)


def _prestige(canvas: Canvas, layout: MapLayout, style: JsmnStyle) -> None:
    tracks, band = layout.content.tracks, layout.prestige_band
    _band_title(canvas, band, word("prestige"), word("prestige_note"), style)
    interlinked_rings(canvas, band.x + 6, band.y + 10, 7, style.muted, WHITE)
    _label(canvas, band.x + 11, band.y + 9, word("connexion_key"), "left", style.muted, SANS, 6.3)
    for space in layout.prestige_spaces:
        connexion = space.value in tracks.connexion_spaces
        _space(canvas, space, style, style.pale("#7A5A1E", 0.78) if connexion else None, str(space.value))
        r = space.rect
        if space.value == tracks.prestige_start:
            wax_seal(canvas, r.x + r.width / 2 + 4, r.y + r.height / 2 - 1, 9, style.fill("#8E2430") or "#8E2430", WHITE)
        elif connexion:
            interlinked_rings(canvas, r.right - 5, r.y + 4.5, 7, style.ink, WHITE)
            _label(canvas, r.x + 1.2, r.y + 1.4, word("connexion"), "left", style.ink, SANS_BOLD, SMALL_PT)


def _slots(canvas: Canvas, layout: MapLayout, style: JsmnStyle) -> None:
    books = layout.book_slots
    for index, rect in enumerate(books):
        last = index == len(books) - 1
        _panel(canvas, rect, None, RED_SLOT if last else style.muted, dashed=not last, width=1.2 if last else 0.5)
        _label(canvas, rect.x + rect.width / 2, rect.y + rect.height / 2 + 1, word("book"), "centre", style.muted,
               SANS_BOLD, 9)
        note = word("book_new" if index == 0 else "book_leaves" if last else "book_slides")
        _label(canvas, rect.x + rect.width / 2, rect.y + rect.height / 2 - 4, note, "centre",
               style.readable(RED_SLOT) if last else style.muted, SANS, 6.5)
    for index, rect in enumerate(layout.feat_slots):
        _panel(canvas, rect, None, style.muted, dashed=True, width=0.5)
        _label(canvas, rect.x + rect.width / 2, rect.y + rect.height / 2 + 1, word("feat", number=index + 1), "centre",
               style.muted, SANS_BOLD, 9)
        _label(canvas, rect.x + rect.width / 2, rect.y + rect.height / 2 - 4, word("feat_note"), "centre",
               style.muted, SANS, 6.5)
