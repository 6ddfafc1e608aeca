"""The database file changing under a running server: deleted, replaced, made read-only or damaged.

The store must refuse a move it cannot keep, with a sentence naming the file and what to do, rather
than answer 200 for a move that is gone after a restart.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_input_safety import read_only

from companion.store import Store, StoreUnavailable
from companion.store.sqlite import (
    DAMAGED,
    DELETED,
    FILE_ID_ENV,
    READ_ONLY,
    REPLACED,
    tell_workers,
)
from companion.web import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"DATABASE": str(tmp_path / "games.sqlite3"), "SECRET_KEY": "k", "TESTING": True})
    yield app
    app.extensions["store"].close()


def new_game(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def draw(client: FlaskClient, game: dict[str, Any], card: str = "golem", version: int = 0) -> Any:
    return client.post(f"/api/games/{game['id']}/moves", headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
                       json={"version": version, "action_id": f"a-{card}", "move": {"type": "draw", "card": card}})


def refused(response: Any, path: Path, sentence: str) -> None:
    assert response.status_code == 503
    assert response.headers["Retry-After"]
    # a phone is told the file's name, never the folder the server keeps it in (the server's log has both)
    assert response.get_json() == {"ok": False, "status": 503, "rule": None,
                                   "error": f"Nothing was saved: {path.name} {sentence}."}  # every error ends a sentence


def test_a_deleted_database_refuses_moves_and_new_games(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    path = Path(app.config["DATABASE"])
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    refused(draw(client, game), path, DELETED)
    refused(client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}), path, DELETED)
    assert not path.exists()  # nothing was written to a new file behind the host's back either


def test_a_replaced_database_refuses_writes(app: Flask, tmp_path: Path) -> None:
    client = app.test_client()
    game = new_game(client)
    path = Path(app.config["DATABASE"])
    other = tmp_path / "other.sqlite3"
    Store(other).close()
    os.replace(other, path)
    refused(draw(client, game), path, REPLACED)


@pytest.mark.parametrize("removed", [("-wal",), ("-wal", "-shm")])
def test_a_deleted_write_ahead_log_refuses_writes_and_keeps_every_acknowledged_move(
        app: Flask, removed: tuple[str, ...]) -> None:
    """An audit deleted ``-wal`` while the server ran: moves went on being answered 200 and read back, and after
    a restart the game and all its moves were gone (they lived only in the unlinked log). Now the first write
    after it writes the log's moves into the database file, says so, and takes no more until a restart."""
    client = app.test_client()
    game, other = new_game(client), new_game(client)
    assert draw(client, game).status_code == 200 and draw(client, other).status_code == 200
    path = Path(app.config["DATABASE"])
    assert Path(f"{path}-wal").stat().st_size > 0  # (the moves are in the log, not yet in the file)
    for suffix in removed:
        Path(f"{path}{suffix}").unlink()
    answer = client.post("/api/games", json={"game": "fillory", "players": ["Cy", "Di"]})
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    said = answer.get_json()["error"]
    assert f"{path.name}'s write-ahead log (games.sqlite3-wal) was deleted" in said and "nothing is lost" in said
    assert str(path.parent) not in said
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1  # reads go on
    # the database file alone (as a server killed now leaves it: its log is gone) holds both games and moves
    alone = path.with_name("alone.sqlite3")
    alone.write_bytes(path.read_bytes())
    copy = Store(alone)
    try:
        assert copy.current(game["id"])[0] == 1 and copy.current(other["id"])[0] == 1
    finally:
        copy.close()
    app.extensions["store"].close()  # the server stops...
    restarted = Store(path)  # ...and starts again: both games and their moves are there, the refused one not
    try:
        assert restarted.current(game["id"])[0] == 1 and restarted.current(other["id"])[0] == 1
        assert restarted.game_count() == 2
    finally:
        restarted.close()


def test_a_worker_started_after_the_database_was_deleted_answers_503_and_makes_no_new_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """gunicorn replaces a worker that crashed; the database had been deleted meanwhile. The new worker made a
    new, empty file beside the old log, failed its migration on it ("disk I/O error: free some disk space")
    and failed to boot, and gunicorn then stopped the whole server. Now it opens the file the server started
    on or none: every use is the same 503 the other workers give."""
    path = tmp_path / "games.sqlite3"
    config = {"DATABASE": str(path), "SECRET_KEY": "k", "TESTING": True}
    first = create_app(config)
    game = new_game(first.test_client())
    monkeypatch.delenv(FILE_ID_ENV, raising=False)
    tell_workers(path)  # as companion serve does before it starts the workers
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    late = create_app(config)  # the replacement worker boots
    client = late.test_client()
    refused(draw(client, game), path, DELETED)
    assert client.get(f"/api/games/{game['id']}").status_code == 503
    assert client.get("/c/fillory/quentin").status_code == 200  # what needs no database goes on
    assert not path.exists()
    Store(tmp_path / "other.sqlite3").close()
    os.replace(tmp_path / "other.sqlite3", path)  # another file put in its place: not the one served
    refused(create_app(config).test_client().post("/api/games", json={"game": "fillory", "players": ["A", "B"]}),
            path, REPLACED)
    first.extensions["store"].close()
    late.extensions["store"].close()


def test_a_database_made_read_only_while_serving_is_a_503_not_a_500(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    path = Path(app.config["DATABASE"])
    answers: list[Any] = []
    with read_only(path):
        # a worker thread that opens its connection now gets a read-only one
        thread = threading.Thread(target=lambda: answers.append(draw(client, game)))
        thread.start()
        thread.join()
    refused(answers[0], path, READ_ONLY)
    assert draw(client, game).status_code == 200  # writable again: the move goes through


def test_a_damaged_database_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    store = Store(path)
    for _ in range(30):
        store.create_game("fillory", ["Ann", "Ben"], {})
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    with open(path, "r+b") as raw:  # scribble over the games table's first page: quick_check finds it
        raw.seek((root - 1) * page_size)
        raw.write(b"\x07" * 64)
    with pytest.raises(StoreUnavailable) as raised:
        create_app({"DATABASE": str(path), "SECRET_KEY": "k"})
    message = str(raised.value)
    assert message.startswith(f"{path} is damaged (SQLite's quick_check: ")
    assert message.endswith(DAMAGED.split("); ", 1)[1])


def test_a_game_keeps_at_most_so_many_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.store.common as store_module

    monkeypatch.setattr(store_module, "MAX_LOG_ENTRIES", 2)
    store = Store(tmp_path / "m.sqlite3")
    game = store.create_game("fillory", ["Ann", "Ben"], {})
    for version, card in enumerate(("golem", "ember")):
        store.apply_move(game["id"], 0, version, f"a{version}", {"type": "draw", "card": card})
    with pytest.raises(store_module.IllegalMove) as refused:
        store.apply_move(game["id"], 0, 2, "a2", {"type": "draw", "card": "djinn"})
    assert str(refused.value) == "This game has reached 2 moves, the most one game keeps; start a new game to go on."
    assert store.version(game["id"]) == 2
    store.close()


def test_the_wal_is_cut_back_after_a_checkpoint(tmp_path: Path) -> None:
    from companion.store.sqlite import WAL_SIZE_LIMIT

    path = tmp_path / "w.sqlite3"
    store = Store(path)
    db = store.backend._db()
    db.execute("PRAGMA wal_autocheckpoint=0")  # let the log grow past the limit first
    db.execute("CREATE TABLE filler (x BLOB)")
    for _ in range(12):
        db.execute("INSERT INTO filler VALUES (randomblob(1000000))")
        db.commit()
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 2 * WAL_SIZE_LIMIT
    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    db.execute("INSERT INTO filler VALUES (1)")  # the next write starts the log again, cut to the limit
    db.commit()
    assert wal.stat().st_size <= WAL_SIZE_LIMIT
    store.close()


def test_games_are_listed_exported_and_purged_on_the_schedule(tmp_path: Path) -> None:
    from datetime import datetime, timedelta, timezone

    from click.testing import CliRunner

    from companion import archive
    from companion.cli import main

    path = tmp_path / "p.sqlite3"
    store = Store(path)
    finished = store.create_game("barony-sorcery", ["Ann", "Ben"], {})
    for version, (seat, move) in enumerate([(0, {"type": "end_game"}), (0, {"type": "base_points", "points": 3}),
                                            (1, {"type": "base_points", "points": 4}), (0, {"type": "confirm_totals"}),
                                            (1, {"type": "confirm_totals"})]):
        store.apply_move(finished["id"], seat, version, f"a{version}", move)
    playing = store.create_game("fillory", ["Cat", "Dan"], {})
    store.apply_move(playing["id"], 0, 0, "p0", {"type": "draw", "card": "golem"})
    now = datetime.now(timezone.utc)
    assert archive.due(store, now) == []
    assert [g["id"] for g in archive.due(store, now + timedelta(days=31))] == [finished["id"]]
    assert {g["id"] for g in archive.due(store, now + timedelta(days=91))} == {finished["id"], playing["id"]}
    store.close()

    runner = CliRunner()
    listed = runner.invoke(main, ["games", "--db", str(path)])
    assert listed.exit_code == 0 and finished["id"] in listed.output and "over" in listed.output
    exported = runner.invoke(main, ["export", finished["id"], "--db", str(path)])
    record = json.loads(exported.output)
    assert [entry["move"]["type"] for entry in record["log"]] == ["end_game", "base_points", "base_points",
                                                                     "confirm_totals", "confirm_totals"]
    assert record["over"] is True and record["players"] == ["Ann", "Ben"]
    assert runner.invoke(main, ["export", "nope", "--db", str(path)]).output == "Error: there is no game 'nope'\n"
    dry = runner.invoke(main, ["purge", "--db", str(path), "--finished-days", "0", "--dry-run"])
    assert f"would remove {finished['id']}" in dry.output and "1 game(s) would be removed" in dry.output
    purged = runner.invoke(main, ["purge", "--db", str(path), "--finished-days", "0"])
    assert purged.exit_code == 0 and "1 game(s) removed" in purged.output
    store = Store(path)
    assert [g["id"] for g in archive.games(store)] == [playing["id"]]
    with sqlite3.connect(path) as db:  # the log is append-only again for the server
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):  # the playing game's move stays
            db.execute("DELETE FROM moves")
        assert db.execute("SELECT count(*) FROM seats WHERE game_id = ?", [finished["id"]]).fetchone()[0] == 0
    store.close()


@pytest.mark.parametrize("damage", ["truncate", "scribble"])
def test_a_database_cut_short_or_written_over_while_serving_refuses_writes(app: Flask, damage: str) -> None:
    from companion.store.sqlite import TRUNCATED

    client = app.test_client()
    game = new_game(client)
    path = Path(app.config["DATABASE"])
    store = app.extensions["store"]
    store.backend._db().execute("PRAGMA wal_checkpoint(TRUNCATE)")   # the games are in the file itself now
    size = path.stat().st_size
    if damage == "truncate":                     # `truncate -s 0`: the same inode, so not "replaced"
        os.truncate(path, 0)
        detail = f"it is 0 bytes, down from {size:,}"
    else:                                        # garbage over the start of the file, size unchanged
        with open(path, "r+b") as raw:
            raw.write(b"garbage" * 20)
        detail = "its first bytes are no longer SQLite's header"
    head, tail = TRUNCATED.split("{detail}")
    for answer in (draw(client, game), client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]})):
        assert answer.status_code == 503 and answer.headers["Retry-After"]
        error = answer.get_json()["error"]
        assert error.startswith(f"Nothing was saved: {path.name} {head}{detail.split(' down from')[0]}"), error
        assert error.endswith(f"{tail}.")
    assert size > 0


def test_a_full_disk_answers_a_new_game_without_speaking_of_moves(app: Flask) -> None:
    client = app.test_client()
    new_game(client)
    db = app.extensions["store"].backend._db()
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")  # as a full disk answers
    for _ in range(100):   # the free room left in the file's last pages fills first
        answer = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]})
        if answer.status_code != 201:
            break
    assert answer.status_code == 503
    error = answer.get_json()["error"]
    assert "full" in error and "free some disk space and try again" in error
    assert "move" not in error


def test_a_restart_on_a_database_cut_to_nothing_refuses_to_start_as_new(tmp_path: Path) -> None:
    """``truncate -s 0`` keeps the file's name but none of its games: a restart on it used to say "a new, empty
    database" as if nothing had been there. It is refused, saying what happened and what to do; ``init-db`` then
    makes a new database in it on purpose (not when a write-ahead log beside it may still hold games)."""
    from click.testing import CliRunner

    from companion.cli import main
    from companion.store import StoreUnavailable
    from companion.store.sqlite import EMPTY

    path = tmp_path / "club.sqlite3"
    store = Store(path)
    store.create_game("fillory", ["Ann", "Ben"], {})
    store.close()
    os.truncate(path, 0)
    for _ in range(2):  # refused, and the refusal changes nothing
        with pytest.raises(StoreUnavailable) as refused:
            Store(path)
        assert str(refused.value) == f"{path} " + EMPTY.format(path=path)
        assert path.stat().st_size == 0
    served = CliRunner().invoke(main, ["games", "--db", str(path)])
    assert served.exit_code == 1 and "is empty (0 bytes)" in served.output and "new, empty" not in served.output

    wal = path.with_name(path.name + "-wal")
    wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(28))  # a log that may still hold games
    kept = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert kept.exit_code == 1 and "may still hold games" in kept.output and path.stat().st_size == 0
    wal.unlink()
    made = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert made.exit_code == 0 and "was empty (0 bytes, no games in it)" in made.output, made.output
    store = Store(path)
    try:
        assert store.game_count() == 0 and path.stat().st_size > 0
    finally:
        store.close()
