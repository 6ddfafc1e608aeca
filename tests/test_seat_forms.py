"""The seat page's move choices (companion.web.seat_forms), checked against the real rules module."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask, render_template

from cardgen.catalog import content
from companion.rules import fillory
from companion.web import seat_forms

FILLORY = content("fillory")
STANDARD_HANDS = {0: ("Physical Kids", "Time Loop", "Magic Missile"), 1: ("Golem", "Cocaine", "Mentors"),
                  2: ("Ember", "Djinn", "Hospital")}


def view_after(*moves: tuple[int, dict[str, Any]], players: tuple[str, ...] = ("Ann", "Ben", "Cat")) -> Any:
    state = fillory.setup(list(players), {}, random.Random(1))
    for seat, move in moves:
        state = fillory.apply(state, seat, move)
    return state


def dealt_moves() -> list[tuple[int, dict[str, Any]]]:
    return [(seat, {"type": "draw", "card": card}) for seat, cards in STANDARD_HANDS.items() for card in cards]


def forms_for(state: Any, seat: int) -> seat_forms.SeatForms:
    return seat_forms.build(FILLORY, fillory.view(state, seat), seat, fillory.trait_points)


def test_deal_draw_list_is_every_card_this_phone_cannot_see() -> None:
    state = view_after((1, {"type": "draw", "card": "Golem"}), (0, {"type": "draw", "card": "Ember"}))
    forms = forms_for(state, 0)
    ids = {choice.id for choice in forms.draw or ()}
    assert len(ids) == 110 - 13 - 1  # neutral cards and my own hand are known; Ben's Golem is not
    assert "golem" in ids and "ember" not in ids and "quentin" not in ids
    assert forms.headline == "Report your starting hand: draw 2 more cards."


def test_ability_targets_follow_summon_and_banish_reach() -> None:
    moves = dealt_moves() + [(0, {"type": "draw", "card": "Romance"}), (0, {"type": "play", "card": "Physical Kids"}),
                             (0, {"type": "summon", "card": "Quentin", "to": "zone"}), (0, {"type": "end_turn"}),
                             (1, {"type": "draw", "card": "Death"}), (1, {"type": "play", "card": "Death"})]
    forms = forms_for(view_after(*moves), 1)  # Death: Banish Character
    banish = {choice.id: choice.where for choice in forms.banish}
    assert banish["quentin"] == "Ann's zone" and banish["julia"] == "neutral zone"
    assert all(FILLORY.card(cid).has_trait("Character") for cid in banish)
    assert forms.summon == () and forms.can_decline
    assert forms.pending_card is not None and forms.pending_card.id == "death"

    moves = dealt_moves() + [(0, {"type": "draw", "card": "Romance"}), (0, {"type": "play", "card": "Physical Kids"})]
    forms = forms_for(view_after(*moves), 0)
    summon = [choice.id for choice in forms.summon]
    assert summon == ["quentin", "alice", "elliot", "margo"]  # visible places first, then card number


def test_score_choices_are_best_first_and_skip_scored_traits() -> None:
    moves = dealt_moves() + [(0, {"type": "draw", "card": "Romance"}), (0, {"type": "play", "card": "Physical Kids"}),
                             (0, {"type": "summon", "card": "Quentin", "to": "zone"})]
    forms = forms_for(view_after(*moves), 0)
    assert forms.score is not None
    assert [row["points"] for row in forms.score] == sorted((row["points"] for row in forms.score), reverse=True)
    assert {"trait": "Student", "cards": 2, "points": 4, "names": ["Quentin", "Physical Kids"]} in forms.score
    assert all(row["trait"] != "Character" for row in forms.score)


def test_end_turn_form_reminds_of_the_hand_limit(app: Flask) -> None:
    view = fillory.view(view_after(*dealt_moves()), 0)
    seven = ["romance", "golem", "cocaine", "mentors", "ember", "djinn", "hospital"]
    me = view["players"][0]
    me.update(hand=seven, hand_count=7)
    view["turn"].update(step="end")
    forms = seat_forms.build(FILLORY, view, 0, fillory.trait_points)
    assert forms.over_limit == 2 and forms.end_turn is not None and len(forms.end_turn) == 7
    with app.test_request_context():
        html = render_template("pages/fillory/_seat_forms.html", forms=forms, catalog=FILLORY,
                               cards={c.id: c for c in FILLORY.cards})
    assert "you hold 7 — discard at least 2" in html
    assert html.count('name="discard[]"') == 7


def card_id(ref: str) -> str:
    return FILLORY.card(ref).id


def ids(choices: Any) -> set[str]:
    return {choice.id for choice in choices or ()}


def assert_offered(forms: seat_forms.SeatForms, move: dict[str, Any]) -> None:
    """The page offers the choices this legal move needs (the rules module made the move)."""
    kind = move["type"]
    if kind == "draw":
        assert card_id(move["card"]) in ids(forms.draw)
    elif kind == "play":
        assert card_id(move["card"]) in ids(forms.play)
    elif kind in ("summon", "banish"):
        assert card_id(move["card"]) in ids(getattr(forms, kind))
    elif kind == "decline":
        assert forms.can_decline
    elif kind == "score":
        assert forms.score is not None and move["trait"] in {row["trait"] for row in forms.score}
    elif kind == "end_turn":
        assert forms.end_turn is not None and set(move["discard"]) <= ids(forms.end_turn)
    else:
        assert_trick_offered(forms, move)


def assert_trick_offered(forms: seat_forms.SeatForms, move: dict[str, Any]) -> None:
    card = card_id(move["card"])
    assert f"{card}|{move['trait']}" in {combo.value for combo in forms.trick_combos}
    group = next(g for g in forms.trick_groups if g.trait.name == move["trait"])
    offered = ids(group.candidates)
    if "target_seat" in move:
        assert move["target_seat"] in {seat for seat, _ in forms.opponents}
    for key in ("target", "targets"):
        for target in move.get(key) if key == "targets" and key in move else [move[key]] if key in move else []:
            target = card_id(target)
            assert target in offered or (target == card and seat_forms.DISCARDED_CARD in offered)
    if group.kind == "from_discard":
        take = card_id(move["take"])
        assert take in offered or (take == card and seat_forms.DISCARDED_CARD in offered)
    elif "take" in move or group.kind in ("draw_and_place", "draw_split"):
        drawable = ids(forms.drawable)
        for key in ("take", "draw", "to_hand", "to_zone"):
            if key in move:
                assert card_id(move[key]) in drawable, (key, move)
    if "place" in move:
        assert card_id(move["place"]) in ids(forms.hand) | ({card_id(move["draw"])} if move.get("draw") else set())


@pytest.mark.parametrize("seed", range(4))
def test_forms_offer_every_move_of_a_random_game(seed: int) -> None:
    """Seeded random playouts by the rules module: every legal move made was on the acting phone's page."""
    rng = random.Random(seed)
    state = fillory.setup(["Ann", "Ben", "Cat"], {"first_seat": seed % 3}, rng)
    kinds: set[str] = set()
    for _ in range(3000):
        if state.phase == "over":
            break
        seat = rng.choice(fillory.acting_seats(state))
        move = fillory.random_legal_move(state, seat, rng)
        assert move is not None
        forms = forms_for(state, seat)
        assert forms.my_turn and forms.has_forms
        for other in set(range(3)) - set(fillory.acting_seats(state)):
            assert not forms_for(state, other).has_forms
        assert_offered(forms, move)
        kinds.add(move["type"] if move["type"] != "trick" else f"trick:{move['trait']}")
        state = fillory.apply(state, seat, move)
    assert state.phase == "over"
    final = forms_for(state, 0)
    assert not final.has_forms and final.headline.startswith("The game is over: ")
    assert {"draw", "play", "summon", "score", "end_turn"} <= kinds
