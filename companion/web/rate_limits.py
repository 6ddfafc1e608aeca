"""Per-address limits on joining and on starting games (Flask-Limiter), shared by every worker process.

- **Join code look-ups** (``POST /api/join``, the join page ``/j/<code>`` and its seat form):
  ``JOIN_LIMIT`` per address, 20 a minute by default, so a code cannot be found by trying (a 6-character
  code has 32⁶ ≈ 10⁹ values).
- **New games** (``POST /api/games``, the home page's form): ``NEW_GAME_LIMIT``, 30 a minute by default.

Past a limit the answer is 429 in the one error shape with ``Retry-After``. The host's own machine
(loopback addresses) is never limited: that is where ``scripts/start.sh`` and the benchmarks talk
from. Behind a reverse proxy every phone would look like loopback, so a proxy must be the one to limit.

gunicorn's workers are separate processes and Flask-Limiter's in-memory storage is one per process
(with the kernel spreading connections, every worker would allow the whole limit), so the counters
live in a small SQLite file beside the database (``<database>.limits``), through :class:`SqliteStorage`,
a ``limits`` storage for its fixed-window strategy.
"""

from __future__ import annotations

import ipaddress
import sqlite3
import threading
import time
from typing import Any
from urllib.parse import unquote, urlparse

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits.storage import Storage

JOIN_LIMIT = "20 per minute"
NEW_GAME_LIMIT = "30 per minute"
JOIN_ENDPOINTS = frozenset({"api.join", "pages.join_code", "pages.claim"})
NEW_GAME_ENDPOINTS = frozenset({"api.create_game", "pages.new_game"})


class SqliteStorage(Storage):
    """Fixed-window counters in one SQLite table, safe across threads and processes."""

    STORAGE_SCHEME = ["companion-sqlite"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        self.path = unquote(urlparse(uri or "").path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=10, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL,"
                         " expires REAL NOT NULL)")
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
                self._db.execute("INSERT INTO counters (key, count, expires) VALUES (?, ?, ?) ON CONFLICT (key)"
                                 " DO UPDATE SET count = count + excluded.count", [key, amount, now + expiry])
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


def _from_this_machine() -> bool:
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def init_rate_limits(app: Flask) -> Limiter:
    app.config.setdefault("JOIN_LIMIT", JOIN_LIMIT)
    app.config.setdefault("NEW_GAME_LIMIT", NEW_GAME_LIMIT)
    app.config.setdefault("RATELIMIT_STORAGE_URI", f"companion-sqlite://{app.config['DATABASE']}.limits")
    app.config.setdefault("RATELIMIT_STRATEGY", "fixed-window")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app, default_limits=[])
    limiter.request_filter(_from_this_machine)
    join = limiter.shared_limit(lambda: str(current_app.config["JOIN_LIMIT"]), scope="join-codes")
    new_game = limiter.shared_limit(lambda: str(current_app.config["NEW_GAME_LIMIT"]), scope="new-games")

    @app.before_request
    def limit_per_address() -> None:
        if request.endpoint in JOIN_ENDPOINTS:
            with join:
                pass
        elif request.endpoint in NEW_GAME_ENDPOINTS:
            with new_game:
                pass

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded) -> Response:
        from .errors import error_response

        window = error.limit.limit
        current = limiter.current_limit
        wait = max(1, int(current.reset_at - time.time() + 0.999)) if current else int(window.get_expiry())
        what = "join codes tried" if "join" in str(error.limit.scope) else "games started"
        response = error_response(429, f"too many {what} from your address (at most {window}); "
                                       f"try again in {wait} s")
        response.headers["Retry-After"] = str(wait)
        return response

    return limiter

