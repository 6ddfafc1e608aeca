"""Load a real companion server on loopback: moves, state reads and the bare version endpoint.

    .venv/bin/python bench/bench_api.py [--seconds 4] [--connections 16 64] [--figures FILE] [--postgres]

Starts the server as the README does (``companion serve``: gunicorn, its default workers and
threads) on a free 127.0.0.1 port with a temporary database (``--postgres``: a throwaway PostgreSQL
cluster instead of the SQLite file), then loads it from this process in
phases, each bounded in time, over keep-alive connections driven by one client thread:

- moves: every connection plays its own games, posting each move with its seat's token; every move
  is checked by the game's rules on the server and appended to the log (200 expected). The moves
  are random legal moves from the game's own ``random_legal_move``, worked out before the clock
  starts from the game's real initial state, for every game in the rules registry in turn;
- state reads: ``GET /api/games/<id>`` with a seat token (the seat's view, scores; no ETag, so the
  whole answer is built every time);
- bare: ``GET /api/games/<id>/version``, the cheapest answer the server gives, for the ratio;
- open loop: 64 connections together offering a fixed 1,000 moves a second (``--open-rate``), each
  request timed from when it was due to be sent, not from when the connection got round to it.

The closed-loop phases (each connection sends its next request as soon as the last is answered)
measure the most the server can do, but their latency is set by Little's law: ``n`` connections
always in flight means a mean latency of ``n`` ÷ throughput (51 ms at 1,250 moves/s and 64
connections), whatever the server does. The target "1,000 moves/s with p99 ≤ 50 ms at 64
connections" is a statement about a given load, so it is judged in the open-loop phase, the way
wrk2 measures: a late answer delays the next request on its connection, and that wait is counted.

Prints rates and p50/p99 latency at each connection count beside the targets, the server's CPU
time per request of each kind (read from /proc: unlike rates, it hardly depends on what else the
machine is doing), the server's and the load client's CPU time, every unexpected status, and whether the server logged
"database is locked" or a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from figures import Report  # noqa: E402
from load_client import (  # noqa: E402
    Connection,
    Tally,
    Work,
    request_bytes,
    run_open_phase,
    run_phase,
)

from companion.cli import default_workers  # noqa: E402
from companion.rules import GAMES  # noqa: E402
from companion.served import running_postgres, running_server  # noqa: E402
from companion.store import Store  # noqa: E402

MOVE_CAP = 1500          # a playout longer than this is cut (no game in the registry comes close)
ASSUMED_TOP_RATE = 2500  # moves/s: enough prepared moves that no connection runs dry before time is up
MOVES_TARGET, MOVES_P99_TARGET_MS, READ_SHARE_TARGET = 1000.0, 50.0, 0.5


@dataclass
class Table:
    """One game on the server, with its seats' tokens and the moves prepared for it."""

    game_id: str
    tokens: list[str]
    moves: list[tuple[int, dict[str, Any]]]


def players_for(rules: ModuleType) -> list[str]:
    count = max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS))
    return [f"Player {i + 1}" for i in range(count)]


def playout(rules: ModuleType, state: Any, rng: random.Random) -> list[tuple[int, dict[str, Any]]]:
    """Random legal moves from ``state`` to the end of the game (or the cap)."""
    seats = range(len(rules.view(state, None)["players"]))
    moves: list[tuple[int, dict[str, Any]]] = []
    stalled = getattr(rules, "stalled", lambda s: False)
    while len(moves) < MOVE_CAP and not rules.outcome(state).over and not stalled(state):
        candidates = [(s, m) for s in seats if (m := rules.random_legal_move(state, s, rng)) is not None]
        if not candidates:
            break
        seat, move = rng.choice(candidates)
        state = rules.apply(state, seat, move)
        moves.append((seat, move))
    return moves


def open_tables(base: str, store: Store, count: int, seed: int) -> list[Table]:
    """Create ``count`` games over HTTP (cycling through the registered games) and prepare their moves."""
    host, port = base.removeprefix("http://").split(":")
    connection = Connection(host, int(port))
    games = sorted(GAMES)
    rng = random.Random(seed)
    tables = []
    for i in range(count):
        game = games[i % len(games)]
        rules = GAMES[game]
        status, body = connection.send(request_bytes("POST", "/api/games",
                                                     {"game": game, "players": players_for(rules), "options": {}}))
        if status != 201:
            raise RuntimeError(f"creating a {game} game failed: {status} {body[:200]!r}")
        created = json.loads(body)
        _, state = store.current(created["id"])  # the server's own initial state (setup may be random)
        tables.append(Table(created["id"], [s["token"] for s in created["seats"]], playout(rules, state, rng)))
    connection.close()
    return tables


def move_requests(tables: list[Table], label: str) -> Iterator[bytes]:
    """Every prepared move of these tables, in order, as request bytes (built lazily, before timing)."""
    for table in tables:
        for version, (seat, move) in enumerate(table.moves):
            body = {"version": version, "action_id": f"{label}-{version}", "move": move}
            yield request_bytes("POST", f"/api/games/{table.game_id}/moves", body,
                                {"Authorization": f"Bearer {table.tokens[seat]}"})


def prepared(requests: Iterator[bytes]) -> Any:
    built = list(requests)
    return lambda: iter(built)


def repeated(raw: bytes, times: int) -> Any:
    return lambda: iter([raw] * times)


def move_works(server_base: str, store: Store, connections: int, seconds: float, seed: int,
               open_rate: float | None = None) -> tuple[list[Work], list[Table]]:
    """The prepared move requests of ``connections`` connections, enough for ``seconds`` (each its own tables)."""
    needed = (open_rate or ASSUMED_TOP_RATE) * seconds / connections + 2
    tables = open_tables(server_base, store, connections, seed)
    per_connection: list[list[Table]] = [[t] for t in tables]
    for i, own in enumerate(per_connection):  # more games for a connection whose game is short
        while sum(len(t.moves) for t in own) < needed:
            own += open_tables(server_base, store, 1, seed * 1000 + i * 10 + len(own))
    return [prepared(move_requests(own, f"c{i}")) for i, own in enumerate(per_connection)], tables


def moves_phase(server_base: str, store: Store, connections: int, seconds: float, seed: int,
                open_rate: float | None = None) -> tuple[Tally, list[Table]]:
    """Moves from ``connections`` connections, closed loop (as fast as answered) or, with
    ``open_rate``, open loop at that many moves a second in all."""
    host, port = server_base.removeprefix("http://").split(":")
    works, tables = move_works(server_base, store, connections, seconds, seed, open_rate)
    if open_rate:
        return run_open_phase(host, int(port), works, seconds, open_rate), tables
    return run_phase(host, int(port), works, seconds), tables


def server_cpu_seconds(pid: int) -> float | None:
    """CPU time so far of the server process and its workers (Linux /proc; None elsewhere).

    Unlike requests per second, CPU time per request hardly depends on what else the machine runs.
    """
    try:
        tick = os.sysconf("SC_CLK_TCK")
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        total = 0
        for process in [str(pid), *children]:
            fields = Path(f"/proc/{process}/stat").read_text().rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / tick
    except (OSError, ValueError, IndexError):
        return None


def timed_phase(pid: int, cpu: dict[tuple[str, int], float], key: tuple[str, int], run: Any) -> Any:
    before = server_cpu_seconds(pid)
    result = run()
    after = server_cpu_seconds(pid)
    tally = result[0] if isinstance(result, tuple) else result
    if before is not None and after is not None and tally.ok:
        cpu[key] = (after - before) / tally.ok * 1000
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each phase")
    parser.add_argument("--connections", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--figures", type=Path, default=None, help="also write the figures to this JSON file")
    parser.add_argument("--open-rate", type=float, default=MOVES_TARGET,
                        help="moves a second offered in the open-loop phase (0: skip it)")
    parser.add_argument("--open-connections", type=int, default=64, help="connections of the open-loop phase")
    parser.add_argument("--only-moves", action="store_true", help="skip the read phases (quicker A/B runs)")
    parser.add_argument("--serve-arg", action="append", default=[], help="extra argument for companion serve")
    parser.add_argument("--postgres", action="store_true",
                        help="store on a throwaway PostgreSQL cluster (companion.served.running_postgres), not SQLite")
    args = parser.parse_args()
    report = Report(args.figures)
    counts = sorted(set(args.connections))
    top = counts[-1]

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as cluster:
        dsn = cluster.enter_context(running_postgres()).dsn if args.postgres else None
        # every worker listens on the port itself (SO_REUSEPORT): start loading once all of them do
        workers = None if "--workers" in args.serve_arg else default_workers()
        with running_server(Path(tmp), args.serve_arg, secret_key="bench-key", workers=workers, db=dsn) as server:
            host, port = server.base.removeprefix("http://").split(":")
            store = Store(dsn or server.db_path)
            report.heading(f"Companion under load ({'PostgreSQL' if dsn else 'SQLite'}): "
                           f"companion serve {' '.join(args.serve_arg) or '(defaults)'}, "
                           f"{args.seconds:g} s per phase, games: {', '.join(sorted(GAMES))}")
            results: dict[tuple[str, int], Tally] = {}
            cpu_ms: dict[tuple[str, int], float] = {}
            pid = server.process.pid
            played: list[Table] = []
            for n in counts:
                tally, tables = timed_phase(pid, cpu_ms, ("moves", n),
                                            lambda n=n: moves_phase(server.base, store, n, args.seconds, seed=n))
                results[("moves", n)] = tally
                played += tables
            if args.open_rate:
                n = args.open_connections
                results[("open", n)], _ = timed_phase(
                    pid, cpu_ms, ("open", n),
                    lambda: moves_phase(server.base, store, n, args.seconds, seed=7 * n, open_rate=args.open_rate))
            for n in ([] if args.only_moves else counts):
                read_works = [repeated(request_bytes("GET", f"/api/games/{t.game_id}",
                                                headers={"Authorization": f"Bearer {t.tokens[0]}"}), 10**6)
                         for t in (played * n)[:n]]
                results[("reads", n)] = timed_phase(pid, cpu_ms, ("reads", n),
                                                    lambda works=read_works: run_phase(host, int(port), works, args.seconds))
                bare_works = [repeated(request_bytes("GET", f"/api/games/{t.game_id}/version"), 10**6)
                        for t in (played * n)[:n]]
                results[("bare", n)] = timed_phase(pid, cpu_ms, ("bare", n),
                                                   lambda works=bare_works: run_phase(host, int(port), works, args.seconds))
            store.close()
        log = server.log()
    server_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_cpu = resource.getrusage(resource.RUSAGE_SELF)

    for n in counts:
        moves = results[("moves", n)]
        at = f"at {n} connections"
        if n == top:
            report.target(f"api.moves_per_second.{n}", f"moves validated and stored/s, {at}, closed loop",
                          moves.rate(), "/s", "at least", MOVES_TARGET)
            little = n / moves.rate() * 1000 if moves.rate() else float("nan")
            report.target(f"api.moves_p99_ms.{n}", f"move p99 latency, {at}, closed loop", moves.percentile_ms(0.99),
                          "ms", "at most", MOVES_P99_TARGET_MS,
                          note=f"p50 {moves.percentile_ms(0.5):.1f} ms; Little's law alone makes the mean "
                               f"{n} ÷ rate = {little:.0f} ms here")
        else:
            report.info(f"api.moves_per_second.{n}", f"moves validated and stored/s, {at}", moves.rate(), "/s",
                        note=f"p50 {moves.percentile_ms(0.5):.1f} ms, p99 {moves.percentile_ms(0.99):.1f} ms")
        if ("reads", n) not in results:
            continue
        reads, bare = results[("reads", n)], results[("bare", n)]
        report.info(f"api.reads_per_second.{n}", f"state reads/s, {at}", reads.rate(), "/s",
                    note=f"p50 {reads.percentile_ms(0.5):.1f} ms, p99 {reads.percentile_ms(0.99):.1f} ms")
        report.info(f"api.bare_per_second.{n}", f"bare version reads/s, {at}", bare.rate(), "/s",
                    note=f"p50 {bare.percentile_ms(0.5):.1f} ms, p99 {bare.percentile_ms(0.99):.1f} ms")
        share = reads.rate() / bare.rate() if bare.rate() else float("nan")
        report.target(f"api.read_share.{n}", f"state reads ÷ bare reads, {at}", share, "×", "at least",
                      READ_SHARE_TARGET)
    if args.open_rate:
        n = args.open_connections
        opened = results[("open", n)]
        at = f"{args.open_rate:,.0f}/s offered at {n} connections, open loop"
        report.target(f"api.open.moves_per_second.{n}", f"moves answered/s, {at}", opened.rate(), "/s",
                      "at least", MOVES_TARGET, note=f"{opened.ok:,} of {int(args.open_rate * args.seconds):,} "
                                                     f"offered moves answered 200")
        report.target(f"api.open.moves_p99_ms.{n}", f"move p99 latency from the intended send, {at}",
                      opened.percentile_ms(0.99), "ms", "at most", MOVES_P99_TARGET_MS,
                      note=f"p50 {opened.percentile_ms(0.5):.1f} ms, p99.9 {opened.percentile_ms(0.999):.1f} ms, "
                           f"max {opened.percentile_ms(1.0):.1f} ms")
    for kind, what in (("moves", "move"), ("open", "move (open loop)"), ("reads", "state read"),
                       ("bare", "bare version read")):
        at_n = args.open_connections if kind == "open" else top
        if (kind, at_n) in cpu_ms:
            report.info(f"api.server_cpu_ms.{kind}", f"server CPU time per {what} (all processes)",
                        cpu_ms[(kind, at_n)], "ms", note=f"at {at_n} connections; {os.cpu_count()} cores could serve at most "
                                   f"{1000 * (os.cpu_count() or 1) / cpu_ms[(kind, at_n)]:,.0f}/s with no load client")
    unexpected = {f"{kind}@{n} {status}": count for (kind, n), tally in results.items()  # 0: still unanswered
                  for status, count in tally.statuses.items() if status not in (0, 200)}  # (shown with the rate)
    failures = [f for tally in results.values() for f in tally.failures]
    report.target("api.unexpected_answers", "answers other than 200", float(sum(unexpected.values())), "", "at most", 0,
                  note="; ".join(f"{k}: {v}" for k, v in unexpected.items()) + (f"; first: {failures[0]}" if failures else ""))
    report.target("api.database_locked", "'database is locked' in the server log", float(log.count("database is locked")),
                  "", "at most", 0)
    report.target("api.tracebacks", "tracebacks in the server log", float(log.count("Traceback")), "", "at most", 0)
    total = sum(t.count for t in results.values())
    report.info("api.server_cpu_seconds", "server CPU time (all workers)",
                server_cpu.ru_utime + server_cpu.ru_stime, "s", note=f"{total:,} requests")
    report.info("api.client_cpu_seconds", "load client CPU time (same 2 cores)",
                client_cpu.ru_utime + client_cpu.ru_stime, "s", note="includes preparing the moves")
    report.save()


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"  (bench_api took {time.perf_counter() - started:.0f} s)")
