"""Barony: Sorcery rules under hypothesis: random games keep every invariant of the tokens, and always end."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import IllegalMove
from companion.rules.barony_sorcery import game as barony
from companion.rules.barony_sorcery.state import (
    BaronyState,
    find_location,
    state_from_json,
    state_to_json,
)

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve")
#: 50 whole games checked move by move (about half of them on hypothesis's own randoms, which it can shrink);
#: test_two_hundred_seeded_games_all_end plays 200 more through the same checks
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Hypothesis's own randoms find edge cases but mostly end games early; seeded ones play whole games.
RNGS = st.one_of(st.randoms(use_true_random=False), st.integers(0, 2**32 - 1).map(random.Random))
MOVE_CAP = 200  # far above the longest possible game: 15 explorations, 30 one-token casts, the end, 5 entries


def check_invariants(state: BaronyState, before: BaronyState | None, seat: int | None,
                     move: dict[str, Any] | None) -> None:
    players = len(state.players)
    assert all(m >= 0 for m in state.magic) and state.supply >= 0
    assert sum(state.magic) + state.supply == 30
    assert all(len(seats) <= 3 and len(set(seats)) == len(seats) for seats in state.controls)
    assert all(0 <= state.controls_placed(s) <= 5 and state.tokens_left(s) >= 0 for s in range(players))
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    table = barony.view(state, None)
    assert table["supply"] + sum(p["magic"] for p in table["players"]) == 30
    totals = barony.score(state)
    assert all(row["total"] == sum(b["points"] for b in row["breakdown"]) for row in totals)
    if before is None or move is None or seat is None:
        return
    if move["type"] == "explore":
        found = find_location(move["location"])
        assert found is not None
        index = state.locations.index(found.id)
        arrival = len(before.controls[index])
        assert state.controls[index] == before.controls[index] + (seat,)
        assert state.magic[seat] - before.magic[seat] == min((3, 2, 1)[arrival], before.supply)
        assert state.control_points(seat) == before.control_points(seat) + 3
    elif move["type"] == "cast":
        paid = before.magic[seat] - state.magic[seat]
        assert paid == barony.check_cast(move["spells"]).cost >= 1 and state.supply == before.supply + paid
    else:
        assert state.magic == before.magic and state.controls == before.controls


def playout(rng: random.Random, players: int) -> list[tuple[BaronyState, int, dict[str, Any]]]:
    """A whole random game; each (state before, seat, move), then the final state with seat -1."""
    state = barony.setup(NAMES[:players], {}, rng)
    check_invariants(state, None, None, None)
    history = []
    for _ in range(MOVE_CAP):
        if barony.outcome(state).over:
            break
        candidates = [(s, m) for s in range(players) if (m := barony.random_legal_move(state, s, rng)) is not None]
        assert candidates, "a game that is not over lets someone move"
        seat, move = rng.choice(candidates)
        after = barony.apply(state, seat, move)  # a random legal move is never refused
        check_invariants(after, state, seat, move)
        history.append((state, seat, move))
        state = after
    assert barony.outcome(state).over, "the game did not end"
    history.append((state, -1, {}))
    return history


@SETTINGS
@given(rng=RNGS, players=st.integers(2, 5))
def test_random_games_keep_the_tokens_straight_and_end(rng: random.Random, players: int) -> None:
    history = playout(rng, players)
    final = history[-1][0]
    assert final.phase == "over" and all(p is not None for p in final.base_points)
    result = barony.outcome(final)
    best = max(row["total"] for row in barony.score(final))
    assert result.winners == tuple(row["seat"] for row in barony.score(final) if row["total"] == best)
    assert (result.winner is None) == (len(result.winners) > 1)


@settings(max_examples=60, deadline=None)
@given(rng=RNGS, players=st.integers(2, 5), data=st.data())
def test_any_move_at_any_point_is_applied_whole_or_refused_without_a_trace(rng: random.Random, players: int,
                                                                           data: st.DataObject) -> None:
    history = playout(rng, players)
    state, _, _ = history[data.draw(st.integers(0, len(history) - 1))]
    move = data.draw(st.one_of(
        st.fixed_dictionaries({"type": st.just("explore"), "location": st.sampled_from(
            ["fairy-ring", "Standing Stones", "tile-2", "Atlantis", ""])}),
        st.fixed_dictionaries({"type": st.just("cast"), "spells": st.lists(st.sampled_from(
            ["Velocity", "teleport", "Tornado", "Charm", "Illusion", "Portal", "Abundance", "Petrify", "Sanctuary",
             "Fly"]), max_size=4)}),
        st.fixed_dictionaries({"type": st.just("base_points"), "points": st.integers(-5, 1005)}),
        st.just({"type": "end_game"}),
    ))
    seat = data.draw(st.integers(0, players - 1))
    snapshot = state_to_json(state)
    try:
        after = barony.apply(state, seat, move)
    except IllegalMove as error:
        assert error.message and (error.rule is None or error.rule.startswith("barony-sorcery."))
        assert state_to_json(state) == snapshot
        return
    check_invariants(after, state, seat, move)


def test_two_hundred_seeded_games_all_end() -> None:
    lengths = [len(playout(random.Random(seed), 2 + seed % 4)) - 1 for seed in range(200)]
    assert min(lengths) >= 3 and max(lengths) < MOVE_CAP
    assert sum(lengths) / len(lengths) > 20  # real games: explorations and casts, not just the end
