"""A real ``companion serve`` behind a trusted proxy, its worker's connections held by live-update streams
(the attack2 audit's finding 5).

Behind a proxy no per-address connection cap counts the phones, and each forwarded address may hold 200
streams: 50 addresses filled a worker's 10,000 connections, and every other request to it hung. The worker
now holds at most half its ``--worker-connections`` in streams; one more is answered 503 with
``Retry-After`` at once, and the other half is left for ordinary requests.

The server runs with one worker of 10 connections (the smallest ``--worker-connections``: 5 streams at
most), behind ``--trusted-proxy 127.0.0.1``, the requests saying their phone's address in
``X-Forwarded-For``, and a heartbeat of 600 s: a stream whose phone hung up must be noticed without it.
Every wait has a generous ceiling and ends as soon as its condition holds.
"""

from __future__ import annotations

import socket
import time
from typing import Iterator
from urllib.parse import urlsplit

import pytest
import requests

from companion.served import RunningServer, running_server

WORKER_CONNECTIONS = 10
STREAMS = WORKER_CONNECTIONS // 2
CEILING = 60.0
#: longer than every ceiling: a closed stream's place is freed when it is closed, not at the next heartbeat
HEARTBEAT_SECONDS = 600


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("streams"),
                        ("--workers", "1", "--worker-connections", str(WORKER_CONNECTIONS),
                         "--trusted-proxy", "127.0.0.1"), workers=1,
                        environment={"COMPANION_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS)}) as running:
        yield running


@pytest.fixture(scope="module")
def game_id(server: RunningServer) -> str:
    created = requests.post(server.base + "/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]},
                            timeout=CEILING)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def open_stream(server: RunningServer, game_id: str, address: str) -> tuple[socket.socket, bytes]:
    """Ask for a game's stream as the phone at ``address`` (forwarded by the proxy); the socket and the
    answer's head (its status line and headers), read as soon as they came."""
    parts = urlsplit(server.base)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=CEILING)
    sock.sendall(f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                 f"X-Forwarded-For: {address}\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def phone(number: int) -> str:
    return f"2001:db8:{number // 2}::1"   # two streams from each of several /64 networks: under any per-address cap


def test_streams_past_the_workers_cap_get_a_503_at_once_and_other_requests_are_still_answered(
        server: RunningServer, game_id: str) -> None:
    held: list[socket.socket] = []
    try:
        heads = []
        for number in range(WORKER_CONNECTIONS):   # as many as the worker has connections: without a cap, all of them
            sock, head = open_stream(server, game_id, phone(number))
            heads.append(head)
            held.append(sock)   # the refused ones too: the server closes them, not the phone
        statuses = [head.split(b" ", 2)[1].decode() for head in heads]
        assert statuses == ["200"] * STREAMS + ["503"] * (WORKER_CONNECTIONS - STREAMS), statuses
        for head, sock in zip(heads[STREAMS:], held[STREAMS:], strict=True):
            assert b"\r\nRetry-After: 30\r\n" in head and b"\r\nConnection: close\r\n" in head, head
            while sock.recv(65536):   # the rest of the answer, then the server's close (a refusal holds no connection)
                pass
        # the streams held, an ordinary request (another phone's version read) is answered
        read = requests.get(f"{server.base}/api/games/{game_id}/version", headers={"X-Forwarded-For": "203.0.113.50"},
                            timeout=CEILING)
        assert read.status_code == 200 and read.json() == {"version": 0}, read.text
        refused = requests.get(f"{server.base}/api/games/{game_id}/events",
                               headers={"Accept": "text/event-stream", "X-Forwarded-For": "203.0.113.51"},
                               timeout=CEILING)
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "30"
        assert refused.json()["error"] == (
            f"This server process holds as many live-update streams as it may ({STREAMS}); ask for the game's "
            "version instead, and for a stream again later.")
    finally:
        for sock in held:
            sock.close()


def every_place(server: RunningServer, game_id: str, deadline: float) -> list[socket.socket]:
    """The worker's every stream place, opened as soon as they are all free (before ``deadline``)."""
    while True:
        held: list[socket.socket] = []
        for number in range(STREAMS):
            sock, head = open_stream(server, game_id, phone(number))
            held.append(sock)
            if not head.startswith(b"HTTP/1.1 200 "):
                break
        else:
            return held
        for sock in held:
            sock.close()
        assert time.monotonic() < deadline, "closed streams kept their places (until a heartbeat)"
        time.sleep(0.1)


def test_a_stream_whose_phone_hung_up_gives_its_place_back_at_once(server: RunningServer, game_id: str) -> None:
    deadline = time.monotonic() + CEILING   # (well before the next heartbeat, HEARTBEAT_SECONDS)
    for sock in every_place(server, game_id, deadline):
        sock.close()   # the phones hang up, long before any heartbeat would tell
    for sock in every_place(server, game_id, deadline):
        sock.close()
    assert "Traceback" not in server.log()
