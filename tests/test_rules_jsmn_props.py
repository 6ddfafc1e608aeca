"""Jonathan Strange & Mr Norrell properties over random games (hypothesis): turn order always a permutation
of the players, the fairy never weaker, the year never going back, every game over by the end of 1817, exact
JSON round trips at every step, ledgers never shown to another seat, and junk moves refused cleanly."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import IllegalMove
from companion.rules.jsmn import game as jsmn
from companion.rules.jsmn.state import ELEMENTS, TOKENS_PER_ELEMENT, JsmnState

MOVE_CAP = 3000
FIELDS = ("type", "feats", "marseilles", "book", "books", "named", "action", "element", "connexion", "to", "card",
          "introductions", "reveal", "feat", "cards", "spell", "discard", "elements")
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
        ["madrid", "london", "the-popess", "private-ball", "flora-greysteel", "wake-the-stone-saints", "stones",
         "kings-roads", "unique", "pupil", "davey", "picatrix", "teilos-hand", "", *jsmn.MOVE_TYPES]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=5),
    max_leaves=12)
#: Moves of a real type with any mix of fields, or any JSON at all.
junk_moves = st.fixed_dictionaries({"type": st.sampled_from(sorted(jsmn.MOVE_TYPES))},
                                   optional={key: json_values for key in FIELDS[1:]}) | json_values


def check_invariants(before: JsmnState, state: JsmnState) -> None:
    players = len(state.players)
    assert sorted(state.order()) == list(range(players))                    # a permutation of the seats
    assert len(set(s.arrival for s in state.seats)) == players               # a stack has one disc per place
    assert state.fairy >= before.fairy and state.year >= before.year
    assert state.year <= 1817 and len(state.marseilles) == (state.year - 1805 if state.marseilles else 0)
    assert all(0 <= s.prestige <= 40 and min(s.invitations, s.introductions, s.spells) >= 0 for s in state.seats)
    assert all(len(s.connexions) == len(set(s.connexions)) <= 4 for s in state.seats)
    supply = state.supply()
    assert all(0 <= supply[e] <= TOKENS_PER_ELEMENT for e in ELEMENTS)
    held = [f for s in state.seats for f, _ in s.feats] + [f for s in state.seats for f in s.completed]
    assert len(held) == len(set(held))                                       # no feat in two places
    if state.phase == "turn":
        assert state.turn is not None and state.turn.seat not in state.played
    data = json.loads(json.dumps(jsmn.state_to_json(state)))
    assert jsmn.state_from_json(data) == state
    if state.phase != "over":
        for viewer in [None, *range(players)]:
            shown = jsmn.view(state, viewer)
            assert all(p["ledger"] is None for p in shown["players"] if p["seat"] != viewer)


def play(players: int, seed: int, options: dict[str, Any], *, invariants: bool = True,
         each_year: Callable[[JsmnState], None] | None = None) -> tuple[JsmnState, int]:
    """A whole random game, checking every invariant after each move (``invariants``) and calling
    ``each_year`` with the state at the first turn of every year."""
    rng = random.Random(seed)
    state = jsmn.setup([f"P{i}" for i in range(players)], options, random.Random(seed))
    years_seen = []
    for moves in range(MOVE_CAP):
        if jsmn.outcome(state).over:
            return state, moves
        candidates = [(s, m) for s in range(players) if (m := jsmn.random_legal_move(state, s, rng)) is not None]
        assert candidates, "a game that is not over lets someone move"
        assert set(s for s, _ in candidates) <= set(jsmn.acting_seats(state)) | set(range(players))
        seat, move = rng.choice(candidates)
        after = jsmn.apply(state, seat, move)
        if invariants:
            check_invariants(state, after)
        if after.phase == "turn" and (not years_seen or years_seen[-1] != after.year):
            years_seen.append(after.year)
            assert sorted(after.order()) == list(range(players))
            if each_year is not None:
                each_year(after)
        state = after
    raise AssertionError(f"no end after {MOVE_CAP} moves")


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), difficulty=st.sampled_from([0, 4, 8]))
def test_random_games_keep_the_tracks_honest_and_end_by_1817(players: int, seed: int, difficulty: int) -> None:
    final, moves = play(players, seed, {"difficulty": difficulty})
    result = jsmn.outcome(final)
    assert result.over and final.phase == "over" and final.year <= 1817
    if final.defeated_by is None:
        assert final.year == 1817 and len(final.played) == players          # every turn of 1817 was played
        assert result.winners == () and result.winner is None   # the fairy reigns: nobody is the greatest magician
    else:
        assert final.year in (1811, 1813, 1815, 1817)
        assert jsmn.view(final)["players"][final.defeated_by]["ledger"]["magicianship"] >= final.fairy
        assert result.winner in result.winners
    assert all(p["ledger"] is not None for p in jsmn.view(final, None)["players"])   # all revealed together
    assert sorted(jsmn.score(final), key=lambda r: -r["total"])[0]["total"] == max(
        r["total"] for r in jsmn.score(final))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_turn_order_each_year_is_prestige_then_stack(seed: int) -> None:
    """Checked at the first turn of every year and at the end (the per-move invariants are the test
    above's: here they would only make each game five times dearer)."""
    years: list[int] = []

    def prestige_then_stack(state: JsmnState) -> None:
        years.append(state.year)
        keys = [(-state.seats[s].prestige, -state.seats[s].arrival) for s in state.order()]
        assert keys == sorted(keys)

    state, _ = play(3, seed, {}, invariants=False, each_year=prestige_then_stack)
    prestige_then_stack(state)
    assert len(years) >= 2 and years == sorted(years)  # a year at least, then the end


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**4), steps=st.integers(0, 120), move=junk_moves, seat=st.integers(-1, 4))
def test_junk_moves_are_refused_cleanly_or_legal(seed: int, steps: int, move: Any, seat: int) -> None:
    rng = random.Random(seed)
    state = jsmn.setup(["A", "B", "C"], {}, random.Random(seed))
    for _ in range(steps):
        if jsmn.outcome(state).over:
            break
        candidates = [(s, m) for s in range(3) if (m := jsmn.random_legal_move(state, s, rng)) is not None]
        s, m = rng.choice(candidates)
        state = jsmn.apply(state, s, m)
    try:
        after = jsmn.apply(state, seat, move)
    except IllegalMove as error:
        assert error.message and (error.rule is None or error.rule.startswith("jsmn."))
        return
    check_invariants(state, after)
