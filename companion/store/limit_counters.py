"""The per-address limit counters (:mod:`companion.web.rate_limits`) as a ``limits`` storage (SQLite).

gunicorn's workers are separate processes and an in-memory counter is one per process (with the kernel
spreading connections, every worker would allow the whole limit), so the counters live in a small SQLite
file beside the database (``<database>.limits``, :meth:`.sqlite.SqliteBackend.limit_counters`): fixed-window
counters in one table, safe across threads and processes. The upsert is SQL PostgreSQL accepts as well.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any
from urllib.parse import unquote, urlparse

from limits.storage import Storage

#: counters ``limits`` keeps: one row per (limit, key, window), removed once its window has passed
COUNTERS_TABLE = ("CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL,"
                  " expires REAL NOT NULL)")
INCREMENT = ("INSERT INTO counters (key, count, expires) VALUES (?, ?, ?) ON CONFLICT (key)"
             " DO UPDATE SET count = counters.count + excluded.count")


class SqliteStorage(Storage):
    """Fixed-window counters in one SQLite table, safe across threads and processes."""

    STORAGE_SCHEME = ["companion-sqlite"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        self.path = unquote(urlparse(uri or "").path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=10, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(COUNTERS_TABLE)
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM counters WHERE expires <= ?", [now])
                self._db.execute(INCREMENT, [key, amount, now + expiry])
                count = self._db.execute("SELECT count FROM counters WHERE key = ?", [key]).fetchone()[0]
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return int(count)

    def _row(self, key: str) -> tuple[int, float] | None:
        with self._lock:
            row = self._db.execute("SELECT count, expires FROM counters WHERE key = ? AND expires > ?",
                                   [key, time.time()]).fetchone()
        return (int(row[0]), float(row[1])) if row else None

    def get(self, key: str) -> int:
        row = self._row(key)
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._row(key)
        return row[1] if row else time.time()

    def check(self) -> bool:
        try:
            with self._lock:
                self._db.execute("SELECT 1").fetchone()
            return True
        except sqlite3.Error:
            return False

    def reset(self) -> int | None:
        with self._lock:
            return self._db.execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM counters WHERE key = ?", [key])


def limit_counters(database: Any) -> Storage:
    """The limit counters of ``database`` (a store, a backend, or a SQLite file's path): each backend keeps
    them where every process of the instance shares them."""
    from companion.store.backend import Backend, is_server_url
    from companion.store.states import StateCache

    if isinstance(database, StateCache):
        return database.backend.limit_counters()
    if isinstance(database, Backend):
        return database.limit_counters()
    if is_server_url(database):
        from companion.store.backend import open_backend

        return open_backend(database).limit_counters()
    return SqliteStorage(f"companion-sqlite://{database}.limits")
