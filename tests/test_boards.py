"""Board pictures on the table page: the Mandragora shop circle and the JS&MN map, from public view data."""

from __future__ import annotations

import html
import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from cardgen.catalog import content
from companion.rules import rules_for
from companion.web.games.jsmn_board import LABEL_SPOTS, jsmn_map, place_labels
from companion.web.games.mandragora_board import mandragora_circle, seek_options


def played(game: str, players: int, moves: int, seed: int) -> Any:
    rules = rules_for(game)
    state = rules.setup([f"P{i}" for i in range(players)], {}, random.Random(seed))
    rng = random.Random(seed)
    for _ in range(moves):
        offered = [(s, m) for s in range(players) if (m := rules.random_legal_move(state, s, rng)) is not None]
        if not offered or rules.outcome(state).over:
            break
        seat, move = rng.choice(offered)
        state = rules.apply(state, seat, move)
    return state


def test_the_shop_circle_shows_every_shop_its_cards_and_the_assistant() -> None:
    rules = rules_for("mandragora")
    view = rules.view(played("mandragora", 3, 9, seed=4), None)
    svg = str(mandragora_circle(view))
    shops = re.findall(r'<g class="shop (day|night)( here)?" data-shop="([\w-]+)"[^>]*>(.*?)</g>', svg)
    assert [s[2] for s in shops] == [shop["id"] for shop in view["shops"]]
    for (time, here, _, inner), shop in zip(shops, view["shops"], strict=True):
        assert time == shop["time"] and bool(here) == shop["assistant"]
        assert f'{shop["cards"]} {"hidden" if time == "night" else "up"}</text>' in inner  # night cards lie face down
        assert ("☾" if time == "night" else "☀") in inner
    assert svg.count('<g class="assistant"') == 1 and f">{view['deck_count']}</text>" in svg
    assert 'role="img"' in svg and "<desc" in svg


def test_the_restock_preview_follows_the_rules_of_seeking() -> None:
    shops = [{"index": i, "id": f"s{i}", "name": f"Shop {i}", "time": "day", "start": i == 0, "cards": i % 3,
              "assistant": i == 8} for i in range(10)]
    view = {"game": "mandragora", "phase": "play", "over": False, "assistant": 8, "move_range": 3, "deck_count": 2,
            "shops": shops, "turn": {"seat": 1}, "players": [{"seat": 0, "swiftness": 0}, {"seat": 1, "swiftness": 1}]}
    options = seek_options(view)
    assert [(o.steps, o.shop["index"]) for o in options] == [(1, 9), (2, 0), (3, 1), (4, 2)]  # range 3 + Swiftness 1
    # the shop left and those passed get a card each, while the deck (2 cards) lasts
    assert [[s["index"] for s in o.restocked] for o in options] == [[8], [8, 9], [8, 9], [8, 9]]
    svg = str(mandragora_circle(view))
    steps = re.findall(r'<g class="step"><circle[^>]*/><text[^>]*>(\d)</text>', svg)
    assert sorted(steps) == ["1", "2", "3", "4"]
    assert svg.count('<g class="restock">') == 2
    assert seek_options({**view, "phase": "over", "over": True}) == []


def test_the_map_shows_every_place_path_and_magician() -> None:
    rules = rules_for("jsmn")
    view = rules.view(played("jsmn", 3, 60, seed=2), None)
    europe_map = content("jsmn").map
    svg = str(jsmn_map(view, europe_map))
    names = re.findall(r'<text x="\d+" y="\d+"[^>]*>([^<]+)</text>', svg)
    assert {html.unescape(n) for n in names} >= {loc.name for loc in europe_map.locations}
    assert svg.count('<circle cx=') >= len(europe_map.locations) - 1 and svg.count('class="london"') == 1
    lines = re.search(r'<path class="paths"[^>]* d="([^"]+)"', svg).group(1)
    assert lines.count("M") == len(europe_map.paths)  # every path (a path to London ends at its diamond)
    standing = [p for p in view["players"] if p.get("location")]
    assert standing, "some magician has moved by now"
    for p in standing:
        assert re.search(rf'<g class="magician series-{p["seat"]}" data-seat="{p["seat"]}" data-place="{p["location"]}"', svg)
        assert f"{p['name']} ({p['magician_name']}): {p['location_name']}" in svg  # said in words too
    assert "City of London" in svg and svg.count('class="legend series-') == 3


def test_labels_keep_clear_of_each_other_where_there_is_room() -> None:
    labels = [("a", 100, 100, "Alpha"), ("b", 104, 100, "Beta"), ("c", 100, 104, "Gamma")]
    spots = place_labels(labels, [(x, y) for _, x, y, _ in labels], (0, 0, 300, 300))
    assert len(set(spots.values())) == 3
    assert place_labels([("a", 100, 100, "Alpha")], [(100, 100)], (0, 0, 300, 300)) == {"a": (105, 103, "start")}
    assert place_labels([("a", 290, 100, "Alpha")], [(290, 100)], (0, 0, 300, 300)) == {"a": (285, 103, "end")}
    assert all((x - 100, y - 100, anchor) in [(dx + d, dy + e, a) for dx, dy, a in LABEL_SPOTS for d in (0, 4) for e in (0, 4)]
               for x, y, anchor in spots.values())


def test_the_table_pages_show_their_board(app: Flask, client: FlaskClient) -> None:
    store = app.extensions["store"]
    for game, board in (("mandragora", "m-board"), ("jsmn", "j-board")):
        created = store.create_game(game, ["Ann", "Ben", "Cat"], {})
        page = client.get(f"/g/{created['id']}").get_data(as_text=True)
        assert page.count(f'<svg class="board {board}"') == 1, game
        live = client.get(f"/g/{created['id']}/live").get_data(as_text=True)
        assert live.count(f'<svg class="board {board}"') == 1, game
    fillory = store.create_game("fillory", ["Ann", "Ben"], {})
    assert '<svg class="board' not in client.get(f"/g/{fillory['id']}").get_data(as_text=True)

