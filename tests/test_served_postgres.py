"""Two real ``companion serve`` nodes (gunicorn, two workers each) on one PostgreSQL, driven over HTTP.

Any node answers any request: a game made through one is played through the other, a retried action id
gets its first answer through either, racing phones on both nodes get one winner per version, a move made
through one node reaches the live-update streams open on the other (LISTEN/NOTIFY), and the per-address
limits count one address across both nodes.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

import psycopg
import pytest
import requests

from cardgen.catalog import content
from companion.served import (
    RunningPostgres,
    RunningServer,
    running_caddy,
    running_server,
)

pytestmark = pytest.mark.served

CEILING = 60  # seconds: a ceiling for a busy machine, never a wait
ALL_CARDS = [card.id for card in content("fillory").cards]
JOIN_LIMIT = 6


@pytest.fixture(scope="module")
def shared_dsn(postgres_cluster: RunningPostgres) -> Iterator[str]:
    name = "nodes_" + secrets.token_hex(4)
    with psycopg.connect(postgres_cluster.dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield postgres_cluster.dsn.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_cluster.dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="module")
def nodes(shared_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, RunningServer]]:
    # loopback counted like any other address, so the shared join limit can be seen from here; a 1 s heartbeat
    # (15 s when served): a stream the test closes ends its reading thread at the next one
    settings = {"COMPANION_UNLIMITED_ADDRESSES": "", "COMPANION_JOIN_LIMIT": f"{JOIN_LIMIT} per minute",
                "COMPANION_HEARTBEAT_SECONDS": "1"}
    serve = ("--workers", "2", "--access-log")
    with running_server(tmp_path_factory.mktemp("node-a"), serve, db=shared_dsn, workers=2,
                        environment=settings, secret_key="nodes-key") as a, \
            running_server(tmp_path_factory.mktemp("node-b"), serve, db=shared_dsn, workers=2,
                           environment=settings, secret_key="nodes-key") as b:
        yield a, b


def call(node: RunningServer, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, node.base + path, headers=headers, timeout=CEILING, **kwargs)


def new_game(node: RunningServer) -> dict[str, Any]:
    answer = call(node, "POST", "/api/games", json={"game": "fillory", "players": ["Ann", "Ben"], "options": {}})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def deck(node: RunningServer, game: dict[str, Any]) -> list[str]:
    seen: set[str] = set()
    for seat in game["seats"]:
        state = call(node, "GET", f"/api/games/{game['id']}", seat["token"]).json()["state"]
        seen |= set(state["neutral"]) | set(state["discard"]) | set(state["players"][seat["seat"]]["hand"])
        for player in state["players"]:
            seen |= set(player["zone"])
    return [card for card in ALL_CARDS if card not in seen]


def draw(node: RunningServer, game: dict[str, Any], seat: int, card: str, version: int,
         action_id: str | None = None) -> requests.Response:
    return call(node, "POST", f"/api/games/{game['id']}/moves", game["seats"][seat]["token"],
                json={"version": version, "action_id": action_id or uuid.uuid4().hex,
                      "move": {"type": "draw", "card": card}})


def test_serve_names_the_database_without_its_password(nodes: tuple[RunningServer, RunningServer]) -> None:
    for node in nodes:
        assert "database postgresql://postgres@127.0.0.1:" in node.log()


def test_a_game_made_through_one_node_is_played_through_the_other(nodes: tuple[RunningServer, RunningServer]) -> None:
    a, b = nodes
    game = new_game(a)
    cards = deck(b, game)
    for version in range(4):
        node = (a, b)[version % 2]
        answer = draw(node, game, version % 2, cards[version], version)
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == version + 1
    for node in nodes:
        assert call(node, "GET", f"/api/games/{game['id']}/version").json()["version"] == 4
        log = call(node, "GET", f"/api/games/{game['id']}/log").json()
        assert [entry["seq"] for entry in log["entries"]] == [1, 2, 3, 4]
    undone = call(b, "POST", f"/api/games/{game['id']}/undo", game["seats"][1]["token"],
                  json={"version": 4, "action_id": "undo-1"})
    assert undone.status_code == 200, undone.text
    assert call(a, "GET", f"/api/games/{game['id']}/version").json()["version"] == 5


def test_a_retried_action_id_gets_its_first_answer_through_either_node(
        nodes: tuple[RunningServer, RunningServer]) -> None:
    a, b = nodes
    game = new_game(a)
    card = deck(a, game)[0]
    first = draw(a, game, 0, card, 0, action_id="once")
    again = draw(b, game, 0, card, 0, action_id="once")
    assert first.status_code == again.status_code == 200
    assert first.json()["version"] == again.json()["version"] == 1
    assert call(b, "GET", f"/api/games/{game['id']}/version").json()["version"] == 1


def test_phones_racing_on_both_nodes_get_one_winner_per_version(nodes: tuple[RunningServer, RunningServer]) -> None:
    a, b = nodes
    game = new_game(a)
    cards = deck(a, game)
    statuses: list[int] = []
    lock = threading.Lock()
    for version in range(3):
        barrier = threading.Barrier(8)

        def race(i: int, version: int = version, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            answer = draw((a, b)[i % 2], game, version % 2, cards[version * 8 + i], version)
            with lock:
                statuses.append(answer.status_code)

        threads = [threading.Thread(target=race, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(CEILING)
    assert sorted(statuses) == [200] * 3 + [409] * 21
    assert call(b, "GET", f"/api/games/{game['id']}/version").json()["version"] == 3


def _versions(stream: requests.Response, seen: list[tuple[int, float]], opened: threading.Event) -> None:
    """Note each version a live-update stream tells, with when it arrived, until the stream is closed."""
    try:
        for line in stream.iter_lines(decode_unicode=True):
            if line.startswith("data: "):
                seen.append((int(json.loads(line[6:])["version"]), time.monotonic()))
                opened.set()
    except (requests.RequestException, AttributeError, ValueError):
        pass  # closed by the test (urllib3 may say so in several ways)


def test_a_move_through_one_node_reaches_the_streams_on_the_other(nodes: tuple[RunningServer, RunningServer]) -> None:
    a, b = nodes
    game = new_game(a)
    cards = deck(a, game)
    seen: list[tuple[int, float]] = []
    opened = threading.Event()
    stream = requests.get(f"{b.base}/api/games/{game['id']}/events", headers={"Accept": "text/event-stream"},
                          stream=True, timeout=CEILING)
    assert stream.status_code == 200
    listener = threading.Thread(target=_versions, args=(stream, seen, opened), daemon=True)
    listener.start()
    assert opened.wait(CEILING) and seen[0][0] == 0
    delays = []
    for version in range(3):
        sent = time.monotonic()
        assert draw(a, game, version % 2, cards[version], version).status_code == 200
        deadline = time.monotonic() + CEILING
        while not any(v == version + 1 for v, _ in seen) and time.monotonic() < deadline:
            time.sleep(0.01)
        arrived = [at for v, at in seen if v == version + 1]
        assert arrived, f"node b's stream never told version {version + 1}: {seen}"
        delays.append(arrived[0] - sent)
    stream.close()
    listener.join(CEILING)
    # far under the 5 s full check: the notification, not the fallback read, carried it
    assert max(delays) < 2.5, delays


def test_one_address_is_counted_across_both_nodes(nodes: tuple[RunningServer, RunningServer]) -> None:
    a, b = nodes
    statuses = [call((a, b)[i % 2], "POST", "/api/join", json={"code": "ZZZZZZ", "seat": 0}).status_code
                for i in range(JOIN_LIMIT + 1)]
    assert statuses == [404] * JOIN_LIMIT + [429]


def test_the_nodes_share_the_database_and_nothing_on_disk(nodes: tuple[RunningServer, RunningServer],
                                                         shared_dsn: str) -> None:
    made = [new_game(node)["id"] for node in nodes for _ in range(2)]  # (its own: it passes alone, in any order)
    with psycopg.connect(shared_dsn) as conn:
        found = conn.execute("SELECT id FROM games WHERE id = ANY(%s)", [made]).fetchall()
        assert sorted(row[0] for row in found) == sorted(made)  # both nodes' games, in the one database
        assert conn.execute("SELECT count(*) FROM rate_counters").fetchone()[0] >= 1
    for node in nodes:
        assert not node.db_path.exists() and not Path(str(node.db_path) + ".limits").exists()


def test_caddy_spreads_a_table_over_both_nodes_over_https(nodes: tuple[RunningServer, RunningServer],
                                                          tmp_path: Path) -> None:
    """The public instance's front: one Caddy (the project's Caddyfile) with both nodes as its upstreams
    (``COMPANION_ADDRESS`` lists them); a whole game played through it over https, whichever node answers."""
    a, b = nodes
    with running_caddy(tmp_path / "caddy", f"{a.base} {b.base}") as caddy:
        def send(method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
            headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
            status, _, raw = caddy.request(method, path, json.dumps(body).encode() if body is not None else None,
                                           headers, timeout=CEILING)
            return status, json.loads(raw) if raw else None

        status, game = send("POST", "/api/games", {"game": "fillory", "players": ["Ann", "Ben"], "options": {}})
        assert status == 201, game
        cards = deck(a, game)
        for version in range(6):  # the starting hands
            status, answer = send("POST", f"/api/games/{game['id']}/moves",
                                  {"version": version, "action_id": uuid.uuid4().hex,
                                   "move": {"type": "draw", "card": cards[version]}}, game["seats"][version % 2]["token"])
            assert status == 200 and answer["version"] == version + 1, answer
        for _ in range(12):
            assert send("GET", f"/api/games/{game['id']}/version")[1]["version"] == 6
    for node in nodes:
        assert call(node, "GET", f"/api/games/{game['id']}/version").json()["version"] == 6
    # each node answered some of the 19 requests (Caddy picks an upstream at random: all on one is 2 in 2**19)
    for node in nodes:
        assert node.log().count(f"/api/games/{game['id']}/") > 1, "one node answered every request"
