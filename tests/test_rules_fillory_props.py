"""Magicians of Fillory rules under hypothesis: hundreds of random short games keep every invariant."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import IllegalMove
from companion.rules.fillory import game as fillory
from companion.rules.fillory.scoring import seat_trait_points
from companion.rules.fillory.state import (
    CARDS,
    GAME,
    Board,
    FilloryState,
    card_id,
    lookup_card,
    trait_of,
)

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: FilloryState, before: FilloryState | None, move: dict[str, Any] | None,
                     seat: int | None) -> None:
    players = len(state.players)
    places = Counter(state.locations)
    valid = {"deck", "discard", "neutral"} | {f"{k}:{s}" for k in ("hand", "zone") for s in range(players)}
    assert set(places) <= valid and sum(places.values()) == len(CARDS) == 110
    table = fillory.view(state, None)
    assert (sum(p["hand_count"] + len(p["zone"]) for p in table["players"]) + len(table["neutral"])
            + len(table["discard"]) + table["deck_count"]) == 110
    for s in range(players):
        scores = [e for e in state.ledger[s] if e.kind == "score"]
        assert len({e.trait for e in scores}) == len(scores), "a trait scored twice"
        assert all(e.points == e.cards ** 2 and e.cards >= 1 and e.trait != "Character" for e in scores)
        assert table["players"][s]["vp"] == sum(e.points for e in state.ledger[s])
        if before is not None:
            assert state.vp(s) >= before.vp(s)
    reached = [s for s in range(players) if state.vp(s) >= GAME.victory_points]
    assert (state.phase == "over") == bool(reached) == (state.winner is not None)
    if state.phase == "over":
        assert reached == [state.winner]
    if state.phase == "deal":
        assert all(places[f"hand:{s}"] <= GAME.starting_hand for s in range(players))
    if move is not None and move["type"] == "end_turn" and seat is not None:
        assert places[f"hand:{seat}"] <= GAME.hand_limit
    if move is not None and move["type"] == "score" and before is not None and seat is not None:
        zone = before.cards_at(f"zone:{seat}")
        count = sum(1 for c in zone if GAME.card(c).has_trait(move["trait"]))
        assert state.vp(seat) - before.vp(seat) == count * count


def playout(rng: random.Random, players: int, moves: int) -> list[tuple[FilloryState, int, dict[str, Any]]]:
    """Up to ``moves`` random legal moves from a new game; each (state before, seat, move)."""
    state = fillory.setup(NAMES[:players], {"first_seat": rng.randrange(players)}, rng)
    check_invariants(state, None, None, None)
    history = []
    for _ in range(moves):
        seats = fillory.acting_seats(state)
        if not seats:
            break
        seat = rng.choice(seats)
        move = fillory.random_legal_move(state, seat, rng)
        assert move is not None
        after = fillory.apply(state, seat, move)  # a random legal move is never refused
        check_invariants(after, state, move, seat)
        history.append((state, seat, move))
        state = after
    history.append((state, -1, {}))
    return history


@SETTINGS
@given(rng=st.randoms(use_true_random=False), players=st.integers(2, 6))
def test_random_short_games_keep_every_invariant(rng: random.Random, players: int) -> None:
    history = playout(rng, players, 60)
    assert len(history) == 61


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), players=st.integers(2, 4), length=st.integers(5, 120))
def test_replaying_the_log_gives_the_same_state(rng: random.Random, players: int, length: int) -> None:
    history = playout(rng, players, length)
    replayed = history[0][0]  # the new game; apply is pure, so the log alone rebuilds the position
    for _, seat, move in history[:-1]:
        replayed = fillory.apply(replayed, seat, move)
    assert replayed == history[-1][0]


@settings(max_examples=100, deadline=None)
@given(rng=st.randoms(use_true_random=False), players=st.integers(2, 6), length=st.integers(0, 150))
def test_other_seats_may_not_move_and_misplaced_cards_are_refused(rng: random.Random, players: int,
                                                                  length: int) -> None:
    state = playout(rng, players, length)[-1][0]
    if state.phase != "play":
        return
    active = state.turn_seat
    assert active is not None
    for seat in range(players):
        if seat != active:
            with pytest.raises(IllegalMove) as caught:
                fillory.apply(state, seat, fillory.random_legal_move(state, active, rng) or {"type": "decline"})
            assert caught.value.rule == "fillory.turn.not-your-turn"
    outside = [c.id for c in CARDS if state.where(c.id) != f"hand:{active}"]
    if state.step == "action":
        with pytest.raises(IllegalMove) as caught:
            fillory.apply(state, active, {"type": "play", "card": rng.choice(outside)})
        assert caught.value.rule == "fillory.card.location"
    if state.step == "draw" and state.cards_at("deck"):
        elsewhere = [c.id for c in CARDS if state.where(c.id) != "deck"]
        with pytest.raises(IllegalMove) as caught:
            fillory.apply(state, active, {"type": "draw", "card": rng.choice(elsewhere)})
        assert caught.value.rule == "fillory.card.location"


@settings(max_examples=100, deadline=None)
@given(rng=st.randoms(use_true_random=False), players=st.integers(2, 6), length=st.integers(20, 200))
def test_each_suggested_score_gives_exactly_its_points(rng: random.Random, players: int, length: int) -> None:
    state = playout(rng, players, length)[-1][0]
    if state.phase != "play" or state.turn_seat is None:
        return
    seat = state.turn_seat
    for entry in fillory.advice(state, seat):
        if entry["type"] == "score":
            after = fillory.apply(state, seat, entry["move"])
            assert after.vp(seat) - state.vp(seat) == entry["points"] == entry["cards"] ** 2
        elif entry["type"] == "end_turn" and entry.get("discard_at_least"):
            # over the hand limit: the suggestion names how many to discard, the player picks which
            with pytest.raises(IllegalMove) as refused:
                fillory.apply(state, seat, entry["move"])
            assert refused.value.rule == "fillory.end.hand-limit"
        elif entry["type"] in ("play", "end_turn", "decline") or (entry["type"] == "trick" and entry["move"].get(
                "trait") in ("Time", "Fillory", "Knowledge")):
            fillory.apply(state, seat, entry["move"])  # complete suggestions are legal as they stand


def test_long_two_player_games_finish_or_reach_the_dead_end() -> None:
    """Long random games: a winner or the dead end where no card can move (see fillory.stalled)."""
    finished = stalled = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = fillory.setup(NAMES[:2], {}, rng)
        for _ in range(3000):
            seats = fillory.acting_seats(state)
            if not seats or fillory.stalled(state):
                break
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            state = fillory.apply(state, seat, fillory.random_legal_move(state, seat, rng) or {})
        finished += state.phase == "over"
        stalled += fillory.stalled(state)
    assert finished + stalled == 40
    assert finished >= 35


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), players=st.integers(2, 6), length=st.integers(0, 250))
def test_the_fast_counts_agree_with_the_card_by_card_ones(rng: random.Random, players: int, length: int) -> None:
    """The playout's shortcuts (trait points and trait counts read straight off the locations) give what
    the public, card-by-card functions give."""
    for state, _, _ in playout(rng, players, length)[::10]:
        board = Board(state)
        for seat in range(players):
            zone = state.cards_at(f"zone:{seat}")
            assert seat_trait_points(state, seat) == fillory.trait_points(zone, state.scored(seat))
            for trait in GAME.traits:
                assert board.count_with(f"zone:{seat}", trait.name) == sum(
                    1 for c in zone if GAME.card(c).has_trait(trait.name))
            assert state.count_at(f"hand:{seat}") == len(state.cards_at(f"hand:{seat}"))


def test_known_card_and_trait_references_resolve_as_the_lookup_does() -> None:
    for card in CARDS:
        for ref in (card.id, card.name, card.name.upper(), f" {card.id} "):
            assert card_id(ref, "card") == lookup_card(ref) == card.id
    for trait in GAME.traits:
        for ref in (trait.name, trait.name.lower(), f" {trait.name} "):
            assert trait_of(ref) is GAME.find_trait(ref) is trait
