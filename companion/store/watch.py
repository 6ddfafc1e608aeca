"""How a process hears of versions other processes wrote, for the live updates (SQLite).

:class:`SqliteChanges` asks SQLite's ``PRAGMA data_version`` (a counter in shared memory that changes when
another connection commits; a few microseconds) and, only when it changed, reads the log entries added since
its last look (every new version is one row of the append-only move log, found by its rowid). The work per
change follows the moves made, not the phones connected or the games watched. When the newest rows were
deleted (a purge: their rowids come again) it says it cannot tell (None), and the caller reads every game
it watches. :mod:`companion.web.live_updates` runs it on its own connection in one thread per process.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Sequence
from urllib.parse import quote

from companion.store.backend import Changes
from companion.store.errors import StoreUnavailable

#: SQLite's default limit on bound parameters is far higher; this keeps statements small
QUERY_CHUNK = 500


class SqliteChanges:
    """The versions written since the last look, from one read-only use of its own connection."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            # (mode=rw: a database deleted meanwhile is an error here, not a new, empty file made beside its log)
            self._db = sqlite3.connect(f"file:{quote(str(path))}?mode=rw", uri=True, check_same_thread=False)
            self._seen = self._db.execute("PRAGMA data_version").fetchone()[0]
            self._last_row = int(self._db.execute("SELECT coalesce(max(rowid), 0) FROM moves").fetchone()[0])
        except sqlite3.Error as error:
            raise StoreUnavailable(f"{path}: {error}") from None

    def changed(self) -> list[tuple[str, int]] | None:
        try:
            now = self._db.execute("PRAGMA data_version").fetchone()[0]
            if now == self._seen:
                return []
            self._seen = now
            found = self._db.execute("SELECT m.rowid, m.game_id, g.version FROM moves m JOIN games g ON g.id = m.game_id"
                                     " WHERE m.rowid > ? ORDER BY m.rowid", [self._last_row]).fetchall()
            if not found:
                top = int(self._db.execute("SELECT coalesce(max(rowid), 0) FROM moves").fetchone()[0])
                if top < self._last_row:  # the newest rows were deleted (a purge): their rowids come again
                    self._last_row = top
                    return None
                return []
        except sqlite3.Error as error:
            raise StoreUnavailable(f"{self.path}: {error}") from None
        self._last_row = int(found[-1][0])
        return [(str(game_id), int(version)) for _, game_id, version in found]

    def versions(self, game_ids: Sequence[str]) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        try:
            for start in range(0, len(game_ids), QUERY_CHUNK):
                chunk = list(game_ids[start:start + QUERY_CHUNK])
                out.extend((str(game_id), int(version)) for game_id, version in self._db.execute(
                    f"SELECT id, version FROM games WHERE id IN ({','.join('?' * len(chunk))})", chunk))
        except sqlite3.Error as error:
            raise StoreUnavailable(f"{self.path}: {error}") from None
        return out

    def close(self) -> None:
        self._db.close()


def changes_of(source: object) -> Changes:
    """A new :class:`~companion.store.backend.Changes` for ``source``: a store, a backend, or a SQLite file's path."""
    from companion.store.backend import Backend
    from companion.store.states import StateCache

    if isinstance(source, StateCache):
        return source.backend.changes()
    if isinstance(source, Backend):
        return source.changes()
    if isinstance(source, (str, os.PathLike)):
        return SqliteChanges(Path(source))
    raise TypeError(f"no database to watch in {source!r}")
