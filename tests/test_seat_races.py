"""Seats raced across nodes (two apps on one database, as two ``companion serve`` nodes are).

Taking a seat over with a code, at the instant a write of the same game touches the seat's code (another code
asked for, a release), waits its turn: on PostgreSQL it never deadlocks (which PostgreSQL breaks by cancelling
one of them: a 503 on a phone)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Iterator

import psycopg
import pytest
from flask import Flask

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
