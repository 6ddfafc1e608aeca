"""Magicians of Fillory: what the shared tests need to know (tests/game_traits.py)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Mapping

from game_traits import GameTraits, Moves, SecretModel, strings_in

from cardgen.catalog import content
from companion.rules import GAMES


def rearrange_hidden(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """Swap a card in another seat's hand with a card of the deck (or of another hidden hand)."""
    hidden_hands = [f"hand:{s}" for s in range(len(state.players)) if s != viewer]
    in_hands = [i for i, loc in enumerate(state.locations) if loc in hidden_hands]
    others = [i for i, loc in enumerate(state.locations)
              if loc == "deck" or (loc in hidden_hands)]
    if not in_hands:
        return None
    first = rng.choice(in_hands)
    choices = [i for i in others if state.locations[i] != state.locations[first]]
    if not choices:
        return None
    second = rng.choice(choices)
    places = list(state.locations)
    places[first], places[second] = places[second], places[first]
    return replace(state, locations=tuple(places))


def form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the seat's form writes it: no discard list when nothing is discarded."""
    out = dict(move)
    if out["type"] == "end_turn" and not out.get("discard"):
        out.pop("discard", None)
    return out



# -- secrets (tests/test_reliability_secrets.py) --

def _fillory_places(history: list[Any]) -> dict[str, set[str]]:
    from companion.rules.fillory.state import CARDS

    places: dict[str, set[str]] = {card.id: set() for card in CARDS}
    for state in history:
        for card, place in zip(CARDS, state.locations, strict=True):
            places[card.id].add(place)
    return places


def _fillory_named(moves: Moves, viewer: int | None) -> set[str]:
    """Card ids named in any move as ``viewer`` sees it."""
    catalog, rules = content("fillory"), GAMES["fillory"]
    named = set()
    for actor, move in moves:
        for text in strings_in(rules.redact_move(move, actor, viewer)):
            card = catalog.find_card(text)
            if card is not None:
                named.add(card.id)
    return named


def _fillory_hidden_from(history: list[Any], moves: Moves, seat: int, viewers: list[int | None]) -> list[str]:
    """Cards in ``seat``'s hand that were never anywhere else but the deck and never named to ``viewers``."""
    places = _fillory_places(history)
    named = set().union(*(_fillory_named(moves, viewer) for viewer in viewers))
    return sorted(card for card in history[-1].cards_at(f"hand:{seat}")
                  if places[card] <= {"deck", f"hand:{seat}"} and card not in named)


def fillory_secrets(history: list[Any], moves: Moves, viewer: int | None) -> set[str]:
    catalog = content("fillory")
    found: set[str] = set()
    for seat in range(len(history[-1].players)):
        if seat != viewer:
            for card in _fillory_hidden_from(history, moves, seat, [viewer]):
                found |= {card, catalog.card(card).name}
    return found


def fillory_twin_swap(history: list[Any], moves: Moves, seat: int) -> dict[str, str] | None:
    """One card of ``seat``'s hand nobody else ever saw, exchanged with one that never left the deck."""
    others: list[int | None] = [None, *(s for s in range(len(history[-1].players)) if s != seat)]
    hidden = _fillory_hidden_from(history, moves, seat, others)
    mentioned = set().union(*(strings_in(move) for _, move in moves)) if moves else set()
    untouched = sorted(card for card, places in _fillory_places(history).items()
                       if places == {"deck"} and card not in mentioned)
    if not hidden or not untouched:
        return None
    return {hidden[0]: untouched[0], untouched[0]: hidden[0]}


def fillory_names(secrets: set[str]) -> set[str]:
    catalog = content("fillory")
    return {card.name for card in map(catalog.find_card, secrets) if card is not None}


#: another seat's draw shows no card in a viewer's log
TRAITS = GameTraits(label_sentences={"summon": "Beschwöre", "banish": "Verbanne", "or_list": " oder ",
                                     "either_ability": "– oder –"},
                    secret_model=SecretModel(fillory_secrets, fillory_twin_swap, fillory_names,
                                             hidden_fields={"draw": "card"}),
                    form_move=form_move, rearrange_hidden=rearrange_hidden, min_moves_per_game=100)
