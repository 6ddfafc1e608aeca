"""Load-test a real ``companion serve`` on loopback: phones polling and posting moves at once.

    .venv/bin/python bench/bench_api.py [--seconds 10] [--connections 64] [--writers 16]
                                        [--workers N] [--threads 8] [--worker-class gthread|sync]

Starts the server on a free 127.0.0.1 port with a temporary database, then runs ``--connections``
client threads for ``--seconds`` (and at most ``--max-requests`` requests in all): ``--writers`` of
them each play their own Fillory game move by move (every move checked by the real rules on the
server), the others poll like the phone pages do: the cheap version endpoint, and the full game with
``If-None-Match`` (304 when unchanged). Prints requests/s and p50/p95/p99 latency for reads and writes,
every status code seen, and whether the server logged "database is locked" or a traceback.
Traffic goes to loopback only; the run is bounded in time and count and stops by itself.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import resource
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any


REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cardgen.catalog import content  # noqa: E402
from companion.rules import IllegalMove, rules_for  # noqa: E402
from companion.served import running_server  # noqa: E402

fillory = rules_for("fillory")
ALL_CARDS = [card.id for card in content("fillory").cards]
PLAYERS = ["Ann", "Ben", "Cat"]


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {"read": [], "write": []}
        self.statuses: Counter[tuple[str, int]] = Counter()
        self.games_finished = 0

    def add(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latency[kind].append(seconds)
            self.statuses[(kind, status)] += 1


class Budget:
    """Stops every thread at the deadline or after the request cap, whichever comes first."""

    def __init__(self, seconds: float, max_requests: int) -> None:
        self.deadline = time.monotonic() + seconds
        self.left = max_requests
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.left <= 0 or time.monotonic() >= self.deadline:
                return False
            self.left -= 1
            return True


class Answer:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status_code, self.headers, self.body = status, headers, body

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Connection:
    """One keep-alive HTTP connection (http.client: far less client CPU than requests)."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.http = http.client.HTTPConnection(host, int(port), timeout=30)

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Answer:
        payload = json.dumps(body).encode() if body is not None else None
        sent = {"Content-Type": "application/json", **(headers or {})} if payload else dict(headers or {})
        for attempt in (1, 2):
            try:
                self.http.request(method, path, body=payload, headers=sent)
                response = self.http.getresponse()
                return Answer(response.status, dict(response.getheaders()), response.read())
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.http.close()  # a sync worker closed the idle connection; reconnect once
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def timed(recorder: Recorder, kind: str, connection: Connection, method: str, path: str,
          body: Any = None, headers: dict[str, str] | None = None) -> Answer:
    started = time.perf_counter()
    response = connection.request(method, path, body, headers)
    recorder.add(kind, time.perf_counter() - started, response.status_code)
    return response


def next_move(state: Any, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A plausible legal move for whoever must act, chosen from the public contract (view/trait_points)."""
    table = fillory.view(state, None)
    if table["phase"] == "deal":
        seat = next(p["seat"] for p in table["players"] if p["hand_count"] < 3)
        return seat, {"type": "draw", "card": rng.choice(deck_cards(state))}
    seat = table["turn"]["seat"]
    mine = fillory.view(state, seat)
    me = mine["players"][seat]
    step = mine["turn"]["step"]
    candidates: list[dict[str, Any]] = []
    if step == "draw":
        pile = deck_cards(state) or list(mine["discard"])
        if pile:
            candidates.append({"type": "draw", "card": rng.choice(pile)})
    if step in ("draw", "action") and me["hand"]:
        candidates.append({"type": "play", "card": rng.choice(me["hand"])})
    if step == "ability" and mine["pending"]:
        for option in mine["pending"]["options"]:
            if option["kind"] == "card":
                candidates.append({"type": option["action"], "card": option["target"], "to": "zone"})
        candidates.append({"type": "decline"})
    if step in ("trick", "score"):
        options = fillory.trait_points(me["zone"], list(me["scored"]))
        if options:
            candidates.append({"type": "score", "trait": options[0]["trait"]})
    candidates.append({"type": "end_turn", "discard": me["hand"][5:]})
    for candidate in candidates:
        try:
            fillory.apply(state, seat, candidate)
            return seat, candidate
        except IllegalMove:
            continue
    raise RuntimeError(f"no legal move found at {table['turn']}")


def deck_cards(state: Any) -> list[str]:
    """The deck is hidden, but the bench mirrors the game it drives, so it sees every hand."""
    table = fillory.view(state, None)
    seen = set(table["neutral"]) | set(table["discard"])
    for player in table["players"]:
        seen |= set(player["zone"]) | set(fillory.view(state, player["seat"])["players"][player["seat"]]["hand"])
    return [card for card in ALL_CARDS if card not in seen]


class Tables:
    """The games being written, for the pollers to pick from."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: list[str] = []

    def add(self, game_id: str) -> None:
        with self.lock:
            self.ids.append(game_id)

    def pick(self, rng: random.Random) -> str | None:
        with self.lock:
            return rng.choice(self.ids) if self.ids else None


def writer(base: str, recorder: Recorder, budget: Budget, tables: Tables, seed: int) -> None:
    """One table: create a game, then post its moves one after another, mirroring the state locally."""
    rng = random.Random(seed)
    connection = Connection(base)
    while budget.take():
        created = timed(recorder, "write", connection, "POST", "/api/games",
                        {"game": "fillory", "players": PLAYERS, "options": {}}).json()
        # Fillory's setup places cards by rule (no shuffle is tracked); check the mirror matches the server
        state = fillory.setup(PLAYERS, {}, random.Random(seed))
        served = connection.request("GET", f"/api/games/{created['id']}").json()["state"]
        if served != fillory.view(state, None):
            raise RuntimeError("the local mirror of the game differs from the server's")
        tables.add(created["id"])
        version = 0
        while budget.take():
            if fillory.outcome(state).over:
                with recorder.lock:
                    recorder.games_finished += 1
                break
            seat, move = next_move(state, rng)
            response = timed(recorder, "write", connection, "POST", f"/api/games/{created['id']}/moves",
                             {"version": version, "action_id": uuid.uuid4().hex, "move": move},
                             {"Authorization": f"Bearer {created['seats'][seat]['token']}"})
            if response.status_code != 200:
                raise RuntimeError(f"move refused: {response.status_code} {response.text}")
            state = fillory.apply(state, seat, move)
            version = response.json()["version"]


def poller(base: str, recorder: Recorder, budget: Budget, tables: Tables, seed: int) -> None:
    """A phone page: poll the version; when it moved, fetch the game with its ETag."""
    rng = random.Random(seed)
    connection = Connection(base)
    etags: dict[str, str] = {}
    while budget.take():
        game_id = tables.pick(rng)
        if game_id is None:
            time.sleep(0.01)
            continue
        if rng.random() < 0.7:
            timed(recorder, "read", connection, "GET", f"/api/games/{game_id}/version")
        else:
            headers = {"If-None-Match": etags[game_id]} if game_id in etags else {}
            response = timed(recorder, "read", connection, "GET", f"/api/games/{game_id}", headers=headers)
            if "ETag" in response.headers:
                etags[game_id] = response.headers["ETag"]


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--writers", type=int, default=16)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--workers", type=int, default=0, help="server worker processes (default: serve's)")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--worker-class", choices=["gthread", "sync"], default="gthread")
    args = parser.parse_args()
    if not 0 < args.writers <= args.connections:
        parser.error("--writers must be between 1 and --connections")

    serve_args = ["--threads", str(args.threads), "--worker-class", args.worker_class]
    if args.workers:
        serve_args += ["--workers", str(args.workers)]
    with tempfile.TemporaryDirectory() as tmp:
        with running_server(Path(tmp), serve_args, secret_key="bench-key") as server:
            base = server.base
            recorder, tables = Recorder(), Tables()
            budget = Budget(args.seconds, args.max_requests)
            threads = [threading.Thread(target=writer, args=(base, recorder, budget, tables, i))
                       for i in range(args.writers)]
            threads += [threading.Thread(target=poller, args=(base, recorder, budget, tables, 1000 + i))
                        for i in range(args.connections - args.writers)]
            started = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - started
        log = server.log()  # the server has stopped and been reaped here
    client_cpu = resource.getrusage(resource.RUSAGE_SELF)
    server_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)  # the server and its workers, now reaped

    reads, writes = recorder.latency["read"], recorder.latency["write"]
    total = len(reads) + len(writes)
    print(f"server: {args.worker_class}, workers={args.workers or 'default'}, threads={args.threads}; "
          f"clients: {args.connections} connections ({args.writers} writing) for {elapsed:.1f} s")
    print(f"requests: {total} ({total / elapsed:,.0f}/s); reads {len(reads)} ({len(reads) / elapsed:,.0f}/s), "
          f"writes {len(writes)} ({len(writes) / elapsed:,.0f}/s); games finished: {recorder.games_finished}")
    for kind, values in (("read", reads), ("write", writes)):
        print(f"{kind:5} latency ms: p50 {percentile(values, 0.50):.1f}  p95 {percentile(values, 0.95):.1f}  "
              f"p99 {percentile(values, 0.99):.1f}  max {max(values, default=0) * 1000:.1f}")
    print(f"CPU seconds: server {server_cpu.ru_utime + server_cpu.ru_stime:.1f}, "
          f"load client {client_cpu.ru_utime + client_cpu.ru_stime:.1f} (both on this machine's "
          f"{os.cpu_count()} cores)")
    print("statuses: " + ", ".join(f"{kind} {code}: {n}" for (kind, code), n in sorted(recorder.statuses.items())))
    print(f"'database is locked' in server log: {log.count('database is locked')}; "
          f"tracebacks: {log.count('Traceback')}")


if __name__ == "__main__":
    main()
