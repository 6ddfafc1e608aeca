"""A move's seat token checked where the move is written (PostgreSQL: in the move's one statement), on both
backends: a process that remembers a token's seat (:meth:`companion.store.Store.known_seat`) still answers a
token released through another process with its 401, before any 409, 422 or 429, and writes nothing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES
from companion.web import create_app

PHONE = {"REMOTE_ADDR": "192.0.2.30"}  # (not loopback: the seats' move rate counts it)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "companion.sqlite3")
    return str(request.getfixturevalue("postgres_dsn"))


def _apps(database: str, **settings: Any) -> Iterator[Flask]:
    """Apps on one database, as two processes (or nodes) would be: each with its own store and caches."""
    made: list[Flask] = []
    try:
        while True:
            app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k", **settings})
            made.append(app)
            yield app
    finally:
        for app in made:
            app.extensions["store"].close()


def _table(client: FlaskClient, app: Flask, game: str) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """A new game of ``game``, a seat with a legal move at version 0, and that move."""
    rules = GAMES[game]
    players = [f"P{i}" for i in range(max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS)))]
    created = client.post("/api/games", json={"game": game, "players": players}, environ_overrides=PHONE)
    assert created.status_code == 201, created.get_data(as_text=True)
    table = created.get_json()
    _, state = app.extensions["store"].current(table["id"])
    rng = random.Random(3)
    for seat in range(len(players)):
        move = rules.random_legal_move(state, seat, rng)
        if move is not None:
            return table, seat, move
    pytest.skip(f"{game}: no seat has a legal move at set-up")


def _move(client: FlaskClient, table: dict[str, Any], token: str, version: int, action: str,
          move: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{table['id']}/moves", headers={"Authorization": f"Bearer {token}"},
                       environ_overrides=PHONE, json={"version": version, "action_id": action, "move": move})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_remembered_token_released_elsewhere_gets_its_401_before_anything_else(database: str, game: str) -> None:
    apps = _apps(database, MOVE_LIMIT="5 per minute")
    node, other = next(apps), next(apps)
    try:
        client = node.test_client()
        table, seat, move = _table(client, node, game)
        token = table["seats"][seat]["token"]
        store = node.extensions["store"]
        assert client.get(f"/api/games/{table['id']}", headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert store.known_seat(table["id"], token) == seat  # remembered by this process: no look-up next time
        assert _move(client, table, token, 5, "stale", move).status_code == 409
        assert _move(client, table, token, 0, "odd", {"type": "no such move"}).status_code in (400, 422)
        done = _move(client, table, token, 0, "a0", move)
        assert done.status_code == 200 and done.get_json()["version"] == 1
        again = _move(client, table, token, 0, "a0", move)  # a retry: the first answer, nothing written twice
        assert again.status_code == 200 and again.get_json()["seq"] == 1

        released = other.test_client().post(f"/api/games/{table['id']}/seats/{seat}/release",
                                            headers={"Authorization": f"Bearer {table['host_token']}"})
        assert released.status_code == 200
        assert store.known_seat(table["id"], token) == seat  # this process has not heard: its guess is stale
        rng = random.Random(5)
        after, state = store.current(table["id"])  # (a release is an entry of the log: a version of its own)
        entries = len(store.log(table["id"], None))
        legal = GAMES[game].random_legal_move(state, seat, rng) or move
        # 401 before anything else: the first checked in the move's write (its 5th move this minute), the others
        # past the seat's rate (checked before its 429), each with the stale guess remembered again
        for version, body in ((after, legal), (after, {"type": "no such move"}), (after + 5, legal)):
            store._remember_token(table["id"], token, seat)
            refused = _move(client, table, token, version, f"after-{version}-{len(body)}", body)
            assert refused.status_code == 401, refused.get_data(as_text=True)
            assert "no longer holds" in refused.get_json()["error"]
        assert store.version(table["id"]) == after and len(store.log(table["id"], None)) == entries  # nothing written
    finally:
        apps.close()


def test_a_remembered_token_of_a_seat_moves_as_before_on_every_backend(database: str) -> None:
    """The way with a remembered token writes what the usual way writes (version, log, state)."""
    apps = _apps(database)
    node = next(apps)
    try:
        client = node.test_client()
        for game in sorted(GAMES):
            table, seat, move = _table(client, node, game)
            token = table["seats"][seat]["token"]
            first = _move(client, table, token, 0, "first", move)  # found by look-up, then remembered
            assert first.status_code == 200
            store = node.extensions["store"]
            assert store.known_seat(table["id"], token) == seat
            _, state = store.current(table["id"])
            follow = GAMES[game].random_legal_move(state, seat, random.Random(9))
            if follow is None:
                continue
            second = _move(client, table, token, 1, "second", follow)
            assert second.status_code == 200 and second.get_json()["version"] == 2
            assert [e["seq"] for e in store.log(table["id"], None)] == [1, 2]
    finally:
        apps.close()
