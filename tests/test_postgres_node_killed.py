"""kill -9 of one node (its master and workers) while 8 phones move through both nodes on one PostgreSQL:
every acknowledged move is there afterwards, read through the node left, and the game plays on there."""

from __future__ import annotations

import os
import secrets
import signal
import threading
import time
import uuid
from typing import Any, Iterator

import psycopg
import pytest
import requests

from cardgen.catalog import content
from companion.served import (
    RunningPostgres,
    RunningServer,
    process_children,
    running_server,
)

pytestmark = pytest.mark.served

CEILING = 60
CLIENTS = 8
ALL_CARDS = [card.id for card in content("fillory").cards]


@pytest.fixture
def own_dsn(postgres_cluster: RunningPostgres) -> Iterator[str]:
    name = "killed_" + secrets.token_hex(4)
    with psycopg.connect(postgres_cluster.dsn, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield postgres_cluster.dsn.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(postgres_cluster.dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _free_cards(node: RunningServer, game: dict[str, Any]) -> list[str]:
    seen: set[str] = set()
    for seat in game["seats"]:
        state = requests.get(f"{node.base}/api/games/{game['id']}", headers={"Authorization": f"Bearer {seat['token']}"},
                             timeout=CEILING).json()["state"]
        seen |= set(state["neutral"]) | set(state["discard"]) | set(state["players"][seat["seat"]]["hand"])
    return [card for card in ALL_CARDS if card not in seen]


def test_a_node_killed_mid_moves_loses_no_acknowledged_move(own_dsn: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    with running_server(tmp_path_factory.mktemp("survivor"), ("--workers", "1"), db=own_dsn) as survivor, \
            running_server(tmp_path_factory.mktemp("victim"), ("--workers", "1"), db=own_dsn) as victim:
        acknowledged: list[tuple[str, int]] = []
        by_victim = [0]
        failures: list[str] = []
        lock = threading.Lock()
        killed = threading.Event()

        def phone(i: int) -> None:
            for _ in range(6):  # games of six moves (the starting hands), through one node then the other
                try:
                    game = requests.post(f"{survivor.base}/api/games", json={"game": "fillory", "players": ["A", "B"]},
                                         timeout=CEILING).json()
                    cards = _free_cards(survivor, game)
                except requests.RequestException as error:
                    failures.append(f"survivor: {error}")
                    return
                for version in range(6):
                    node = victim if (version + i) % 2 and not killed.is_set() else survivor
                    try:
                        answer = requests.post(f"{node.base}/api/games/{game['id']}/moves",
                                               headers={"Authorization": f"Bearer {game['seats'][version % 2]['token']}"},
                                               json={"version": version, "action_id": uuid.uuid4().hex,
                                                     "move": {"type": "draw", "card": cards[version]}}, timeout=CEILING)
                    except requests.RequestException as error:
                        if node is not victim:  # only the killed node may fail to answer
                            failures.append(f"survivor: {error}")
                            return
                        break  # this game's next move is not known to have landed: start another
                    if answer.status_code != 200:
                        failures.append(f"{node.base}: {answer.status_code} {answer.text[:200]}")
                        return
                    with lock:
                        acknowledged.append((game["id"], answer.json()["version"]))
                        by_victim[0] += node is victim

        phones = [threading.Thread(target=phone, args=(i,)) for i in range(CLIENTS)]
        for thread in phones:
            thread.start()
        deadline = time.monotonic() + CEILING
        while len(acknowledged) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in [*process_children(victim.process.pid), victim.process.pid]:
            os.kill(pid, signal.SIGKILL)
        killed.set()
        before_kill = len(acknowledged)
        for thread in phones:
            thread.join(CEILING * 3)
        assert failures == []
        assert before_kill >= 20 and len(acknowledged) > before_kill and by_victim[0] >= 5
        highest: dict[str, int] = {}
        for game_id, version in acknowledged:
            highest[game_id] = max(highest.get(game_id, 0), version)
        for game_id, version in highest.items():
            now = requests.get(f"{survivor.base}/api/games/{game_id}/version", timeout=CEILING).json()["version"]
            assert now >= version, f"{game_id}: acknowledged version {version}, stored {now}"
            log = requests.get(f"{survivor.base}/api/games/{game_id}/log", timeout=CEILING).json()["entries"]
            assert [entry["seq"] for entry in log][:version] == list(range(1, version + 1))
