"""Magicians of Fillory: the card trick phase — discard a hand card and use one of its traits' tricks.

The effect kinds come from the data (``traits.toml``: ``trick.kind``, ``count``, ``trait``, ``zones``).
The trick card goes to the discard pile first, then the effect happens; so a reshuffle caused by the
effect, or a pick from the discard pile, already includes it. A trick whose effect finds nothing to act
on (no card in reach, an empty hand or deck) may still be made: the card is discarded and nothing else
happens, as at the table (the rulebook sets no condition on the trick beyond the discard). So may a trick
for a trait that has none (the rulebook: "many Traits do not produce an effect"): the card is discarded,
and that is all.
Refusals name the trick's own rule (e.g. ``fillory.trick.plot``), or ``fillory.trick.discard`` for the
card and trait themselves.
"""

from __future__ import annotations

from typing import Any, Mapping

from cardgen.catalog.fillory import Trait, TrickEffect

from ..base import IllegalMove, field
from ..fields import a_quoted
from .state import (
    GAME,
    Board,
    LedgerEntry,
    card_id,
    name,
    not_at,
    rule_for_last_card,
    rule_for_trick,
    trait_of,
)

TRICK_DISCARD = "fillory.trick.discard"


def apply_trick(board: Board, seat: int, move: Mapping[str, Any]) -> str | None:
    """Discard the trick card, apply the chosen trait's effect; returns the effect kind (None: the trait has
    no trick, so the discard is all that happens)."""
    card = card_id(field(move, "card"), "card")
    trait = trait_of(field(move, "trait"))
    if board.where(card) != f"hand:{seat}":
        raise not_at(card, "your hand", board, seat, "fillory.card.location")
    if not GAME.card(card).has_trait(trait.name):
        raise IllegalMove(f"{name(card)} does not have the trait {trait.name}; its traits are "
                          f"{', '.join(GAME.card(card).traits)}.", TRICK_DISCARD)
    board.move(card, "discard")
    if trait.trick is None:
        return None
    EFFECTS[trait.trick.kind](board, seat, move, trait, trait.trick)
    return trait.trick.kind


# --- shared checks -------------------------------------------------------------------------------

def _rule(trait: Trait) -> str:
    return rule_for_trick(trait.name)


def _opponent(board: Board, seat: int, move: Mapping[str, Any], trait: Trait) -> int:
    target: int = field(move, "target_seat", int)
    if not 0 <= target < len(board.players):
        raise IllegalMove(f"there is no seat {target} in this game", None)
    if target == seat:
        raise IllegalMove(f"The {trait.name} trick targets an opponent, not yourself.", _rule(trait))
    return target


def _reaches(place: str, effect: TrickEffect) -> bool:
    return (("neutral" in effect.zones and place == "neutral")
            or ("control" in effect.zones and place.startswith("zone:"))
            or ("discard" in effect.zones and place == "discard"))


def _places_in_reach(board: Board, effect: TrickEffect) -> set[str]:
    """The places that hold a card the trick could pick (the effect's trait, in the effect's zones)."""
    return {board.where(card.id) for card in GAME.cards
            if (not effect.trait or card.has_trait(effect.trait)) and _reaches(board.where(card.id), effect)}


def _in_zones(board: Board, seat: int, card: str, trait: Trait, effect: TrickEffect) -> None:
    """``card`` has the effect's trait and lies in one of the effect's zones."""
    rule = _rule(trait)
    if effect.trait and not GAME.card(card).has_trait(effect.trait):
        raise IllegalMove(f"The {trait.name} trick needs a {effect.trait}; {name(card)} is not one.", rule)
    if not _reaches(board.where(card), effect):
        wanted = {"neutral": "the neutral zone", "control": "a control zone", "discard": "the discard pile"}
        raise not_at(card, " or ".join(wanted[z] for z in effect.zones), board, seat, rule)


def _draw(board: Board, seat: int, cards: list[str], rule: str) -> None:
    """Check that ``cards`` can be drawn now (the discard is reshuffled if the deck runs out)."""
    from_deck = [c for c in cards if board.where(c) == "deck"]
    later = [c for c in cards if board.where(c) != "deck"]
    if later:
        if len(from_deck) < board.count_at("deck"):
            raise not_at(later[0], "the deck", board, seat, rule)
        for card in later:
            if board.where(card) != "discard":
                raise not_at(card, "the deck (nor in the discard pile that is reshuffled when it runs out)",
                             board, seat, rule)


def _drawable(board: Board) -> int:
    return board.count_at("deck") + board.count_at("discard")


def _take_drawn(board: Board, cards: list[str], places: list[str]) -> None:
    """Move cards already checked by :func:`_draw`: deck cards first, then reshuffle for the rest."""
    order = sorted(range(len(cards)), key=lambda i: board.where(cards[i]) != "deck")
    for i in order:
        if board.where(cards[i]) != "deck":
            board.reshuffle()
        board.move(cards[i], places[i])


def _optional_card(move: Mapping[str, Any], key: str, possible: bool, rule: str, what: str,
                   impossible: str) -> str | None:
    """A card field the effect needs while ``possible``; when it is not, the field must be left out."""
    if move.get(key) is None:
        if possible:
            raise IllegalMove(f"the trick move needs {a_quoted(key)} field ({what})", None)
        return None
    if not possible:
        raise IllegalMove(f"Field '{key}' cannot be used: {impossible}.", rule)
    return card_id(move[key], key)


NOTHING_TO_DRAW = "the deck and the discard pile are both empty"


# --- effects -------------------------------------------------------------------------------------

def peek(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    """Knowledge: the player looks at the deck; nothing moves."""


def peek_hand(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    _opponent(board, seat, move, trait)


def to_neutral(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    if move.get("target") is None and not _places_in_reach(board, effect):
        return  # nothing the trick could move: the card is discarded and the effect finds nothing
    target = card_id(field(move, "target"), "target")
    _in_zones(board, seat, target, trait, effect)
    board.move(target, "neutral")


def swap(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    if move.get("targets") is None and len(_places_in_reach(board, effect)) < 2:
        return  # no two Characters in different places: nothing to swap, the effect finds nothing
    refs = field(move, "targets", list)
    if len(refs) != 2:
        raise IllegalMove("field 'targets' must list exactly two cards", None)
    first, second = (card_id(ref, "targets") for ref in refs)
    if first == second:
        raise IllegalMove(f"The {trait.name} trick swaps two different cards.", _rule(trait))
    for card in (first, second):
        _in_zones(board, seat, card, trait, effect)
    place_a, place_b = board.where(first), board.where(second)
    if place_a == place_b:
        raise IllegalMove(f"{name(first)} and {name(second)} are in the same place; swapping them would "
                          "change nothing.", _rule(trait))
    board.move(first, place_b)
    board.move(second, place_a)


def search_deck(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    rule = _rule(trait)
    take = _optional_card(move, "take", _drawable(board) > 0, rule, "the card you took from the deck",
                         NOTHING_TO_DRAW)
    if take is not None:
        _draw(board, seat, [take], rule)
        _take_drawn(board, [take], [f"hand:{seat}"])


def revive(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    if move.get("target") is None and not _places_in_reach(board, effect):
        return  # no Character in the discard pile: the card is discarded and the effect finds nothing
    target = card_id(field(move, "target"), "target")
    _in_zones(board, seat, target, trait, effect)
    board.move(target, f"zone:{seat}")


def extra_action(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    """Time: the caller sends the turn back to the action step."""


def draw_and_place(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    rule = _rule(trait)
    drawn = _optional_card(move, "draw", _drawable(board) > 0, rule, "the card you drew", NOTHING_TO_DRAW)
    if drawn is not None:
        _draw(board, seat, [drawn], rule)
        _take_drawn(board, [drawn], [f"hand:{seat}"])
    place = _optional_card(move, "place", board.count_at(f"hand:{seat}") > 0, rule,
                           "the hand card you put into your control zone", "your hand is empty")
    if place is not None:
        if board.where(place) != f"hand:{seat}":
            raise not_at(place, "your hand", board, seat, rule)
        board.move(place, f"zone:{seat}")


def gain_vp(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    board.award(seat, LedgerEntry("trick", trait.name, 0, effect.count))


def _from_hand(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, destination: str) -> None:
    """A card leaves the victim's hand at random. Only the victim knows which, so the trick waits for the
    victim's phone to say (``board.loss``; move ``lose_card``). A ``take`` the thief names is passed over: the
    thief does not choose, and a named card taken when held (as games begun before format 2 still read it,
    ``legacy_take``) told every phone whether the victim held it, one card a try."""
    victim = _opponent(board, seat, move, trait)
    if not board.state.legacy_take:
        if board.count_at(f"hand:{victim}") > 0:
            board.loss = (victim, trait.name)
        return
    if board.count_at(f"hand:{victim}") == 0:
        if move.get("take") is not None:
            raise IllegalMove(f"{board.players[victim]}'s hand is empty: no card is taken.", _rule(trait))
        return
    take = move.get("take")
    taken = card_id(take, "take") if take is not None else None
    if taken is not None and board.where(taken) == f"hand:{victim}":
        board.move(taken, destination)
        return
    board.loss = (victim, trait.name)


def steal_random(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    _from_hand(board, seat, move, trait, f"hand:{seat}")


def force_discard(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    _from_hand(board, seat, move, trait, "discard")


def draw_split(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    rule = _rule(trait)
    available = _drawable(board)
    if available < 2:  # (never 0: the trick card itself lies in the discard pile by now)
        _draw_the_last_card(board, seat, move, trait, rule)
        return
    to_hand = _optional_card(move, "to_hand", True, rule, "the drawn card you keep in hand", NOTHING_TO_DRAW)
    to_zone = _optional_card(move, "to_zone", True, rule, "the drawn card for your control zone", NOTHING_TO_DRAW)
    cards = [c for c in (to_hand, to_zone) if c is not None]
    places = [p for c, p in ((to_hand, f"hand:{seat}"), (to_zone, f"zone:{seat}")) if c is not None]
    if len(cards) == 2 and cards[0] == cards[1]:
        raise IllegalMove(f"The {trait.name} trick draws two different cards.", rule)
    _draw(board, seat, cards, rule)
    _take_drawn(board, cards, places)


def _draw_the_last_card(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, rule: str) -> None:
    """Two cards to draw and one left (the trick card, discarded and reshuffled): the rulebook does not say where
    it goes, so it goes where the table put it, the hand or the control zone (fillory.trick.character-last)."""
    last = rule_for_last_card(trait.name)
    given = [(key, place) for key, place in (("to_hand", f"hand:{seat}"), ("to_zone", f"zone:{seat}"))
             if move.get(key) is not None]
    if len(given) != 1:
        how = "not both" if given else "say which"
        raise IllegalMove(f"Only one card is left to draw: it goes into your hand ('to_hand') or your control zone "
                          f"('to_zone'), {how}.", last)
    key, place = given[0]
    card = card_id(move[key], key)
    _draw(board, seat, [card], rule)
    _take_drawn(board, [card], [place])


def from_discard(board: Board, seat: int, move: Mapping[str, Any], trait: Trait, effect: TrickEffect) -> None:
    take = card_id(field(move, "take"), "take")
    destination = field(move, "to")
    if destination not in ("hand", "zone"):
        raise IllegalMove("field 'to' must be 'hand' or 'zone'", None)
    if board.where(take) != "discard":
        raise not_at(take, "the discard pile", board, seat, _rule(trait))
    board.move(take, f"{destination}:{seat}")


EFFECTS = {
    "peek_deck": peek, "peek_hand": peek_hand, "to_neutral": to_neutral, "swap": swap,
    "search_deck": search_deck, "revive": revive, "extra_action": extra_action,
    "draw_and_place": draw_and_place, "gain_vp": gain_vp, "steal_random": steal_random,
    "draw_split": draw_split, "from_discard": from_discard, "force_discard": force_discard,
}
