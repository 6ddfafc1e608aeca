"""Recorded seeded playouts: the rules give the same games, scores and outcomes as when they were recorded.

For every game, 40 seeds (the table size cycles from the fewest to the most players): a whole game played with
the module's own ``random_legal_move`` (as ``tests/test_rules_shared.py`` plays it), recorded as the number of
moves, a SHA-256 of the move list, of the log lines (``describe_move``) and of the final ``score()`` (with
its breakdown; the totals also in full), and the final ``outcome()`` in full. ``tests/golden/playouts.json``
was recorded from the rules before the per-game packages and game specs; a redesign that changes none of it
changed no rule.

Re-record (only for a deliberate rules change, explained in its commit):
    GOLDEN_RECORD=1 .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_rules_golden.py
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from companion.rules import SPECS, rules_for

GOLDEN = Path(__file__).parent / "golden" / "playouts.json"
GAMES = tuple(sorted(SPECS))  # every discovered game (a new one records its playouts: GOLDEN_RECORD=1)
SEEDS = range(40)
MOVE_CAP = 4000


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def playout(game: str, seed: int) -> dict[str, Any]:
    rules = rules_for(game)
    sizes = list(range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1))
    players = sizes[seed % len(sizes)]
    names = [f"Player {i + 1}" for i in range(players)]
    rng = random.Random(seed)
    state = rules.setup(names, {}, random.Random(seed))
    stalled = rules.stalled
    moves: list[list[Any]] = []
    lines: list[str] = []
    while len(moves) < MOVE_CAP and not rules.outcome(state).over and not stalled(state):
        candidates = [(s, m) for s in range(players) if (m := rules.random_legal_move(state, s, rng)) is not None]
        seat, move = rng.choice(candidates)
        state = rules.apply(state, seat, move)
        moves.append([seat, move])
        lines.append(rules.describe_move(move, seat, names))
    score = rules.score(state)
    return {"game": game, "seed": seed, "players": players, "moves": len(moves), "moves_sha256": _digest(moves),
            "lines_sha256": _digest(lines), "totals": [row["total"] for row in score],
            "score_sha256": _digest(score),
            "outcome": dataclasses.asdict(rules.outcome(state))}


def _recorded() -> dict[str, dict[str, Any]]:
    return {f"{row['game']}/{row['seed']}": row for row in json.loads(GOLDEN.read_text())}


if os.environ.get("GOLDEN_RECORD") == "1":  # pragma: no cover - recording, not testing
    kept = [row for row in json.loads(GOLDEN.read_text()) if row["game"] not in GAMES]  # an extra game not added now
    rows = [json.dumps(row, sort_keys=True, separators=(",", ":")) for row in kept] + [
        json.dumps(playout(g, s), sort_keys=True, separators=(",", ":")) for g in GAMES for s in SEEDS]
    GOLDEN.write_text("[\n" + ",\n".join(rows) + "\n]\n")


@pytest.mark.parametrize("game", GAMES)
def test_recorded_playouts_replay_identically(game: str) -> None:
    recorded = _recorded()
    assert sum(1 for key in recorded if key.startswith(f"{game}/")) == len(SEEDS), \
        f"{game}: record its playouts with GOLDEN_RECORD=1 (tests/golden/playouts.json)"
    for seed in SEEDS:
        expected = json.loads(json.dumps(recorded[f"{game}/{seed}"]))
        assert json.loads(json.dumps(playout(game, seed))) == expected, f"{game} seed {seed} plays differently"
