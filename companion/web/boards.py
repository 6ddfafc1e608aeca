"""Pictures of the board for the table page (inline SVG), drawn from public view data only.

- :func:`mandragora_circle`: the ten shops clockwise from the start tile (day shops light with a sun,
  night shops dark with a moon), each shop's card count (night shops' cards lie face down), the
  Assistant, the deck in the middle, and the restock preview: the shops the Assistant can reach this
  turn, numbered by steps, and what each move would take and restock (also said in words under it).
- :func:`jsmn_map`: the map of Europe (locations at their catalog coordinates, paths), the London space
  and the City of London in an inset (the London rule), and each magician's piece where it stands.

Both take the ``view(state, None)`` dictionary (what every phone may see) and the game's catalog content;
each picture is also described in words for people who do not see it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from markupsafe import Markup, escape

from cardgen.catalog import content
from companion.web.chart import MARKERS, marker
from companion.web.pages import bp

#: The pages' colours (companion/static/css/app.css), as the pictures' own SVG attributes (and their width):
#: seat pages share the style sheets but show no board, so the pictures carry their styling themselves.
INK, INK_SOFT, LINE, CARD = "#1f1a2e", "#4a4458", "#d8d0c2", "#ffffff"
PLUM, PLUM_DARK, PLUM_SOFT, GOLD, GOLD_INK = "#3b1f6e", "#2e1a52", "#ece5f7", "#f3c969", "#6b4a00"
SEAT_COLOURS = (PLUM, "#a3470a", "#1f6b3a", "#0b4f8a", "#8a1c5b", INK_SOFT)

# -- Mandragora: the shop circle -----------------------------------------------------------------

CIRCLE_SIZE = 360
SHOP_W, SHOP_H = 70, 46


@dataclass(frozen=True)
class SeekOption:
    """Sending the Assistant ``steps`` shops on: the shop reached and the shops restocked on the way."""

    steps: int
    shop: dict[str, Any]
    restocked: tuple[dict[str, Any], ...]


def seek_options(view: dict[str, Any]) -> list[SeekOption]:
    """Where the Assistant can go on this turn's seat's move (the game's range plus its Swiftness) and,
    for each, the shops restocked: the one it leaves and those it passes, one card each while the deck lasts."""
    shops = view["shops"]
    if not shops or view.get("over") or view.get("phase") != "play":
        return []
    seat = (view.get("turn") or {}).get("seat")
    swift = next((p.get("swiftness", 0) or 0 for p in view["players"] if p["seat"] == seat), 0)
    reach = min(len(shops) - 1, int(view.get("move_range", 0)) + int(swift))
    here = int(view["assistant"])
    options = []
    for steps in range(1, reach + 1):
        passed = [shops[(here + j) % len(shops)] for j in range(steps)]
        options.append(SeekOption(steps, shops[(here + steps) % len(shops)],
                                  tuple(passed[:max(0, int(view.get("deck_count", 0)))])))
    return options


def _two_lines(name: str, width: int = 11) -> list[str]:
    words, lines = name.split(), [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width and len(lines) < 2:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}".strip()
    return lines


def mandragora_circle(view: dict[str, Any]) -> Markup:
    shops = view["shops"]
    n = len(shops)
    centre = CIRCLE_SIZE / 2
    radius = centre - SHOP_H / 2 - 16
    options = {o.shop["index"]: o for o in seek_options(view)}
    restock_counts = {shop["index"]: sum(1 for o in options.values() if shop in o.restocked) for shop in shops}

    def point(index: int, r: float = radius) -> tuple[float, float]:
        angle = -math.pi / 2 + 2 * math.pi * index / n  # the start tile at the top, then clockwise
        return centre + r * math.cos(angle), centre + r * math.sin(angle)

    here = int(view["assistant"])
    desc = [f"{s['name']} ({s['time']}): {s['cards']} card{'s' if s['cards'] != 1 else ''}"
            f"{' face down' if s['time'] == 'night' and s['cards'] else ''}{', the Assistant is here' if s['assistant'] else ''}"
            for s in shops]
    parts = [f'<svg class="board m-board" role="img" aria-labelledby="m-board-title m-board-desc" '
             f'width="100%" viewBox="0 0 {CIRCLE_SIZE} {CIRCLE_SIZE}" xmlns="http://www.w3.org/2000/svg" font-size="9" fill="{INK}">',
             '<title id="m-board-title">The shop circle, clockwise from the start tile at the top</title>',
             f'<desc id="m-board-desc">{escape("; ".join(desc))}.</desc>',
             f'<circle class="ring" cx="{centre}" cy="{centre}" r="{radius:.0f}" fill="none" stroke="{LINE}" stroke-width="2"/>']
    if options:  # the reachable arc: from the Assistant to the farthest shop it can reach
        steps = max(o.steps for o in options.values())
        start, end = point(here, radius - SHOP_H / 2 - 8), point(here + steps, radius - SHOP_H / 2 - 8)
        large = 1 if steps > n / 2 else 0
        parts.append(f'<path class="reach" fill="none" stroke="{GOLD_INK}" stroke-width="2" stroke-dasharray="5 3" d="M{start[0]:.0f} {start[1]:.0f}A{radius - SHOP_H / 2 - 8:.0f} '
                     f'{radius - SHOP_H / 2 - 8:.0f} 0 {large} 1 {end[0]:.0f} {end[1]:.0f}"/>')
    deck = int(view.get("deck_count", 0))
    parts.append(f'<text class="deck" x="{centre}" y="{centre - 4}" text-anchor="middle" font-size="22" font-weight="700">{deck}</text>'
                 f'<text x="{centre}" y="{centre + 12}" text-anchor="middle">card{"s" if deck != 1 else ""} in the deck</text>')
    for shop in shops:
        x, y = point(shop["index"])
        night = shop["time"] == "night"
        classes = "shop night" if night else "shop day"
        if shop["assistant"]:
            classes += " here"
        edge = (f'stroke="{GOLD_INK}" stroke-width="3.5"' if shop["assistant"] else f'stroke="{INK_SOFT}" stroke-width="1.2"')
        parts.append(f'<g class="{classes}" data-shop="{escape(shop["id"])}" fill="{"#ffffff" if night else INK}">'
                     f'<rect x="{x - SHOP_W / 2:.0f}" y="{y - SHOP_H / 2:.0f}" width="{SHOP_W}" height="{SHOP_H}" rx="7" '
                     f'fill="{PLUM_DARK if night else CARD}" {edge}/>')
        for line_no, line in enumerate(_two_lines(shop["name"])):
            parts.append(f'<text x="{x:.0f}" y="{y - 10 + line_no * 10:.0f}" text-anchor="middle">{escape(line)}</text>')
        symbol = "☾" if night else "☀"
        count = f'{shop["cards"]} {"hidden" if night else "up"}'
        parts.append(f'<text class="count" x="{x:.0f}" y="{y + 17:.0f}" text-anchor="middle" font-weight="700">'
                     f'<tspan aria-hidden="true">{symbol}</tspan> {count}</text>')
        if shop["start"]:
            parts.append(f'<text class="start" x="{x:.0f}" y="{y - SHOP_H / 2 - 4:.0f}" text-anchor="middle" '
                         f'font-weight="700" fill="{GOLD_INK}">start</text>')
        parts.append("</g>")
        option = options.get(shop["index"])
        inner = point(shop["index"], radius - SHOP_H / 2 - 8)
        if option:  # steps to reach this shop
            parts.append(f'<g class="step"><circle cx="{inner[0]:.0f}" cy="{inner[1]:.0f}" r="8" fill="{GOLD}" stroke="{GOLD_INK}"/>'
                         f'<text x="{inner[0]:.0f}" y="{inner[1] + 3.5:.0f}" text-anchor="middle">{option.steps}</text></g>')
        if restock_counts.get(shop["index"]):  # a card comes here if the Assistant leaves or passes it
            rx, ry = x + SHOP_W / 2 - 2, y - SHOP_H / 2 + 2
            parts.append(f'<g class="restock"><circle cx="{rx:.0f}" cy="{ry:.0f}" r="7" fill="{GOLD}" stroke="{GOLD_INK}"/>'
                         f'<text x="{rx:.0f}" y="{ry + 3:.0f}" text-anchor="middle" font-size="8" font-weight="700" '
                         f'fill="{INK}">+1</text></g>')
        if shop["assistant"]:
            ax, ay = point(shop["index"], radius - SHOP_H / 2 - 8) if not option else inner
            parts.append(f'<g class="assistant" fill="{GOLD_INK}" font-weight="700"><circle cx="{ax:.0f}" cy="{ay - 5:.0f}" r="4"/>'
                         f'<path d="M{ax - 6:.0f} {ay + 7:.0f}Q{ax:.0f} {ay - 6:.0f} {ax + 6:.0f} {ay + 7:.0f}Z"/>'
                         f'<text x="{ax:.0f}" y="{ay + 18:.0f}" text-anchor="middle">Assistant</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


# -- JS&MN: the map ------------------------------------------------------------------------------

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


# -- on the table page ---------------------------------------------------------------------------

@bp.app_template_global()
def board_picture(view: dict[str, Any]) -> Markup:
    """The game's board picture for ``{{ board_picture(view) }}`` on its table page (empty for a game without one)."""
    if view.get("game") == "mandragora":
        return mandragora_circle(view)
    if view.get("game") == "jsmn":
        return jsmn_map(view, content("jsmn").map)
    return Markup("")


@bp.app_template_global()
def seek_preview(view: dict[str, Any]) -> list[SeekOption]:
    return seek_options(view)
