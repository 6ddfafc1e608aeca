"""Log reads on a long game: what ``GET /api/games/<id>/log?since=n`` costs the store, in process.

    .venv/bin/python bench/bench_log.py [--entries 5000] [--reads 50] [--figures FILE]

For every game: a log of ``--entries`` entries (a random game played with the rules' own
``random_legal_move`` through the store, padded with renames if it ends sooner), then the newest ten
entries read

- **cold**: by a store that holds nothing of the game (a process's first read: the whole log fetched
  and resolved, which is what every read cost before the store kept the log it last read), and
- **after one more entry**: by a store that read the game before, once one more entry was written (a
  move, or a rename when the game is over): the new entry alone is fetched and the timeline extended.

Both are the median of ``--reads`` reads, with the ratio; a short game's read is given for context.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from figures import Report  # noqa: E402

from companion.rules import GAMES  # noqa: E402
from companion.store import Store  # noqa: E402

TARGET_RATIO = 5.0  # a read after one more entry at least this many times cheaper than a cold one


def median_ms(read: Callable[[], Any], times: int, before: Callable[[], Any] = lambda: None) -> float:
    """The median time of ``read`` (``before`` runs untimed before each)."""
    durations = []
    for _ in range(times):
        before()
        started = time.perf_counter()
        read()
        durations.append(time.perf_counter() - started)
    return statistics.median(durations) * 1000


def long_game(store: Store, game: str, entries: int, seed: int) -> tuple[str, Callable[[], None]]:
    """A game of ``entries`` log entries; returns its id and how to write one more entry."""
    rules = GAMES[game]
    players = [f"Player {i + 1}" for i in range(max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS)))]
    made = store.create_game(game, players, {})
    gid, rng = made["id"], random.Random(seed)
    stalled = getattr(rules, "stalled", lambda s: False)

    def next_move() -> tuple[int, dict[str, Any]] | None:
        version, state = store.current(gid)
        if rules.outcome(state).over or stalled(state):
            return None
        candidates = [(s, m) for s in range(len(players)) if (m := rules.random_legal_move(state, s, rng)) is not None]
        return rng.choice(candidates) if candidates else None

    def one_more() -> None:
        version = store.version(gid)
        chosen = next_move()
        if chosen is None:
            store.rename_seat(gid, 0, f"Player {version}")
        else:
            store.apply_move(gid, chosen[0], version, f"a{version}", chosen[1])

    while store.version(gid) < entries:
        one_more()
    return gid, one_more


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=5000, help="log entries of the long game")
    parser.add_argument("--reads", type=int, default=50, help="reads per figure (median)")
    parser.add_argument("--figures", type=Path, default=None, help="also write the figures to this JSON file")
    args = parser.parse_args()
    report = Report(args.figures)
    report.heading(f"Log reads: the newest ten entries of a {args.entries:,}-entry game, in process")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.sqlite3"
        store = Store(path)
        for game in sorted(GAMES):
            gid, one_more = long_game(store, game, args.entries - args.reads - 1, seed=1)  # (room for the reads)
            short, _ = long_game(store, game, 20, seed=2)
            moves = sum(1 for e in store.log(gid, None) if e["kind"] == "move")

            def read(game_id: str) -> None:
                store.log(game_id, None, since=store.version(game_id) - 10)

            def forget() -> None:
                store._logs.clear()  # as a process that never read the game
                store._logs_entries = 0

            cold_ms = median_ms(lambda: read(gid), args.reads, forget)  # noqa: B023
            read(gid)
            warm_ms = median_ms(lambda: read(gid), args.reads, one_more)  # noqa: B023
            short_ms = median_ms(lambda: read(short), args.reads, forget)  # noqa: B023
            report.info(f"log.{game}.cold_ms", f"{game}: cold read ({moves:,} moves in the log)", cold_ms, "ms",
                        note="the whole log fetched and resolved, as every read before")
            report.info(f"log.{game}.short_ms", f"{game}: cold read of a 20-entry game", short_ms, "ms")
            report.target(f"log.{game}.ratio", f"{game}: cold ÷ a read after one more entry", cold_ms / warm_ms,
                          "×", "at least", TARGET_RATIO,
                          note=f"{warm_ms:.2f} ms after one more entry")
        store.close()
    report.save()


if __name__ == "__main__":
    main()
