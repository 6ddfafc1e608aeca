"""Live updates pushed to the phones: ``GET /api/games/<id>/events``, a server-sent event stream.

Each open page keeps one stream open and is told every new version of its game at once, instead of
asking once a second. An open stream costs the server one greenlet and one socket (the gevent worker,
:mod:`companion.serving`) and no work at all while nothing happens.

A move may be stored by any worker process, so each process learns of new versions from the
database itself: one :class:`VersionWatch` per process asks the store's change feed
(:mod:`companion.store.watch`: for SQLite, ``PRAGMA data_version``, a counter in shared memory that
changes when another connection commits, a few microseconds) every :data:`CHECK_SECONDS`; only when
it changed are the log entries added since its last look read, and the phones of those games alone
woken. The work per change follows the moves made, not the phones connected or the games watched
(reading every watched game's version at each change cost 3 queries of 500 games, ~40 times a
second, with 1,250 tables open). Every :data:`FULL_CHECK_SECONDS` it reads every watched game's
version anyway, so nothing a purge could confuse (rowids reused after the newest rows were deleted)
is missed for longer than that. When the database is away (PostgreSQL restarting, a network cut, a SQLite
file that cannot be read), the watch looks again every :data:`RETRY_SECONDS` for as long as phones listen,
and once it is back reads every watched game's version: the open streams catch up by themselves.

One address may hold at most ``MAX_STREAMS_PER_ADDRESS`` streams open in one worker process (200 by
default; the addresses of ``UNLIMITED_ADDRESSES`` are not counted): one more is answered 429 with
``Retry-After``, so idle streams from one machine cannot fill a worker (:class:`StreamCounts`). And one worker
process holds at most ``MAX_STREAMS_PER_WORKER`` streams in all, whatever their addresses (by default half its
``--worker-connections``, :func:`max_streams`: 5,000 of 10,000): one more is answered 503 with ``Retry-After`` at
once, so the other half is left for the pages, moves and version reads. Without it, behind a proxy (whose
connections no per-address connection cap counts) 50 forwarded addresses at 200 streams each filled a worker's
10,000 connections, and every other request to it hung without an answer.

The stream sends ``event: version`` with ``{"version": n}`` when it opens, on every change, and as a
heartbeat every :data:`HEARTBEAT_SECONDS` (the app's ``HEARTBEAT_SECONDS``, ``COMPANION_HEARTBEAT_SECONDS``: so a
phone can tell a quiet game from a dead connection, and a dead connection is noticed by the server when the
write fails). Under gevent (``companion serve``) a client that hangs up is noticed at once besides
(:class:`HangUp`: its socket turns readable and reads nothing), so its stream ends and its place is free then,
not at the next heartbeat. After
:data:`STREAM_SECONDS` (less a random part of up to a quarter, so that phones that connected
together do not all reconnect together) the server ends the stream and the browser's ``EventSource`` reconnects by
itself after the ``retry`` delay it was sent.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

from companion.store import StoreUnavailable
from companion.store.watch import changes_of

MAX_STREAMS_PER_ADDRESS = 200
#: the part of a worker's connections (``--worker-connections``) live-update streams may hold: the rest is left for
#: ordinary requests (a phone's page holds its stream and, for 5 s after each fetch, one kept-alive connection more)
STREAMS_SHARE = 0.5
STREAM_RETRY_AFTER = 30
CHECK_SECONDS = 0.025
FULL_CHECK_SECONDS = 5.0
RETRY_SECONDS = 1.0
HEARTBEAT_SECONDS = 15.0
STREAM_SECONDS = 300.0
RETRY_MS = 1500


@dataclass
class _Watched:
    version: int
    listeners: int = 0
    changed: threading.Condition = field(default_factory=threading.Condition)


class VersionWatch:
    """The versions of the games this process's phones listen to, kept current from the database."""

    def __init__(self, source: object, check_seconds: float = CHECK_SECONDS) -> None:
        self.source = source  # the store (or its database file's path): companion.store.watch.changes_of
        self.check_seconds = check_seconds
        self._games: dict[str, _Watched] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        # a game newly listened to is read at the next check even if nothing is committed by then: a
        # move stored between the stream's first read and the listen would otherwise wait for the next
        self._fresh: set[str] = set()

    def listen(self, game_id: str, version: int) -> _Watched:
        with self._lock:
            watched = self._games.get(game_id)
            if watched is None:
                watched = self._games[game_id] = _Watched(version)
                self._fresh.add(game_id)
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
        try:
            while not self._stopped.is_set():
                try:
                    self._follow()
                    return
                except StoreUnavailable:
                    pass  # the database is away: look again shortly, while phones listen
                with self._lock:
                    if not self._games:
                        return  # nobody listens now; the next listen starts the watch again
                    self._fresh.update(self._games)  # once back: every watched game read, none waited for
                if self._stopped.wait(RETRY_SECONDS):
                    return
        finally:
            with self._lock:
                self._thread = None

    def _follow(self) -> None:
        """Follow the database's changes until stopped; StoreUnavailable when it goes away."""
        feed = changes_of(self.source)
        try:
            full_at = time.monotonic() + FULL_CHECK_SECONDS
            while not self._stopped.wait(self.check_seconds):
                with self._lock:
                    fresh, self._fresh = self._fresh, set()
                if time.monotonic() >= full_at:
                    full_at = time.monotonic() + FULL_CHECK_SECONDS
                    with self._lock:
                        fresh = set(self._games)
                changed = feed.changed()
                if changed is None:  # the feed cannot tell which games changed (a purge): read them all
                    with self._lock:
                        fresh.update(self._games)
                else:
                    for game_id, version in changed:
                        self._tell(game_id, version)
                if fresh:
                    for game_id, version in feed.versions(list(fresh)):
                        self._tell(game_id, version)
        finally:
            feed.close()

    def _tell(self, game_id: str, version: int) -> None:
        # (only forward: a game's version never goes back, and PostgreSQL's announcements of two versions
        # made by two nodes an instant apart may arrive in either order)
        watched = self._games.get(game_id)
        if watched is not None and version > watched.version:
            with watched.changed:
                watched.version = version
                watched.changed.notify_all()


def max_streams(worker_connections: int) -> int:
    """The live-update streams one worker process holds at most, for its ``worker_connections``: :data:`STREAMS_SHARE`."""
    return max(1, int(worker_connections * STREAMS_SHARE))


#: the streams a worker holds at most when nothing else says (``MAX_STREAMS_PER_WORKER``): gunicorn's default 10,000
MAX_STREAMS_PER_WORKER = max_streams(10_000)


class StreamCounts:
    """The streams this process holds open: in all, and from each counted address."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}
        self.total = 0
        self._lock = threading.Lock()

    def take(self, key: str | None, cap: int, total_cap: int | None = None) -> str | None:
        """Count one more stream from ``key`` (None: an address no per-address cap counts); None when taken, else
        which cap refused it: ``"worker"`` (``total_cap`` streams held in all) or ``"address"`` (``cap`` from ``key``)."""
        with self._lock:
            if total_cap is not None and self.total >= total_cap:
                return "worker"
            if key is not None:
                held = self._open.get(key, 0)
                if held >= cap:
                    return "address"
                self._open[key] = held + 1
            self.total += 1
            return None

    def give_back(self, key: str | None) -> None:
        with self._lock:
            self.total = max(0, self.total - 1)
            if key is None:
                return
            left = self._open.get(key, 0) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)


class CountedStream:
    """An event stream that gives its place back once, when the server closes it (started or not)."""

    def __init__(self, events: Iterator[bytes], counts: StreamCounts, key: str | None) -> None:
        self.events, self.counts, self.key = events, counts, key
        self._open = True

    def __iter__(self) -> CountedStream:
        return self

    def __next__(self) -> bytes:
        return next(self.events)

    def close(self) -> None:
        try:
            getattr(self.events, "close", lambda: None)()
        finally:
            if self._open:
                self._open = False
                self.counts.give_back(self.key)


def event(version: int) -> bytes:
    return f'event: version\ndata: {{"version": {version}}}\n\n'.encode()


def stream_lifetime() -> float:
    """How long a stream stays open: :data:`STREAM_SECONDS` less a random part of up to a quarter."""
    return STREAM_SECONDS * (1 - random.random() / 4)


class HangUp:
    """Notices at once when the client of a stream hangs up, under gevent: a greenlet waits until the client's
    socket turns readable (an EventSource sends nothing after its request) and peeks. Nothing to read (the
    client closed) or a reset: :attr:`gone`, and the stream waiting on ``changed`` is woken. Bytes to read
    (a client that sends more): it stops looking, and the next heartbeat's write tells as before.

    Without gevent's sockets (the Flask test client, a gthread worker) it looks for nothing."""

    def __init__(self, client: Any, changed: threading.Condition) -> None:
        self.gone = False
        self._greenlet: Any = None
        if client is None or not hasattr(client, "fileno"):
            return
        from gevent import monkey

        if not monkey.is_module_patched("socket"):
            return
        import gevent

        self._greenlet = gevent.spawn(self._wait, client, changed)

    def _wait(self, client: Any, changed: threading.Condition) -> None:
        from gevent.socket import wait_read

        try:
            wait_read(client.fileno())
            hung_up = not client.recv(1, socket.MSG_PEEK)
        except ValueError:  # a socket that cannot peek (TLS) or a closed file: leave it to the heartbeat
            return
        except OSError:  # reset
            hung_up = True
        if hung_up:
            self.gone = True
            with changed:
                changed.notify_all()

    def stop(self) -> None:
        """Stop looking, before the server closes the socket (the wait's watcher is closed at once)."""
        if self._greenlet is not None:
            try:
                self._greenlet.kill()  # (blocks until it is dead: its watcher on the socket closed)
            except Exception:  # (asked from gevent's hub, where nothing may block)
                self._greenlet.kill(block=False)


def stream(watch: VersionWatch, game_id: str, version: int, *, heartbeat: float = HEARTBEAT_SECONDS,
           lifetime: float | None = None, client: Any = None) -> Iterator[bytes]:
    """The event stream of one phone: the version now, every change, a heartbeat; ends after ``lifetime``
    (by default :data:`STREAM_SECONDS` less a random part of up to a quarter), or at once when ``client`` (the
    phone's socket, under gevent) hangs up: :class:`HangUp`."""
    if lifetime is None:
        lifetime = stream_lifetime()
    watched = watch.listen(game_id, version)
    hang_up = HangUp(client, watched.changed)
    try:
        yield f"retry: {RETRY_MS}\n".encode() + event(version)
        sent = version
        ends = time.monotonic() + lifetime
        while (left := ends - time.monotonic()) > 0:
            with watched.changed:
                watched.changed.wait_for(lambda: watched.version != sent or hang_up.gone,  # noqa: B023 (called within this pass)
                                         timeout=min(heartbeat, left))
                if hang_up.gone:
                    return
                sent = watched.version
            yield event(sent)
    finally:
        hang_up.stop()
        watch.leave(game_id)
