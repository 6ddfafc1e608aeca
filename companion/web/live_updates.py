"""Live updates pushed to the phones: ``GET /api/games/<id>/events``, a server-sent event stream.

Each open page keeps one stream open and is told every new version of its game at once, instead of
asking once a second. An open stream costs the server one greenlet and one socket (the gevent worker,
:mod:`companion.serving`) and no work at all while nothing happens.

A move may be stored by any worker process, so each process learns of new versions from the
database itself: one :class:`VersionWatch` per process asks SQLite's ``PRAGMA data_version`` (a
counter in shared memory that changes when another connection commits; a few microseconds) every
:data:`CHECK_SECONDS`, and only when it changed reads the version of each game someone listens to.
One query per change for the whole process, however many phones are connected.

The stream sends ``event: version`` with ``{"version": n}`` when it opens, on every change, and as a
heartbeat every :data:`HEARTBEAT_SECONDS` (so a phone can tell a quiet game from a dead connection,
and a dead connection is noticed by the server when the write fails). After
:data:`STREAM_SECONDS` the server ends the stream and the browser's ``EventSource`` reconnects by
itself after the ``retry`` delay it was sent.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

CHECK_SECONDS = 0.025
HEARTBEAT_SECONDS = 15.0
STREAM_SECONDS = 300.0
RETRY_MS = 1500
_QUERY_CHUNK = 500  # SQLite's default limit on bound parameters is far higher; this keeps statements small


@dataclass
class _Watched:
    version: int
    listeners: int = 0
    changed: threading.Condition = field(default_factory=threading.Condition)


class VersionWatch:
    """The versions of the games this process's phones listen to, kept current from the database."""

    def __init__(self, path: Path, check_seconds: float = CHECK_SECONDS) -> None:
        self.path = path
        self.check_seconds = check_seconds
        self._games: dict[str, _Watched] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        # a game newly listened to is read at the next check even if nothing is committed by then: a
        # move stored between the stream's first read and the listen would otherwise wait for the next
        self._recheck = False

    def listen(self, game_id: str, version: int) -> _Watched:
        with self._lock:
            watched = self._games.get(game_id)
            if watched is None:
                watched = self._games[game_id] = _Watched(version)
                self._recheck = True
            watched.listeners += 1
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="version-watch", daemon=True)
                self._thread.start()
        return watched

    def leave(self, game_id: str) -> None:
        with self._lock:
            watched = self._games.get(game_id)
            if watched is not None:
                watched.listeners -= 1
                if watched.listeners <= 0:
                    del self._games[game_id]

    def stop(self) -> None:
        self._stopped.set()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False)
        try:
            seen = db.execute("PRAGMA data_version").fetchone()[0]
            while not self._stopped.wait(self.check_seconds):
                now = db.execute("PRAGMA data_version").fetchone()[0]
                if now != seen or self._recheck:
                    seen, self._recheck = now, False
                    self._check(db)
        except sqlite3.Error:
            pass  # the database went away: the streams end at their next heartbeat and reconnect
        finally:
            db.close()
            with self._lock:
                self._thread = None

    def _check(self, db: sqlite3.Connection) -> None:
        with self._lock:
            ids = list(self._games)
        for start in range(0, len(ids), _QUERY_CHUNK):
            chunk = ids[start:start + _QUERY_CHUNK]
            rows = db.execute(f"SELECT id, version FROM games WHERE id IN ({','.join('?' * len(chunk))})",
                              chunk).fetchall()
            for game_id, version in rows:
                watched = self._games.get(game_id)
                if watched is not None and watched.version != version:
                    with watched.changed:
                        watched.version = version
                        watched.changed.notify_all()


def event(version: int) -> bytes:
    return f'event: version\ndata: {{"version": {version}}}\n\n'.encode()


def stream(watch: VersionWatch, game_id: str, version: int, *, heartbeat: float = HEARTBEAT_SECONDS,
           lifetime: float = STREAM_SECONDS) -> Iterator[bytes]:
    """The event stream of one phone: the version now, every change, a heartbeat; ends after ``lifetime``."""
    watched = watch.listen(game_id, version)
    try:
        yield f"retry: {RETRY_MS}\n".encode() + event(version)
        sent = version
        ends = time.monotonic() + lifetime
        while (left := ends - time.monotonic()) > 0:
            with watched.changed:
                watched.changed.wait_for(lambda: watched.version != sent, timeout=min(heartbeat, left))
                sent = watched.version
            yield event(sent)
    finally:
        watch.leave(game_id)
