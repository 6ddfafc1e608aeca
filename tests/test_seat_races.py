"""Seats raced across nodes (two apps on one database, as two ``companion serve`` nodes are), on both backends.

A request's seat token is checked when the request comes in, and again where its write is made: a seat handed on
(or released) through another node in between leaves the old phone's rename or hand-over code unwritten, answered
with its 401 (its move, take-back, correction or put-back carried the version the hand-over's log entry moved on
from: refused as stale, or with its 401). And taking a seat over with a code, at the instant a
write of the same game touches the seat's code (another code asked for, a release), waits its turn: on
PostgreSQL it never deadlocks (which PostgreSQL breaks by cancelling one of them: a 503 on a phone)."""

from __future__ import annotations

import random
import re
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES
from companion.store import NotFound, Store
from companion.web import create_app

CEILING = 30  # seconds: a ceiling for a busy machine, never a wait


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "companion.sqlite3")
    return str(request.getfixturevalue("postgres_dsn"))


@pytest.fixture
def nodes(database: str) -> Iterator[tuple[Flask, Flask]]:
    """Two apps on one database, each with its own store and caches, as two nodes (or workers) are."""
    made = [create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k"}) for _ in range(2)]
    yield made[0], made[1]
    for app in made:
        app.extensions["store"].close()


def _post(client: FlaskClient, path: str, token: str | None, body: dict[str, Any]) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(path, headers=headers, json=body)


def _first_move(client: FlaskClient, app: Flask, game: str) -> tuple[dict[str, Any], int]:
    """A new game of ``game`` with one legal move made by the seat returned."""
    rules = GAMES[game]
    players = [f"P{i}" for i in range(max(rules.MIN_PLAYERS, 2))]
    table = _post(client, "/api/games", None, {"game": game, "players": players}).get_json()
    _, state = app.extensions["store"].current(table["id"])
    rng = random.Random(7)
    for seat in range(len(players)):
        move = rules.random_legal_move(state, seat, rng)
        if move is not None:
            made = _post(client, f"/api/games/{table['id']}/moves", table["seats"][seat]["token"],
                         {"version": 0, "action_id": "first", "move": move})
            assert made.status_code == 200, made.get_data(as_text=True)
            return table, seat
    raise AssertionError(f"{game}: no seat has a legal move at set-up")


def _request(action: str, app: Flask, table: dict[str, Any], seat: int) -> tuple[str, dict[str, Any]]:
    """The path and body of ``action`` by ``seat`` at the game's version now."""
    game_id = table["id"]
    version = app.extensions["store"].version(game_id)
    writes = {"version": version, "action_id": f"{action}-late"}
    if action == "move":
        _, state = app.extensions["store"].current(game_id)
        move = GAMES[table_game(app, game_id)].random_legal_move(state, seat, random.Random(8))
        return f"/api/games/{game_id}/moves", {**writes, "move": move or {"type": "no such move"}}
    if action == "undo":
        return f"/api/games/{game_id}/undo", writes
    if action == "correct":  # the seat removes its own move
        return f"/api/games/{game_id}/correct", {**writes, "seq": 1, "move": None}
    if action == "revert":
        return f"/api/games/{game_id}/revert", {**writes, "entry": version}
    if action == "rename":
        return f"/api/games/{game_id}/seats/{seat}/rename", {"name": "Latecomer"}
    return f"/api/games/{game_id}/seats/{seat}/handover", {}


def table_game(app: Flask, game_id: str) -> str:
    return str(app.extensions["store"].info(game_id)["game"])


def _handed_on_after_the_check(app: Flask, other: Flask, game_id: str, code: str) -> None:
    """The next time ``app``'s store finds a token's seat in this game, the seat is taken over with ``code``
    through ``other`` just after (between the request's check and its write)."""
    store = app.extensions["store"]
    found: Callable[[str, str], int | None] = store.seat_for_token
    armed = [True]

    def then_taken(game: str, token: str) -> int | None:
        seat = found(game, token)
        if armed[0] and game == game_id and seat is not None:
            armed[0] = False
            other.extensions["store"].take_handover(code)
        return seat

    store.seat_for_token = then_taken  # type: ignore[method-assign]


@pytest.mark.parametrize("action", ["move", "undo", "correct", "revert", "rename", "handover"])
def test_a_seat_handed_on_while_its_old_token_writes_leaves_nothing_written(
        nodes: tuple[Flask, Flask], action: str) -> None:
    node, other = nodes
    client = node.test_client()
    for game in sorted(GAMES):
        table, seat = _first_move(client, node, game)
        game_id, token = table["id"], table["seats"][seat]["token"]
        if action == "revert":  # a take-back of the seat's own move, to put back
            undone = _post(client, f"/api/games/{game_id}/undo", token, {"version": 1, "action_id": "undo"})
            assert undone.status_code == 200, undone.get_data(as_text=True)
        code = _post(other.test_client(), f"/api/games/{game_id}/seats/{seat}/handover", token, {}).get_json()["code"]
        store = node.extensions["store"]
        store.forget_token(game_id, token)  # (this node finds the token's seat again: the check before the write)
        path, body = _request(action, node, table, seat)
        _handed_on_after_the_check(node, other, game_id, code)
        answer = _post(client, path, token, body)
        if action in ("rename", "handover"):  # (no version to be stale: the seat's token alone says no)
            assert answer.status_code == 401, (game, answer.get_data(as_text=True))
            assert "no longer holds" in answer.get_json()["error"]
        else:  # the hand-over is an entry of the log, so the old token's write is refused as stale too
            assert answer.status_code in (401, 409), (game, answer.get_data(as_text=True))
        entries = store.log(game_id, None)
        assert entries[-1]["kind"] == "seat" and entries[-1]["seq"] == store.version(game_id), (game, entries[-1])
        assert not any(e["text"].endswith("is now called Latecomer") for e in entries)


def _waiting_on_a_lock(dsn: str) -> bool:
    with psycopg.connect(dsn, autocommit=True) as look:
        rows = look.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                            " AND wait_event_type = 'Lock'").fetchone()
    return bool(rows and rows[0])


def test_taking_a_seat_over_while_its_game_is_written_waits_its_turn(postgres_dsn: str) -> None:
    store = Store(postgres_dsn)
    try:
        game = sorted(GAMES)[0]
        players = [f"P{i}" for i in range(max(GAMES[game].MIN_PLAYERS, 2))]
        game_id = store.create_game(game, players, {})["id"]
        code = store.handover_code(game_id, 0)["code"]
        outcome: list[Any] = []

        def take() -> None:
            try:
                outcome.append(store.take_handover(code))
            except Exception as error:
                outcome.append(error)

        with psycopg.connect(postgres_dsn) as writer:
            # another node's write of this game, as a new code asked for (or a release) makes it: the game's row
            # locked first, then the seat's code replaced, while the code is being taken
            writer.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [game_id])
            taker = threading.Thread(target=take)
            taker.start()
            deadline = time.monotonic() + CEILING
            while not _waiting_on_a_lock(postgres_dsn):
                assert time.monotonic() < deadline, "the hand-over never waited for the game's row"
                time.sleep(0.02)
            writer.execute("DELETE FROM seat_handovers WHERE game_id = %s AND seat = 0", [game_id])
            writer.commit()
        taker.join(CEILING)
        assert len(outcome) == 1 and isinstance(outcome[0], NotFound), outcome  # the code it took was replaced
    finally:
        store.close()


@pytest.mark.parametrize("page", ["handover", "rename"])
def test_a_seat_page_handed_on_while_it_asks_writes_nothing(nodes: tuple[Flask, Flask], page: str) -> None:
    """The seat page's own forms (its cookie holds the token): the same check again inside the write."""
    node, other = nodes
    client = node.test_client()
    game = sorted(GAMES)[0]
    table, seat = _first_move(client, node, game)
    game_id, token = table["id"], table["seats"][seat]["token"]
    code = _post(other.test_client(), f"/api/games/{game_id}/seats/{seat}/handover", token, {}).get_json()["code"]
    client.set_cookie(f"seat_{game_id}_{seat}", token)
    form = re.search(r'name="csrf_token" value="([^"]+)"', client.get(f"/g/{game_id}/seat/{seat}/fix").get_data(as_text=True))
    assert form is not None
    store = node.extensions["store"]
    store.forget_token(game_id, token)
    _handed_on_after_the_check(node, other, game_id, code)
    if page == "handover":
        answer = client.post(f"/g/{game_id}/seat/{seat}/handover", data={"csrf_token": form.group(1)})
    else:
        answer = client.post(f"/g/{game_id}/seats/{seat}/rename", data={"name": "Latecomer", "csrf_token": form.group(1)})
    assert answer.status_code == 403, answer.get_data(as_text=True)
    entries = store.log(game_id, None)
    assert entries[-1]["kind"] == "seat" and entries[-1]["seq"] == store.version(game_id)
    assert not any(e["text"].endswith("is now called Latecomer") for e in entries)
    assert store.backend.rows("SELECT count(*) AS n FROM seat_handovers WHERE game_id = ? AND used IS NULL",
                              [game_id])[0]["n"] == 0  # the old phone holds no code to take the seat back
