"""Mandragora rules: every refusal (rule id + sentence), the rulebook's worked examples, exact positions."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.rules import IllegalMove, SetupError
from companion.rules.base import TeamTotal
from companion.rules.mandragora import game as mandragora
from companion.rules.mandragora.state import (
    GAME,
    RULE_IDS,
    Cast,
    MandragoraState,
    Pending,
)

PLAYERS = ("Ann", "Ben", "Cy")
apply = mandragora.apply


# --- building positions --------------------------------------------------------------------------

def start(players: tuple[str, ...] = PLAYERS, **options: Any) -> MandragoraState:
    return mandragora.setup(list(players), options, random.Random(1))


def position(players: tuple[str, ...] = PLAYERS, options: dict[str, Any] | None = None,
             **changes: Any) -> MandragoraState:
    """A fresh game with some fields replaced; the deck absorbs hand-count changes so 82 items stay 82."""
    state = start(players, **(options or {}))
    changed = replace(state, **changes)
    return replace(changed, deck_count=changed.deck_count - (items(changed) - 82))


def items(state: MandragoraState) -> int:
    return (state.deck_count + sum(state.shop_cards) + sum(state.hand_counts) + sum(map(len, state.scrolls))
            + sum(c.cards for casts in state.casts for c in casts) + len(state.banished) + len(state.removed()))


def refused(state: MandragoraState, seat: int, move: dict[str, Any]) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        apply(state, seat, move)
    assert caught.value.rule is None or caught.value.rule in RULE_IDS, caught.value.rule
    return caught.value


def refusal_rule(state: MandragoraState, seat: int, move: dict[str, Any]) -> str | None:
    return refused(state, seat, move).rule


def cast(book: str, ingredients: list[str], power: int, spell: str, **effect: Any) -> dict[str, Any]:
    return {"type": "cast", "book": book, "ingredients": ingredients, "power": power, "spell": spell, **effect}


def with_casts(state: MandragoraState, seat: int, *casts: Cast) -> MandragoraState:
    per_seat = list(state.casts)
    per_seat[seat] = per_seat[seat] + casts
    return replace(state, casts=tuple(per_seat), deck_count=state.deck_count - sum(c.cards for c in casts))


def seats(values: dict[int, Any], default: Any, n: int = 3) -> tuple[Any, ...]:
    return tuple(values.get(s, default) for s in range(n))


# --- setup ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, deck", [(2, 82 - 26 - 2 - 9), (3, 82 - 5 - 3 - 9), (4, 82 - 4 - 9)])
def test_setup_removes_cards_gives_mandrakes_and_stocks_nine_shops(players: int, deck: int) -> None:
    state = start(tuple(f"P{i}" for i in range(players)))
    assert state.deck_count == deck and state.hand_counts == (1,) * players
    assert state.shop_cards == (0,) + (1,) * 9 and state.assistant == 0 and state.circle[0] == GAME.start_shop.id
    assert items(state) == 82 and len(state.spells_left()) == 24 and state.turn_seat == 0


def test_setup_options() -> None:
    assert start(first_seat=2).turn_seat == 2
    shuffled = start(circle="random")
    assert shuffled.circle[0] == "herb-garden" and sorted(shuffled.circle) == sorted(GAME.circle_order)
    assert shuffled.circle != GAME.circle_order
    custom = ["herb-garden", *reversed(GAME.circle_order[1:])]
    assert list(start(circle=custom).circle) == custom
    assert start(("A", "B", "C", "D"), teams=True).teams


@pytest.mark.parametrize("options, message", [
    ({"teams": True}, "exactly 4 sorcerers"),
    ({"teams": "yes"}, "true or false"),
    ({"first_seat": 3}, "Option 'first_seat' must be"),
    ({"circle": ["herb-garden"]}, "each of the 10 shops"),
    ({"circle": ["apothecary", *[s for s in GAME.circle_order if s != "apothecary"]]}, "start with the start tile"),
    ({"circle": ["nowhere"] * 10}, "Circle: "),
    ({"shops": 3}, "Unknown option"),
])
def test_bad_setup_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        start(**options)


# --- turn order ----------------------------------------------------------------------------------

def test_out_of_turn_and_bad_seats_are_refused() -> None:
    state = start()
    assert refusal_rule(state, 1, {"type": "seek", "steps": 1}) == "mandragora.turn.order"
    assert refusal_rule(state, 3, {"type": "seek", "steps": 1}) == "mandragora.turn.order"
    assert refused(state, 0, {"type": "fly"}).rule is None
    after = apply(state, 0, {"type": "seek", "steps": 1})
    assert after.turn_seat == 1 and after.turn_number == 2


# --- seeking -------------------------------------------------------------------------------------

def test_the_rulebooks_seeking_example_three_steps_restock_three_shops() -> None:
    state = position(shop_cards=(0, 1, 1, 2, 1, 1, 1, 1, 1, 1))
    after = apply(state, 0, {"type": "seek", "steps": 3, "shop": state.circle[3]})
    assert after.assistant == 3
    assert after.shop_cards == (1, 2, 2, 0, 1, 1, 1, 1, 1, 1)   # departure + the two passed; the destination emptied
    assert after.hand_counts[0] == 1 + 2 and after.deck_count == state.deck_count - 3 and items(after) == 82


def test_seek_range_and_the_destination_check() -> None:
    state = start()
    assert "1 to 3 shops" in refused(state, 0, {"type": "seek", "steps": 4}).message
    assert refusal_rule(state, 0, {"type": "seek", "steps": 0}) == "mandragora.seek.move"
    assert refusal_rule(state, 0, {"type": "seek", "steps": 2, "shop": state.circle[1]}) == "mandragora.seek.move"
    assert refused(state, 0, {"type": "seek", "steps": "2"}).rule is None
    swift = with_casts(state, 0, Cast("swiftness-1", "spellbook-red-1", ("red", "red"), 2))
    assert apply(swift, 0, {"type": "seek", "steps": 4}).assistant == 4
    assert refusal_rule(swift, 0, {"type": "seek", "steps": 5}) == "mandragora.effect.swiftness"


def test_scrolls_go_in_front_and_curse_the_most_cursed() -> None:
    state = start()
    after = apply(state, 0, {"type": "seek", "steps": 1, "scrolls": [2]})
    assert after.scrolls[0] == ("scroll-two-curses-1",) and after.hand_counts[0] == 1   # the lowest free 2-curse
    assert after.curse_holder == 0 and mandragora.view(after)["players"][0]["curses"] == 2
    again = apply(after, 1, {"type": "seek", "steps": 1, "scrolls": ["scroll-three-curses"]})
    assert again.curse_holder == 1 and again.scrolls[1] == ("scroll-three-curses",)


@pytest.mark.parametrize("scrolls, rule, words", [
    (["scroll-one-curse-1", "scroll-one-curse-2"], "mandragora.seek.scrolls", "holds 1 card"),
    (["mandrake-1"], None, "not a cursed scroll"),
    ([4], "mandragora.seek.scrolls", "no cursed scroll with 4 curses"),
    ([True], None, "must be a list of texts or whole numbers"),
])
def test_bad_scroll_reports_are_refused(scrolls: list[Any], rule: str | None, words: str) -> None:
    error = refused(start(), 0, {"type": "seek", "steps": 1, "scrolls": scrolls})
    assert error.rule == rule and words in error.message


def test_a_scroll_in_front_of_someone_cannot_be_taken_again() -> None:
    state = position(scrolls=(("scroll-three-curses",), (), ()), curse_holder=0)
    assert refusal_rule(state, 0, {"type": "seek", "steps": 1, "scrolls": ["scroll-three-curses"]}) == \
        "mandragora.seek.scrolls"
    assert refusal_rule(state, 0, {"type": "seek", "steps": 1, "scrolls": [3]}) == "mandragora.seek.scrolls"


def test_when_only_scrolls_are_left_the_cards_taken_must_be_scrolls() -> None:
    # 4 players: 11 scrolls in front of seats, 1 free scroll; the only card left anywhere is at shop 1
    fronts = (tuple(c.id for c in GAME.cards_of("cursed_scroll")[:11]), (), (), ())
    state = position(("A", "B", "C", "D"), shop_cards=(0, 1) + (0,) * 8, scrolls=fronts, curse_holder=0,
                     hand_counts=(20, 20, 20, 10))
    assert state.deck_count == 0
    assert refusal_rule(state, 0, {"type": "seek", "steps": 1}) == "mandragora.seek.scrolls"
    assert apply(state, 0, {"type": "seek", "steps": 1, "scrolls": [3]}).scrolls[0][-1] == "scroll-three-curses"


def test_restock_stops_when_the_deck_runs_out_and_the_countdown_starts_with_the_next_seat() -> None:
    one_left = last_card()
    state = replace(one_left, deck_count=2, hand_counts=one_left.hand_counts[:2] + (one_left.hand_counts[2] - 1,))
    assert state.deck_count == 2
    after = apply(state, 0, {"type": "seek", "steps": 3})
    assert after.shop_cards[:3] == (1, 2, 1) and after.deck_count == 0
    assert (after.countdown_seat, after.countdown_marker) == (1, "III")


# --- casting -------------------------------------------------------------------------------------

def test_the_rulebooks_casting_example_yellow_book_two_yellow_and_a_mandrake_at_power_3() -> None:
    state = position(hand_counts=(5, 1, 1))
    after = apply(state, 0, cast("spellbook-yellow-2", ["yellow", "yellow", "mandrake"], 3, "Swiftness"))
    spell = mandragora.view(after)["players"][0]["spells"][0]
    assert spell == {"spell": "swiftness-2", "name": "Swiftness", "value": 3, "book": "spellbook-yellow-2",
                     "book_value": 2, "ingredients": ["yellow", "yellow", "mandrake"], "kind": "permanent"}
    assert after.hand_counts[0] == 1 and after.assistant == 0 and after.shop_cards == state.shop_cards
    assert items(after) == 82 and len(after.spells_left()) == 23 and after.move_range(0) == 4
    assert mandragora.score(after)[0]["breakdown"] == [{"cause": "Swiftness 3 + Yellow Spellbook 2", "points": 5}]


CAST_REFUSALS = [
    (cast("spellbook-yellow-2", ["yellow"], 1, "Swiftness") | {"book": ["spellbook-yellow-1", "spellbook-yellow-2"]},
     "mandragora.spell.one-book"),
    (cast("spellbook-yellow-2", ["yellow", "spellbook-yellow-1"], 1, "Banishment"), "mandragora.spell.one-book"),
    (cast("ingredient-yellow-1", ["yellow"], 1, "Banishment"), "mandragora.spell.prepare"),
    (cast("spellbook-yellow-2", [], 1, "Banishment"), "mandragora.spell.power"),
    (cast("mandrake", ["yellow", "mandrake"], 1, "Banishment"), "mandragora.spell.one-mandrake"),
    (cast("spellbook-red-1", ["mandrake", "mandrake"], 1, "Banishment"), "mandragora.spell.one-mandrake"),
    (cast("spellbook-yellow-2", ["yellow", "red"], 1, "Banishment"), "mandragora.spell.same-colour"),
    (cast("spellbook-black", ["yellow", "yellow"], 1, "Banishment"), "mandragora.black.magic"),
    (cast("spellbook-black", ["black"], 1, "Banishment"), "mandragora.black.magic"),
    (cast("mandrake", ["yellow", "yellow", "red"], 1, "Banishment"), "mandragora.mandrake.as-book"),
    (cast("spellbook-yellow-2", ["yellow", "yellow"], 3, "Banishment"), "mandragora.spell.power"),
    (cast("spellbook-yellow-2", ["yellow"], 0, "Banishment"), "mandragora.spell.power"),
    (cast("spellbook-yellow-2", ["yellow", "yellow", "yellow"], 3, "Purification"), "mandragora.spell.no-such-copy"),
    (cast("spellbook-yellow-2", ["yellow", "yellow"], 2, "banishment-1"), "mandragora.spell.no-such-copy"),  # worth 1
    (cast("spellbook-yellow-2", ["yellow"] * 5, 5, "Replication"), "mandragora.spell.prepare"),  # 6 cards, 4 in hand
    (cast("spellbook-yellow-2", ["yellow"], 1, "Fireball"), None),
    (cast("spellbook-yellow-2", ["plaid"], 1, "Banishment"), None),
]


@pytest.mark.parametrize("move, rule", CAST_REFUSALS)
def test_cast_refusals_name_their_rule(move: dict[str, Any], rule: str | None) -> None:
    state = position(hand_counts=(4, 1, 1))
    assert refusal_rule(state, 0, move) == rule


def test_cards_that_are_used_or_in_the_box_cannot_be_cast() -> None:
    two = position(("Ann", "Ben"), hand_counts=(4, 1))
    error = refused(two, 0, cast("spellbook-blue-2", ["blue"], 1, "Banishment"))
    assert error.rule == "mandragora.spell.card-used" and "back in the box with 2 sorcerers" in error.message
    used = with_casts(position(hand_counts=(6, 1, 1)), 1, Cast("banishment-1", "spellbook-purple-1",
                                                               ("purple", "purple", "purple"), 1))
    again = cast("spellbook-purple-1", ["purple"], 1, "Banishment")
    assert refusal_rule(used, 0, again) == "mandragora.spell.card-used"
    error = refused(used, 0, cast("spellbook-purple-2", ["purple"], 1, "Banishment"))
    assert error.rule == "mandragora.spell.card-used" and "3 purple ingredients" in error.message
    mandrakes = tuple(Cast(f"{name}", "mandrake", ("green",), 1) for name in
                      ("banishment-1", "banishment-2", "transfer-1", "substitution-1", "levitation-1", "transfer-2",
                       "banishment-3"))
    all_cast = with_casts(position(hand_counts=(6, 1, 1)), 1, *mandrakes)
    error = refused(all_cast, 0, cast("spellbook-red-1", ["red", "mandrake"], 2, "Levitation"))
    assert error.rule == "mandragora.spell.card-used" and "7 mandrakes" in error.message


def test_an_empty_stack_is_refused() -> None:
    fives = tuple(Cast(card, f"spellbook-{colour}-1", (colour,) * 5, 5) for card, colour in
                  (("replication-3", "yellow"), ("disappearance-2", "blue"), ("purification-1", "green")))
    state = with_casts(position(hand_counts=(7, 1, 1)), 1, *fives)
    error = refused(state, 0, cast("spellbook-yellow-2", ["yellow"] * 5, 5, "Purification"))
    assert error.rule == "mandragora.spell.empty-stack" and "power 5 is empty" in error.message


def test_a_power_above_the_highest_spell_value_says_the_powers_there_are() -> None:
    """Six ingredients allow power 6, but the spell cards are worth 1 to 5: there is no stack of 6 (the refusal
    read "The stack of power 6 is empty", as if one had been used up)."""
    state = position(hand_counts=(8, 1, 1))
    six = cast("spellbook-yellow-1", ["yellow"] * 6, 6, "Replication")
    error = refused(state, 0, six)
    assert error.rule == "mandragora.spell.empty-stack"
    assert error.message == "There is no stack of power 6: the spell cards are worth 1 to 5, so the power is 1 to 5."
    assert apply(state, 0, six | {"power": 5, "spell": "Purification"}).casts[0][0].power == 5


def test_legal_colour_rules_black_and_mandrake_books() -> None:
    state = position(hand_counts=(8, 1, 1))
    black = apply(state, 0, cast("spellbook-black", ["yellow", "red", "mandrake"], 3, "swiftness"))
    assert black.casts[0][0].book_value == 3 and black.hand_counts[0] == 4
    same = apply(state, 0, cast("mandrake", ["green", "green"], 2, "banishment-4"))
    assert same.casts[0][0] == Cast("banishment-4", "mandrake", ("green", "green"), 2)   # that very copy
    different = apply(state, 0, cast("mandrake-5", ["green", "red", "ingredient-blue-3"], 2, "TRANSFER"))
    assert different.casts[0][0].ingredients == ("green", "red", "blue") and different.casts[0][0].book_value == 0
    six = cast("spellbook-black", ["yellow", "red", "green", "blue", "purple", "mandrake"], 1, "Banishment")
    assert refusal_rule(position(hand_counts=(8, 1, 1)), 0, six) == "mandragora.black.magic"


def test_banishment_removes_a_scroll_and_the_curse_can_go_to_nobody() -> None:
    state = position(hand_counts=(3, 1, 1), scrolls=(("scroll-one-curse-1",), (), ()), curse_holder=0)
    move = cast("spellbook-red-1", ["red"], 1, "Banishment")
    assert refusal_rule(state, 0, move) == "mandragora.effect.banishment"
    assert refusal_rule(state, 0, move | {"scroll": "scroll-two-curses-1"}) == "mandragora.effect.banishment"
    after = apply(state, 0, move | {"scroll": 1})
    assert after.banished == ("scroll-one-curse-1",) and after.scrolls[0] == () and after.curse_holder is None
    assert items(after) == 82
    plain = position(hand_counts=(3, 1, 1))
    assert apply(plain, 0, move).banished == ()          # no scroll: the effect is wasted
    assert refused(plain, 0, move | {"to": 1}).rule is None   # a field Banishment does not take


def test_transfer_gives_a_scroll_to_an_opponent() -> None:
    state = position(hand_counts=(3, 1, 1), scrolls=(("scroll-two-curses-1",), (), ()), curse_holder=0)
    move = cast("spellbook-red-1", ["red"], 1, "Transfer", scroll="scroll-two-curses-1")
    assert refusal_rule(state, 0, move) == "mandragora.effect.transfer"
    assert refusal_rule(state, 0, move | {"to": 0}) == "mandragora.effect.transfer"
    after = apply(state, 0, move | {"to": 2})
    assert after.scrolls == ((), (), ("scroll-two-curses-1",)) and after.curse_holder == 2
    teams = position(("A", "B", "C", "D"), {"teams": True}, hand_counts=(3, 1, 1, 1),
                     scrolls=(("scroll-two-curses-1",), (), (), ()), curse_holder=0)
    assert refusal_rule(teams, 0, move | {"to": 2}) == "mandragora.team.opponent"
    moved = apply(teams, 0, move | {"to": 3})
    assert moved.pending == (Pending("team_help", 3, partner=1),) and moved.turn_seat == 0


def test_substitution_needs_an_opponent_with_cards() -> None:
    state = position(hand_counts=(3, 0, 2))
    move = cast("spellbook-red-1", ["red"], 1, "Substitution")
    assert refusal_rule(state, 0, move) == "mandragora.effect.substitution"
    assert refusal_rule(state, 0, move | {"from": 1}) == "mandragora.effect.substitution"
    after = apply(state, 0, move | {"from": 2})
    assert after.hand_counts == (1, 0, 2)
    empty = position(hand_counts=(3, 0, 0))
    assert apply(empty, 0, move).hand_counts == (1, 0, 0)


def test_levitation_takes_one_card_from_a_shop_without_restocking() -> None:
    state = position(hand_counts=(3, 1, 1))
    move = cast("spellbook-red-1", ["red"], 1, "Levitation")
    assert refusal_rule(state, 0, move) == "mandragora.effect.levitation"
    assert refusal_rule(state, 0, move | {"shop": 0}) == "mandragora.effect.levitation"   # the start tile is empty
    after = apply(state, 0, move | {"shop": "moonlit-well"})
    assert after.shop_cards[3] == 0 and after.hand_counts[0] == 2 and after.deck_count == state.deck_count
    scroll = apply(state, 0, move | {"shop": 2, "scroll": 2})
    assert scroll.scrolls[0] == ("scroll-two-curses-1",) and scroll.hand_counts[0] == 1 and scroll.curse_holder == 0
    assert items(after) == items(scroll) == 82


def test_replication_gives_another_turn_that_may_be_declined() -> None:
    state = position(hand_counts=(5, 1, 1))
    assert refusal_rule(state, 0, {"type": "decline_extra_turn"}) == "mandragora.effect.replication"
    after = apply(state, 0, cast("spellbook-red-1", ["red", "red", "red"], 3, "Replication"))
    assert after.turn_seat == 0 and after.extra_turn and mandragora.view(after)["turn"]["extra_turn"]
    declined = apply(after, 0, {"type": "decline_extra_turn"})
    assert declined.turn_seat == 1 and not declined.extra_turn
    played = apply(after, 0, {"type": "seek", "steps": 1})
    assert played.turn_seat == 1 and not played.extra_turn


def test_casting_takes_the_used_cards_off_the_hand_note() -> None:
    state = apply(position(hand_counts=(6, 1, 1)), 0, {"type": "note_hand", "cards": [
        "spellbook-yellow-2", "Yellow", "ingredient-yellow-4", "mandrake-2", "red", "black"]})
    assert state.hand_notes[0] == ("spellbook-yellow-2", "yellow", "ingredient-yellow-4", "mandrake-2", "red",
                                   "spellbook-black")
    after = apply(state, 0, cast("spellbook-yellow-2", ["yellow", "yellow", "mandrake"], 3, "Swiftness"))
    assert after.hand_notes[0] == ("red", "spellbook-black")


@pytest.mark.parametrize("cards, rule", [
    (["yellow"] * 7, "mandragora.hand.note"),
    (["scroll-one-curse-1"], "mandragora.hand.note"),
    (["spellbook-blue-1"], "mandragora.hand.note"),        # in the box with 2 players
    (["mandrake-1", "mandrake-1"], "mandragora.hand.note"),
    (["yellow", 3], None),
    (["unicorn"], None),
])
def test_bad_hand_notes_are_refused(cards: list[Any], rule: str | None) -> None:
    state = position(("Ann", "Ben"), hand_counts=(6, 1))
    assert refusal_rule(state, 0, {"type": "note_hand", "cards": cards}) == rule


def test_a_note_is_private_and_allowed_out_of_turn() -> None:
    state = apply(position(hand_counts=(1, 2, 1)), 1, {"type": "note_hand", "cards": ["mandrake", "green"]})
    assert state.turn_seat == 0 and state.hand_notes[1] == ("mandrake", "green")
    assert mandragora.view(state, 1)["players"][1]["hand_note"] == ["mandrake", "green"]
    for viewer in (None, 0, 2):
        assert all(p["hand_note"] is None for p in mandragora.view(state, viewer)["players"])
    move = {"type": "note_hand", "cards": ["mandrake", "green"]}
    assert mandragora.redact_move(move, 1, 0) == {"type": "note_hand"} and mandragora.redact_move(move, 1, 1) == move


# --- the curse and the team option ---------------------------------------------------------------

def test_a_curse_tie_passes_the_marker_automatically_or_by_the_holders_choice() -> None:
    state = position(scrolls=(("scroll-two-curses-1",), ("scroll-two-curses-2",), ()), curse_holder=1)
    three = apply(state, 0, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert three.curse_holder == 0                                   # 3 curses, alone at the top
    state = position(scrolls=(("scroll-two-curses-1",), ("scroll-two-curses-2",), ()), curse_holder=1, turn_seat=2)
    pending = apply(state, 2, {"type": "seek", "steps": 1, "scrolls": [2]})
    assert pending.pending == (Pending("curse_marker", 1, (0, 2)),) and pending.turn_seat == 2
    assert mandragora.view(pending)["pending"] == {"kind": "curse_marker", "chooser": 1, "candidates": [0, 2],
                                                   "title": "Ben gives the Curse marker to Ann or Cy"}
    assert refusal_rule(pending, 0, {"type": "seek", "steps": 1}) == "mandragora.curse.tie"
    assert refusal_rule(pending, 2, {"type": "pass_curse_marker", "to": 0}) == "mandragora.curse.tie"
    assert refusal_rule(pending, 1, {"type": "pass_curse_marker", "to": 1}) == "mandragora.curse.tie"
    passed = apply(pending, 1, {"type": "pass_curse_marker", "to": 2})
    assert passed.curse_holder == 2 and passed.pending == () and passed.turn_seat == 0
    assert refusal_rule(passed, 0, {"type": "pass_curse_marker", "to": 1}) == "mandragora.curse.tie"


def test_one_tied_seat_besides_the_holder_takes_the_marker_at_once() -> None:
    state = position(scrolls=(("scroll-two-curses-1",), (), ()), curse_holder=0, turn_seat=1)
    after = apply(state, 1, {"type": "seek", "steps": 1, "scrolls": [2]})
    assert after.curse_holder == 1 and after.pending == ()


def test_every_change_checks_the_tie_even_one_that_does_not_touch_it() -> None:
    """Rulebook: "Each time a sorcerer gains or loses cursed scrolls ... check" and on a tie "the sorcerer with the
    marker gives it to one of the other sorcerers who is tied": Ann and Ben tied on 2 with Ben holding; Cy's
    1 curse is such a change, so Ben gives the marker to Ann, the only other tied sorcerer."""
    state = position(scrolls=(("scroll-two-curses-1",), ("scroll-two-curses-2",), ()), curse_holder=1, turn_seat=2)
    after = apply(state, 2, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert after.curse_holder == 0 and after.pending == ()
    banished = apply(replace(position(hand_counts=(1, 3, 1), scrolls=(("scroll-two-curses-1",), (
        "scroll-two-curses-2", "scroll-one-curse-1"), ("scroll-two-curses-3",)), curse_holder=1), turn_seat=1), 1,
        cast("spellbook-red-1", ["red"], 1, "Banishment", scroll=1))
    assert banished.pending == (Pending("curse_marker", 1, (0, 2)),)   # Ben joined the tie: Ben passes it on


def test_team_help_after_receiving_scrolls() -> None:
    state = position(("A", "B", "C", "D"), {"teams": True}, hand_counts=(0, 1, 2, 1), shop_cards=(0, 1) + (1,) * 8)
    got = apply(state, 0, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert got.pending == (Pending("team_help", 0, partner=2),) and got.turn_seat == 0
    assert mandragora.view(got)["pending"] == {"kind": "team_help", "seat": 0, "partner": 2,
                                               "title": "A chooses how to help C"}
    assert refusal_rule(got, 0, {"type": "team_help", "kind": "give"}) == "mandragora.team.exchange"
    assert refusal_rule(got, 1, {"type": "seek", "steps": 1}) == "mandragora.team.exchange"
    assert refused(got, 0, {"type": "team_help", "kind": "steal"}).rule is None
    received = apply(got, 0, {"type": "team_help", "kind": "receive"})
    assert received.hand_counts == (1, 1, 1, 1) and received.turn_seat == 1
    assert refusal_rule(received, 1, {"type": "team_help", "kind": "none"}) == "mandragora.team.exchange"


# --- the end -------------------------------------------------------------------------------------

#: Every scroll of a 3-player game in front of Cy, so the last cards in the deck need not be scrolls.
ALL_SCROLLS = tuple(c.id for c in GAME.cards_of("cursed_scroll") if c.id != "scroll-one-curse-7")


def last_card(**changes: Any) -> MandragoraState:
    """Ann's turn with one card left in the deck (the rest in Cy's hand, every scroll in front of Cy)."""
    return position(hand_counts=(1, 1, 1 + start().deck_count - 1 - len(ALL_SCROLLS)),
                    scrolls=((), (), ALL_SCROLLS), curse_holder=2, **changes)


def countdown_state() -> MandragoraState:
    return apply(last_card(), 0, {"type": "seek", "steps": 2})


def test_the_countdown_runs_three_rounds_from_the_next_seat() -> None:
    state = last_card()
    assert refusal_rule(state, 0, {"type": "drop_out"}) == "mandragora.end.drop-out"
    state = apply(state, 0, {"type": "seek", "steps": 2})
    markers = [state.countdown_marker]
    turns = 0
    while state.phase == "play":
        state = apply(state, state.turn_seat, {"type": "seek", "steps": 1})  # type: ignore[arg-type]
        markers.append(state.countdown_marker)
        turns += 1
    assert turns == 9 and state.phase == "reckoning" and state.turn_seat is None
    assert markers == ["III", "III", "III", "II", "II", "II", "final", "final", "final", "final"]


def test_dropping_out_skips_the_seat_and_everyone_out_ends_the_game() -> None:
    state = countdown_state()
    assert state.turn_seat == 1
    state = apply(state, 1, {"type": "drop_out"})
    state = apply(state, 2, {"type": "seek", "steps": 1})
    state = apply(state, 0, {"type": "seek", "steps": 1})
    assert state.turn_seat == 2 and state.countdown_marker == "II"   # passing the dropped countdown seat counts
    state = apply(state, 2, {"type": "drop_out"})
    assert refusal_rule(state, 1, {"type": "seek", "steps": 1}) == "mandragora.turn.order"
    state = apply(state, 0, {"type": "drop_out"})
    assert state.phase == "reckoning" and all(state.dropped)


def test_reveal_hand_and_the_reckoning() -> None:
    state = countdown_state()
    assert refusal_rule(state, 1, {"type": "reveal_hand", "colours": []}) == "mandragora.end.reveal"
    for seat in (1, 2, 0):
        state = apply(state, seat, {"type": "drop_out"})
    assert state.phase == "reckoning"
    assert refusal_rule(state, 0, {"type": "seek", "steps": 1}) == "mandragora.end.game-over"
    held = state.hand_counts
    assert held[:2] == (2, 1)
    assert refusal_rule(state, 0, {"type": "reveal_hand", "colours": []}) == "mandragora.end.reveal"
    three = {"type": "reveal_hand", "colours": ["white", "red", "green"]}
    assert refusal_rule(state, 0, three) == "mandragora.end.reveal"
    assert refusal_rule(state, 2, {"type": "reveal_hand", "colours": ["red", "red"]}) == "mandragora.end.reveal"
    assert refused(state, 2, {"type": "reveal_hand", "colours": ["plaid"]}).rule is None
    state = apply(state, 2, {"type": "reveal_hand", "colours": ["red", "Black", "mandrake"]})
    assert state.reveals[2] == ("red", "black", "white")
    assert refusal_rule(state, 2, {"type": "reveal_hand", "colours": ["red"]}) == "mandragora.end.reveal"
    assert mandragora.view(state, 2)["players"][2]["hand_colours"] == ["red", "black", "white"]
    seen_by_ann = mandragora.view(state, 0)["players"][2]
    assert seen_by_ann["hand_colours"] is None and seen_by_ann["revealed"]
    state = apply(state, 0, {"type": "reveal_hand", "colours": ["white"]})
    state = apply(state, 1, {"type": "reveal_hand", "colours": ["yellow"]})
    assert state.phase == "over" and mandragora.outcome(state).over
    assert mandragora.view(state, None)["players"][2]["hand_colours"] == ["red", "black", "white"]
    assert [row["total"] for row in mandragora.score(state)] == [-1, -1, -5]
    result = mandragora.outcome(state)
    assert result.winners == (0, 1) and result.winner is None
    # equal points and spells: the rulebook's tie-break stops there, so the shared win is the project's reading,
    # and says so (it read as if the rulebook had said it)
    assert result.rule == "mandragora.score.shared"
    assert result.reason == ("Ann and Ben share the win: -1 points and 0 spells each (our reading: the rulebook's "
                             "tie-break stops at the spells)")
    assert refusal_rule(state, 0, {"type": "note_hand", "cards": []}) == "mandragora.end.game-over"


def test_a_colour_whose_cards_are_all_cast_cannot_be_revealed() -> None:
    reckoning = replace(position(("Ann", "Ben"), hand_counts=(3, 1)), phase="reckoning", turn_seat=None)
    assert refusal_rule(reckoning, 0, {"type": "reveal_hand", "colours": ["blue"]}) == "mandragora.end.reveal"
    black = with_casts(reckoning, 1, Cast("banishment-1", "spellbook-black", ("red",), 1))
    # every black card is cast: the last hand to be revealed is refused, and the hands are counted then...
    last = replace(black, reveals=(None, ("red",)))
    assert refusal_rule(last, 0, {"type": "reveal_hand", "colours": ["black"]}) == "mandragora.end.reveal"
    # ... not an earlier one: a correction of a cast, replayed over this still hidden reveal, would fail or
    # not by what the hand showed (the form offers only the colours that can still be in a hand)
    early = apply(black, 0, {"type": "reveal_hand", "colours": ["black"]})
    assert early.reveals[0] == ("black",) and early.phase == "reckoning"
    # the last hand shown: taken, and every hand is public then; the game waits for the wrong one to be mended
    shown = apply(early, 1, {"type": "reveal_hand", "colours": ["red"]})
    assert shown.phase == "reckoning" and mandragora.outcome(shown).rule == "mandragora.end.colour-count"


def test_the_rulebooks_final_scoring_example_is_13() -> None:
    """Pairs read spellbook + spell: 2+3, 0+2, 3+1, 0+4 (the Disappearance), 1+1; Curse marker; 3 colours."""
    casts = (Cast("transfer-4", "spellbook-red-2", ("red",) * 3, 3),
             Cast("banishment-3", "spellbook-green-0", ("green",) * 2, 2),
             Cast("banishment-1", "spellbook-yellow-3", ("yellow",), 1),
             Cast("disappearance-1", "spellbook-purple-0", ("purple", "purple", "purple", "mandrake"), 4),
             Cast("transfer-1", "spellbook-blue-1", ("blue",), 1))
    state = with_casts(position(("Ann", "Ben", "Cy", "Di"), hand_counts=(20, 1, 1, 1), curse_holder=0,
                                scrolls=(("scroll-one-curse-1",), (), (), ())), 0, *casts)
    state = replace(state, phase="reckoning", turn_seat=None, reveals=(None, ("white",), ("white",), ("white",)))
    assert items(state) == 82
    state = apply(state, 0, {"type": "reveal_hand", "colours": ["yellow", "red", "white"]})
    row = mandragora.score(state)[0]
    assert row["total"] == 13 and GAME.scoring_example.printed_total == 12
    assert [b["points"] for b in row["breakdown"]] == [5, 2, 4, 4, 2, -2, -2]
    assert row["breakdown"][3] == {"cause": "Disappearance 4 + Purple Spellbook 0", "points": 4}
    assert row["breakdown"][-1] == {"cause": "3 colours left in hand: yellow, red, white (after Disappearance: 2; "
                                             "one of them discarded)", "points": -2}


def test_a_team_game_is_won_by_the_team_total() -> None:
    state = with_casts(position(("A", "B", "C", "D"), {"teams": True}, hand_counts=(3, 1, 1, 1)), 1,
                       Cast("replication-1", "spellbook-red-3", ("red",) * 3, 3))
    state = replace(state, phase="over", turn_seat=None, reveals=((), (), (), ()), hand_counts=(0, 0, 0, 0),
                    deck_count=state.deck_count + 6)
    result = mandragora.outcome(state)
    assert result.winners == (1, 3) and result.winner is None and mandragora.view(state)["winners"] == [1, 3]
    assert result.teams == (TeamTotal((0, 2), 0), TeamTotal((1, 3), 6)) and result.rule is None


def test_a_shared_win_on_one_point_and_one_spell_says_them_in_the_singular() -> None:
    """The shared-win reason read "1 points and 1 spells each"."""
    state = position(("Ann", "Ben"), hand_counts=(2, 2))
    state = with_casts(state, 0, Cast("transfer-1", "spellbook-green-0", ("green",), 1))
    state = with_casts(state, 1, Cast("banishment-1", "spellbook-yellow-0", ("yellow",), 1))
    state = replace(state, phase="over", turn_seat=None, reveals=((), ()), hand_counts=(0, 0),
                    deck_count=state.deck_count + 4)
    result = mandragora.outcome(state)
    assert [row["total"] for row in mandragora.score(state)] == [1, 1] and result.winners == (0, 1)
    assert result.reason == ("Ann and Ben share the win: 1 point and 1 spell each (our reading: the rulebook's "
                             "tie-break stops at the spells)")


def test_hands_that_show_a_colour_once_too_often_say_it_in_the_singular() -> None:
    """The banner read "The hands revealed show black 1 times"."""
    black = with_casts(replace(position(("Ann", "Ben"), hand_counts=(3, 1)), phase="reckoning", turn_seat=None), 1,
                       Cast("banishment-1", "spellbook-black", ("red",), 1))
    assert mandragora.colour_conflict(black, [("black",), ("red",)]) == (
        "the hands revealed show black 1 time, but no card of it can still be in a hand: whoever revealed black "
        "wrongly corrects their reveal (on their own phone); the game ends once the hands add up")


def test_a_tie_broken_by_spells_is_the_rulebooks_and_says_nothing_more() -> None:
    state = position(("Ann", "Ben"), hand_counts=(2, 3))
    state = with_casts(state, 0, Cast("transfer-1", "spellbook-blue-1", ("blue",), 1),
                       Cast("banishment-3", "spellbook-green-0", ("green",) * 2, 2))
    state = with_casts(state, 1, Cast("banishment-1", "spellbook-yellow-3", ("yellow",), 1))
    state = replace(state, phase="over", turn_seat=None, reveals=((), ()), hand_counts=(0, 0),
                    deck_count=state.deck_count + 5)
    result = mandragora.outcome(state)
    assert [row["total"] for row in mandragora.score(state)] == [4, 4]
    assert result.winners == (0,) and result.rule == "mandragora.score.winner"  # provenance rulebook: no note
    assert result.reason == "Ann and Ben tie on 4 points; Ann cast more spells (2)"


def test_a_team_tie_broken_by_spells_says_it_is_our_reading() -> None:
    """Team totals 6-6: the project's own tie-break (more spells, mandragora.team.tie, authored: the rulebook gives
    no team tie-break) decides it. The reason read as if the rulebook had said so; it now says it is our reading."""
    state = position(("A", "B", "C", "D"), {"teams": True}, hand_counts=(3, 1, 1, 1))
    state = with_casts(state, 0, Cast("replication-1", "spellbook-red-3", ("red",) * 3, 3))
    state = with_casts(state, 1, Cast("transfer-1", "spellbook-blue-1", ("blue",), 1))
    state = with_casts(state, 3, Cast("banishment-1", "spellbook-yellow-3", ("yellow",), 1))
    state = replace(state, phase="over", turn_seat=None, reveals=((), (), (), ()), hand_counts=(0, 0, 0, 0),
                    deck_count=state.deck_count + 6)
    result = mandragora.outcome(state)
    assert [row["total"] for row in mandragora.score(state)] == [6, 2, 0, 4]
    assert result.winners == (1, 3) and result.rule == "mandragora.team.tie"
    assert result.teams == (TeamTotal((0, 2), 6), TeamTotal((1, 3), 6))
    assert result.reason == ("team A & C and team B & D tie on 6 points; team B & D cast more spells (2) "
                             "(our reading: the rulebook gives no team tie-break)")


# --- views, advice, text, JSON -------------------------------------------------------------------

def test_view_shape() -> None:
    view = mandragora.view(start(), 0)
    assert set(view) == {"game", "phase", "turn", "pending", "assistant", "move_range", "shops", "deck_count",
                         "spell_stacks", "curse_holder", "countdown", "teams", "players", "you", "over", "winner",
                         "winners", "conflict"}
    assert view["conflict"] is None
    assert view["shops"][0] == {"index": 0, "id": "herb-garden", "name": "Herb Garden", "time": "day", "start": True,
                                "cards": 0, "assistant": True}
    assert [len(s["cards"]) for s in view["spell_stacks"]] == [5, 7, 6, 3, 3]
    assert view["spell_stacks"][4]["cards"] == ["replication-3", "disappearance-2", "purification-1"]
    assert set(view["players"][0]) == {"seat", "name", "hand_count", "scrolls", "curses", "spells", "swiftness",
                                       "dropped_out", "revealed", "hand_note", "hand_colours"}
    with pytest.raises(ValueError):
        mandragora.view(start(), 5)


def test_advice_offers_the_best_legal_cast_from_the_note() -> None:
    state = position(hand_counts=(5, 1, 1))
    assert mandragora.advice(state, 0) == []
    hand = ["spellbook-yellow-2", "yellow", "yellow", "mandrake", "red"]
    noted = apply(state, 0, {"type": "note_hand", "cards": hand})
    found = mandragora.advice(noted, 0)
    best = found[0]
    assert best["points"] == 5 and best["move"]["power"] == 3 and best["move"]["book"] == "spellbook-yellow-2"
    assert sorted(best["move"]["ingredients"]) == ["mandrake", "yellow", "yellow"]
    assert apply(noted, 0, best["move"]).casts[0][0].power == 3
    assert any(entry["type"] == "seek" for entry in found)
    assert mandragora.advice(noted, 1) == []


def test_describe_and_redact() -> None:
    names = list(PLAYERS)
    assert mandragora.describe_move({"type": "seek", "steps": 2, "shop": "moonlit-well", "scrolls": [2]}, 0, names) == \
        "Ann sent the Assistant 2 shops to the Moonlit Well and took the cards there, one of them a cursed scroll " \
        "(2 curses)."
    transfer = cast("spellbook-red-1", ["red"], 1, "Transfer", scroll="scroll-one-curse-1", to=2)
    assert mandragora.describe_move(transfer, 1, names) == \
        "Ben cast Transfer (power 1) on the Red Spellbook (1) with red and gave Cy a cursed scroll (1 curse)."
    reveal = {"type": "reveal_hand", "colours": ["red"]}
    assert mandragora.redact_move(reveal, 0, 1) == {"type": "reveal_hand"}
    assert mandragora.describe_move(mandragora.redact_move(reveal, 0, None), 0, names) == \
        "Ann revealed the colours left in their hand."


def test_a_levitation_sent_as_the_phone_form_sends_it_names_the_shop_in_the_log() -> None:
    """The cast form's shop options are the shops' ids, as the seek form's are: the log line names the shop the
    phone showed. They were the places in the circle, and the line read "took a card from shop 3"."""
    state = position(hand_counts=(3, 1, 1))
    form = next(c for c in mandragora.choices(state, 0) if c.id == "m-cast")
    shop = next(f for f in form.fields if f.name == "shop")
    option = next(o for o in shop.options if o.label == "Moonlit Well")
    assert option.value == "moonlit-well" and [o.value for o in shop.options] == \
        [s for i, s in enumerate(state.circle) if state.shop_cards[i]]
    move = cast("spellbook-red-1", ["red"], 1, "Levitation", shop=option.value)
    assert apply(state, 0, move).shop_cards[state.circle.index("moonlit-well")] == 0
    assert mandragora.describe_move(move, 0, list(PLAYERS)) == \
        "Ann cast Levitation (power 1) on the Red Spellbook (1) with red and took a card from the Moonlit Well."


def test_a_levitation_sent_with_a_place_in_the_circle_is_logged_by_that_place_from_the_start_tile() -> None:
    """The API may name the shop by its place in the circle; the log line, made without the state (whose circle
    may be shuffled), counts that place from the start tile, which every circle begins with (it read "shop 3")."""
    state = position(hand_counts=(3, 1, 1))
    start = mandragora.GAME.start_shop.name
    for place, said in ((3, f"the shop 3 places clockwise from the {start}"),
                        (1, f"the shop 1 place clockwise from the {start}"), (0, f"the {start}")):
        move = cast("spellbook-red-1", ["red"], 1, "Levitation", shop=place)
        line = mandragora.describe_move(move, 0, list(PLAYERS))
        assert line.endswith(f"took a card from {said}."), line
        assert "shop 3." not in line and state.circle[0] == mandragora.GAME.start_shop.id


def test_a_cast_is_described_with_its_ingredients_as_the_rules_read_them() -> None:
    """Colours spelt with spaces or capitals, or given as card ids, are the same move as the colour ids; the
    log line names them as the rules read them, as it does the book and the spell."""
    names = list(PLAYERS)
    plain = mandragora.describe_move(cast("spellbook-yellow-1", ["yellow", "mandrake"], 1, "banishment"), 1, names)
    assert plain == "Ben cast Banishment (power 1) on the Yellow Spellbook (1) with yellow and a mandrake."
    for spelt in (["  yellow ", "MANDRAKE"], ["YELLOW", " Mandrake"], ["Yellow", "mandrake-1"]):
        assert mandragora.describe_move(cast("spellbook-yellow-1", spelt, 1, "banishment"), 1, names) == plain
    assert mandragora.describe_move(cast("spellbook-black-1", ["Purple", "ingredient-red-4"], 1, "banishment"),
                                    1, names).endswith(" with purple and red.")
    assert mandragora.describe_move(cast("spellbook-black-1", ["plaid"], 1, "banishment"), 1, names) \
        .endswith(" with plaid.")                                       # what the rules do not read stays as given


def test_json_round_trip_and_errors() -> None:
    state = position(hand_counts=(5, 1, 1), scrolls=(("scroll-one-curse-1",), (), ()), curse_holder=0,
                     pending=(Pending("curse_marker", 0, (1, 2)),), hand_notes=(("red",), None, None))
    data = json.loads(json.dumps(mandragora.state_to_json(state)))
    assert mandragora.state_from_json(data) == state
    for broken, message in ((data | {"game": "fillory"}, "not a mandragora state"),
                            (data | {"phase": "nap"}, "unknown phase"),
                            (data | {"circle": data["circle"][:-1]}, "every shop tile"),
                            ({"game": "mandragora"}, "malformed")):
        with pytest.raises(ValueError, match=message):
            mandragora.state_from_json(broken)


def test_no_more_hands_show_a_colour_than_it_has_cards_left() -> None:
    """Rulebook colour table: black spellbooks 1 — two hands cannot both hold black at the end."""
    reckoning = replace(position(hand_counts=(2, 2, 2)), phase="reckoning", turn_seat=None)
    black = apply(reckoning, 2, {"type": "reveal_hand", "colours": ["black"]})
    both = apply(black, 0, {"type": "reveal_hand", "colours": ["black"]})  # (counted when the last hand is shown)
    shown = apply(both, 1, {"type": "reveal_hand", "colours": ["red"]})
    assert not mandragora.outcome(shown).over and mandragora.outcome(shown).rule == "mandragora.end.colour-count"
    assert apply(black, 0, {"type": "reveal_hand", "colours": ["white"]}).reveals == (("white",), None, ("black",))


def test_every_rule_id_the_module_names_exists_and_is_tested_here() -> None:
    rules_dir = Path(mandragora.__file__).parent
    sources = "".join(p.read_text(encoding="utf-8") for p in rules_dir.glob("*.py"))
    named = set(re.findall(r'"(mandragora\.[a-z.-]+)"', sources))
    assert len(named) >= 25 and named <= RULE_IDS, named - RULE_IDS
    this_file = Path(__file__).read_text(encoding="utf-8")
    untested = sorted(rule for rule in named if f'"{rule}"' not in this_file)
    assert untested == [], untested
