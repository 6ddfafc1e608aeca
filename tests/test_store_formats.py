"""Stored states carry a format version, and a game saved by an earlier format opens and plays on.

``tests/golden/companion-format0.sqlite3`` was written by the store before states carried a format version
(one game of each kind, 24 random legal moves each); ``companion-format0.json`` holds what that code
answered for those games (version, scores, the table's and every seat's view). Today's code must open the
file, give the same answers, and take the next move.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.rules import SPECS, rules_for, spec_for
from companion.rules.spec import FORMAT_KEY
from companion.store import Store

GOLDEN = Path(__file__).parent / "golden"
EXPECTED: dict[str, Any] = json.loads((GOLDEN / "companion-format0.json").read_text())


@pytest.fixture
def old_store(tmp_path: Path) -> Any:
    shutil.copy(GOLDEN / "companion-format0.sqlite3", tmp_path / "companion.sqlite3")
    store = Store(tmp_path / "companion.sqlite3")
    yield store
    store.close()


def test_the_golden_file_predates_formats(old_store: Store) -> None:
    rows = old_store.backend._db().execute("SELECT game, state, initial_state FROM games").fetchall()
    games = [row[0] for row in rows]  # one game of each kind there was then; a newer game cannot be in it
    assert games and len(set(games)) == len(games) and set(games) <= set(SPECS)
    assert all(FORMAT_KEY not in json.loads(row[1]) and FORMAT_KEY not in json.loads(row[2]) for row in rows)


@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_a_game_stored_before_formats_opens_with_the_same_answers_and_plays_on(old_store: Store,
                                                                                game_id: str) -> None:
    expected = EXPECTED[game_id]
    game, version, state = old_store.latest(game_id)
    rules = rules_for(game)
    assert (game, version) == (expected["game"], expected["version"])
    assert json.loads(json.dumps(rules.score(state))) == expected["score"]
    # the views are the rules' (a later secrets fix may change what a view shows, a later version add a key):
    # each opens and keeps every key it had
    assert set(json.loads(json.dumps(rules.view(state, None)))) >= set(expected["table_view"])
    seat_views = [set(rules.view(state, s)) for s in range(len(state.players))]
    assert len(seat_views) == len(expected["seat_views"])
    assert all(now >= set(then) for now, then in zip(seat_views, expected["seat_views"], strict=True))
    assert old_store.replay(game_id) == state

    rng = random.Random(11)
    seat, move = next((s, m) for s in range(len(state.players)) if (m := rules.random_legal_move(state, s, rng)))
    answer = old_store.apply_move(game_id, seat, version, "after-the-upgrade", move)
    assert answer["version"] == version + 1
    stored = json.loads(old_store.backend._db().execute("SELECT state FROM games WHERE id = ?", [game_id]).fetchone()[0])
    assert stored[FORMAT_KEY] == spec_for(game).state_version  # written in today's format from now on
    assert old_store.replay(game_id) == old_store.current(game_id)[1]


def test_a_state_from_a_newer_companion_is_refused_clearly() -> None:
    spec = spec_for("fillory")
    with pytest.raises(ValueError, match="stored in format 99 by a newer companion; this one reads formats up to "
                                         f"{spec.state_version}"):
        spec.upgraded_state({FORMAT_KEY: 99})


def test_upgrades_run_in_order_from_the_stored_format() -> None:
    from dataclasses import replace

    spec = replace(spec_for("fillory"), state_version=3,
                   state_upgrades={1: lambda d: {**d, "steps": d["steps"] + ["1->2"]},
                                   2: lambda d: {**d, "steps": d["steps"] + ["2->3"]}})
    assert spec.upgraded_state({"steps": []}) == {"steps": ["1->2", "2->3"]}  # format 0 -> 1 adds nothing
    assert spec.upgraded_state({"steps": [], FORMAT_KEY: 2}) == {"steps": ["2->3"]}
    assert spec.stored_state({"steps": []}) == {"steps": [], FORMAT_KEY: 3}
