"""The seam between the store and its database: what a backend provides (:class:`Backend`).

Every statement the store runs goes through a backend: SQLite today (:mod:`.sqlite`), PostgreSQL next.
The store's SQL is plain SQL both accept, written with ``?`` placeholders (a backend whose driver uses
another style, such as psycopg's ``%s``, translates them: no statement of the store has a ``?`` or a ``%``
inside a string literal). What differs between databases is the backend's own business: the schema and
its migrations, how a write is serialised, how the append-only log is opened for a purge, how other
processes hear of new versions, and where the per-address limit counters live.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ContextManager, Protocol, Sequence, runtime_checkable

from limits.storage import Storage


class Cursor(Protocol):
    """What a statement gives back (a DB-API cursor: ``description`` names the columns)."""

    @property
    def rowcount(self) -> int: ...

    @property
    def description(self) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """A connection inside one of the backend's transactions (a DB-API connection, or a thin wrapper)."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor: ...


class Changes(Protocol):
    """How one process hears of versions written by any process (:mod:`companion.web.live_updates`)."""

    def changed(self) -> list[tuple[str, int]] | None:
        """``(game id, version)`` of the games written to since the last call (a game may repeat), or None
        when the backend cannot tell which (e.g. rows were removed): the caller then asks for every game it
        watches with :meth:`versions`. Waits at most a short while (it is called in a loop)."""
        ...

    def versions(self, game_ids: Sequence[str]) -> list[tuple[str, int]]:
        """The current version of each of these games that exists."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Backend(Protocol):
    """What the store needs of a database.

    - :meth:`read`: a transaction that sees one consistent snapshot, for several SELECTs;
    - :meth:`write`: a read-modify-write transaction, serialised with every other write to the same game
      (``game_id``; None: a write that is about no game yet, such as a new game, or several, such as a
      purge). SQLite serialises every write (``BEGIN IMMEDIATE`` and a writer lock across processes);
      PostgreSQL takes a row lock on the game (``SELECT ... FOR UPDATE``). A write that raises rolls back.
      Failures of the database itself are raised as :class:`StoreUnavailable` with a sentence a host can act on;
    - :meth:`lock_game`: inside a write of no one game (a purge of several), serialise it with the other
      writes to a game: a no-op where every write is serialised anyway. A game's row is locked before any
      other row of it (a hand-over code's: the code's game is looked up first, then written as that game's),
      so two writes of one game never wait for each other's rows (PostgreSQL would cancel one: a deadlock);
    - :meth:`rows`: one SELECT on its own (no transaction of its own beyond the statement), as dicts;
    - :meth:`game_seats`: :data:`GAME_SEATS`' rows for one game and seat token (every state read asks it),
      as :meth:`rows` gives them; a backend may ask for several that arrive together in one statement;
    - :meth:`append_move`: a move already checked against the rules, written in one statement if the backend
      has such a way (PostgreSQL: one round trip instead of a transaction's several, the seat token's check
      in it too); None: take :meth:`write`;
    - :meth:`delete_log`: inside a write, remove the log entries of these games (the log is append-only
      for everything else: the backend's guard against updates and deletes stays on for them);
    - :meth:`changes`: a new :class:`Changes` for one process's live updates;
    - :meth:`limit_counters`: a ``limits`` storage shared by every process (per-address limits);
    - :meth:`migrations`: the migrations applied (number, name, applied), the format version being the last;
    - :meth:`close`: close what this process opened.

    Opening a backend creates or migrates the schema (the same numbered migrations, in its own SQL).
    """

    #: short name: "sqlite", "postgresql"
    kind: str
    #: the file of a file database (None for a server's database): the purge stamp lives beside it
    path: Path | None
    #: what messages name: the file or the server (never a password)
    target: str

    def read(self) -> ContextManager[Connection]: ...

    def write(self, game_id: str | None = None) -> ContextManager[Connection]: ...

    def lock_game(self, db: Connection, game_id: str) -> None: ...

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]: ...

    def game_seats(self, game_id: str, token_hash: str | None) -> list[dict[str, Any]]: ...

    def append_move(self, game_id: str, version: int, seat: int, action_id: str, move: str, result: str,
                    created: str, state: str, token_hash: str | None = None
                    ) -> tuple[bool, dict[str, Any] | None, bool] | None: ...

    def delete_log(self, db: Connection, game_ids: Sequence[str]) -> None: ...

    def changes(self) -> Changes: ...

    def limit_counters(self) -> Storage: ...

    def migrations(self) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...


#: a game's row once per seat, each with ``token_seat``, the seat if the token (its hash: the first parameter,
#: None for none) holds it now; the game's id is the second parameter. One statement: one snapshot.
GAME_SEATS_COLUMNS = "g.id, g.game, g.join_code, g.players, g.version, g.created, s.claimed, t.seat AS token_seat"
GAME_SEATS = (f"SELECT {GAME_SEATS_COLUMNS} FROM games g LEFT JOIN seats s ON s.game_id = g.id"
              " LEFT JOIN seat_tokens t ON t.token_hash = ? AND t.game_id = g.id"
              " AND t.seat = s.seat AND t.revoked IS NULL WHERE g.id = ? ORDER BY s.seat")


def fetch_rows(db: Connection, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Run a SELECT on a connection of a transaction and return its rows as dicts."""
    cursor = db.execute(sql, list(params))
    keys = [d[0] for d in cursor.description]
    return [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]


def is_server_url(target: object) -> bool:
    """Whether ``target`` names a database server (``postgresql://...``) rather than a file."""
    return isinstance(target, str) and target.split("://", 1)[0].lower() in ("postgresql", "postgres")


def open_backend(target: str | os.PathLike[str] | Backend) -> Backend:
    """The backend for ``target``: a backend itself, a ``postgresql://`` URL, or a SQLite file's path."""
    if isinstance(target, Backend):
        return target
    if is_server_url(target):
        from companion.store.postgres import PostgresBackend

        return PostgresBackend(str(target))
    from companion.store.sqlite import SqliteBackend, served_file

    return SqliteBackend(target, served_as=served_file(target))
