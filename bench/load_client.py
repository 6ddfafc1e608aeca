"""A lean HTTP/1.1 load client for the API benchmark: keep-alive sockets and prepared request bytes.

The load generator shares the machine's cores with the server, so every microsecond it spends is
taken from the server: requests are built before the clock starts, and a response is read only as
far as its status line and ``Content-Length``. Loopback only.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator


def request_bytes(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    payload = b""
    if body is not None:
        payload = json.dumps(body, separators=(",", ":")).encode()
        lines += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload


class Connection:
    """One keep-alive connection; reconnects once if the server closed it while idle."""

    def __init__(self, host: str, port: int) -> None:
        self.address = (host, port)
        self.sock: socket.socket | None = None
        self.buffer = b""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(self.address, timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        return sock

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def send(self, raw: bytes) -> tuple[int, bytes]:
        """Send one prepared request; returns (status, body)."""
        for attempt in (1, 2):
            if self.sock is None:
                self.sock = self._connect()
            try:
                self.sock.sendall(raw)
                return self._response()
            except (ConnectionError, OSError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _response(self) -> tuple[int, bytes]:
        assert self.sock is not None
        while (answer := _parse_response(self.buffer)) is None:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionResetError("server closed the connection")
            self.buffer += chunk
        status, body, self.buffer, closing = answer
        if closing:
            self.close()
        return status, body


@dataclass
class Tally:
    """What one phase measured: latencies (s), statuses, and the wall time it took."""

    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def ok(self) -> int:
        return sum(n for status, n in self.statuses.items() if 200 <= status < 300)

    def rate(self) -> float:
        return self.ok / self.elapsed if self.elapsed else 0.0

    def percentile_ms(self, share: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


Work = Callable[[], Iterator[bytes]]


def run_phase(host: str, port: int, requests_per_connection: list[Work], seconds: float,
              expected: Callable[[int], bool] = lambda status: status == 200) -> Tally:
    """One thread per connection sends its requests in order until they run out or time is up."""
    tally = Tally()
    lock = threading.Lock()
    start_gate = threading.Barrier(len(requests_per_connection) + 1)
    deadline = [0.0]

    def connection_loop(work: Work) -> None:
        connection = Connection(host, port)
        latencies: list[float] = []
        statuses: dict[int, int] = {}
        failure = ""
        requests = work()
        start_gate.wait()
        clock = time.perf_counter
        try:
            for raw in requests:
                if clock() >= deadline[0]:
                    break
                began = clock()
                status, body = connection.send(raw)
                latencies.append(clock() - began)
                statuses[status] = statuses.get(status, 0) + 1
                if not expected(status) and not failure:
                    failure = f"{status}: {body[:200].decode('utf-8', 'replace')}"
        except OSError as error:
            failure = f"connection failed: {error}"
        finally:
            connection.close()
        with lock:
            tally.latencies += latencies
            for status, n in statuses.items():
                tally.statuses[status] = tally.statuses.get(status, 0) + n
            if failure:
                tally.failures.append(failure)

    threads = [threading.Thread(target=connection_loop, args=(work,), daemon=True)
               for work in requests_per_connection]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    deadline[0] = began + seconds
    start_gate.wait()
    for thread in threads:
        thread.join(seconds + 60)
    tally.elapsed = time.perf_counter() - began
    return tally


# -- open loop ----------------------------------------------------------------------------------------

def _parse_response(buffer: bytes) -> tuple[int, bytes, bytes, bool] | None:
    """(status, body, what follows, server closes) once ``buffer`` holds a whole answer, else None."""
    head, found, rest = buffer.partition(b"\r\n\r\n")
    if not found:
        return None
    length, closing = 0, False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        lowered = name.strip().lower()
        if lowered == b"content-length":
            length = int(value)
        elif lowered == b"connection" and value.strip().lower() == b"close":
            closing = True
    if len(rest) < length:
        return None
    return int(head[9:12]), rest[:length], rest[length:], closing


@dataclass
class _Scheduled:
    """One connection of the open-loop phase: its socket, its requests and its timetable."""

    index: int
    requests: Iterator[bytes]
    sock: socket.socket | None = None
    buffer: bytes = b""
    sent: int = 0                       # requests taken from ``requests`` so far
    pending: bytes | None = None        # the request in flight
    intended: float = 0.0               # when the request in flight was due


def run_open_phase(host: str, port: int, requests_per_connection: list[Work], seconds: float, rate: float,
                   drain: float = 2.0, expected: Callable[[int], bool] = lambda status: status == 200) -> Tally:
    """Open loop: the connections together offer ``rate`` requests a second for ``seconds``.

    Connection ``i`` of ``n`` is due to send its ``k``-th request at ``start + (i + k n) / rate``,
    whatever happened before: when an answer comes late, the next request goes out at once and is
    still timed from when it was due. Latency is measured from that intended send time, so time a
    request spent waiting behind a slow answer is counted (no coordinated omission, as wrk2 does it).
    One thread drives every socket through a selector, so the client's own threads do not queue on
    the GIL. Requests due in the window but unanswered ``drain`` seconds after it are failures;
    ``Tally.rate()`` is the answered ones over ``seconds``. Each connection sends one request at a
    time (HTTP/1.1 keep-alive, no pipelining): a connection with an answer outstanding when its next
    request falls due sends that one as soon as the answer is in.
    """
    import heapq
    import selectors

    tally = Tally(elapsed=seconds)
    count = len(requests_per_connection)
    connections = [_Scheduled(i, work()) for i, work in enumerate(requests_per_connection)]
    selector = selectors.DefaultSelector()
    clock = time.perf_counter
    start = clock() + 0.2  # time to connect every socket first
    window_end, hard_end = start + seconds, start + seconds + drain
    for connection in connections:
        connection.sock = socket.create_connection((host, port), timeout=30)
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        selector.register(connection.sock, selectors.EVENT_READ, connection)
    due: list[tuple[float, int]] = [(start + i / rate, i) for i in range(count)]
    heapq.heapify(due)
    unanswered = 0

    def schedule_next(connection: _Scheduled) -> None:
        when = start + (connection.index + connection.sent * count) / rate
        if when < window_end:
            heapq.heappush(due, (when, connection.index))

    def send(connection: _Scheduled, when: float) -> None:
        nonlocal unanswered
        raw = next(connection.requests, None)
        if raw is None:
            tally.failures.append(f"connection {connection.index} ran out of prepared requests")
            return
        connection.sent += 1
        connection.pending, connection.intended = raw, when
        assert connection.sock is not None
        connection.sock.sendall(raw)
        unanswered += 1

    def reconnect(connection: _Scheduled) -> None:
        if connection.sock is not None:
            selector.unregister(connection.sock)
            connection.sock.close()
        connection.sock = socket.create_connection((host, port), timeout=30)
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection.buffer = b""
        selector.register(connection.sock, selectors.EVENT_READ, connection)
        if connection.pending is not None:  # resend what was in flight (moves carry an action id)
            connection.sock.sendall(connection.pending)

    while True:
        now = clock()
        while due and due[0][0] <= now:  # a connection has a due time only while it is idle
            when, index = heapq.heappop(due)
            send(connections[index], when)
        if not unanswered and not due:
            break
        if now >= hard_end:
            tally.failures.append(f"{unanswered} requests unanswered {drain:g} s after the window")
            tally.statuses[0] = tally.statuses.get(0, 0) + unanswered
            break
        timeout = max(0.0, min(due[0][0] if due else hard_end, hard_end) - clock())
        for key, _ in selector.select(timeout):
            connection = key.data
            try:
                chunk = connection.sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                reconnect(connection)
                continue
            connection.buffer += chunk
            parsed = _parse_response(connection.buffer)
            if parsed is None:
                continue
            status, body, connection.buffer, closing = parsed
            finished = clock()
            tally.latencies.append(finished - connection.intended)
            tally.statuses[status] = tally.statuses.get(status, 0) + 1
            if not expected(status) and len(tally.failures) < 5:
                tally.failures.append(f"{status}: {body[:200].decode('utf-8', 'replace')}")
            connection.pending = None
            unanswered -= 1
            if closing:
                reconnect(connection)
            schedule_next(connection)  # due at once if its time has passed while it waited
    for connection in connections:
        if connection.sock is not None:
            connection.sock.close()
    selector.close()
    return tally
