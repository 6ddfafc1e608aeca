"""The gunicorn worker ``companion serve`` runs: gunicorn's gevent worker with the companion's limits.

Why gevent (measured with ``bench/bench_serving.py``, see docs/serving.md): every connection is a
greenlet, so a phone holding a live-update stream open, or a client that sends half a request and
goes silent, costs a socket and a few kilobytes instead of one of a handful of threads. gunicorn's
gevent worker also bounds the wait for a request's headers by the keep-alive time, on the first
request of a connection as on the later ones. On top of that this worker

- puts a time limit on every read and write of a client socket (:data:`SOCKET_SECONDS`), so a
  client that stops reading or sending mid-request is dropped; the body as a whole has a deadline
  of its own (:mod:`companion.web.limits`, a ``gevent.Timeout``, so a body trickled a byte at a time
  is cut too), after which the connection is closed (its unread rest would stall the next request);
- caps the connections one address holds open in a worker (``MAX_CONNECTIONS_PER_ADDRESS``, 500 of
  the worker's 10,000): one past it is answered 429 and closed at once, so one machine on the Wi-Fi
  cannot fill a worker with stalled or trickling connections. ``UNLIMITED_ADDRESSES`` (loopback by
  default: the host's own machine, a proxy in front) are not capped;
- gives the app its cap on live-update streams, half its ``--worker-connections`` unless
  ``COMPANION_MAX_STREAMS_PER_WORKER`` says otherwise (:func:`companion.web.live_updates.max_streams`): one
  stream more is answered 503 at once, so idle streams (from a proxy's many forwarded addresses, which no
  per-address connection cap counts) cannot take the connections the pages and moves need;
- lets the other ready connections have their turn after each answer (:meth:`CompanionWorker.handle_request`),
  so under saturation every connection is served in turn;
- announces its keep-alive time (``Keep-Alive: timeout=5``) on every answer that keeps the connection,
  so a client does not reuse a connection the server is about to close;
- answers gunicorn's own refusals (a malformed request line 400, a too-long URL 414, too many or
  too large headers 431) in the API's one JSON error shape, with the same security headers as
  every other answer, instead of gunicorn's HTML page;
- raises its open-file limit to the hard limit, since every phone is an open socket;
- dies with its master: the kernel kills it the moment the master dies (``PR_SET_PDEATHSIG``, Linux),
  so after a ``kill -9`` of ``companion serve`` no worker lingers on the port and a restart binds it
  at once (gunicorn's worker would notice within a second or two and keep the port meanwhile). A
  crash of the master is a crash of the server either way: every acknowledged move was committed
  before its answer, and a move cut short is rolled back by SQLite;
- asks every :data:`PURGE_CHECK_SECONDS` whether the old games are due to be purged
  (:class:`companion.archive.PurgeSchedule`: one process purges per period), in a thread of gevent's
  pool so the connections it serves are not held up meanwhile.
"""

from __future__ import annotations

import ctypes
import gc
import ipaddress
import os
import resource
import signal
import sys
from typing import Any

import gevent
from gunicorn import util
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from companion.fast_json import dumps_compact
from companion.web.errors import error_body
from companion.web.headers import SECURITY_HEADERS
from companion.web.limits import CLOSE_CONNECTION
from companion.web.live_updates import max_streams
from companion.web.rate_limits import address_key, unlimited_networks

SOCKET_SECONDS = 10.0
#: connections one address may hold open in one worker process (of its 10,000)
MAX_CONNECTIONS_PER_ADDRESS = 500
PURGE_CHECK_SECONDS = 600.0
#: gunicorn's own reason phrases for the statuses it answers itself, as sentences of ours
SERVER_SENTENCES = {
    400: "the request could not be understood: {detail}",
    403: "the request is forbidden",
    414: "the address (URL) is too long; it may be at most {limit} characters",
    417: "the server does not support that Expect header",
    429: "too many open connections from your address (at most {limit} in each of the server's processes); "
         "close some and try again",
    431: "the request's headers are too many or too large",
    500: "something went wrong on our side; the error has been logged",
    501: "the request uses a transfer coding the server does not support",
}


def raise_open_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit; returns (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft, hard


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int) -> bool:
    """Have the kernel kill this process when its parent dies (Linux); False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    if os.getppid() != parent:  # the parent died before the request was made: nobody would signal
        os.kill(os.getpid(), signal.SIGKILL)
    return True


def server_error_answer(status: int, reason: str, detail: str, limit: int = 4094,
                        extra: tuple[str, ...] = ()) -> bytes:
    """The bytes gunicorn sends for a request it refuses before the app sees it: our JSON shape."""
    template = SERVER_SENTENCES.get(status, reason.lower() or "the request was refused")
    message = template.format(detail=detail.strip() or reason.lower(), limit=f"{limit:,}")
    body = dumps_compact(error_body(status, message)).encode()
    headers = [f"HTTP/1.1 {status} {reason}", "Connection: close", "Content-Type: application/json",
               f"Content-Length: {len(body)}", *extra,
               *(f"{name}: {value}" for name, value in SECURITY_HEADERS.items())]
    return ("\r\n".join(headers) + "\r\n\r\n").encode("latin-1") + body


def _write_json_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    util.write_nonblock(sock, server_error_answer(status_int, reason, mesg))


class ConnectionAnswers:
    """WSGI wrapper inside the worker: closes the connection after an answer the app asked to close it
    after (``environ[CLOSE_CONNECTION]``: a body left unread), and announces the keep-alive time on every
    answer that keeps the connection. gunicorn drops such hop-by-hop headers when the app sets them,
    so they go onto gunicorn's own response object, whose ``start_response`` the app is given."""

    def __init__(self, app: Any, keepalive: int) -> None:
        self.app, self.announce = app, ("Keep-Alive", f"timeout={keepalive}")

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        answer = getattr(start_response, "__self__", None)  # gunicorn.http.wsgi.Response

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            write = start_response(status, headers, exc_info)
            if answer is not None:
                if environ.get(CLOSE_CONNECTION):
                    answer.force_close()
                if not answer.should_close():
                    answer.headers.append(self.announce)
            return write

        return self.app(environ, start)


def close_logging(arbiter: Any, worker: Any) -> None:
    """gunicorn's ``worker_exit`` hook, after a worker's last log line: logging is shut down (every handler
    flushed and closed) while the worker's modules are whole, and its list of handlers to clean up at the
    end is emptied. Left to the interpreter's end, the clean-up of a handler no logger holds (Flask's
    default one) ran after gevent's thread module was torn down and printed "Exception ignored in
    _removeHandlerRef ... TypeError" on every stop (gevent/gevent#2148, open)."""
    import logging

    logging.shutdown()
    handlers = getattr(logging, "_handlerList", None)  # (logging's private list of weak references)
    if isinstance(handlers, list):
        handlers.clear()


class CompanionWorker(GeventWorker):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn's gevent worker, with socket time limits, a per-address connection cap and JSON answers
    for gunicorn's own errors."""

    wsgi: Any  # the app gunicorn loaded (set by load_wsgi)

    def init_process(self) -> None:
        die_with_parent(self.ppid)
        raise_open_file_limit()
        util.write_error = _write_json_error  # base.Worker.handle_error writes its answer through this
        self.open_by_address: dict[str, int] = {}
        self._quitting = False  # a quick stop asked (handle_quit)
        self._finished = False  # the serving loop has ended (run)
        super().init_process()

    def load_wsgi(self) -> None:
        super().load_wsgi()
        # the app's objects (every game's data, templates, the search index) live as long as the worker: out of
        # the collector, its full collections while serving and at the worker's exit no longer walk them (that
        # walk at exit cost ~0.3 s CPU, on a busy machine long enough for gunicorn's 5 s graceful timeout to
        # SIGKILL the worker on every stop)
        gc.freeze()
        app = self.wsgi
        self.flask_app = app
        config = getattr(app, "config", {})
        self.max_per_address = int(config.get("MAX_CONNECTIONS_PER_ADDRESS", MAX_CONNECTIONS_PER_ADDRESS))
        self.unlimited = unlimited_networks(config.get("UNLIMITED_ADDRESSES"))
        if hasattr(config, "setdefault"):  # the streams this worker holds at most: a part of its connections
            config.setdefault("MAX_STREAMS_PER_WORKER", max_streams(int(self.cfg.worker_connections)))
        self.wsgi = ConnectionAnswers(app, int(self.cfg.keepalive))

    def handle_quit(self, sig: Any, frame: Any) -> None:
        """gunicorn's quick stop (SIGINT, SIGQUIT), once, and quietly: Ctrl-C reaches every process of the
        terminal's group and the master then tells each worker to quit as well. gunicorn's own way stops
        serving, waits 0.1 s and raises SystemExit from a greenlet; when the worker had finished meanwhile
        (or a second quit came), that SystemExit landed inside gevent's interpreter shutdown and printed a
        traceback on every stop. Here it is raised only while the worker still runs."""
        if self._quitting:
            return
        self._quitting = True
        gevent.spawn(self._quit)

    def _quit(self) -> None:
        self.alive = False
        self.cfg.worker_int(self)
        gevent.sleep(0.1)
        if not self._finished:
            sys.exit(0)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        client.settimeout(SOCKET_SECONDS)  # (the gevent worker would make the socket wait forever)
        key = self._capped_key(addr)
        if key is None:
            AsyncWorker.handle(self, listener, client, addr)
            return
        held = self.open_by_address.get(key, 0)
        if held >= self.max_per_address:
            try:
                client.sendall(server_error_answer(429, "Too Many Requests", "", self.max_per_address,
                                                   ("Retry-After: 5",)))
            except OSError:
                pass
            util.close(client)
            return
        self.open_by_address[key] = held + 1
        try:
            AsyncWorker.handle(self, listener, client, addr)
        finally:
            left = self.open_by_address[key] - 1
            if left:
                self.open_by_address[key] = left
            else:
                del self.open_by_address[key]

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """Serve one request, then let every other connection that is ready have its turn.

        gevent switches greenlets only when one would wait: a kept-alive connection whose next
        request is already there when its answer has gone out is read and served at once, again and
        again, while the connections behind it wait. Under saturation a few phones were served in a
        millisecond and others waited seconds (64 closed-loop connections: p50 0.9 ms, p99 0.8 s, a
        few over 2 s). ``gevent.idle()`` after each answer waits until the event loop has run
        everything else that is ready, I/O included (``gevent.sleep(0)`` would not poll the sockets),
        so the connections are served in turn (docs/serving.md, ``bench/bench_serving.py``)."""
        import gevent

        served = super().handle_request(listener_name, req, sock, addr)
        gevent.idle()  # (a connection that closes ends here without waiting: the raise skips this)
        return served

    def _capped_key(self, addr: Any) -> str | None:
        """The key an address's connections are counted by, or None for an address that is not capped."""
        if not isinstance(addr, tuple) or not addr:
            return None
        try:
            ip = ipaddress.ip_address(str(addr[0]).split("%", 1)[0])
        except ValueError:
            return None
        if any(ip in network for network in self.unlimited):
            return None
        return address_key(str(ip))

    def run(self) -> None:
        gevent.spawn(self._purge_now_and_then)
        try:
            super().run()
        finally:
            self._finished = True  # (a quick stop's greenlet, still asleep, then ends quietly: handle_quit)

    def _purge_now_and_then(self) -> None:
        from companion.archive import schedule_for

        store = getattr(self.flask_app, "extensions", {}).get("store")
        if store is None:
            return
        schedule = schedule_for(getattr(store.backend, "dsn", store.path))
        while self.alive:
            gevent.sleep(PURGE_CHECK_SECONDS)
            try:
                gone = gevent.get_hub().threadpool.apply(schedule.run_if_due)
            except Exception:  # a purge that failed is tried again at the next check; the serving goes on
                self.log.exception("the scheduled purge of old games failed")
                continue
            if gone:
                self.log.info("purged %d old game(s) past the schedule (docs/serving.md)", len(gone))
