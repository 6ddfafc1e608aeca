"""Mandragora's board picture: the shop circle on the table page (inline SVG, from public view data only).

The ten shops clockwise from the start tile (day shops light with a sun, night shops dark with a moon),
each shop's card count (night shops' cards lie face down), the Assistant, the deck in the middle, and the
restock preview: the shops the Assistant can reach this turn, numbered by steps, and what each move would
take and restock (also said in words under it, from :func:`seek_options`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from companion.web.boards import CARD, GOLD, GOLD_INK, INK, INK_SOFT, LINE, PLUM_DARK

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
