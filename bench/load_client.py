"""A lean HTTP/1.1 load client for the API benchmark: keep-alive sockets and prepared request bytes.

The load generator shares the machine's cores with the server, so every microsecond it spends is
taken from the server: requests are built before the clock starts, and a response is read only as
far as its status line and ``Content-Length``; one thread drives every connection of a phase through
a selector (no thread per connection). Loopback only.
"""

from __future__ import annotations

import json
import socket
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
    #: answers per connection (its index), in the closed loop: how evenly the server took its connections
    by_connection: dict[int, int] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def ok(self) -> int:
        return sum(n for status, n in self.statuses.items() if 200 <= status < 300)

    def rate(self) -> float:
        return self.ok / self.elapsed if self.elapsed else 0.0

    def record(self, status: int, body: bytes, seconds: float, expected: Callable[[int], bool]) -> None:
        """One answer: its latency and status, and its first words if it was not expected (five at most)."""
        self.latencies.append(seconds)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if not expected(status) and len(self.failures) < 5:
            self.failures.append(f"{status}: {body[:200].decode('utf-8', 'replace')}")

    @classmethod
    def merged(cls, tallies: list["Tally"]) -> "Tally":
        """Phases run at once (one per node, say) as one: every answer of each counted, each status's count
        summed, the longest phase's wall time; connections numbered on from the previous tally's."""
        total = cls()
        offset = 0
        for tally in tallies:
            total.latencies += tally.latencies
            for status, count in tally.statuses.items():
                total.statuses[status] = total.statuses.get(status, 0) + count
            total.failures += tally.failures
            total.elapsed = max(total.elapsed, tally.elapsed)
            for index, count in tally.by_connection.items():
                total.by_connection[offset + index] = count
            offset += max(tally.by_connection, default=-1) + 1
        return total

    def percentile_ms(self, share: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


Work = Callable[[], Iterator[bytes]]


@dataclass
class _Slot:
    """One connection of a phase: its socket, what it has read, its requests and the one in flight."""

    index: int
    requests: Iterator[bytes]
    sock: socket.socket | None = None
    buffer: bytes = b""
    pending: bytes | None = None        # the request in flight

    def answer(self, chunk: bytes) -> tuple[int, bytes, bool] | None:
        """Add what was read; the whole answer (status, body, the server closes) once it is in."""
        self.buffer += chunk
        parsed = _parse_response(self.buffer)
        if parsed is None:
            return None
        status, body, self.buffer, closing = parsed
        return status, body, closing


@dataclass
class _Looping(_Slot):
    """A connection of a closed-loop phase: it sends its next request as soon as the last is answered."""

    began: float = 0.0                  # when the request in flight was sent
    retried: bool = False               # it was sent again on a new connection already


def run_phase(host: str, port: int, requests_per_connection: list[Work], seconds: float,
              expected: Callable[[int], bool] = lambda status: status == 200) -> Tally:
    """Closed loop: each connection sends its requests in order, the next as soon as the last is
    answered, until they run out or ``seconds`` are up (what is in flight then is still waited for).

    One thread drives every socket through a selector (as :func:`run_open_phase` does): 64 client
    threads each handing the GIL around for every request cost the server, which shares the cores,
    more CPU than the requests themselves. Each request's latency runs from just before it is sent
    to when its whole answer has been read: every socket that a wake-up finds readable is read and
    its answer timed before any next request goes out, so sending does not delay other answers'
    clocks. Sockets are connected before the clock starts. A connection the server closed is opened
    again and what was in flight sent once more (moves carry an action id, so a retry is safe); a
    second failure ends that connection with a failure noted.
    """
    import selectors

    tally = Tally()
    clock = time.perf_counter
    selector = selectors.DefaultSelector()
    loops = [_Looping(i, work()) for i, work in enumerate(requests_per_connection)]

    def connect(loop: _Looping) -> None:
        loop.sock = socket.create_connection((host, port), timeout=30)
        loop.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        loop.buffer = b""
        selector.register(loop.sock, selectors.EVENT_READ, loop)

    def drop(loop: _Looping) -> None:
        if loop.sock is not None:
            selector.unregister(loop.sock)
            loop.sock.close()
            loop.sock = None

    def send_next(loop: _Looping, deadline: float) -> bool:
        """Send this connection's next request; False when it is done (time up or no requests left)."""
        if clock() >= deadline:
            return False
        raw = next(loop.requests, None)
        if raw is None:
            return False
        if loop.sock is None:
            connect(loop)
        assert loop.sock is not None
        loop.pending, loop.retried = raw, False
        loop.began = clock()
        loop.sock.sendall(raw)
        return True

    for loop in loops:
        connect(loop)
    in_flight = 0
    began = clock()
    deadline = began + seconds
    for loop in loops:
        try:
            in_flight += send_next(loop, deadline)
        except OSError as error:
            tally.failures.append(f"connection failed: {error}")
            drop(loop)
    hard_end = deadline + 60
    while in_flight:
        if clock() >= hard_end:
            tally.failures.append(f"{in_flight} requests unanswered 60 s after the phase")
            tally.statuses[0] = tally.statuses.get(0, 0) + in_flight
            break
        answered: list[_Looping] = []
        for key, _ in selector.select(1.0):
            loop = key.data
            try:
                chunk = loop.sock.recv(65536) if loop.sock is not None else b""
            except OSError:
                chunk = b""
            if not chunk:  # the server closed it: once more on a new connection, then give up
                drop(loop)
                if loop.retried or loop.pending is None:
                    tally.failures.append(f"connection {loop.index} failed: the server closed it twice")
                    in_flight -= 1
                    continue
                try:
                    connect(loop)
                    assert loop.sock is not None
                    loop.retried = True
                    loop.sock.sendall(loop.pending)
                except OSError as error:
                    tally.failures.append(f"connection {loop.index} failed: {error}")
                    drop(loop)
                    in_flight -= 1
                continue
            whole = loop.answer(chunk)
            if whole is None:
                continue
            status, body, closing = whole
            tally.record(status, body, clock() - loop.began, expected)
            tally.by_connection[loop.index] = tally.by_connection.get(loop.index, 0) + 1
            loop.pending = None
            if closing:
                drop(loop)
            answered.append(loop)
        for loop in answered:  # every answer of this wake-up is timed before the next requests go out
            try:
                if not send_next(loop, deadline):
                    in_flight -= 1
            except OSError as error:
                tally.failures.append(f"connection {loop.index} failed: {error}")
                drop(loop)
                in_flight -= 1
    tally.elapsed = clock() - began
    for loop in loops:
        drop(loop)
    selector.close()
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
class _Scheduled(_Slot):
    """A connection of the open-loop phase: it sends each request when its timetable says."""

    sent: int = 0                       # requests taken from ``requests`` so far
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
            whole = connection.answer(chunk)
            if whole is None:
                continue
            status, body, closing = whole
            tally.record(status, body, clock() - connection.intended, expected)
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
