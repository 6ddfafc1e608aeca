"""Jonathan Strange & Mr Norrell's board picture: the map on the table page (inline SVG, public view only).

The map of Europe (locations at their catalog coordinates, paths), the London space and the City of London
in an inset (the London rule), and each magician's piece where it stands, with a legend of markers.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from markupsafe import Markup, escape

from cardgen.catalog import content
from companion.web.boards import CARD, GOLD, INK, INK_SOFT, PLUM_SOFT, SEAT_COLOURS
from companion.web.chart import MARKERS, marker

MAP_W, EUROPE_H, CITY_H = 360, 300, 96
MAP_PAD = 20
LEGEND_ROW = 18
CHAR_W, TEXT_H = 4.7, 8.5  # a label's estimated size per character at the map's 8.5 px type
#: Where a label may stand beside its place: (dx, dy, text-anchor), tried in this order.
LABEL_SPOTS = ((5, 3, "start"), (-5, 3, "end"), (0, -6, "middle"), (0, 12, "middle"),
               (5, -5, "start"), (-5, -5, "end"), (5, 11, "start"), (-5, 11, "end"))

Box = tuple[float, float, float, float]


def _projection(points: Sequence[Any], box: Box, pad: float) -> Any:
    lats = [p.lat for p in points]
    lons = [p.lon for p in points]
    x_factor = math.cos(math.radians((min(lats) + max(lats)) / 2))
    span_x = max((max(lons) - min(lons)) * x_factor, 1e-6)
    span_y = max(max(lats) - min(lats), 1e-6)
    bx, by, bw, bh = box
    scale = min((bw - 2 * pad) / span_x, (bh - 2 * pad) / span_y)
    x0 = bx + (bw - span_x * scale) / 2
    y0 = by + (bh - span_y * scale) / 2

    def project(lat: float, lon: float) -> tuple[float, float]:
        return x0 + (lon - min(lons)) * x_factor * scale, y0 + (max(lats) - lat) * scale

    return project


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def place_labels(labels: Sequence[tuple[str, float, float, str]], dots: Sequence[tuple[float, float]],
                 bounds: Box) -> dict[str, tuple[float, float, str]]:
    """A spot for each ``(key, x, y, text)`` label: the first of :data:`LABEL_SPOTS` inside ``bounds`` that
    covers no dot and no label placed before it, else the spot covering least."""
    taken: list[Box] = [(x - 3.5, y - 3.5, x + 3.5, y + 3.5) for x, y in dots]
    placed: dict[str, tuple[float, float, str]] = {}
    for key, x, y, text in labels:
        width = CHAR_W * len(text)
        best: tuple[float, tuple[float, float, str], Box] | None = None
        for dx, dy, anchor in LABEL_SPOTS:
            tx, ty = x + dx, y + dy
            left = tx if anchor == "start" else tx - width if anchor == "end" else tx - width / 2
            box = (left, ty - TEXT_H + 1.5, left + width, ty + 1.5)
            outside = box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]
            cost = sum(_overlap(box, other) for other in taken) + (1e6 if outside else 0)
            if best is None or cost < best[0]:
                best = (cost, (tx, ty, anchor), box)
            if cost == 0:
                break
        assert best is not None
        placed[key] = best[1]
        taken.append(best[2])
    return placed


def jsmn_map(view: dict[str, Any], europe_map: Any) -> Markup:
    """Europe above, the City of London in a band beneath (moving onto the London space puts a magician
    on any City location), each magician's piece (its own shape) where it stands, a legend below."""
    europe = [loc for loc in europe_map.locations if loc.region != "city"]
    city = [loc for loc in europe_map.locations if loc.region == "city"]
    on_map = _projection(europe, (0, 0, MAP_W, EUROPE_H), MAP_PAD)
    city_box = (4.0, EUROPE_H + 4.0, MAP_W - 8.0, CITY_H - 8.0)
    where: dict[str, tuple[float, float]] = {loc.id: on_map(loc.lat, loc.lon) for loc in europe}
    if city:
        in_city = _projection(city, (city_box[0], city_box[1] + 12, city_box[2], city_box[3] - 12), 14)
        where.update({loc.id: in_city(loc.lat, loc.lon) for loc in city})
    names = {loc.id: loc.name for loc in europe_map.locations}
    london = europe_map.london_space
    here: dict[str, list[dict[str, Any]]] = {}
    for p in view["players"]:
        if p.get("location"):
            here.setdefault(p["location"], []).append(p)
    rows = math.ceil(len(view["players"]) / 3)
    height = EUROPE_H + (CITY_H if city else 0) + rows * LEGEND_ROW
    desc = [f"{p['name']} ({p.get('magician_name') or 'magician'}): "
            f"{p.get('location_name') or names.get(p.get('location') or '', 'not on the map yet')}" for p in view["players"]]
    parts = [f'<svg class="board j-board" role="img" aria-labelledby="j-board-title j-board-desc" '
             f'width="100%" viewBox="0 0 {MAP_W} {height}" xmlns="http://www.w3.org/2000/svg" font-size="8.5" fill="{INK}">',
             "<title id=\"j-board-title\">The map: Europe, London and the City of London</title>",
             f'<desc id="j-board-desc">{escape("; ".join(desc))}.</desc>']
    if city:
        x, y, w, h = city_box
        lx, ly = where[london]
        parts.append(f'<rect class="inset" x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{PLUM_SOFT}" stroke="{INK_SOFT}"/>'
                     f'<path class="to-city" d="M{lx:.1f} {ly:.1f}V{y:.1f}" stroke="{INK_SOFT}" stroke-dasharray="3 2"/>'
                     f'<text class="inset-title" x="{x + 6}" y="{y + 11}" font-size="8" font-weight="700">'
                     f'City of London (the London space leads here)</text>')
    lines = "".join(f"M{where[a][0]:.0f} {where[a][1]:.0f}L{where[b][0]:.0f} {where[b][1]:.0f}"
                    for a, b in (path.between for path in europe_map.paths) if a in where and b in where)
    parts.append(f'<path class="paths" stroke="{INK_SOFT}" fill="none" d="{lines}"/>')
    dots = [where[loc.id] for loc in europe_map.locations]
    spots = {**place_labels([(loc.id, *where[loc.id], loc.name) for loc in europe], dots, (0, 0, MAP_W, EUROPE_H)),
             **place_labels([(loc.id, *where[loc.id], loc.name) for loc in city], dots,
                            (city_box[0], city_box[1] + 12, city_box[0] + city_box[2], city_box[1] + city_box[3]))}
    # places: one group of dots (the London space a diamond), one of names (a magician's place in bold)
    parts.append(f'<g class="places" fill="{CARD}" stroke="{INK}" stroke-width="1.2">')
    for loc in europe_map.locations:
        x, y = where[loc.id]
        if loc.id == london:
            parts.append(f'<rect class="london" x="{x - 4.5:.0f}" y="{y - 4.5:.0f}" width="9" height="9" '
                         f'transform="rotate(45 {x:.0f} {y:.0f})" fill="{GOLD}"/>')
        else:
            parts.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="3"/>')
    parts.append('</g><g class="names">')
    for loc in europe_map.locations:
        tx, ty, anchor = spots[loc.id]
        extra = (f' text-anchor="{anchor}"' if anchor != "start" else "") + (' font-weight="700"' if loc.id in here else "")
        parts.append(f'<text x="{tx:.0f}" y="{ty:.0f}"{extra}>{escape(loc.name)}</text>')
    parts.append("</g>")
    for location, players in here.items():
        if location not in where:
            continue
        x, y = where[location]
        for k, p in enumerate(players):
            px = x + (k - (len(players) - 1) / 2) * 10
            shape = MARKERS[p["seat"] % len(MARKERS)]
            colour = SEAT_COLOURS[p["seat"] % len(SEAT_COLOURS)]
            parts.append(f'<g class="magician series-{p["seat"]}" data-seat="{p["seat"]}" data-place="{escape(location)}" '
                         f'fill="{colour}" color="{colour}" stroke="#ffffff" stroke-width="0.8">{marker(shape, px, y, 4.2)}</g>')
    for k, p in enumerate(view["players"]):  # the legend: each magician's marker and name
        row, col = divmod(k, 3)
        x, y = 12 + col * 118, height - rows * LEGEND_ROW + row * LEGEND_ROW + 9
        name = p["name"] if len(p["name"]) <= 16 else p["name"][:15] + "…"
        colour = SEAT_COLOURS[p["seat"] % len(SEAT_COLOURS)]
        parts.append(f'<g class="legend series-{p["seat"]}"><g fill="{colour}" color="{colour}">{marker(MARKERS[p["seat"] % len(MARKERS)], x, y, 4.2)}</g>'
                     f'<text x="{x + 9}" y="{y + 4}">{escape(name)}</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


def board(view: dict[str, Any]) -> Markup:
    """The map for the table page (``GamePages.board``)."""
    return jsmn_map(view, content("jsmn").map)
