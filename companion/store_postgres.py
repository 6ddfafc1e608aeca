"""The companion's database on PostgreSQL: the schema, its migrations and the transactions the store builds on.

The SQLite file (:mod:`companion.store_db`) is the embedded default; this is the store of a public instance,
where any number of ``companion serve`` processes on any number of machines share one database. It offers
what :class:`companion.store_db.SqliteFile` offers the store — ``_db()`` for a single statement, ``_write()``
and ``_read()`` transactions, ``migrations()``, ``close()`` — so that the same store code, with the same SQL
(``?`` placeholders become psycopg's ``%s``), runs on either:

- **Connections**: a :class:`psycopg_pool.ConnectionPool` per process (a forked gunicorn worker opens its
  own), autocommit connections checked before they are handed out (a connection PostgreSQL dropped, say
  in a restart, is replaced, not used); psycopg 3.1.14 and later cooperate with gevent's workers.
- **Writes** lock the game they change: ``_write(game_id)`` begins a transaction whose first statement is
  ``SELECT ... FROM games WHERE id = ... FOR UPDATE``, so moves of one game queue on its row while moves of
  other games go on at once (SQLite has one writer for the whole file). A transaction that needs no game
  (a new game: its id is new) locks nothing but the rows it writes.
- **Reads** that must agree (a log and the game it belongs to) run in one ``REPEATABLE READ READ ONLY``
  transaction: one snapshot, as SQLite's read transaction gives.
- **The log is append-only**: a trigger refuses every UPDATE and DELETE of ``moves``, except a purge's,
  which says so for its own transaction (``SET LOCAL companion.purging = 'on'``; :meth:`allow_purge`).
- **Migrations** are the SQLite store's, numbered and named alike (the format version is their count),
  written for PostgreSQL; a node migrating at start holds an advisory lock, so nodes starting together
  migrate once.
- **Errors**: a database that cannot be reached, or drops a connection mid-way, is
  :class:`companion.store_db.StoreUnavailable` (answered 503 with a sentence), never a 500.

The same column types as the SQLite store (JSON as text, times as ISO-8601 text), so a game copies
between the two unchanged.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Iterator, Sequence
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool

from companion.store_db import MIGRATIONS as SQLITE_MIGRATIONS
from companion.store_db import StoreUnavailable, _now

#: how long a request waits for a free connection of the pool, or for PostgreSQL to answer a connect
CONNECT_TIMEOUT_SECONDS = 10.0
#: connections per process: gunicorn's gevent worker runs many requests at once, each holding one only
#: for its statement or transaction
POOL_MIN_SIZE, POOL_MAX_SIZE = 1, 8
#: a pool that found no connection in time is replaced by a new one, at most this often
RENEW_SECONDS = 2.0
#: the advisory lock a node holds while it migrates (any constant both nodes agree on)
MIGRATION_LOCK = 0x5EB1_B00C

_APPEND_ONLY = """
    CREATE OR REPLACE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' AND current_setting('companion.purging', true) = 'on' THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'the move log is append-only' USING ERRCODE = 'restrict_violation';
    END $$;
    CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves FOR EACH ROW EXECUTE FUNCTION moves_append_only();
    CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves FOR EACH ROW EXECUTE FUNCTION moves_append_only();
"""

#: (name, script): the SQLite store's migrations, one for one, in PostgreSQL's words
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (SQLITE_MIGRATIONS[0][0], """
        CREATE TABLE games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            join_code TEXT NOT NULL UNIQUE,
            players TEXT NOT NULL,
            options TEXT NOT NULL,
            seed BIGINT NOT NULL,
            initial_state TEXT NOT NULL,
            state TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            created TEXT NOT NULL
        );
        CREATE TABLE seats (
            game_id TEXT NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            claimed INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        );
        CREATE TABLE seat_tokens (
            token_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            origin TEXT NOT NULL CONSTRAINT seat_tokens_origin CHECK (origin IN ('created', 'claimed')),
            created TEXT NOT NULL,
            FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
        );
        CREATE TABLE moves (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL CONSTRAINT moves_kind CHECK (kind IN ('move', 'undo')),
            move TEXT NOT NULL,
            undoes INTEGER,
            action_id TEXT NOT NULL,
            result TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (game_id, seq),
            UNIQUE (game_id, action_id)
        );
    """ + _APPEND_ONLY),
    (SQLITE_MIGRATIONS[1][0], """
        ALTER TABLE games ADD COLUMN host_token_hash TEXT;
        ALTER TABLE seat_tokens DROP CONSTRAINT seat_tokens_origin;
        ALTER TABLE seat_tokens ADD CONSTRAINT seat_tokens_origin
            CHECK (origin IN ('created', 'claimed', 'handed'));
        ALTER TABLE seat_tokens ADD COLUMN revoked TEXT;
        CREATE INDEX seat_tokens_by_seat ON seat_tokens (game_id, seat);
        CREATE TABLE seat_handovers (
            code_hash TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            created TEXT NOT NULL,
            expires TEXT NOT NULL,
            used TEXT,
            FOREIGN KEY (game_id, seat) REFERENCES seats(game_id, seat)
        );
        ALTER TABLE moves DROP CONSTRAINT moves_kind;
        ALTER TABLE moves ADD CONSTRAINT moves_kind CHECK (kind IN ('move', 'undo', 'correct', 'seat'));
    """),
    (SQLITE_MIGRATIONS[2][0], """
        ALTER TABLE moves DROP CONSTRAINT moves_kind;
        ALTER TABLE moves ADD CONSTRAINT moves_kind
            CHECK (kind IN ('move', 'undo', 'correct', 'seat', 'revert'));
    """),
)


#: what a PostgreSQL database holds beyond the SQLite store's schema, made (or brought up to date) at every
#: open: no format of stored games depends on it
EXTRAS = """
    CREATE OR REPLACE FUNCTION games_version_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('companion_versions', NEW.id || ' ' || NEW.version);
        RETURN NULL;
    END $$;
    CREATE OR REPLACE TRIGGER games_version_notify AFTER UPDATE OF version ON games
        FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version) EXECUTE FUNCTION games_version_notify();
    CREATE TABLE IF NOT EXISTS rate_counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires DOUBLE PRECISION NOT NULL);
    CREATE TABLE IF NOT EXISTS purge_schedule (id INTEGER PRIMARY KEY CHECK (id = 1), last_run TEXT NOT NULL);
"""
#: the channel every committed new version of a game is announced on, as "<game id> <version>"
VERSIONS_CHANNEL = "companion_versions"


def is_postgres(database: str | object) -> bool:
    """Whether a ``--db`` / ``DATABASE`` setting names a PostgreSQL database rather than a SQLite file."""
    return isinstance(database, str) and database.startswith(("postgresql://", "postgres://"))


def redacted(dsn: str) -> str:
    """The DSN without its password, for messages and logs."""
    parts = urlsplit(dsn)
    if parts.password is None:
        return dsn
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def cooperate_with_gevent() -> None:
    """Make psycopg wait for PostgreSQL the way gevent can switch away from, once gevent has patched ``select``.

    psycopg picks its wait function when it is imported: a C one, unless gevent has patched the process by
    then. ``companion serve`` opens the database (so imports psycopg) in gunicorn's master, before its
    gevent workers patch themselves: each worker's waits would then block the worker whole (a listening
    connection, for ever: the worker is killed as hung). Called before a worker first uses PostgreSQL."""
    import sys

    import psycopg.waiting

    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select") and psycopg.waiting.wait is not psycopg.waiting.wait_poll:
        psycopg.waiting.wait = psycopg.waiting.wait_poll


@functools.lru_cache(maxsize=512)
def _placeholders(sql: str) -> str:
    """The store's SQL (``?`` placeholders, as sqlite3 takes them) in psycopg's words (``%s``)."""
    return sql.replace("%", "%%").replace("?", "%s")


class Result:
    """The rows of one statement, fetched before its connection went back to the pool."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self.description = cursor.description
        self.rowcount = cursor.rowcount
        self._rows: list[tuple[Any, ...]] = cursor.fetchall() if cursor.description is not None else []
        self._next = 0

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[tuple[Any, ...]]:
        rest, self._next = self._rows[self._next:], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.fetchall())


#: a SELECT that reads the games table (by itself, or first with others joined): in a write transaction it
#: locks the rows of ``games`` it reads, and of ``seat_handovers`` (a hand-over code is used once)
_LOCKED_READ = re.compile(r"^\s*SELECT\b(?!.*\bcount\s*\()(?!.*\bFOR UPDATE\b).*?\bFROM\s+(games|seat_handovers)"
                          r"(?:\s+(?!WHERE\b|LEFT\b|JOIN\b|INNER\b)(\w+))?\b", re.IGNORECASE | re.DOTALL)


@functools.lru_cache(maxsize=512)
def _locking(sql: str) -> str:
    """``sql`` (psycopg's words) with ``FOR UPDATE OF`` its first table when that is a game or hand-over row."""
    found = _LOCKED_READ.match(sql)
    if found is None:
        return sql
    return f"{sql.rstrip().rstrip(';')} FOR UPDATE OF {found.group(2) or found.group(1)}"


class Transaction:
    """What the store's code calls ``db`` inside a transaction: ``execute(sql, params)`` on one connection.

    In a write transaction, a statement that reads a game's row locks it until the commit (``FOR UPDATE``):
    the store's writes all read the game they change first, as they do inside SQLite's ``BEGIN IMMEDIATE``,
    so writers of one game queue there and writers of other games do not wait."""

    def __init__(self, conn: psycopg.Connection[Any], database: "PostgresDatabase", writing: bool) -> None:
        self.conn = conn
        self._database = database
        self._writing = writing

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> Result:
        statement = _placeholders(sql)
        if self._writing:
            statement = _locking(statement)
        return Result(self.conn.execute(statement, params or None))  # type: ignore[call-overload]


class Statements:
    """What the store's code calls ``db`` outside a transaction (``_db()``): each statement on its own,
    on a connection of the pool that goes back the moment its rows are read."""

    def __init__(self, database: "PostgresDatabase") -> None:
        self._database = database

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> Result:
        with self._database._connection() as conn:
            return Result(conn.execute(_placeholders(sql), params or None))  # type: ignore[call-overload]


class PostgresDatabase:
    """One PostgreSQL database, reached through a pool per process, migrated on open."""

    def __init__(self, dsn: str, *, min_size: int = POOL_MIN_SIZE, max_size: int = POOL_MAX_SIZE,
                 timeout: float = CONNECT_TIMEOUT_SECONDS) -> None:
        self.dsn = dsn
        self.path = redacted(dsn)  # what messages name (the SQLite store names its file)
        self._sizes, self._timeout = (min_size, max_size), timeout
        self._pool: psycopg_pool.ConnectionPool[Any] | None = None
        self._pool_pid = 0
        self._pool_since = 0.0
        self._pool_lock = threading.Lock()
        self._writers = 0  # write transactions open in this process (writing())
        self._migrate()

    # -- connections -----------------------------------------------------------------------

    def _the_pool(self) -> psycopg_pool.ConnectionPool[Any]:
        """This process's pool (a forked worker never uses its parent's connections)."""
        pid = os.getpid()
        if self._pool is None or self._pool_pid != pid:
            with self._pool_lock:
                if self._pool is None or self._pool_pid != pid:
                    cooperate_with_gevent()
                    self._pool = psycopg_pool.ConnectionPool(
                        self.dsn, min_size=self._sizes[0], max_size=self._sizes[1], timeout=self._timeout,
                        kwargs={"autocommit": True, "connect_timeout": max(1, int(self._timeout))},
                        check=psycopg_pool.ConnectionPool.check_connection, open=False,
                        name="companion-store")
                    self._pool.open(wait=False)
                    self._pool_pid, self._pool_since = pid, time.monotonic()
        return self._pool

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool; PostgreSQL away or a connection lost mid-way is StoreUnavailable."""
        pool = self._the_pool()
        try:
            with pool.connection() as conn:
                yield conn
        except psycopg_pool.PoolTimeout as error:
            self._renew(pool)
            raise self._unavailable(error) from None
        except psycopg.OperationalError as error:
            raise self._unavailable(error) from None

    def _renew(self, pool: psycopg_pool.ConnectionPool[Any]) -> None:
        """Drop a pool that found no connection in time: PostgreSQL was away, and the pool's own attempts to
        connect again back off (doubling, to minutes); a new pool connects at once when it is back.
        At most one new pool per :data:`RENEW_SECONDS`."""
        with self._pool_lock:
            if self._pool is not pool or time.monotonic() - self._pool_since < RENEW_SECONDS:
                return
            self._pool = None
        threading.Thread(target=pool.close, kwargs={"timeout": 1.0}, daemon=True).start()

    def _unavailable(self, error: BaseException) -> StoreUnavailable:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return StoreUnavailable(f"PostgreSQL at {self.path} is not answering ({reason}); no move was lost: "
                                "try again in a moment, and if this goes on, check that the database runs "
                                "and this server reaches it")

    def _db(self) -> Statements:
        """Single statements, each on a connection of the pool (autocommit)."""
        return Statements(self)

    def close(self) -> None:
        """Close this process's pool (a later statement opens a new one)."""
        with self._pool_lock:
            if self._pool is not None:
                self._pool.close()
            self._pool = None

    def check_file(self) -> None:
        """Nothing to check: the SQLite store checks its file was not deleted or replaced; a PostgreSQL
        database that goes away answers every statement with an error of its own (StoreUnavailable)."""

    # -- transactions ----------------------------------------------------------------------

    @contextmanager
    def _write(self, game_id: str | None = None) -> Iterator[Transaction]:
        """A read-modify-write transaction; with ``game_id``, it first locks that game's row, so the
        writers of one game queue while other games' writers go on. A game that does not exist locks
        nothing (the store's own read of it then says so)."""
        with self._connection() as conn:
            with conn.transaction():
                with self._pool_lock:
                    self._writers += 1
                try:
                    if game_id is not None:
                        conn.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [game_id])
                    yield Transaction(conn, self, writing=True)
                finally:
                    with self._pool_lock:
                        self._writers -= 1

    def writing(self) -> bool:
        """Whether a write transaction of this process is open (the SQLite store: its write lock is held)."""
        return self._writers > 0

    @contextmanager
    def _read(self) -> Iterator[Transaction]:
        """A read transaction: several SELECTs that see one consistent snapshot."""
        with self._connection() as conn:
            with conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield Transaction(conn, self, writing=False)

    @staticmethod
    def allow_purge(db: Transaction) -> None:
        """Let this transaction (a purge's) delete log entries; every other one still cannot."""
        db.execute("SET LOCAL companion.purging = 'on'")

    # -- the schema ------------------------------------------------------------------------

    def _migrate(self) -> None:
        with self._write() as db:
            db.execute("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK])
            db.execute("CREATE TABLE IF NOT EXISTS migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                       " applied TEXT NOT NULL)")
            done = {row[0] for row in db.execute("SELECT number FROM migrations").fetchall()}
            for number, (name, script) in enumerate(MIGRATIONS, 1):
                if number in done:
                    continue
                db.conn.execute(script)  # type: ignore[arg-type]  # our own constant SQL, several statements
                db.execute("INSERT INTO migrations (number, name, applied) VALUES (?, ?, ?)", [number, name, _now()])
            db.conn.execute(EXTRAS)  # type: ignore[arg-type]  # our own constant SQL

    def migrations(self) -> list[dict[str, Any]]:
        result = self._db().execute("SELECT number, name, applied FROM migrations ORDER BY number")
        keys = [column[0] for column in result.description or ()]
        return [dict(zip(keys, row, strict=True)) for row in result.fetchall()]

    def format_version(self) -> int:
        """The number of migrations applied: the schema's version, the same number as the SQLite store's."""
        return len(self.migrations())


@functools.cache
def _store_class() -> type:
    """The store's own class, on PostgreSQL: the same methods, the SQLite file's part replaced."""
    from companion.store import Store

    class PostgresStore(PostgresDatabase, Store):  # type: ignore[misc]  # PostgresDatabase's connections first
        """Games and their move logs in a PostgreSQL database shared by any number of servers."""

        def __init__(self, dsn: str, **pool: Any) -> None:
            self._states = OrderedDict()
            self._states_lock = threading.Lock()
            self._games = {}
            PostgresDatabase.__init__(self, dsn, **pool)

    return PostgresStore


def open_store(database: str | os.PathLike[str]) -> Any:
    """The store of a ``--db`` / ``DATABASE`` setting: PostgreSQL for a ``postgresql://`` DSN, else the SQLite file."""
    if is_postgres(database):
        return _store_class()(str(database))
    from companion.store import Store

    return Store(database)


#: the advisory lock of the purge schedule: one node purges per period
PURGE_LOCK = 0x5EB1_B00D


def purge(database: Any, game_ids: list[str]) -> int:
    """Remove these games with their seats, tokens, hand-over codes and log, in one transaction; how many."""
    if not game_ids:
        return 0
    removed = 0
    with database._write() as db:
        database.allow_purge(db)
        for game_id in game_ids:
            db.execute("SELECT id FROM games WHERE id = ?", [game_id])  # (locks it: no move lands meanwhile)
            for table in ("moves", "seat_tokens", "seat_handovers", "seats"):
                db.execute(f"DELETE FROM {table} WHERE game_id = ?", [game_id])
            removed += db.execute("DELETE FROM games WHERE id = ?", [game_id]).rowcount
    return removed


class PostgresPurgeSchedule:
    """The purge ``companion serve`` runs by itself (:class:`companion.archive.PurgeSchedule`), for every node
    on one PostgreSQL: an advisory lock lets one purge at a time, and the time of the last purge is a row of
    the database, so one node purges per period however many there are."""

    def __init__(self, database: str, every: Any = None, finished_days: int | None = None,
                 idle_days: int | None = None, clock: Any = None) -> None:
        from datetime import timedelta

        from companion import archive

        self.database = database
        self.every = every or timedelta(hours=archive.PURGE_EVERY_HOURS)
        self.finished_days = archive.FINISHED_DAYS if finished_days is None else finished_days
        self.idle_days = archive.IDLE_DAYS if idle_days is None else idle_days
        self.clock = clock or archive.utc_now

    def last_run(self) -> Any:
        from datetime import datetime

        store = open_store(self.database)
        try:
            row = store._db().execute("SELECT last_run FROM purge_schedule WHERE id = 1").fetchone()
        finally:
            store.close()
        return datetime.fromisoformat(row[0]) if row else None

    def run_if_due(self) -> list[dict[str, Any]] | None:
        from datetime import datetime

        from companion import archive

        store = open_store(self.database)
        try:
            with store._write() as db:
                if not db.execute("SELECT pg_try_advisory_xact_lock(?)", [PURGE_LOCK]).fetchone()[0]:
                    return None  # another node is purging right now
                row = db.execute("SELECT last_run FROM purge_schedule WHERE id = 1").fetchone()
                now = self.clock()
                if row is not None and now - datetime.fromisoformat(row[0]) < self.every:
                    return None
                gone = archive.due(store, now, self.finished_days, self.idle_days)
                purge(store, [g["id"] for g in gone])
                db.execute("INSERT INTO purge_schedule (id, last_run) VALUES (1, ?) ON CONFLICT (id)"
                           " DO UPDATE SET last_run = excluded.last_run", [now.isoformat()])
                return gone
        finally:
            store.close()
