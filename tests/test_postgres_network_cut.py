"""A network cut between a node and PostgreSQL (a TCP relay between them, cut and mended): 503s while it
lasts, each at once (not after the pool's whole wait for a connection), never a 500, no acknowledged move lost, and the node uses the database
again by itself once the network is back (its pool's connections died with the cut)."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from typing import Any, Iterator

import pytest

from cardgen.catalog import content
from companion.served import RunningPostgres, free_port
from companion.store.postgres import CONNECT_TIMEOUT_SECONDS
from companion.web import create_app

CEILING = 60
#: a 503 during the cut comes within this (generous on a busy machine), well under the pool's wait for a
#: free connection: the node knows the database is away and does not wait for it per request
FAST_503_SECONDS = 5.0
assert FAST_503_SECONDS < CONNECT_TIMEOUT_SECONDS


class Relay:
    """127.0.0.1:port -> PostgreSQL, byte for byte; :meth:`cut` closes every connection and refuses new ones."""

    def __init__(self, target_port: int) -> None:
        self.port, self.target = free_port(), target_port
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.mend()

    def mend(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            if listener.fileno() == -1:  # accepted as it was cut
                client.close()
                return
            server = socket.create_connection(("127.0.0.1", self.target))
            with self._lock:
                self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def cut(self) -> None:
        assert self._listener is not None
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # (wakes the accept() blocked on it: close alone does not)
        except OSError:
            pass
        self._listener.close()
        with self._lock:
            for s in self._sockets:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
            self._sockets.clear()


@pytest.fixture
def relay(postgres_cluster: RunningPostgres) -> Iterator[Relay]:
    relay = Relay(postgres_cluster.port)
    yield relay
    relay.cut()


def test_a_cut_between_node_and_database_is_503s_and_mends_by_itself(relay: Relay, postgres_dsn: str) -> None:
    dsn = postgres_dsn.replace(f":{postgres_dsn.split(':')[-1].split('/')[0]}/", f":{relay.port}/")
    app = create_app({"TESTING": True, "DATABASE": dsn, "SECRET_KEY": "k"})
    client = app.test_client()
    try:
        game = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).get_json()
        auth = [{"Authorization": f"Bearer {seat['token']}"} for seat in game["seats"]]
        seen: set[str] = set()
        for i in range(2):
            state: dict[str, Any] = client.get(f"/api/games/{game['id']}", headers=auth[i]).get_json()["state"]
            seen |= set(state["neutral"]) | set(state["discard"]) | set(state["players"][i]["hand"])
        cards = [c.id for c in content("fillory").cards if c.id not in seen]

        def move(version: int) -> Any:
            return client.post(f"/api/games/{game['id']}/moves", headers=auth[version % 2],
                               json={"version": version, "action_id": uuid.uuid4().hex,
                                     "move": {"type": "draw", "card": cards[version]}})

        for version in range(3):
            assert move(version).status_code == 200
        relay.cut()
        for ask in (lambda: move(3), lambda: client.get(f"/api/games/{game['id']}/version")) * 2:
            asked = time.monotonic()
            answer = ask()
            took = time.monotonic() - asked
            assert answer.status_code == 503, answer.get_data(as_text=True)[:300]
            assert "is not answering" in answer.get_json()["error"]
            assert took < FAST_503_SECONDS, f"a 503 took {took:.1f} s: the request waited for the database"
        relay.mend()
        back = time.monotonic()
        while (again := client.get(f"/api/games/{game['id']}/version")).status_code == 503:
            assert time.monotonic() - back < CEILING, "the node did not use the database again after the cut"
        assert again.get_json()["version"] == 3
        assert move(3).status_code == 200
        assert client.get(f"/api/games/{game['id']}/version").get_json()["version"] == 4
    finally:
        app.extensions["store"].close()
