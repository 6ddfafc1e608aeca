"""Mandragora properties over random games (hypothesis): every card accounted for, exact JSON round trips,
the Curse marker always with a most-cursed seat, games that end, and junk moves refused cleanly."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import IllegalMove
from companion.rules.mandragora import game as mandragora
from companion.rules.mandragora.state import MandragoraState

MOVE_CAP = 1500
FIELDS = ("type", "steps", "scrolls", "book", "ingredients", "power", "spell", "scroll", "to", "from", "shop", "kind",
          "cards", "colours")
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
        ["yellow", "mandrake", "spellbook-yellow-2", "scroll-one-curse-1", "Banishment", "white", "herb-garden", "",
         *mandragora.MOVE_TYPES]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=5),
    max_leaves=12)
#: Moves of a real type with any mix of fields, or any JSON at all.
junk_moves = st.fixed_dictionaries({"type": st.sampled_from(sorted(mandragora.MOVE_TYPES))},
                                   optional={key: json_values for key in FIELDS[1:]}) | json_values


def items(state: MandragoraState) -> int:
    return (state.deck_count + sum(state.shop_cards) + sum(state.hand_counts) + sum(map(len, state.scrolls))
            + sum(c.cards for casts in state.casts for c in casts) + len(state.banished) + len(state.removed()))


def check_invariants(state: MandragoraState) -> None:
    assert items(state) == 82
    assert len(state.spells_left()) + sum(map(len, state.casts)) == 24
    assert len(state.cast_spell_ids()) == sum(map(len, state.casts))   # no spell card cast twice
    assert min(state.hand_counts) >= 0 and min(state.shop_cards) >= 0 and state.deck_count >= 0
    assert len(state.free_scrolls()) <= state.pool()                    # every free scroll fits somewhere
    fronts = [s for seat in state.scrolls for s in seat]
    assert len(set(fronts) | set(state.banished)) == len(fronts) + len(state.banished)
    curses = [state.curses(s) for s in state.seats]
    if not any(p.kind == "curse_marker" for p in state.pending):
        if max(curses) == 0:
            assert state.curse_holder is None
        else:
            assert state.curse_holder is not None and curses[state.curse_holder] == max(curses)
    data = json.loads(json.dumps(mandragora.state_to_json(state)))
    assert mandragora.state_from_json(data) == state
    for viewer in state.seats:
        seen = mandragora.view(state, viewer)
        assert all(p["hand_note"] is None for p in seen["players"] if p["seat"] != viewer)
        if not state.all_revealed():
            assert all(p["hand_colours"] is None for p in seen["players"] if p["seat"] != viewer)


def play(players: int, seed: int, options: dict[str, Any]) -> tuple[MandragoraState, int]:
    rng = random.Random(seed)
    state = mandragora.setup([f"P{i}" for i in range(players)], options, random.Random(seed))
    check_invariants(state)
    for moves in range(MOVE_CAP):
        if mandragora.outcome(state).over:
            return state, moves
        offered = [(s, m) for s in range(players) if (m := mandragora.random_legal_move(state, s, rng)) is not None]
        assert offered, "a game that is not over must let someone move"
        seat, move = rng.choice(offered)
        state = mandragora.apply(state, seat, move)
        check_invariants(state)
    raise AssertionError(f"no end after {MOVE_CAP} moves (seed {seed}, {players} players)")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), circle=st.booleans())
def test_random_games_conserve_every_card_and_end(seed: int, players: int, circle: bool) -> None:
    final, moves = play(players, seed, {"circle": "random"} if circle else {})
    assert final.phase == "over" and moves > 10
    result = mandragora.outcome(final)
    totals = {row["seat"]: row["total"] for row in mandragora.score(final)}
    assert result.winners and all(totals[s] == max(totals.values()) for s in result.winners)
    assert all(len(row["breakdown"]) >= 1 for row in mandragora.score(final))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), first=st.integers(0, 3))
def test_random_team_games_conserve_every_card_and_end(seed: int, first: int) -> None:
    final, _ = play(4, seed, {"teams": True, "first_seat": first})
    result = mandragora.outcome(final)
    assert result.over and set(result.winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3})
    team_totals = [sum(row["total"] for row in mandragora.score(final) if row["seat"] in team)
                   for team in ((0, 2), (1, 3))]
    assert all(team_totals[s % 2] == max(team_totals) for s in result.winners)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 1000), steps=st.integers(0, 60), seat=st.integers(-1, 4), move=junk_moves)
def test_junk_moves_are_refused_with_illegal_move_only(seed: int, steps: int, seat: int, move: Any) -> None:
    """Whatever JSON arrives at whatever point of a game, it is applied or refused with IllegalMove."""
    rng = random.Random(seed)
    state = mandragora.setup(["A", "B", "C"], {}, random.Random(seed))
    for _ in range(steps):
        if mandragora.outcome(state).over:
            break
        offered = [(s, m) for s in range(3) if (m := mandragora.random_legal_move(state, s, rng)) is not None]
        state = mandragora.apply(state, *rng.choice(offered))
    try:
        after = mandragora.apply(state, seat, move)
    except IllegalMove as refusal:
        assert refusal.message
        return
    check_invariants(after)
