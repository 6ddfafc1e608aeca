"""The PostgreSQL store's schema (companion/store/postgres.py): the SQLite store's tables and migrations, one for
one, the log append-only but for a purge, and nodes that start together migrate once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

from companion.store import Store, StoreUnavailable
from companion.store import sqlite as store_db
from companion.store.postgres import MIGRATIONS, VERSIONS_CHANNEL, is_postgres, redacted
from companion.store.postgres import PostgresBackend as PostgresDatabase


def _columns_sqlite(path: Path) -> dict[str, list[str]]:
    store = Store(path)
    try:
        db = store.backend._db()  # type: ignore[attr-defined]
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]
        return {table: [row[1] for row in db.execute(f"PRAGMA table_info({table})").fetchall()] for table in tables}
    finally:
        store.close()


def _columns_postgres(dsn: str) -> dict[str, list[str]]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT table_name, column_name FROM information_schema.columns"
                            " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position").fetchall()
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(table, []).append(column)
    return found


def test_the_migrations_are_the_sqlite_stores_one_for_one() -> None:
    assert [name for name, _ in MIGRATIONS] == [name for name, _ in store_db.MIGRATIONS]


def test_the_tables_and_columns_are_the_sqlite_stores(postgres_dsn: str, tmp_path: Path) -> None:
    database = PostgresDatabase(postgres_dsn)
    try:
        columns = _columns_postgres(postgres_dsn)
        # beyond the store's schema: the counters and the purge's stamp SQLite keeps in files beside its own
        assert columns.pop("rate_counters") == ["key", "count", "expires"]
        assert columns.pop("purge_schedule") == ["id", "last_run"]
        assert columns == _columns_sqlite(tmp_path / "companion.sqlite3")
        assert [m["number"] for m in database.migrations()] == list(range(1, len(MIGRATIONS) + 1))
        assert database.format_version() == len(store_db.MIGRATIONS)
    finally:
        database.close()


def test_opening_again_migrates_nothing(postgres_dsn: str) -> None:
    first = PostgresDatabase(postgres_dsn)
    applied = first.migrations()
    first.close()
    again = PostgresDatabase(postgres_dsn)
    try:
        assert again.migrations() == applied
    finally:
        again.close()


def test_nodes_starting_together_migrate_once(postgres_dsn: str) -> None:
    opened: list[PostgresDatabase] = []
    failures: list[BaseException] = []

    def start() -> None:
        try:
            opened.append(PostgresDatabase(postgres_dsn))
        except BaseException as error:  # noqa: B036  # reported below
            failures.append(error)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    try:
        assert failures == [] and len(opened) == 6
        assert [m["number"] for m in opened[0].migrations()] == list(range(1, len(MIGRATIONS) + 1))
    finally:
        for database in opened:
            database.close()


def _a_game_with_a_move(db: Any) -> None:
    db.execute("INSERT INTO games (id, game, join_code, players, options, seed, initial_state, state, version,"
               " created) VALUES ('g1', 'toy', 'ABCDEF', '[]', '{}', ?, '{}', '{}', 1, 'now')", [2**62])
    db.execute("INSERT INTO seats (game_id, seat, name) VALUES ('g1', 0, 'Ann')")
    db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, action_id, result, created)"
               " VALUES ('g1', 1, 0, 'move', '{}', 'a1', '{}', 'now')")


def test_the_log_is_append_only_but_for_a_purge(postgres_dsn: str) -> None:
    database = PostgresDatabase(postgres_dsn)
    try:
        with database.write() as db:
            _a_game_with_a_move(db)
        for change in ("UPDATE moves SET seat = 1", "DELETE FROM moves"):
            with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
                with database.write("g1") as db:
                    db.execute(change)
        assert database._db().execute("SELECT count(*) FROM moves").fetchone() == (1,)
        with database.write("g1") as db:
            database.delete_log(db, ["g1"])
            assert db.execute("SELECT count(*) FROM moves").fetchone() == (0,)
        with pytest.raises(psycopg.errors.RestrictViolation):  # the purge's permission ended with it
            with database.write() as db:
                _a_game_with_a_move_again(db)
                db.execute("DELETE FROM moves")
    finally:
        database.close()


def _a_game_with_a_move_again(db: Any) -> None:
    db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, action_id, result, created)"
               " VALUES ('g1', 1, 0, 'move', '{}', 'a1', '{}', 'now')")


def test_the_log_refuses_a_kind_it_does_not_know(postgres_dsn: str) -> None:
    database = PostgresDatabase(postgres_dsn)
    try:
        with database.write() as db:
            _a_game_with_a_move(db)
        for seq, kind in enumerate(("undo", "correct", "seat", "revert"), 2):
            with database.write("g1") as db:
                db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, action_id, result, created)"
                           " VALUES ('g1', ?, 0, ?, '{}', ?, '{}', 'now')", [seq, kind, kind])
        with pytest.raises(psycopg.errors.CheckViolation):
            with database.write("g1") as db:
                db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, action_id, result, created)"
                           " VALUES ('g1', 99, 0, 'shrug', '{}', 'x', '{}', 'now')")
    finally:
        database.close()


def test_a_game_row_lock_makes_a_second_writer_of_that_game_wait(postgres_dsn: str) -> None:
    database = PostgresDatabase(postgres_dsn)
    try:
        with database.write() as db:
            _a_game_with_a_move(db)
            db.execute("INSERT INTO games (id, game, join_code, players, options, seed, initial_state, state,"
                       " created) VALUES ('g2', 'toy', 'GHIJKL', '[]', '{}', 1, '{}', '{}', 'now')")
        order: list[str] = []
        holding, other_game_done = threading.Event(), threading.Event()

        def second_writer(game: str, done: threading.Event | None) -> None:
            with database.write(game) as db:
                # the lock is the transaction's first statement; in pipeline mode it goes out with the first
                # statement whose answer is read, as every write of the store reads its game first
                db.execute("SELECT version FROM games WHERE id = ?", [game]).fetchone()
                order.append(f"second {game}")
                db.execute("UPDATE games SET version = version + 1 WHERE id = ?", [game])
            if done is not None:
                done.set()

        with database.write("g1") as db:
            # as every write of the store does, it reads its game first: in pipeline mode the lock goes out with
            # that read (until then it may wait in the client's buffer, and the other writer could go first)
            db.execute("SELECT version FROM games WHERE id = ?", ["g1"]).fetchone()
            holding.set()
            same = threading.Thread(target=second_writer, args=("g1", None))
            other = threading.Thread(target=second_writer, args=("g2", other_game_done))
            same.start()
            other.start()
            assert other_game_done.wait(60), "a writer of another game waited for this game's lock"
            with psycopg.connect(postgres_dsn, autocommit=True) as watcher:  # the same game's writer waits...
                waiting = 0
                for _ in range(600):
                    waiting = watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = "
                                              "'Lock' AND datname = current_database()").fetchone()[0]
                    if waiting:
                        break
                    threading.Event().wait(0.1)
                assert waiting == 1
            order.append("first g1")
            db.execute("UPDATE games SET version = version + 1 WHERE id = ?", ["g1"])
        same.join(60)
        other.join(60)
        assert order == ["second g2", "first g1", "second g1"]
        assert database._db().execute("SELECT id, version FROM games ORDER BY id").fetchall() == [("g1", 3), ("g2", 1)]
    finally:
        database.close()


def test_every_version_a_one_statement_move_writes_is_announced_once_and_only_after_its_commit(
        postgres_dsn: str) -> None:
    """Moves of four games from four threads at once: each new version announced once, in its own
    statement just after its commit), none before its commit, and a move that wrote nothing (a stale version) not at all."""
    database = PostgresDatabase(postgres_dsn)
    try:
        with database.write() as db:
            for n in range(4):
                db.execute("INSERT INTO games (id, game, join_code, players, options, seed, initial_state, state,"
                           " created) VALUES (?, 'toy', ?, '[]', '{}', 1, '{}', '{}', 'now')", [f"g{n}", f"CODE{n}"])
                db.execute("INSERT INTO seats (game_id, seat, name) VALUES (?, 0, 'Ann')", [f"g{n}"])
        with psycopg.connect(postgres_dsn, autocommit=True) as listener:
            listener.execute(f"LISTEN {VERSIONS_CHANNEL}")

            def play(game_id: str) -> None:
                for version in range(10):
                    assert database.append_move(game_id, version, 0, f"a{version}", "{}", "{}", "now", "{}") == \
                        (True, None, True)

            players = [threading.Thread(target=play, args=(f"g{n}",)) for n in range(4)]
            for player in players:
                player.start()
            for player in players:
                player.join(60)
            assert database.append_move("g0", 3, 0, "late", "{}", "{}", "now", "{}") == (False, None, True)
            # one more after it: a process announces in order, so anything said for the stale move comes first
            assert database.append_move("g1", 10, 0, "last", "{}", "{}", "now", "{}") == (True, None, True)
            expected = {f"g{n} {version}" for n in range(4) for version in range(1, 11)} | {"g1 11"}
            heard: list[str] = []
            for note in listener.notifies(timeout=30):
                heard.append(note.payload)
                game_id, _, version = note.payload.partition(" ")
                with psycopg.connect(postgres_dsn, autocommit=True) as reader:  # committed before announced
                    assert reader.execute("SELECT version FROM games WHERE id = %s", [game_id]).fetchone()[0] >= \
                        int(version)
                if note.payload == "g1 11":
                    break
            assert sorted(heard) == sorted(expected)  # each once; the stale move's nothing
    finally:
        database.close()


def test_a_database_that_is_not_there_is_unavailable_not_an_error_page() -> None:
    with pytest.raises(StoreUnavailable, match="PostgreSQL at postgresql://nobody:\\*\\*\\*@127.0.0.1:1/none"):
        PostgresDatabase("postgresql://nobody:secret@127.0.0.1:1/none", timeout=2)


def test_dsns_are_told_apart_from_files_and_never_shown_with_their_password() -> None:
    assert is_postgres("postgresql://a@h/db") and is_postgres("postgres://h/db")
    assert not is_postgres("instance/companion.sqlite3") and not is_postgres(Path("postgresql:"))
    assert redacted("postgresql://ann:pw@db.example:5432/c") == "postgresql://ann:***@db.example:5432/c"
    assert redacted("postgresql://ann@db.example/c") == "postgresql://ann@db.example/c"
    # libpq takes a password as a parameter too (and a key's passphrase): never shown either
    assert redacted("postgresql://ann@db.example/c?password=s3cret&sslmode=require") == \
        "postgresql://ann@db.example/c?password=***&sslmode=require"
    assert redacted("postgresql:///c?host=/run/pg&sslpassword=k&PASSWORD=p") == \
        "postgresql:///c?host=/run/pg&sslpassword=***&PASSWORD=***"
    assert "s3cret" not in redacted("postgresql://ann:s3cret@h/c?password=s3cret")


def test_a_deadlock_is_told_as_a_rollback_that_wrote_nothing_not_as_the_database_away(postgres_dsn: str) -> None:
    """Two writes locking two games in opposite orders: PostgreSQL rolls one back. That one is a 503 (it may be
    sent again as it is) that says so, not "not answering"; the other goes through."""
    database = PostgresDatabase(postgres_dsn)
    try:
        with database.write() as db:
            for n in (1, 2):
                db.execute("INSERT INTO games (id, game, join_code, players, options, seed, initial_state, state,"
                           " created) VALUES (?, 'toy', ?, '[]', '{}', 1, '{}', '{}', 'now')", [f"g{n}", f"CODE{n}"])
        both_hold = threading.Barrier(2, timeout=30)
        outcomes: dict[str, BaseException | None] = {}

        def writer(first: str, then: str) -> None:
            try:
                with database.write(first) as db:
                    db.execute("SELECT version FROM games WHERE id = ?", [first]).fetchone()  # the row is held now
                    both_hold.wait()
                    database.lock_game(db, then)
                    db.execute("UPDATE games SET created = 'later' WHERE id = ?", [then])
                outcomes[first] = None
            except BaseException as error:  # noqa: BLE001  (what each writer was told)
                outcomes[first] = error

        threads = [threading.Thread(target=writer, args=pair) for pair in (("g1", "g2"), ("g2", "g1"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        errors = [error for error in outcomes.values() if error is not None]
        assert len(outcomes) == 2 and len(errors) == 1
        assert isinstance(errors[0], StoreUnavailable) and "rolled this request's transaction back" in str(errors[0])
        assert "not answering" not in str(errors[0]) and "nothing of it was written" in (errors[0].public or "")
        rows = database._db().execute("SELECT id, created FROM games ORDER BY id").fetchall()
        assert sorted(created for _, created in rows) == ["later", "now"]  # the rolled-back write left nothing
    finally:
        database.close()


def test_a_statement_cancelled_by_a_timeout_is_told_so_not_as_the_database_away(postgres_dsn: str) -> None:
    database = PostgresDatabase(postgres_dsn)
    try:
        with pytest.raises(StoreUnavailable, match="cancelled this request's statement") as caught:
            with database.write() as db:
                db.execute("SET LOCAL statement_timeout = 50")
                db.execute("SELECT pg_sleep(5)").fetchone()
        assert "not answering" not in str(caught.value) and "stopped this request" in (caught.value.public or "")
        assert database._db().execute("SELECT 1").fetchone() == (1,)  # the database is there, and used again
    finally:
        database.close()
