"""Benchmark every registered rules module: random playouts per second and one full game's time.

    .venv/bin/python bench/bench_rules.py [--seconds 3] [--figures FILE]

A playout is a whole game played with the module's own ``random_legal_move`` from ``setup``
until ``outcome`` says it is over (or the module reports a dead end through ``stalled``), as the
shared rules test plays it: at each step every seat is asked for a move and one of the offered moves
is applied. Seeds are fixed, so runs are comparable. Pure Python in this process, no I/O.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from figures import Report  # noqa: E402

from companion.rules import GAMES  # noqa: E402

GAME_TARGET_MS = 10.0
MOVE_CAP = 4000


def playout(rules: ModuleType, players: int, seed: int) -> int:
    """One random game to its end; returns the number of moves."""
    rng = random.Random(seed)
    state: Any = rules.setup([f"Player {i + 1}" for i in range(players)], {}, random.Random(seed))
    stalled = getattr(rules, "stalled", lambda s: False)
    moves = 0
    while moves < MOVE_CAP and not rules.outcome(state).over and not stalled(state):
        candidates = [(s, m) for s in range(players) if (m := rules.random_legal_move(state, s, rng)) is not None]
        seat, move = rng.choice(candidates)
        state = rules.apply(state, seat, move)
        moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time spent per game and table size")
    parser.add_argument("--figures", type=Path, default=None, help="also write the figures to this JSON file")
    args = parser.parse_args()
    report = Report(args.figures)
    report.heading(f"Rules modules: random playouts to the end, {args.seconds:g} s per game")
    for game, rules in sorted(GAMES.items()):
        players = max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS))
        playout(rules, players, 0)  # warm-up: imports, catalog, caches
        durations: list[float] = []
        moves = 0
        seed = 1
        deadline = time.perf_counter() + args.seconds
        while time.perf_counter() < deadline or len(durations) < 5:
            started = time.perf_counter()
            moves += playout(rules, players, seed)
            durations.append(time.perf_counter() - started)
            seed += 1
        total = sum(durations)
        ordered = sorted(durations)
        median = ordered[len(ordered) // 2]
        report.info(f"rules.{game}.playouts_per_second", f"{game}: random playouts per second ({players} players)",
                    len(durations) / total, "/s", note=f"{len(durations)} games, {moves / len(durations):.0f} moves "
                                                      f"a game, {moves / total:,.0f} moves/s")
        report.target(f"rules.{game}.game_ms", f"{game}: one random full game (median)", median * 1000, "ms",
                      "below", GAME_TARGET_MS, note=f"slowest {ordered[-1] * 1000:.1f} ms, "
                                                    f"{median / (moves / len(durations)) * 1e6:.0f} µs a move")
    report.save()


if __name__ == "__main__":
    main()
