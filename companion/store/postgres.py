"""The PostgreSQL backend (:class:`PostgresBackend`, :class:`companion.store.backend.Backend`).

The SQLite file (:mod:`.sqlite`) is the embedded default; this is the store of a public instance, where
any number of ``companion serve`` processes on any number of machines share one database. The store's own
code and SQL run unchanged on it (``?`` placeholders become psycopg's ``%s``):

- **Connections**: a :class:`psycopg_pool.ConnectionPool` per process (a forked gunicorn worker opens its
  own), autocommit connections checked before they are handed out when their socket says PostgreSQL spoke
  or hung up meanwhile (a connection PostgreSQL dropped, say in a restart, is replaced, not used; a quiet one
  costs no round trip); psycopg waits through gevent in gunicorn's gevent workers
  (:func:`cooperate_with_gevent`).
- **The database away**: a connection that cannot be made tells the process so; from then on a request
  is answered 503 at once (not after the pool's whole wait), while one connection at a time tries in the
  background whether the database is back, and a new pool serves again the moment it is.
- **Round trips**: a transaction's statements go out in pipeline mode (a move's write: two round trips for
  BEGIN, lock, read, INSERT, UPDATE and COMMIT), and psycopg prepares the statements a connection repeats.
- **Writes** lock the game they change: ``write(game_id)`` begins a transaction whose first statement is
  ``SELECT ... FROM games WHERE id = ... FOR UPDATE``, so moves of one game queue on its row while moves of
  other games go on at once (SQLite has one writer for the whole file). Inside a write, any read of a
  game's row or of a hand-over code's locks it as well (``FOR UPDATE``: a code is used once).
- **Reads** that must agree (a log and the game it belongs to) run in one ``REPEATABLE READ READ ONLY``
  transaction: one snapshot, as SQLite's read transaction gives. A state read is one statement (the game,
  its seats and the seat the token holds); those a worker is asked for while one is out go together in
  the next (:mod:`companion.store.batches`): right after a move, every phone of the table reads at once.
- **The log is append-only**: a trigger refuses every UPDATE and DELETE of ``moves``, except a purge's,
  which says so for its own transaction (``SET LOCAL companion.purging = 'on'``; :meth:`delete_log`).
- **Live updates** (:class:`PostgresChanges`): a write that gives a game a new version announces it just
  after its commit (``pg_notify``, sent with the COMMIT), and each process listens on a connection of its
  own: a move made through any node reaches the phones of every node, with no polling of the database per
  phone or per game. (Not from inside the transaction: PostgreSQL holds one lock for every notifying
  transaction until its commit is on disk, which made every move of every node commit one at a time.)
- **Per-address limits** (:class:`PostgresStorage`): the counters in a table of the same database, so every
  node counts the same addresses; the purge schedule keeps its last run there too.
- **Migrations** are the SQLite store's, numbered and named alike (the format version is their count),
  written for PostgreSQL; a node migrating at start holds an advisory lock, so nodes starting together
  migrate once. The migration has a connection of its own, made before the pool: a database that does not
  answer, or was never created (:class:`~companion.store.errors.NoSuchDatabase`, saying how to create it),
  is one sentence, without the pool's log lines about its attempts.
- **Errors**: a database that cannot be reached, or drops a connection mid-way, is
  :class:`~companion.store.errors.StoreUnavailable` (answered 503 with a sentence), never a 500.

The same column types as the SQLite store (JSON as text, times as ISO-8601 text), so a game copies
between the two unchanged.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import select
import shlex
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
import psycopg_pool
from limits.storage import Storage

from companion.store.backend import (
    GAME_SEATS,
    GAME_SEATS_COLUMNS,
    Changes,
    Connection,
    fetch_rows,
    is_server_url,
)
from companion.store.batches import Batches
from companion.store.common import _now
from companion.store.errors import NoSuchDatabase, StoreUnavailable
from companion.store.sqlite import MIGRATIONS as SQLITE_MIGRATIONS

#: how long a request waits for a free connection of the pool while the database is thought to be there
CONNECT_TIMEOUT_SECONDS = 10.0
#: how long PostgreSQL may take to answer a new connection before it counts as away (a connection refused,
#: as when it is stopped, counts at once)
CONNECTING_SECONDS = 2
#: while the database is away, a request waiting for a connection looks this often whether a connection
#: came after all, and is answered 503 at once once the node knows it is away
AWAY_LOOK_SECONDS = 0.2
#: while the database is away, one connection at most this often tries whether it is back (in the background:
#: requests meanwhile are answered 503 at once)
PROBE_EVERY_SECONDS = 0.5
#: connections per process: gunicorn's gevent worker runs many requests at once, each holding one only
#: for its statement or transaction
POOL_MIN_SIZE, POOL_MAX_SIZE = 1, 8
#: a pool that found no connection in time is replaced by a new one, at most this often
RENEW_SECONDS = 2.0
#: how long a served request waits for PostgreSQL's answer to a statement before it is answered 503: a database
#: that takes connections but answers nothing (its host hung, a network dropping packets) would otherwise hold
#: every request for as long as that lasted (a move's statement takes milliseconds; a move of a busy game waits
#: for the row lock of the one before, still far under this)
ANSWER_SECONDS = 8.0
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
#: open: no format of stored games depends on it. (A trigger announced each new version until a write
#: announced it itself after its commit, :meth:`PostgresBackend.write`: it is removed.)
EXTRAS = """
    DROP TRIGGER IF EXISTS games_version_notify ON games;
    DROP FUNCTION IF EXISTS games_version_notify();
    CREATE TABLE IF NOT EXISTS rate_counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires DOUBLE PRECISION NOT NULL);
    CREATE TABLE IF NOT EXISTS purge_schedule (id INTEGER PRIMARY KEY CHECK (id = 1), last_run TEXT NOT NULL);
"""
#: the channel every committed new version of a game is announced on, as "<game id> <version>"
VERSIONS_CHANNEL = "companion_versions"


def is_postgres(database: str | object) -> bool:
    """Whether a ``--db`` / ``DATABASE`` setting names a PostgreSQL database rather than a SQLite file."""
    return is_server_url(database)


#: a DSN's query parameters that hold a secret (libpq's connection parameters)
_SECRET_PARAMETERS = frozenset({"password", "sslpassword", "passfile", "sslkey"})


def redacted(dsn: str) -> str:
    """The DSN without its password (in ``user:password@`` or as a ``?password=`` parameter, and the like),
    for messages and logs."""
    parts = urlsplit(dsn)
    if parts.password is not None:
        netloc = parts.netloc.rsplit("@", 1)
        user = netloc[0].split(":", 1)[0]
        dsn = urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))
    address, mark, query = dsn.partition("?")
    if not query:
        return dsn
    pairs = [(key, "***" if key.lower() in _SECRET_PARAMETERS else value)
             for key, value in parse_qsl(query, keep_blank_values=True)]
    return address + mark + urlencode(pairs, safe="*/:")


def cooperate_with_gevent() -> None:
    """Make psycopg wait for PostgreSQL the way gevent can switch away from, once gevent has patched ``select``.

    psycopg picks its wait function when it is imported: a C one, unless gevent has patched the process by
    then. ``companion serve`` opens the database (so imports psycopg) in gunicorn's master, before its
    gevent workers patch themselves: each worker's waits would then block the worker whole (a listening
    connection, for ever: the worker is killed as hung). Called before a worker first uses PostgreSQL:
    psycopg then waits with :func:`wait_cooperating`."""
    import sys

    import psycopg.waiting

    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select") and psycopg.waiting.wait is not wait_cooperating:
        global _SERVING_THREAD, _thread_ident
        _thread_ident = monkey.get_original("_thread", "get_ident")  # the OS thread's, not the greenlet's
        _SERVING_THREAD = _thread_ident()
        psycopg.waiting.wait = wait_cooperating


#: the OS thread whose greenlets serve requests (set by cooperate_with_gevent): their statements wait for an
#: answer at most :data:`ANSWER_SECONDS`; work sent to gevent's thread pool (the scheduled purge) has no limit
_SERVING_THREAD: int | None = None
_thread_ident: Any = None


def _answer_deadline(timeout: float | None) -> float | None:
    """The wait's own limit (psycopg's), else :data:`ANSWER_SECONDS` for a request's statement."""
    if timeout is not None or _SERVING_THREAD is None:
        return timeout
    return ANSWER_SECONDS if _thread_ident() == _SERVING_THREAD else None


_POLL_MASKS = {psycopg.waiting.Wait.R: select.POLLIN, psycopg.waiting.Wait.W: select.POLLOUT,
               psycopg.waiting.Wait.RW: select.POLLIN | select.POLLOUT}
_POLL_BAD = ~(select.POLLIN | select.POLLOUT)


@functools.lru_cache(maxsize=1)
def _unpatched_poll() -> Any:
    """``select.poll`` as the kernel gives it, whether or not gevent has patched ``select`` since."""
    import sys

    monkey = sys.modules.get("gevent.monkey")
    return monkey.get_original("select", "poll") if monkey is not None else select.poll


def _kernel_poll() -> Any:
    """A poll object that asks the kernel and never switches to gevent's hub (for a wait of no time)."""
    return _unpatched_poll()()


def _ready(events: int) -> int:
    return (psycopg.waiting.Ready.R if events & select.POLLIN else 0) | \
        (psycopg.waiting.Ready.W if events & select.POLLOUT else 0)


class _NoAnswerYet(Exception):
    """A green wait's interval passed with the socket not ready yet."""


#: gevent's wait for a socket's readiness, by what psycopg's generator waits for
_GREEN_WAITS = {psycopg.waiting.Wait.R: "wait_read", psycopg.waiting.Wait.W: "wait_write",
                psycopg.waiting.Wait.RW: "wait_readwrite"}


def _green_wait(fileno: int, state: Any, seconds: float) -> bool:
    """Wait through gevent's hub (other requests of the worker go on meanwhile) until ``fileno`` is ready for
    ``state``, at most ``seconds``; False when the time passed first. One watcher of gevent's loop, not
    gevent's ``select.poll`` (its Python registry, result event and watchers cost about three times as much
    of a worker's CPU per statement)."""
    import gevent.socket

    try:
        getattr(gevent.socket, _GREEN_WAITS[state])(fileno, timeout=seconds, timeout_exc=_NoAnswerYet)
    except _NoAnswerYet:
        return False
    return True


def wait_cooperating(gen: Any, fileno: int, interval: float = 0.0, timeout: float | None = None) -> Any:
    """psycopg's ``wait_poll`` (its wait for a generator of a connection), but asking the kernel first whether
    the socket is ready already, and waiting through gevent's hub only when not.

    A statement's round trip asks psycopg's generator to wait several times (to send: the socket is
    writable at once; to read: the answer has come, or not yet); a wait through gevent costs a watcher,
    a timeout and a switch to its hub each time. Here only a wait for an answer that has not come yet
    switches to the hub (so other requests of the worker go on meanwhile); the rest cost one system call
    each."""
    own_limit = timeout is None
    timeout = _answer_deadline(timeout)
    deadline = time.monotonic() + timeout if timeout is not None else None
    interval = max(0.0, interval)
    try:
        state = next(gen)
        now_poll = _kernel_poll()  # the kernel's poll, never gevent's
        now_poll.register(fileno, _POLL_MASKS[state])
        while True:
            found = now_poll.poll(0)
            if not found:
                seconds = interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic()))
                if _green_wait(fileno, state, seconds):
                    found = now_poll.poll(0)
            if not found:
                gen.send(psycopg.waiting.Ready.NONE)
            else:
                events = found[0][1]
                ready = _ready(events)
                if not ready and events & _POLL_BAD:
                    raise psycopg.OperationalError("connection socket closed")
                state = gen.send(ready)
                now_poll.modify(fileno, _POLL_MASKS[state])
            if deadline is not None and time.monotonic() >= deadline:
                if own_limit:  # (psycopg's own waits with a timeout take _WaitTimeout as theirs to handle)
                    raise psycopg.OperationalError(f"no answer within {ANSWER_SECONDS:g} s")
                raise psycopg.errors._WaitTimeout("wait timeout expired")
    except StopIteration as stop:
        return stop.value


def _reason(error: BaseException) -> str:
    """The first line of an error's message (its type's name if it has none)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


#: PostgreSQL's own words (in English) when it answers a login with a refusal: a wrong password, an unknown role,
#: no pg_hba.conf line for this server. Another language's words get the general "not answering" line.
_REFUSED_LOGIN = re.compile(r"password authentication failed|role \S+ does not exist|no pg_hba\.conf entry|"
                            r"authentication failed for user", re.IGNORECASE)


def _missing_database(error: psycopg.OperationalError) -> str | None:
    """The name of the database a failed connection asked for, when PostgreSQL said it does not exist.

    libpq gives no SQLSTATE for a connection that was refused, only the server's message; PostgreSQL's is
    ``FATAL:  database "name" does not exist`` in English. Any other failure: None (a server speaking another
    language is asked through its catalog: :func:`_absent_from_catalog`)."""
    pgconn = getattr(error, "pgconn", None)
    name = pgconn.db.decode("utf-8", "replace") if pgconn is not None and pgconn.db else None
    found = re.search(r'database "((?:[^"]|"")*)" does not exist', str(error))
    if found is None:
        return None
    return name if name is not None else found.group(1).replace('""', '"')


def _absent_from_catalog(dsn: str) -> str | None:
    """The database ``dsn`` names, if the server's own catalog says there is none: the check for a server whose
    messages are not in English (``lc_messages``), asked through its maintenance database ``postgres`` with the
    same host, port, user and password. None when that cannot be asked (no such user there, server away, ...)
    or the database is listed: the caller then says what the server said."""
    try:
        name = psycopg.conninfo.conninfo_to_dict(dsn).get("dbname")
    except psycopg.ProgrammingError:
        return None
    if not name or name == "postgres":
        return None
    try:
        with psycopg.connect(dsn, dbname="postgres", autocommit=True, connect_timeout=CONNECTING_SECONDS) as conn:
            listed = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    except psycopg.Error:
        return None
    return None if listed else str(name)


def _no_such_database(dsn: str, name: str) -> str:
    """What to do about a database that is not there: the createdb that makes it (host, port and user of
    the DSN, never its password), then init-db."""
    info = psycopg.conninfo.conninfo_to_dict(dsn)
    server = redacted(dsn)
    if is_server_url(dsn):
        parts = urlsplit(server)
        server = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    flags = [f"--{option} {shlex.quote(str(info[key]))}" for option, key in (("host", "host"), ("port", "port"), ("username", "user"))
             if info.get(key)]
    createdb = " ".join(["createdb", *flags, shlex.quote(name)])
    return (f"there is no database '{name}' at {server}: create it ({createdb}), "
            f"then run `companion init-db --db {redacted(dsn)}`")


def _checked_if_stirred(conn: psycopg.Connection[Any]) -> None:
    """The pool's check of a connection before it is handed out, with no round trip when nothing happened.

    An idle connection has nothing to read unless PostgreSQL spoke or hung up meanwhile (a restart sends its
    farewell and closes the socket; so does a network cut that closes it): then the connection is asked
    (psycopg_pool's own check) and, if broken, replaced. A connection with nothing to read is handed out as
    it is: checking every one with a statement cost a round trip per request."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    poller = _kernel_poll()  # (gevent's poll would switch to its hub for a look of no time)
    poller.register(conn.fileno(), select.POLLIN)
    if poller.poll(0):
        psycopg_pool.ConnectionPool.check_connection(conn)


@functools.lru_cache(maxsize=512)
def _placeholders(sql: str) -> str:
    """The store's SQL (``?`` placeholders, as sqlite3 takes them) in psycopg's words (``%s``)."""
    return sql.replace("%", "%%").replace("?", "%s")


def _names_only(result: psycopg.pq.abc.PGresult) -> tuple[tuple[str | None, ...], ...]:
    """A DB-API ``description`` of ``result`` that names its columns and leaves the other six fields None:
    the store reads only the names, and psycopg's own ``cursor.description`` (a Column object for each
    column, its type looked up) cost about 12 µs of a worker's CPU for a statement of eight columns; this
    costs under one."""
    return tuple((result.fname(i).decode(), None, None, None, None, None, None)  # type: ignore[union-attr]
                 for i in range(result.nfields))


class Result:
    """The rows of one statement, fetched before its connection went back to the pool.

    In a transaction the statements go out in PostgreSQL's pipeline mode: a statement whose answer nobody
    reads (an INSERT, an UPDATE, the lock on a game's row) costs no round trip of its own; its result is
    taken when something of it is asked (its rows, its row count), or with the commit."""

    def __init__(self, cursor: psycopg.Cursor[Any], pipeline: psycopg.Pipeline | None = None) -> None:
        self._cursor: psycopg.Cursor[Any] | None = cursor
        self._pipeline = pipeline
        self._rows: list[tuple[Any, ...]] = []
        self._next = 0
        self._description: Any = None
        self._described: psycopg.pq.abc.PGresult | None = None
        self._rowcount = -1
        if pipeline is None:
            self._take()

    def _take(self) -> None:
        cursor, self._cursor = self._cursor, None
        if cursor is None:
            return
        if self._pipeline is not None and cursor.pgresult is None:
            self._pipeline.sync()  # send what is queued and read every answer so far
        self._rowcount = cursor.rowcount
        result = cursor.pgresult
        if result is not None and result.status == psycopg.pq.ExecStatus.TUPLES_OK:
            self._rows = cursor.fetchall()
            self._described = result  # (its description made only if asked)
        else:
            self._rows = []

    @property
    def description(self) -> Any:
        self._take()
        if self._described is not None:
            self._description, self._described = _names_only(self._described), None
        return self._description

    @property
    def rowcount(self) -> int:
        self._take()
        return self._rowcount

    def fetchone(self) -> tuple[Any, ...] | None:
        self._take()
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[tuple[Any, ...]]:
        self._take()
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


#: how every statement of the store that writes a game's new version begins
_NEW_VERSION = "UPDATE games SET version"


#: :meth:`PostgresBackend.append_move`'s one statement: lock the game's row, look for the action id and (``token``
#: not null) whether that seat token holds the seat, and write the entry and the game's new version and state
#: only if the token holds the seat, the game is at the version the move was checked at and the action id is
#: new. (``g`` locks the row; after waiting for another writer it sees that writer's version, so a move checked
#: at an older one writes nothing.) The answer says what it found, so the caller answers in the usual order:
#: the seat first, then a retried action id, then the version.
_APPEND_MOVE = """
    WITH g AS (SELECT version FROM games WHERE id = %(id)s FOR UPDATE),
    t AS (SELECT 1 FROM seat_tokens t JOIN seats s ON s.game_id = t.game_id AND s.seat = t.seat
          WHERE t.token_hash = %(token)s AND t.game_id = %(id)s AND t.seat = %(seat)s AND t.revoked IS NULL
          AND s.claimed <> 0),
    e AS (SELECT seat, kind, move, result FROM moves WHERE game_id = %(id)s AND action_id = %(action)s),
    ins AS (INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)
            SELECT %(id)s, %(seq)s, %(seat)s, 'move', %(move)s, NULL, %(action)s, %(result)s, %(created)s
            FROM g WHERE g.version = %(version)s AND NOT EXISTS (SELECT 1 FROM e)
            AND (%(token)s::text IS NULL OR EXISTS (SELECT 1 FROM t)) RETURNING seq),
    upd AS (UPDATE games SET version = %(seq)s, state = %(state)s
            WHERE id = %(id)s AND EXISTS (SELECT 1 FROM ins) RETURNING version)
    SELECT (SELECT count(*) FROM upd) AS written, e.seat, e.kind, e.move, e.result,
           (%(token)s::text IS NULL OR EXISTS (SELECT 1 FROM t)) AS seat_held FROM g LEFT JOIN e ON true
"""


#: GAME_SEATS for several (game id, token hash) pairs at once (two arrays, in order), each row with ``i``, the
#: pair's place (from 1); a game that is not there has no rows
_GAME_SEATS_OF_MANY = (f"SELECT q.i, {GAME_SEATS_COLUMNS} FROM unnest(?::text[], ?::text[]) WITH ORDINALITY"
                       " AS q(game_id, token_hash, i) JOIN games g ON g.id = q.game_id LEFT JOIN seats s ON"
                       " s.game_id = g.id LEFT JOIN seat_tokens t ON t.token_hash = q.token_hash AND t.game_id = g.id"
                       " AND t.seat = s.seat AND t.revoked IS NULL ORDER BY q.i, s.seat")


class Transaction:
    """What the store's code calls ``db`` inside a transaction: ``execute(sql, params)`` on one connection.

    In a write transaction, a statement that reads a game's row locks it until the commit (``FOR UPDATE``):
    the store's writes all read the game they change first, as they do inside SQLite's ``BEGIN IMMEDIATE``,
    so writers of one game queue there and writers of other games do not wait."""

    def __init__(self, conn: psycopg.Connection[Any], database: "PostgresBackend", writing: bool,
                 pipeline: psycopg.Pipeline | None = None) -> None:
        self.conn = conn
        self._database = database
        self._writing = writing
        self._pipeline = pipeline
        #: whether this transaction wrote a game's new version (announced once it is committed)
        self.new_version = False

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> Result:
        statement = _placeholders(sql)
        if self._writing:
            statement = _locking(statement)
            if statement.startswith(_NEW_VERSION):
                self.new_version = True
        return Result(self.conn.execute(statement, params or None), self._pipeline)  # type: ignore[call-overload]


class Statements:
    """What the store's code calls ``db`` outside a transaction (``_db()``): each statement on its own,
    on a connection of the pool that goes back the moment its rows are read."""

    def __init__(self, database: "PostgresBackend") -> None:
        self._database = database

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> Result:
        with self._database._connection() as conn:
            return Result(conn.execute(_placeholders(sql), params or None))  # type: ignore[call-overload]


class PostgresBackend:
    """One PostgreSQL database, reached through a pool per process, migrated on open."""

    kind = "postgresql"

    def __init__(self, dsn: str, *, min_size: int = POOL_MIN_SIZE, max_size: int = POOL_MAX_SIZE,
                 timeout: float = CONNECT_TIMEOUT_SECONDS) -> None:
        scheme, mark, rest = dsn.partition("://")
        self.dsn = scheme.lower() + mark + rest  # (libpq knows only the lower-case scheme: POSTGRESQL:// too)
        self.path: Path | None = None  # no file: the purge's stamp lives in the database (PostgresPurgeSchedule)
        self.target = redacted(dsn)  # what messages name: never the password
        self._sizes, self._timeout = (min_size, max_size), timeout
        self._pool: psycopg_pool.ConnectionPool[Any] | None = None
        self._pool_pid = 0
        self._pool_since = 0.0
        self._pool_lock = threading.Lock()
        self._generation = 0  # of the pool: what an older pool's connection attempts say is no news
        #: since when this process knows the database is away (a connection refused or not answered), and why
        self._away: float | None = None
        self._away_reason = ""
        self._probing, self._probed = False, 0.0
        self._writers = 0  # write transactions open in this process (writing())
        self._game_seats: Batches[tuple[str, str | None], list[dict[str, Any]]] = Batches(
            lambda keys: self._game_seats_of(keys))
        self._migrate()

    # -- connections -----------------------------------------------------------------------

    def _the_pool(self) -> psycopg_pool.ConnectionPool[Any]:
        """This process's pool (a forked worker never uses its parent's connections)."""
        pid = os.getpid()
        if self._pool is None or self._pool_pid != pid:
            with self._pool_lock:
                if self._pool is None or self._pool_pid != pid:
                    cooperate_with_gevent()
                    if self._pool_pid != pid:  # (a forked worker: what its parent knew is not its own)
                        self._away, self._probing = None, False
                    self._generation += 1
                    self._pool = psycopg_pool.ConnectionPool(
                        self.dsn, min_size=self._sizes[0], max_size=self._sizes[1], timeout=self._timeout,
                        connection_class=self._watched_connections(self._generation),
                        kwargs={"autocommit": True, "connect_timeout": CONNECTING_SECONDS},
                        check=_checked_if_stirred, open=False, name="companion-store")
                    self._pool.open(wait=False)
                    self._pool_pid, self._pool_since = pid, time.monotonic()
        return self._pool

    def _watched_connections(self, generation: int) -> type[psycopg.Connection[Any]]:
        """The pool's connection class: a connection that could not be made tells this process the database
        is away; one that could, that it is there (psycopg_pool's ``connection_class``)."""
        backend = self

        class Watched(psycopg.Connection):  # type: ignore[type-arg]
            @classmethod
            def connect(cls, conninfo: str = "", **kwargs: Any) -> Any:
                try:
                    conn = super().connect(conninfo, **kwargs)
                except psycopg.OperationalError as error:
                    backend._went_away(generation, error)
                    raise
                backend._came_back(generation)
                return conn

        return Watched

    def _went_away(self, generation: int, error: BaseException) -> None:
        if generation == self._generation and self._away is None:
            self._away_reason = _reason(error)
            self._away = time.monotonic()

    def _came_back(self, generation: int) -> None:
        if generation == self._generation:
            self._away = None

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool; PostgreSQL away or a connection lost mid-way is StoreUnavailable."""
        pool = self._the_pool()
        conn = self._checkout(pool)
        try:
            yield conn
        except psycopg.OperationalError as error:
            raise self._unavailable(error) from None
        finally:
            pool.putconn(conn)

    def _checkout(self, pool: psycopg_pool.ConnectionPool[Any]) -> psycopg.Connection[Any]:
        """A connection from ``pool``: waits up to the pool's timeout while the database is there (the
        connections may all be busy), but a moment only once this process knows it is away, so that a phone
        hears so at once (503), not after the whole wait. Meanwhile one connection at a time tries, in the
        background, whether it is back (:meth:`_probe`): the first request after that is served again."""
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                return pool.getconn(timeout=AWAY_LOOK_SECONDS)
            except psycopg_pool.PoolTimeout as error:
                if self._away is not None:
                    self._probe(pool)
                    raise self._unavailable(self._away_reason or error) from None
                if time.monotonic() >= deadline:
                    self._renew(pool)
                    raise self._unavailable(error) from None
            except psycopg.OperationalError as error:
                raise self._unavailable(error) from None

    def _probe(self, pool: psycopg_pool.ConnectionPool[Any]) -> None:
        """Try in the background, at most once per :data:`PROBE_EVERY_SECONDS`, whether the database is back;
        if so, a new pool replaces ``pool`` (whose own attempts back off, doubling, to minutes)."""
        with self._pool_lock:
            if self._probing or time.monotonic() - self._probed < PROBE_EVERY_SECONDS:
                return
            self._probing, self._probed = True, time.monotonic()

        def probe() -> None:
            try:
                psycopg.connect(self.dsn, autocommit=True, connect_timeout=CONNECTING_SECONDS).close()
            except psycopg.Error as error:
                self._away_reason = _reason(error)
            else:
                self._renew(pool, at_once=True)
                self._away = None
            finally:
                self._probed, self._probing = time.monotonic(), False

        threading.Thread(target=probe, daemon=True, name="companion-store-probe").start()

    def _renew(self, pool: psycopg_pool.ConnectionPool[Any], at_once: bool = False) -> None:
        """Drop a pool that found no connection in time: PostgreSQL was away, and the pool's own attempts to
        connect again back off (doubling, to minutes); a new pool connects at once when it is back.
        At most one new pool per :data:`RENEW_SECONDS` (``at_once``: the database just answered a probe)."""
        with self._pool_lock:
            if self._pool is not pool or (not at_once and time.monotonic() - self._pool_since < RENEW_SECONDS):
                return
            self._pool = None
            self._generation += 1
        threading.Thread(target=pool.close, kwargs={"timeout": 1.0}, daemon=True).start()

    def _unavailable(self, error: BaseException | str) -> StoreUnavailable:
        reason = error if isinstance(error, str) else _reason(error)
        if _REFUSED_LOGIN.search(reason):  # the server answered, and said no: waiting will not help
            return StoreUnavailable(f"PostgreSQL at {self.target} refused this server's login ({reason}): check the "
                                    "user and password in the DSN and the server's pg_hba.conf",
                                    public="the database refused this server's login (the server's log says why)")
        sqlstate = getattr(error, "sqlstate", None) or ""
        if sqlstate.startswith("40"):  # class 40, transaction rollback: a deadlock, a serialisation failure
            return StoreUnavailable(f"PostgreSQL at {self.target} rolled this request's transaction back ({reason}); "
                                    "nothing of it was written, and the request may be sent again as it is",
                                    public="the database turned this request back, as another one reached the same "
                                           "game at the same moment; nothing of it was written: try again")
        if sqlstate == "57014":  # query_canceled: statement_timeout, or cancelled by an operator
            return StoreUnavailable(f"PostgreSQL at {self.target} cancelled this request's statement ({reason}): "
                                    "check the server's statement_timeout and load",
                                    public="the database stopped this request before answering it: try again in a "
                                           "moment (a move sent again with its action id is made once; the "
                                           "server's log says why)")
        return StoreUnavailable(f"PostgreSQL at {self.target} is not answering ({reason}); no move was lost: "
                                "try again in a moment, and if this goes on, check that the database runs "
                                "and this server reaches it",
                                public="the database is not answering; no move was lost: try again in a moment "
                                       "(the server's log says why)")

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
    def write(self, game_id: str | None = None) -> Iterator[Transaction]:
        """A read-modify-write transaction; with ``game_id``, it first locks that game's row, so the
        writers of one game queue while other games' writers go on. A game that does not exist locks
        nothing (the store's own read of it then says so).

        Its statements go out in pipeline mode: the BEGIN, the lock and the first read take one round trip,
        the writes and the COMMIT another (a move: two round trips, not six). The lock is the transaction's
        first statement, so it is held before any other runs; it goes out with the first statement whose
        answer is read (every write of the store reads its game before it decides anything)."""
        with self._transaction(game_id, pipelined=True) as db:
            yield db

    @contextmanager
    def _transaction(self, game_id: str | None, pipelined: bool) -> Iterator[Transaction]:
        with self._connection() as conn, (conn.pipeline() if pipelined else contextlib.nullcontext()) as pipeline:
            transaction = Transaction(conn, self, writing=True, pipeline=pipeline)
            with conn.transaction():
                with self._pool_lock:
                    self._writers += 1
                try:
                    if game_id is not None:
                        conn.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [game_id])
                    yield transaction
                finally:
                    with self._pool_lock:
                        self._writers -= 1
            if transaction.new_version and game_id is not None:
                # announced once committed, in the COMMIT's own round trip (pipeline): a NOTIFY inside the
                # transaction holds PostgreSQL's one lock of notifications until the commit is flushed to
                # disk, so every write of every node that announces would commit one at a time
                conn.execute("SELECT pg_notify(%s, id || ' ' || version) FROM games WHERE id = %s",
                             [VERSIONS_CHANNEL, game_id])

    def append_move(self, game_id: str, version: int, seat: int, action_id: str, move: str, result: str,
                    created: str, state: str, token_hash: str | None = None
                    ) -> tuple[bool, dict[str, Any] | None, bool] | None:
        """A move already checked against the rules at ``version``, appended in one statement (one round trip,
        its own transaction): the game's row locked, the log's entry written and the game's new version and
        state, only if ``token_hash`` (None: not asked) is of a token that holds ``seat``, the game is at
        ``version`` and no entry has ``action_id``; then announced.

        Returns ``(written, earlier, seat_held)``: ``(True, None, True)`` once written; ``seat_held`` False
        when the token does not hold the seat (nothing written, nothing else to be told before that);
        ``(False, row, True)`` with the log entry of a retried ``action_id`` (seat, kind, move, result);
        ``(False, None, True)`` when nothing was written for another reason (the game moved on, or the first
        try of this action id committed while this one waited for the row: the statement's snapshot, taken
        before the wait, does not show that entry), and None when there is no such game: the caller then
        takes the general way (:meth:`write`), which tells which."""
        seq = version + 1
        with self._connection() as conn:
            row = conn.execute(_APPEND_MOVE, {"id": game_id, "version": version, "seq": seq, "seat": seat,
                                              "action": action_id, "move": move, "result": result,
                                              "created": created, "state": state, "token": token_hash}).fetchone()
            if row is None:
                return None
            written, earlier_seat, kind, earlier_move, earlier_result, seat_held = row
            if written:
                # announced once committed (the statement's own transaction), as write() does: a NOTIFY inside
                # a writing transaction would make every node's writes commit one at a time
                conn.execute("SELECT pg_notify(%s, %s)", [VERSIONS_CHANNEL, f"{game_id} {seq}"])
                return True, None, True
        if not seat_held:
            return False, None, False
        if kind is not None:
            return False, {"seat": earlier_seat, "kind": kind, "move": earlier_move, "result": earlier_result}, True
        return False, None, True

    def writing(self) -> bool:
        """Whether a write transaction of this process is open (the SQLite store: its write lock is held)."""
        return self._writers > 0

    @contextmanager
    def read(self) -> Iterator[Transaction]:
        """A read transaction: several SELECTs that see one consistent snapshot."""
        with self._connection() as conn, conn.pipeline() as pipeline:  # (BEGIN, SET and the first read: one round trip)
            with conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield Transaction(conn, self, writing=False, pipeline=pipeline)

    def lock_game(self, db: Connection, game_id: str) -> None:
        """Inside a write of no one game (a purge of several), lock a game's row."""
        db.execute("SELECT 1 FROM games WHERE id = ? FOR UPDATE", [game_id])

    def delete_log(self, db: Connection, game_ids: Sequence[str]) -> None:
        """Inside a purge's write, delete these games' log entries: this transaction alone may (``SET LOCAL``)."""
        db.execute("SET LOCAL companion.purging = 'on'")
        db.execute("DELETE FROM moves WHERE game_id = ANY(?)", [list(game_ids)])

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """One SELECT on its own, on a connection of the pool."""
        return fetch_rows(self._db(), sql, params)  # type: ignore[arg-type]  # Statements is a Connection

    def game_seats(self, game_id: str, token_hash: str | None) -> list[dict[str, Any]]:
        """:data:`~companion.store.backend.GAME_SEATS`' rows; those asked for while another is out go
        together in the next statement (:mod:`companion.store.batches`), from a worker's serving thread."""
        if _SERVING_THREAD is not None and _thread_ident() != _SERVING_THREAD:
            return self._game_seats_of([(game_id, token_hash)])[0]  # (gevent's thread pool: on its own)
        return self._game_seats.get((game_id, token_hash))

    def _game_seats_of(self, keys: Sequence[tuple[str, str | None]]) -> list[list[dict[str, Any]]]:
        """GAME_SEATS' rows for each (game id, token hash), in one statement (one key: GAME_SEATS itself)."""
        if len(keys) == 1:
            return [self.rows(GAME_SEATS, [keys[0][1], keys[0][0]])]
        rows = self.rows(_GAME_SEATS_OF_MANY, [[game_id for game_id, _ in keys], [token for _, token in keys]])
        answers: list[list[dict[str, Any]]] = [[] for _ in keys]
        for row in rows:
            answers[int(row.pop("i")) - 1].append(row)
        return answers

    def changes(self) -> Changes:
        return PostgresChanges(self)

    def limit_counters(self) -> Storage:
        return PostgresStorage("companion-postgres://", backend=self)

    # -- the schema ------------------------------------------------------------------------

    def _migrate(self) -> None:
        """Bring the schema up to date, on a connection of its own made before the pool: a database that
        cannot be reached, or is not there, is then one sentence, with none of the pool's log lines about
        its attempts to connect (:meth:`_first_connection`)."""
        with self._first_connection() as conn:
            try:
                with conn.transaction():  # (scripts of several statements: no pipeline)
                    db = Transaction(conn, self, writing=True)
                    db.execute("SELECT pg_advisory_xact_lock(?)", [MIGRATION_LOCK])
                    db.execute("CREATE TABLE IF NOT EXISTS migrations (number INTEGER PRIMARY KEY, "
                               "name TEXT NOT NULL, applied TEXT NOT NULL)")
                    done = {row[0] for row in db.execute("SELECT number FROM migrations").fetchall()}
                    for number, (name, script) in enumerate(MIGRATIONS, 1):
                        if number in done:
                            continue
                        db.conn.execute(script)  # type: ignore[arg-type]  # our own constant SQL, several statements
                        db.execute("INSERT INTO migrations (number, name, applied) VALUES (?, ?, ?)",
                                   [number, name, _now()])
                    db.conn.execute(EXTRAS)  # type: ignore[arg-type]  # our own constant SQL
            except psycopg.OperationalError as error:
                raise self._unavailable(error) from None

    def _first_connection(self) -> psycopg.Connection[Any]:
        """A connection outside the pool (the migration's), or why there is none: StoreUnavailable, or
        NoSuchDatabase when PostgreSQL answered that the database named does not exist."""
        cooperate_with_gevent()
        try:
            return psycopg.connect(self.dsn, autocommit=True, connect_timeout=CONNECTING_SECONDS)
        except psycopg.OperationalError as error:
            missing = _missing_database(error) or _absent_from_catalog(self.dsn)
            if missing is not None:
                raise NoSuchDatabase(_no_such_database(self.dsn, missing),
                                     public="the database is not there (the server's log says why)") from None
            raise self._unavailable(error) from None

    def migrations(self) -> list[dict[str, Any]]:
        return self.rows("SELECT number, name, applied FROM migrations ORDER BY number")

    def format_version(self) -> int:
        """The number of migrations applied: the schema's version, the same number as the SQLite store's."""
        return len(self.migrations())


#: the advisory lock of the purge schedule: one node purges per period
PURGE_LOCK = 0x5EB1_B00D


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

        backend = PostgresBackend(self.database)
        try:
            rows = backend.rows("SELECT last_run FROM purge_schedule WHERE id = 1")
        finally:
            backend.close()
        return datetime.fromisoformat(rows[0]["last_run"]) if rows else None

    def run_if_due(self) -> list[dict[str, Any]] | None:
        from datetime import datetime

        from companion import archive
        from companion.store import Store

        store = Store(PostgresBackend(self.database))
        try:
            with store.backend.write() as db:
                if not db.execute("SELECT pg_try_advisory_xact_lock(?)", [PURGE_LOCK]).fetchone()[0]:
                    return None  # another node is purging right now
                row = db.execute("SELECT last_run FROM purge_schedule WHERE id = 1").fetchone()
                now = self.clock()
                if row is not None and now - datetime.fromisoformat(row[0]) < self.every:
                    return None
                gone = archive.due(store, now, self.finished_days, self.idle_days)
                store.purge([g["id"] for g in gone])
                db.execute("INSERT INTO purge_schedule (id, last_run) VALUES (1, ?) ON CONFLICT (id)"
                           " DO UPDATE SET last_run = excluded.last_run", [now.isoformat()])
                return gone
        finally:
            store.close()


class PostgresChanges:
    """The versions written since the last look, from PostgreSQL's notifications on a connection of its own.

    The first look, and the first after the connection was made again, says it cannot tell (None): the
    caller then reads every game it watches, so nothing announced while nobody listened is waited for."""

    def __init__(self, backend: PostgresBackend) -> None:
        self.backend = backend
        self._conn: psycopg.Connection[Any] | None = None
        self._connect()

    def _connect(self) -> None:
        cooperate_with_gevent()
        try:
            self._conn = psycopg.connect(self.backend.dsn, autocommit=True, connect_timeout=10)
            self._conn.execute(f"LISTEN {VERSIONS_CHANNEL}")
        except psycopg.Error as error:
            self.close()
            raise self.backend._unavailable(error) from None
        self._fresh = True

    def changed(self) -> list[tuple[str, int]] | None:
        try:
            if self._conn is None or self._conn.closed:
                self._connect()
            assert self._conn is not None
            found = [note.payload.partition(" ") for note in self._conn.notifies(timeout=0)]
        except psycopg.Error:
            self.close()
            self._connect()  # PostgreSQL back (or StoreUnavailable: the caller ends its watch)
            found = []
        if self._fresh:
            self._fresh = False
            return None
        return [(game_id, int(version)) for game_id, _, version in found if version.isdecimal()]

    def versions(self, game_ids: Sequence[str]) -> list[tuple[str, int]]:
        rows = self.backend.rows("SELECT id, version FROM games WHERE id = ANY(?)", [list(game_ids)])
        return [(str(row["id"]), int(row["version"])) for row in rows]

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except psycopg.Error:
                pass
        self._conn = None


class PostgresStorage(Storage):
    """Fixed-window counters in one table of the store's PostgreSQL database, shared by every node."""

    STORAGE_SCHEME = ["companion-postgres"]
    #: one increment in this many also removes every expired counter (a counter past its window is reset
    #: by its own next increment anyway)
    SWEEP_ONE_IN = 200

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, *,
                 backend: PostgresBackend | None = None, **options: Any) -> None:
        if backend is None:
            raise ValueError("PostgresStorage needs the store's PostgreSQL backend")
        self.backend = backend
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return psycopg.Error

    #: the longest key kept as it is (a primary key's index takes about 2.7 KB a row)
    LONGEST_KEY = 200

    @classmethod
    def stored_key(cls, key: str) -> str:
        """The row a counter's key is kept in. A key holds the address the limits count by, which behind a
        trusted proxy is whatever its ``X-Forwarded-For`` said: one with a NUL character (which PostgreSQL
        cannot store in text) or too long for the index (a 503 saying PostgreSQL was not answering) is kept
        by its SHA-256 instead, as is one that starts with the mark of such a key, so two keys never share a
        row. The SQLite counters take any text as it is."""
        if "\x00" in key or key.startswith("#") or len(key.encode("utf-8", "surrogatepass")) > cls.LONGEST_KEY:
            return "#" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        return key

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        key = self.stored_key(key)
        import random

        now = time.time()
        db = self.backend._db()
        if random.randrange(self.SWEEP_ONE_IN) == 0:
            db.execute("DELETE FROM rate_counters WHERE expires <= ?", [now])
        row = db.execute(
            "INSERT INTO rate_counters (key, count, expires) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET"
            " count = CASE WHEN rate_counters.expires <= ? THEN excluded.count"
            " ELSE rate_counters.count + excluded.count END,"
            " expires = CASE WHEN rate_counters.expires <= ? THEN excluded.expires ELSE rate_counters.expires END"
            " RETURNING count", [key, amount, now + expiry, now, now]).fetchone()
        return int(row[0]) if row else amount

    def _row(self, key: str) -> tuple[int, float] | None:
        rows = self.backend.rows("SELECT count, expires FROM rate_counters WHERE key = ? AND expires > ?",
                                 [self.stored_key(key), time.time()])
        return (int(rows[0]["count"]), float(rows[0]["expires"])) if rows else None

    def get(self, key: str) -> int:
        row = self._row(key)
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row[1] if row else time.time()

    def check(self) -> bool:
        try:
            self.backend.rows("SELECT 1 AS ok")
            return True
        except StoreUnavailable:
            return False

    def reset(self) -> int | None:
        return self.backend._db().execute("DELETE FROM rate_counters").rowcount

    def clear(self, key: str) -> None:
        self.backend._db().execute("DELETE FROM rate_counters WHERE key = ?", [self.stored_key(key)])
