"""The web app's two shared pieces of state, when the store is PostgreSQL (companion/store_postgres.py).

- **Live updates** (:class:`PostgresVersionWatch`): every committed new version of a game is announced by
  the database itself (a trigger's ``pg_notify`` on the ``games`` row, delivered at commit), and each worker
  process of each node listens on one connection of its own (``LISTEN``), so a move made through any node
  reaches the phones of every node at once, with no polling of the database per phone or per game. After
  (re)connecting, and every :data:`~companion.web.live_updates.FULL_CHECK_SECONDS`, it reads the watched
  games' versions anyway: a notification sent while it was not listening is never waited for longer.
- **Per-address limits** (:class:`PostgresStorage`): the ``limits`` counters in a table of the same database,
  so every node counts the same addresses.
"""

from __future__ import annotations

import random
import time
from typing import Any

import psycopg
from limits.storage import Storage

from companion.store_postgres import VERSIONS_CHANNEL, PostgresDatabase, cooperate_with_gevent
from companion.web.live_updates import _QUERY_CHUNK, CHECK_SECONDS, FULL_CHECK_SECONDS, VersionWatch

#: how long the watch waits before connecting again after PostgreSQL went away (doubling up to the last)
RECONNECT_SECONDS = (0.2, 0.5, 1.0, 2.0)


class PostgresVersionWatch(VersionWatch):
    """The versions of the games this process's phones listen to, kept current by PostgreSQL's notifications."""

    def __init__(self, database: PostgresDatabase, check_seconds: float = CHECK_SECONDS * 4) -> None:
        super().__init__(database.path, check_seconds)  # type: ignore[arg-type]  # (a name for messages)
        self.dsn = database.dsn

    def _run(self) -> None:
        failures = 0
        try:
            while not self._stopped.is_set():
                try:
                    self._listen()
                    failures = 0
                except psycopg.Error:
                    # PostgreSQL away: the streams keep their heartbeat; connect again, then read every
                    # watched game (what was announced meanwhile was missed)
                    pause = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
                    failures += 1
                    self._stopped.wait(pause * (1 + random.random() / 2))
        finally:
            with self._lock:
                self._thread = None

    def _listen(self) -> None:
        cooperate_with_gevent()
        with psycopg.connect(self.dsn, autocommit=True, connect_timeout=10) as conn:
            conn.execute(f"LISTEN {VERSIONS_CHANNEL}")
            with self._lock:
                self._fresh = set(self._games)
            full_at = time.monotonic() + FULL_CHECK_SECONDS
            while not self._stopped.is_set():
                with self._lock:
                    fresh, self._fresh = self._fresh, set()
                if time.monotonic() >= full_at:
                    full_at = time.monotonic() + FULL_CHECK_SECONDS
                    with self._lock:
                        fresh = set(self._games)
                if fresh:
                    self._read_versions(conn, list(fresh))
                for note in conn.notifies(timeout=self.check_seconds):
                    game_id, _, version = note.payload.partition(" ")
                    if version.isdigit():
                        self._tell(game_id, int(version))

    def _read_versions(self, conn: psycopg.Connection[Any], ids: list[str]) -> None:
        for start in range(0, len(ids), _QUERY_CHUNK):
            chunk = ids[start:start + _QUERY_CHUNK]
            for game_id, version in conn.execute("SELECT id, version FROM games WHERE id = ANY(%s)", [chunk]):
                self._tell(game_id, version)


class PostgresStorage(Storage):
    """Fixed-window counters in one table of the store's PostgreSQL database, shared by every node."""

    STORAGE_SCHEME = ["companion-postgres"]
    #: one increment in this many also removes every expired counter (a counter past its window is reset
    #: by its own next increment anyway)
    SWEEP_ONE_IN = 200

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, *,
                 database: PostgresDatabase | None = None, **options: Any) -> None:
        if database is None:
            raise ValueError("PostgresStorage needs the store's database")
        self.database = database
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return psycopg.Error

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        db = self.database._db()
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
        row = self.database._db().execute("SELECT count, expires FROM rate_counters WHERE key = ? AND expires > ?",
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
            self.database._db().execute("SELECT 1")
            return True
        except Exception:  # StoreUnavailable or a psycopg error: not healthy
            return False

    def reset(self) -> int | None:
        return self.database._db().execute("DELETE FROM rate_counters").rowcount

    def clear(self, key: str) -> None:
        self.database._db().execute("DELETE FROM rate_counters WHERE key = ?", [key])
