"""A real ``companion serve`` facing clients that trickle, hoard connections or streams (issue 23).

- a body trickled a byte at a time is answered 408 at its deadline and the connection closed;
- headers trickled a byte at a time are cut at the keep-alive time;
- one address past its open-connection cap gets a 429 at once; past its stream cap, a 429 with
  ``Retry-After``; once it closes some, it is served again;
- every answer that keeps the connection says how long (``Keep-Alive: timeout=5``).

The server runs with loopback counted like any other address (``UNLIMITED_ADDRESSES`` empty), short
deadlines, small caps and a short heartbeat, one worker (the caps are per worker process). Every wait has a generous
ceiling and ends as soon as its condition holds.
"""

from __future__ import annotations

import select
import socket
import time
from typing import Iterator
from urllib.parse import urlsplit

import pytest
import requests

from companion.served import RunningServer, running_server

BODY_SECONDS = 3
CONNECTIONS = 12
STREAMS = 3
#: a stream lost without a word is noticed at its next heartbeat (15 s when served): 1 s here
HEARTBEAT_SECONDS = 1
CEILING = 60.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    patch = pytest.MonkeyPatch()
    for name, value in {"COMPANION_BODY_SECONDS": str(BODY_SECONDS), "COMPANION_UNLIMITED_ADDRESSES": "",
                        "COMPANION_MAX_CONNECTIONS_PER_ADDRESS": str(CONNECTIONS),
                        "COMPANION_MAX_STREAMS_PER_ADDRESS": str(STREAMS),
                        "COMPANION_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS)}.items():
        patch.setenv(name, value)
    try:
        with running_server(tmp_path_factory.mktemp("internet"), ("--workers", "1"), workers=1) as running:
            yield running
    finally:
        patch.undo()


def connect(server: RunningServer) -> socket.socket:
    parts = urlsplit(server.base)
    return socket.create_connection((parts.hostname, parts.port), timeout=CEILING)


def trickle_until_answered(sock: socket.socket, head: bytes, byte: bytes) -> tuple[bytes, float]:
    """Send ``head``, then ``byte`` once a second until the server answers or closes; its bytes and the
    seconds it took (at most :data:`CEILING`: the server never answered nor closed by then)."""
    started = time.monotonic()
    sock.sendall(head)
    received = b""
    while time.monotonic() - started < CEILING:
        readable, _, _ = select.select([sock], [], [], 1.0)
        if readable:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                return received, time.monotonic() - started
            if not chunk:
                return received, time.monotonic() - started
            received += chunk
            continue
        try:
            sock.sendall(byte)
        except (BrokenPipeError, ConnectionResetError):
            return received, time.monotonic() - started
    return received, CEILING


def test_a_trickled_body_gets_its_408_and_the_connection_is_closed(server: RunningServer) -> None:
    with connect(server) as sock:
        head = (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 5000\r\n\r\n{")
        answer, seconds = trickle_until_answered(sock, head, b" ")
    assert seconds < CEILING, "the server waited for the whole trickled body"
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b"Connection: close" in answer
    assert f"did not arrive within {BODY_SECONDS} seconds".encode() in answer
    assert seconds >= BODY_SECONDS - 0.5                       # the deadline, not sooner


def test_trickled_headers_are_cut_at_the_keep_alive_time(server: RunningServer) -> None:
    with connect(server) as sock:
        answer, seconds = trickle_until_answered(sock, b"GET /api/games/none/version HTTP/1.1\r\nX-Slow: ", b"a")
    assert seconds < CEILING, "the server waited for trickled headers"
    assert answer == b""                                        # closed without an answer
    assert seconds >= 4.5                                       # the 5 s keep-alive time, not sooner


def test_one_address_past_its_connection_cap_gets_a_429_and_then_is_served_again(server: RunningServer) -> None:
    held = [connect(server) for _ in range(CONNECTIONS)]
    try:
        for sock in held:   # each is accepted and counted once it has asked for something
            sock.sendall(b"GET /api/games/none/version HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(65536).startswith(b"HTTP/1.1 404 ")
        with connect(server) as extra:
            answer = b""
            while chunk := extra.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 429 "), answer[:200]
        assert b"Retry-After: 5" in answer and b"Too many open connections from your address" in answer
        assert f"at most {CONNECTIONS}".encode() in answer
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + CEILING
    while True:   # the server notices the closed connections at once (a read returns nothing)
        status = requests.get(server.base + "/api/games/none/version", timeout=CEILING).status_code
        if status == 404 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert status == 404


def test_one_address_past_its_stream_cap_gets_a_429_with_retry_after(server: RunningServer) -> None:
    created = requests.post(server.base + "/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]},
                            timeout=CEILING).json()
    url = f"{server.base}/api/games/{created['id']}/events"
    headers = {"Accept": "text/event-stream"}
    streams = [requests.get(url, headers=headers, stream=True, timeout=CEILING) for _ in range(STREAMS)]
    try:
        assert [s.status_code for s in streams] == [200] * STREAMS
        refused = requests.get(url, headers=headers, stream=True, timeout=CEILING)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "30"
        assert refused.json()["error"].startswith("Too many live-update streams open from your address")
    finally:
        for s in streams:
            s.close()
    # a closed stream is noticed when it is closed (else at its next write, the heartbeat): then the place is free again
    deadline = time.monotonic() + CEILING
    while True:
        again = requests.get(url, headers=headers, stream=True, timeout=CEILING)
        status = again.status_code
        again.close()
        if status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert status == 200


def test_answers_that_keep_the_connection_announce_the_keep_alive_time(server: RunningServer) -> None:
    with requests.Session() as session:
        answer = session.get(server.base + "/api/games/none/version", timeout=CEILING)
        assert answer.headers["Connection"] == "keep-alive" and answer.headers["Keep-Alive"] == "timeout=5"
        page = session.get(server.base + "/", timeout=CEILING)
        assert page.headers["Keep-Alive"] == "timeout=5"
