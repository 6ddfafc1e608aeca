"""The benchmark's load client (bench/load_client.py) against a small loopback HTTP/1.1 server.

The closed loop drives every connection from one thread: each request answered once, latency from
the send to the whole answer, a server that closes a connection does not lose a request.
"""

from __future__ import annotations

import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from load_client import Tally, request_bytes, run_open_phase, run_phase  # noqa: E402

DELAY = 0.005  # every answer takes at least this long


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    close_every = 0  # answer 'Connection: close' to every n-th request on a connection (0: never)

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length)
        self.server.seen.append(body)  # type: ignore[attr-defined]
        time.sleep(DELAY)
        self.handled = getattr(self, "handled", 0) + 1
        closing = bool(self.close_every) and self.handled % self.close_every == 0
        answer = b'{"ok":true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        if closing:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(answer)


@pytest.fixture(params=[0, 2], ids=["keep-alive", "closes-every-2nd"])
def server(request: pytest.FixtureRequest) -> Iterator[ThreadingHTTPServer]:
    handler = type("ClosingHandler", (Handler,), {"close_every": request.param})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    httpd.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def works(connections: int, per_connection: int) -> list:
    return [lambda c=c: iter([request_bytes("POST", "/", {"c": c, "n": n}) for n in range(per_connection)])
            for c in range(connections)]


def test_closed_loop_answers_every_request_once_and_times_the_whole_answer(server: ThreadingHTTPServer) -> None:
    tally = run_phase("127.0.0.1", server.server_address[1], works(4, 6), seconds=30)
    assert tally.failures == []
    assert tally.statuses == {200: 24} and tally.count == 24
    assert tally.by_connection == {c: 6 for c in range(4)}  # each connection's answers, by its index
    assert sorted(server.seen) == sorted(request_bytes("POST", "/", {"c": c, "n": n}).split(b"\r\n\r\n")[1]
                                         for c in range(4) for n in range(6))  # type: ignore[attr-defined]
    assert min(tally.latencies) >= DELAY
    assert tally.elapsed >= 6 * DELAY  # each connection waits for an answer before its next request


def test_closed_loop_stops_sending_when_time_is_up(server: ThreadingHTTPServer) -> None:
    tally = run_phase("127.0.0.1", server.server_address[1], works(2, 10_000), seconds=0.2)
    assert tally.failures == []
    assert 2 <= tally.count < 2 * 0.2 / DELAY + 2  # at most one request each sent at the deadline
    assert set(tally.statuses) == {200}


def test_open_loop_sends_at_the_offered_rate(server: ThreadingHTTPServer) -> None:
    tally = run_open_phase("127.0.0.1", server.server_address[1], works(4, 40), seconds=0.5, rate=100)
    assert tally.failures == []
    assert tally.statuses == {200: 50}
    assert min(tally.latencies) >= DELAY


def test_phases_run_at_once_merge_into_one_tally_that_counts_every_answer(server: ThreadingHTTPServer) -> None:
    port = server.server_address[1]
    tallies = [run_phase("127.0.0.1", port, works(2, 5), seconds=30), run_phase("127.0.0.1", port, works(3, 4), seconds=30)]
    total = Tally.merged(tallies)
    assert total.statuses == {200: 22} and total.ok == 22 and total.count == 22  # both phases' answers, summed
    assert total.by_connection == {0: 5, 1: 5, 2: 4, 3: 4, 4: 4}
    assert total.elapsed == max(t.elapsed for t in tallies)
    assert total.rate() == 22 / total.elapsed
    odd = Tally(statuses={200: 3, 503: 1}, failures=["503: away"])
    assert Tally.merged([odd, Tally(statuses={200: 2, 429: 1})]).statuses == {200: 5, 503: 1, 429: 1}
