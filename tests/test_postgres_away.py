"""PostgreSQL stopped and started again under a running app: clear 503s while it is away, never a 500, each
answered at once (not after the pool's whole wait for a connection), and every acknowledged move still there
afterwards; the app goes on by itself once it is back."""

from __future__ import annotations

import time
import uuid
from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient

from companion.served import RunningPostgres, running_postgres
from companion.store.postgres import CONNECT_TIMEOUT_SECONDS
from companion.web import create_app

#: a 503 while the database is away comes within this (generous on a busy machine), well under the pool's
#: wait for a free connection: the node knows the database is away and does not wait for it per request
FAST_503_SECONDS = 5.0
assert FAST_503_SECONDS < CONNECT_TIMEOUT_SECONDS


@pytest.fixture
def own_cluster() -> Iterator[RunningPostgres]:
    with running_postgres() as cluster:  # its own: this test stops it
        yield cluster


def _move(client: FlaskClient, game: dict[str, Any], version: int, card: str) -> Any:
    return client.post(f"/api/games/{game['id']}/moves", headers={"Authorization": f"Bearer {game['seats'][version % 2]['token']}"},
                       json={"version": version, "action_id": uuid.uuid4().hex, "move": {"type": "draw", "card": card}})


def test_a_restart_of_postgresql_is_503s_meanwhile_and_loses_no_acknowledged_move(own_cluster: RunningPostgres) -> None:
    app = create_app({"TESTING": True, "DATABASE": own_cluster.dsn, "SECRET_KEY": "k"})
    client = app.test_client()
    try:
        game = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).get_json()
        state = client.get(f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
        table = state.get_json()["state"]
        seen = set(table["neutral"]) | set(table["discard"]) | set(table["players"][0]["hand"])
        from cardgen.catalog import content

        cards = [c.id for c in content("fillory").cards if c.id not in seen]
        acknowledged = 0
        for version in range(2):
            answer = _move(client, game, version, cards[version])
            assert answer.status_code == 200, answer.get_json()
            acknowledged = answer.get_json()["version"]
        stopped = own_cluster.ctl("stop", "-m", "immediate", seconds=60)
        assert stopped.returncode == 0, stopped.stderr
        asks = (lambda: _move(client, game, acknowledged, cards[5]),
                lambda: client.get(f"/api/games/{game['id']}/version"),
                lambda: client.post("/api/games", json={"game": "fillory", "players": ["Cat", "Dan"]}))
        for ask in asks * 2:
            asked = time.monotonic()
            answer = ask()
            took = time.monotonic() - asked
            assert answer.status_code == 503, (answer.status_code, answer.get_data(as_text=True)[:300])
            error = answer.get_json()["error"]  # a plain sentence: the database's address is the log's
            assert "the database is not answering" in error and "127.0.0.1" not in error and "postgres" not in error
            # a read says it could not be read, a write that nothing was saved (a read said "Nothing was saved")
            reading = "/version" in (answer.request.path if answer.request else "")
            assert error.startswith("This could not be read:" if reading else "Nothing was saved:"), error
            assert took < FAST_503_SECONDS, f"a 503 took {took:.1f} s: the request waited for the database"
        started = own_cluster.ctl("start", seconds=120)
        assert started.returncode == 0, started.stderr
        back = time.monotonic()
        while (again := client.get(f"/api/games/{game['id']}/version")).status_code == 503:
            assert time.monotonic() - back < 60, "the app did not use PostgreSQL again within 60 s of its return"
        assert again.status_code == 200 and again.get_json()["version"] == acknowledged
        answer = _move(client, game, acknowledged, cards[6])
        assert answer.status_code == 200 and answer.get_json()["version"] == acknowledged + 1
    finally:
        app.extensions["store"].close()


def test_a_database_that_takes_connections_but_answers_nothing_is_a_503_not_a_hang(
        own_cluster: RunningPostgres, tmp_path: Any) -> None:
    # PostgreSQL's processes frozen (SIGSTOP): a hung database host, or a network that drops packets. The
    # sockets stay open and nothing answers: a request waited for as long as that lasted
    import os
    import signal

    import requests

    from companion.served import process_children, running_server
    from companion.store.postgres import ANSWER_SECONDS

    with running_server(tmp_path, ("--workers", "1"), secret_key="k", workers=1, db=own_cluster.dsn) as node:
        made = requests.post(node.base + "/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}, timeout=30)
        assert made.status_code == 201
        game = made.json()
        assert requests.get(f"{node.base}/api/games/{game['id']}", timeout=30).status_code == 200
        postmaster = int((own_cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
        frozen = [postmaster, *process_children(postmaster)]
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        try:
            asked = time.monotonic()
            answer = requests.get(f"{node.base}/api/games/{game['id']}", timeout=120)
            took = time.monotonic() - asked
            assert answer.status_code == 503, answer.text[:300]
            assert "the database is not answering" in answer.json()["error"]
            assert took < 4 * ANSWER_SECONDS, f"the 503 took {took:.1f} s"
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)
        back = time.monotonic()
        while (again := requests.get(f"{node.base}/api/games/{game['id']}/version", timeout=60)).status_code != 200:
            assert time.monotonic() - back < 60, "the node did not serve again within 60 s of the thaw"
        assert again.json() == {"version": 0}
        assert "Traceback" not in node.log()
