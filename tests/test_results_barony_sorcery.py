"""Barony: Sorcery's end on the table, the result page and in its exports: a shared win on equal totals is the
project's reading (the expansion gives no tie-break; a table may use the base game's), and says so."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient


def _ended(app: Flask, points: tuple[int, int]) -> str:
    store = app.extensions["store"]
    game = store.create_game("barony-sorcery", ["Ann", "Ben"], {})["id"]
    moves = [(0, {"type": "end_game"}), (0, {"type": "base_points", "points": points[0]}),
             (1, {"type": "base_points", "points": points[1]}), (0, {"type": "confirm_totals"}),
             (1, {"type": "confirm_totals"})]
    for n, (seat, move) in enumerate(moves):
        store.apply_move(game, seat, store.version(game), f"m-{n}", move)
    return str(game)


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_a_shared_win_on_equal_totals_says_it_is_our_reading(app: Flask, client: FlaskClient) -> None:
    """"Ann and Ben share the win" stood on every page and export with no word that the expansion gives no
    tie-break and that the rule (barony-sorcery.score.tie) lets a table use the base game's instead."""
    game = _ended(app, (40, 40))
    note = "(our reading: the expansion gives no tie-break; a table may use the base game's)"
    data = client.get(f"/g/{game}/result.json").get_json()
    assert data["outcome"]["reason"] == f"Ann and Ben share the win with 40 points each {note}"
    assert data["outcome"]["rule"] == "barony-sorcery.score.tie" and data["teams"] is None
    assert client.get(f"/g/{game}/result.bgstats.json").get_json()["comments"].startswith(data["outcome"]["reason"])
    assert note in _text(client.get(f"/g/{game}/result").get_data(as_text=True))
    table = client.get(f"/g/{game}").get_data(as_text=True)
    assert "Our reading: the expansion gives no tie-break; a table may use the base game's" in _text(table)
    assert "/rules/barony-sorcery#barony-sorcery.score.tie" in table


def test_a_sole_winner_has_no_reading_to_declare(app: Flask, client: FlaskClient) -> None:
    game = _ended(app, (41, 40))
    data = client.get(f"/g/{game}/result.json").get_json()
    assert data["outcome"]["reason"] == "Ann has the most points: 41" and data["outcome"]["rule"] is None
    assert 'id="ending-reading"' not in client.get(f"/g/{game}").get_data(as_text=True)
