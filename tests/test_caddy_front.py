"""What deploy/Caddyfile tells the server behind it, seen by a server that echoes every request's headers:
the phone's Host, X-Forwarded-For (the phone's address), X-Forwarded-Proto: https. docs/serving.md's
club recipe says which of these the companion believes; this checks that Caddy sends them. And the
Caddyfile's request deadlines leave a live-update stream open."""

from __future__ import annotations

import json
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest
import requests

from companion.mdns import local_addresses
from companion.served import running_caddy, running_server

pytestmark = pytest.mark.served


class Echo(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802  (the standard library's name)
        body = json.dumps({"path": self.path, "peer": self.client_address[0],
                           "headers": {k.lower(): v for k, v in self.headers.items()}}).encode()
        self.send_response(404 if self.path.endswith("/none/version") else 200)  # the fixture's readiness probe
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def echo() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_caddy_passes_the_phones_host_address_and_https(echo: str, tmp_path: Path) -> None:
    phone = local_addresses()[0]  # the test comes in as a phone would: at the machine's network address
    with running_caddy(tmp_path, echo, "club.test") as caddy:
        status, _, body = caddy.get("/c/fillory/quentin", address=phone)
        # plain http (a phone that typed the name) is sent on to https at the port Caddy listens on, not
        # to 443 (Caddy's own redirect leaves out an https_port of its config: nothing listens there)
        sent_on = requests.get(f"http://127.0.0.1:{caddy.http_port}/c/fillory/quentin?v=1",
                               headers={"Host": f"club.test:{caddy.http_port}"}, allow_redirects=False, timeout=60)
    assert status == 200
    assert sent_on.status_code == 308
    assert sent_on.headers["Location"] == f"https://club.test:{caddy.https_port}/c/fillory/quentin?v=1"
    seen = json.loads(body)
    assert seen["path"] == "/c/fillory/quentin"
    assert seen["peer"] == "127.0.0.1"  # the server sees Caddy: why it must be told to trust it
    headers = seen["headers"]
    assert headers["host"] == f"club.test:{caddy.https_port}"
    assert headers["x-forwarded-proto"] == "https"
    assert headers["x-forwarded-for"] == phone  # the phone's address, not Caddy's
    assert headers["x-forwarded-host"] == f"club.test:{caddy.https_port}"


def test_a_live_update_stream_outlives_caddys_request_deadline(tmp_path: Path) -> None:
    """The Caddyfile gives a request 10 s (read_body); an open stream (HTTP/1.1, as some phones speak it)
    must not be cut by that deadline. Caddy runs the same Caddyfile with the deadline at 2 s (its
    ``CADDY_READ_BODY``), so the stream is seen to carry a move made well past it, at once."""
    deadline = 2.0
    (tmp_path / "server").mkdir()
    with running_server(tmp_path / "server", ("--workers", "1")) as server, \
            running_caddy(tmp_path / "caddy", server.base, "club.test",
                          settings={"CADDY_READ_BODY": f"{deadline:g}s"}) as caddy:
        game = requests.post(f"{server.base}/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]},
                             timeout=60).json()
        context = ssl.create_default_context(cafile=str(caddy.root_cert))
        context.set_alpn_protocols(["http/1.1"])
        received = b""
        with socket.create_connection(("127.0.0.1", caddy.https_port), timeout=60) as raw, \
                context.wrap_socket(raw, server_hostname=caddy.name) as tls:
            tls.sendall(f"GET /api/games/{game['id']}/events HTTP/1.1\r\nHost: {caddy.name}:{caddy.https_port}\r\n"
                        "Accept: text/event-stream\r\n\r\n".encode())
            while b"event: version" not in received:  # the version now, at once
                chunk = tls.recv(4096)
                assert chunk, f"the stream ended before its first event: {received!r}"
                received += chunk
            opened = time.monotonic()
            assert received.startswith(b"HTTP/1.1 200"), received
            time.sleep(2 * deadline)  # the time to outlive, not a wait for something to happen
            moved = requests.post(f"{server.base}/api/games/{game['id']}/moves",
                                  headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
                                  json={"version": 0, "action_id": "past-the-deadline",
                                        "move": {"type": "draw", "card": "Physical Kids"}}, timeout=60)
            assert moved.status_code == 200, moved.text
            while b'data: {"version": 1}' not in received:  # the move, long before the 15 s heartbeat
                chunk = tls.recv(4096)
                assert chunk, f"the stream ended after {time.monotonic() - opened:.1f} s: {received!r}"
                received += chunk
        assert time.monotonic() - opened > 2 * deadline, received


def test_a_node_that_is_down_is_passed_over(echo: str, tmp_path: Path) -> None:
    """Two nodes behind Caddy, one of them down (killed, rebooting): about half the phones' requests were
    answered 502, and went on being (Caddy knew no better). Now a request that cannot reach a node goes to the
    other, and the dead one is passed over meanwhile."""
    with socket.socket() as probe:  # a port where nothing listens: a node that is down
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    with running_caddy(tmp_path, f"{dead} {echo}", "club.test") as caddy:
        statuses = [caddy.get(f"/c/fillory/quentin?n={n}")[0] for n in range(12)]
    assert statuses == [200] * 12
