"""One node on SQLite, one on PostgreSQL, two on one PostgreSQL: the issue's targets side by side in one run.

    .venv/bin/python bench/bench_nodes.py [--seconds 3] [--rounds 3] [--connections 16] [--figures FILE]

Starts, once, a SQLite node, a throwaway PostgreSQL cluster (``companion.served.running_postgres``) and two
PostgreSQL nodes sharing it (``companion serve`` each, its default workers), then runs the same closed-loop
phases as ``bench/bench_api.py`` round after round, in turn on each set-up, so the machine's weather falls
on all of them alike:

- moves/s and state reads/s of one node on SQLite and of one node on PostgreSQL, and their ratio
  (target: PostgreSQL ≥ 0.8× SQLite), twice: as they run here, and with the node capped at a share of one
  core (below). A public instance runs PostgreSQL on a machine of its own; here PostgreSQL's own CPU per
  request would compete with the node's for the same cores, which on SQLite the node has to itself. Capped,
  the node is the bottleneck and PostgreSQL has CPU to spare, as on a machine of its own, so the capped ratio
  judges the target; the uncapped one is judged only where the machine has a core for PostgreSQL beyond the
  node's workers and the load client, and printed beside it otherwise;
- moves/s of two nodes on one PostgreSQL, the connections split between them, against one node's moves/s
  of the same round (target ≥ 1.6×), twice: as they run here, and with each node capped at a share of one
  core (``--node-share``, 0.3 by default; ``bench/cpu_caps.py``, the kernel's CPU controller, as root; a
  capped phase lasts ``--capped-seconds``, twice ``--seconds`` by default, as it answers fewer requests).
  Capped, the nodes are the bottleneck, as when each has a machine of its own, so the capped ratio judges
  whether a second node adds its share of moves or something shared (the database, its locks, its
  notifications) holds it back; uncapped on a machine with few cores, a second node adds no core;
- delivery across nodes: phones stream ``/api/games/<id>/events`` from the second node while moves are
  posted through the first at a steady pace; a move's delivery is from its send to the first event that
  carries its version or a later one (target: p95 ≤ 300 ms).

Prints the cores, the load average before each phase, the server CPU time per request of each set-up (read
from /proc around the phase alone, after its games were made; it depends less than rates on what else
runs), PostgreSQL's own CPU per move, and says whether the
two-node target can be judged on this machine: two nodes, PostgreSQL and the load client on the same cores
share them, so doubling the nodes adds no core and ≥ 1.6× is out of reach by construction there.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import random
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_api import (  # noqa: E402
    Table,
    move_works,
    repeated,
    server_cpu_seconds,
)
from cpu_caps import CpuCap, CpuCaps  # noqa: E402
from figures import Report  # noqa: E402
from load_client import Connection, Tally, request_bytes, run_phase  # noqa: E402

from companion.cli import default_workers  # noqa: E402
from companion.rules import GAMES  # noqa: E402
from companion.served import RunningServer, running_postgres, running_server  # noqa: E402
from companion.store import Store  # noqa: E402

PG_TARGET, TWO_NODES_TARGET, DELIVERY_P95_TARGET_MS = 0.8, 1.6, 300.0


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def postgres_cpu_seconds(data_folder: Path) -> float | None:
    """CPU time so far of PostgreSQL's postmaster and its live backends (their pids from /proc)."""
    try:
        pid = int((data_folder / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return server_cpu_seconds(pid)


class Setup:
    """One set-up under load: its nodes (one or two), the store the bench prepares games with, the CPU meters."""

    def __init__(self, label: str, nodes: list[RunningServer], store: Store, pg_data: Path | None) -> None:
        self.label, self.nodes, self.store, self.pg_data = label, nodes, store, pg_data

    def cpu(self) -> tuple[float, float | None]:
        own = sum(server_cpu_seconds(n.process.pid) or 0.0 for n in self.nodes)
        return own, postgres_cpu_seconds(self.pg_data) if self.pg_data else None


def split_phase(nodes: list[RunningServer], works_per_node: list[list[Any]], seconds: float) -> Tally:
    """Closed-loop phases on every node at once (one load thread per node), summed into one tally."""
    tallies: list[Tally | None] = [None] * len(nodes)

    def run(i: int) -> None:
        host, port = nodes[i].base.removeprefix("http://").split(":")
        tallies[i] = run_phase(host, int(port), works_per_node[i], seconds)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(nodes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # (summed: until 2026-12-02 the statuses were merged with dict.update, so a two-node phase counted only the
    # last node's answers, which halved its moves/s and doubled its CPU per move; docs/serving.md)
    return Tally.merged([tally for tally in tallies if tally is not None])


def measured(setup: Setup, run: Callable[[], Tally]) -> tuple[Tally, float | None, float | None, str]:
    """``run``'s tally, the set-up's CPU ms per answered request (nodes, PostgreSQL) and the load before."""
    before_load = load()
    own0, pg0 = setup.cpu()
    tally = run()
    own1, pg1 = setup.cpu()

    def per(a: float, b: float) -> float | None:
        return (b - a) / tally.ok * 1000 if tally.ok else None

    return tally, per(own0, own1), (per(pg0, pg1) if pg0 is not None and pg1 is not None else None), before_load


def moves_works(setup: Setup, connections: int, seconds: float, seed: int) -> list[list[Any]]:
    """The prepared moves of ``connections`` connections, split evenly over the set-up's nodes, each connection
    its own games (made over HTTP on its node before the clock and the CPU meters start)."""
    per_node = [connections // len(setup.nodes) + (i < connections % len(setup.nodes)) for i in range(len(setup.nodes))]
    return [move_works(node.base, setup.store, n, seconds, seed * 10 + i)[0]
            for i, (node, n) in enumerate(zip(setup.nodes, per_node, strict=True))]


def reads_phase(setup: Setup, tables: list[Table], connections: int, seconds: float) -> Tally:
    """State reads of a few games from ``connections`` connections to the set-up's first node."""
    works = [repeated(request_bytes("GET", f"/api/games/{t.game_id}", headers={"Authorization": f"Bearer {t.tokens[0]}"}),
                      10**6) for t in (tables * connections)[:connections]]
    return split_phase(setup.nodes[:1], [works], seconds)


def delivery_phase(sender: RunningServer, watcher: RunningServer, store: Store, seconds: float, phones: int,
                   rate: float, seed: int) -> tuple[list[float], int]:
    """Phones streaming on ``watcher`` while moves of their games go through ``sender`` at ``rate``/s: the time
    from each move's send to the first event on ``watcher`` that carries its version (seconds), and the
    number of moves never seen within the phase and a grace period."""
    works, tables = move_works(sender.base, store, phones, seconds, seed)
    host, port = watcher.base.removeprefix("http://").split(":")
    seen: dict[tuple[str, int], float] = {}
    selector = selectors.DefaultSelector()
    streams = []
    for table in tables:
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /api/games/{table.game_id}/events HTTP/1.1\r\nHost: {host}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, table.game_id)
        streams.append(sock)
    stop = threading.Event()

    def listen() -> None:
        buffers: dict[str, bytes] = {}
        while not stop.is_set():
            for key, _ in selector.select(0.05):
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                at = time.monotonic()
                data = buffers.get(key.data, b"") + chunk
                lines = data.split(b"\n")
                buffers[key.data] = lines.pop()
                for line in lines:
                    if line.startswith(b"data: "):
                        with contextlib.suppress(ValueError, KeyError, TypeError):
                            seen.setdefault((key.data, int(json.loads(line[6:])["version"])), at)

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    time.sleep(1.0)  # every stream open (its first event: the current version)
    requests_per_table = [list(w()) for w in works]
    sender_host, sender_port = sender.base.removeprefix("http://").split(":")
    connection = Connection(sender_host, int(sender_port))
    sent: dict[tuple[str, int], float] = {}
    rng = random.Random(seed)
    started = time.monotonic()
    n = 0
    positions = [0] * len(tables)
    while time.monotonic() - started < seconds:
        due = started + n / rate
        if (wait := due - time.monotonic()) > 0:
            time.sleep(wait)
        i = rng.randrange(len(tables))
        if positions[i] >= len(requests_per_table[i]):
            continue
        at = time.monotonic()
        status, body = connection.send(requests_per_table[i][positions[i]])
        positions[i] += 1
        n += 1
        if status == 200:
            sent[(tables[i].game_id, int(json.loads(body)["version"]))] = at
    grace = time.monotonic() + 3.0
    while time.monotonic() < grace and not all(key in seen for key in sent):
        time.sleep(0.05)
    stop.set()
    listener.join()
    for sock in streams:
        sock.close()
    connection.close()
    # a stream tells the newest version when it gets round to it: two moves an instant apart may reach it as
    # one event, the later version's, which delivers both
    first_at: dict[tuple[str, int], float] = {}
    for game_id, version in sent:
        later = [when for (g, v), when in seen.items() if g == game_id and v >= version]
        if later:
            first_at[(game_id, version)] = min(later)
    delivery = [first_at[key] - at for key, at in sent.items() if key in first_at]
    return delivery, sum(1 for key in sent if key not in first_at)


@contextlib.contextmanager
def capped_while(caps: list[CpuCap], share: float | None) -> Any:
    """Every node's CPU capped at ``share`` of a core (None: uncapped) for the phase inside, uncapped after."""
    for cap in caps:
        cap.set(share)
    try:
        yield
    finally:
        for cap in caps:
            cap.set(None)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each phase")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each running every set-up in turn")
    parser.add_argument("--connections", type=int, default=16, help="connections of each closed-loop phase")
    parser.add_argument("--phones", type=int, default=20, help="phones streaming on the second node")
    parser.add_argument("--delivery-rate", type=float, default=20.0, help="moves/s posted in the delivery phase")
    parser.add_argument("--figures", type=Path, default=None, help="also write the figures to this JSON file")
    parser.add_argument("--node-share", type=float, default=0.3,
                        help="share of one core each node is capped at for the capped comparisons (0: none)")
    parser.add_argument("--capped-seconds", type=float, default=None,
                        help="length of each capped phase (default: twice --seconds)")
    args = parser.parse_args()
    capped_seconds = args.capped_seconds if args.capped_seconds is not None else 2 * args.seconds
    report = Report(args.figures)
    cores = os.cpu_count() or 1
    workers = default_workers()
    report.heading(f"One node on SQLite, one on PostgreSQL, two on one PostgreSQL: {cores} cores, {workers} workers "
                   f"a node, {args.connections} connections, {args.seconds:g} s phases, {args.rounds} rounds, "
                   f"load average at the start {load()}")

    why_not_capped = "--node-share 0" if args.node_share <= 0 else CpuCaps.available()
    capped = {} if why_not_capped else {"sqlite.capped": "sqlite", "pg.capped": "pg", "pg2.capped": "pg2"}
    rates: dict[str, list[float]] = {k: [] for k in ("sqlite.moves", "pg.moves", "pg2.moves", "sqlite.reads", "pg.reads",
                                                     *(f"{k}.moves" for k in capped),
                                                     *(f"{k}.reads" for k, plain in capped.items() if plain != "pg2"))}
    cpu: dict[str, list[float]] = {}
    loads: list[str] = []
    unexpected: dict[str, int] = {}
    delivery: list[float] = []
    missed = 0
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        cluster = stack.enter_context(running_postgres())
        folders = [Path(tmp) / name for name in ("sqlite", "pg-a", "pg-b")]
        for folder in folders:
            folder.mkdir()
        sqlite_node = stack.enter_context(running_server(folders[0], secret_key="bench-key", workers=workers))
        node_a = stack.enter_context(running_server(folders[1], secret_key="bench-key", workers=workers, db=cluster.dsn))
        node_b = stack.enter_context(running_server(folders[2], secret_key="bench-key", workers=workers, db=cluster.dsn))
        sqlite_store, pg_store = Store(sqlite_node.db_path), Store(cluster.dsn)
        stack.callback(sqlite_store.close)
        stack.callback(pg_store.close)
        pg_data = cluster.folder / "data"
        setups = {"sqlite": Setup("one node, SQLite", [sqlite_node], sqlite_store, None),
                  "pg": Setup("one node, PostgreSQL", [node_a], pg_store, pg_data),
                  "pg2": Setup("two nodes, one PostgreSQL", [node_a, node_b], pg_store, pg_data)}
        caps: list[CpuCap] = []
        if capped:
            groups = CpuCaps()
            stack.callback(groups.close)
            caps = [groups.new(node.process.pid) for node in (sqlite_node, node_a, node_b)]
            for key, plain in capped.items():
                setups[key] = Setup(f"{setups[plain].label}, {args.node_share:g} core a node", setups[plain].nodes,
                                    setups[plain].store, setups[plain].pg_data)
        for r in range(args.rounds):
            order = list(setups) if r % 2 == 0 else list(reversed(setups))
            for key in order:
                setup = setups[key]
                seconds = capped_seconds if key in capped else args.seconds
                works = moves_works(setup, args.connections, seconds, seed=100 * r + len(key))
                with capped_while(caps, args.node_share if key in capped else None):
                    tally, own, pg, before = measured(setup, functools.partial(split_phase, setup.nodes, works,
                                                                               seconds))
                rates[f"{key}.moves"].append(tally.rate())
                loads.append(before)
                for name, value in (("moves.node", own), ("moves.pg", pg)):
                    if value is not None:
                        cpu.setdefault(f"{key}.{name}", []).append(value)
                for status, count in tally.statuses.items():
                    if status not in (0, 200):
                        unexpected[f"{key} moves {status}"] = unexpected.get(f"{key} moves {status}", 0) + count
                print(f"  round {r + 1} {setup.label:28} moves/s {tally.rate():7,.0f}  node CPU/move "
                      f"{own or float('nan'):.2f} ms  PostgreSQL CPU/move {pg if pg is not None else float('nan'):.2f} ms"
                      f"  (load before: {before})", flush=True)
                if len(setup.nodes) > 1:
                    continue
                tables = reads_tables(setup)
                with capped_while(caps, args.node_share if key in capped else None):
                    tally, own, pg, before = measured(setup, functools.partial(reads_phase, setup, tables,
                                                                               args.connections, seconds))
                rates[f"{key}.reads"].append(tally.rate())
                for name, value in (("reads.node", own), ("reads.pg", pg)):
                    if value is not None:
                        cpu.setdefault(f"{key}.{name}", []).append(value)
                for status, count in tally.statuses.items():
                    if status not in (0, 200):
                        unexpected[f"{key} reads {status}"] = unexpected.get(f"{key} reads {status}", 0) + count
                print(f"  round {r + 1} {setup.label:28} reads/s {tally.rate():7,.0f}  node CPU/read "
                      f"{own or float('nan'):.2f} ms  PostgreSQL CPU/read {pg if pg is not None else float('nan'):.2f} ms"
                      f"  (load before: {before})", flush=True)
            got, lost = delivery_phase(node_a, node_b, pg_store, args.seconds, args.phones, args.delivery_rate,
                                       seed=7 + r)
            delivery += got
            missed += lost
            print(f"  round {r + 1} delivery across nodes: {len(got)} moves, p95 {percentile(got, 0.95) * 1000:.0f} ms, "
                  f"{lost} never seen", flush=True)
        logs = [n.log() for n in (sqlite_node, node_a, node_b)]

    total = {k: sum(v) for k, v in rates.items()}
    def ratio(a: str, b: str) -> float:
        return total[a] / total[b] if total[b] else float("nan")

    def spread(key: str) -> str:
        return "rounds: " + ", ".join(f"{v:,.0f}" for v in rates[key])

    for key, what in (("sqlite.moves", "moves/s, one node on SQLite"),
                      ("pg.moves", "moves/s, one node on PostgreSQL"),
                      ("pg2.moves", "moves/s, two nodes on one PostgreSQL"),
                      ("sqlite.reads", "state reads/s, one node on SQLite"),
                      ("pg.reads", "state reads/s, one node on PostgreSQL")):
        report.info(f"nodes.{key}", what, statistics.mean(rates[key]), "/s", note=spread(key))
    for key, plain in capped.items():
        where = {"sqlite": "one node on SQLite", "pg": "one node on PostgreSQL", "pg2": "two nodes on PostgreSQL"}[plain]
        for kind in ("moves", "reads"):
            if f"{key}.{kind}" in rates:
                report.info(f"nodes.{key}.{kind}", f"{'state reads' if kind == 'reads' else 'moves'}/s, {where}, "
                            f"{args.node_share:g} core a node", statistics.mean(rates[f"{key}.{kind}"]), "/s",
                            note=spread(f"{key}.{kind}"))
    # one node: PostgreSQL beside SQLite. Uncapped, it is judgeable only where PostgreSQL has a core beyond the
    # node's workers and the load client (as on a machine of its own); capped, the node is the bottleneck.
    one_node_judgeable = cores - workers - 1 >= 1
    one_node_note = ("judgeable here" if one_node_judgeable else
                     f"NOT judgeable here: {cores} cores for {workers} node workers, the load client and PostgreSQL, "
                     "whose own CPU per request is taken from the node's cores (on SQLite the node has them to itself)")
    for kind in ("moves", "reads"):
        what = f"{'state reads' if kind == 'reads' else 'moves'}/s, one node: PostgreSQL ÷ SQLite"
        uncapped = ratio(f"pg.{kind}", f"sqlite.{kind}")
        if capped and not one_node_judgeable:
            report.info(f"nodes.pg_{kind}_ratio_uncapped", f"{what}, uncapped", uncapped, "×",
                        note=f"sum over the rounds; {one_node_note}")
            report.target(f"nodes.pg_{kind}_ratio", f"{what}, the node capped at {args.node_share:g} core",
                          ratio(f"pg.capped.{kind}", f"sqlite.capped.{kind}"), "×", "at least", PG_TARGET,
                          note="sum over the rounds; the node the bottleneck, PostgreSQL with CPU to spare, as on a "
                               "machine of its own")
        else:
            report.target(f"nodes.pg_{kind}_ratio", what, uncapped, "×", "at least", PG_TARGET,
                          note=f"sum over the rounds; {one_node_note}"
                               + ("" if capped else f" (no capped comparison: {why_not_capped})"))
            if capped:
                report.info(f"nodes.pg_{kind}_ratio_capped", f"{what}, the node capped at {args.node_share:g} core",
                            ratio(f"pg.capped.{kind}", f"sqlite.capped.{kind}"), "×", note="sum over the rounds")
    spare = cores - 2 * workers - 1  # two nodes' workers, PostgreSQL, and the load client on top
    judgeable = spare >= 1
    two = ratio("pg2.moves", "pg.moves")
    uncapped_note = ("judgeable here" if judgeable else
                     f"NOT judgeable here: {cores} cores for {2 * workers} node workers, PostgreSQL and the load "
                     "client; a second node adds no core here, so this shows only what it costs when it adds none")
    if capped:
        report.info("nodes.two_nodes_ratio_uncapped", "moves/s, two nodes on one PostgreSQL ÷ one node, uncapped", two,
                    "×", note=uncapped_note)
        report.target("nodes.two_nodes_ratio", f"moves/s, two nodes on one PostgreSQL ÷ one node, each node capped at "
                      f"{args.node_share:g} core", ratio("pg2.capped.moves", "pg.capped.moves"), "×", "at least",
                      TWO_NODES_TARGET, note="the nodes the bottleneck, as on machines of their own")
    else:
        report.target("nodes.two_nodes_ratio", "moves/s, two nodes on one PostgreSQL ÷ one node", two, "×", "at least",
                      TWO_NODES_TARGET, note=f"{uncapped_note} (no capped comparison: {why_not_capped})")
    report.target("nodes.delivery_p95_ms", "a move through one node reaches a phone streaming on the other, p95",
                  percentile(delivery, 0.95) * 1000, "ms", "at most", DELIVERY_P95_TARGET_MS,
                  note=f"median {percentile(delivery, 0.5) * 1000:.0f} ms over {len(delivery):,} moves, {missed} never seen")
    for key, per_round in sorted(cpu.items()):
        report.info(f"nodes.cpu_ms.{key}", f"CPU per request: {key}", statistics.mean(per_round), "ms",
                    note="rounds: " + ", ".join(f"{v:.2f}" for v in per_round))
    report.target("nodes.unexpected_answers", "answers other than 200", float(sum(unexpected.values())), "", "at most", 0,
                  note="; ".join(f"{k}: {v}" for k, v in unexpected.items()))
    report.target("nodes.tracebacks", "tracebacks in the nodes' logs", float(sum(log.count("Traceback") for log in logs)),
                  "", "at most", 0)
    report.info("nodes.load", "load average before each phase (1, 5, 15 min)", float(len(loads)), " phases",
                note="; ".join(loads))
    report.save()


def reads_tables(setup: Setup) -> list[Table]:
    """A few games of this set-up's own, played a little, for the read phase (made over HTTP on its first node)."""
    from bench_api import open_tables

    tables = open_tables(setup.nodes[0].base, setup.store, 8, seed=5)
    host, port = setup.nodes[0].base.removeprefix("http://").split(":")
    connection = Connection(host, int(port))
    for table in tables:
        for version, (seat, move) in enumerate(table.moves[:10]):
            connection.send(request_bytes("POST", f"/api/games/{table.game_id}/moves",
                                          {"version": version, "action_id": f"r-{version}", "move": move},
                                          {"Authorization": f"Bearer {table.tokens[seat]}"}))
    connection.close()
    return tables


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"  (bench_nodes took {time.perf_counter() - started:.0f} s, games: {', '.join(sorted(GAMES))})")
