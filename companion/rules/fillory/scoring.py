"""Magicians of Fillory: what the traits in a control zone score (the rules' score and the calculator's)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Container, Iterable, Mapping

from .state import GAME, FilloryState, card_id, trait_counts, trait_of

#: The traits that can be scored, in the data's order (the order ties keep in trait_points).
SCORABLE: tuple[str, ...] = tuple(trait.name for trait in GAME.traits if trait.scorable)


def trait_points(zone_card_ids: Iterable[str], scored_traits: Iterable[str] = ()) -> list[dict[str, Any]]:
    """What each scorable, not yet scored trait would score for these control-zone cards, best first.

    Cards may be given by id or name, traits by name in any case; an unknown one raises IllegalMove.
    """
    cards = {card_id(ref, "zone") for ref in zone_card_ids}
    done = {trait_of(ref, "scored").name for ref in scored_traits}
    return _points(Counter(trait for c in cards for trait in GAME.card(c).traits), done)


def _points(counts: Mapping[str, int], done: Container[str]) -> list[dict[str, Any]]:
    """trait_points from the number of zone cards per trait and the traits already scored."""
    found: list[dict[str, Any]] = [{"trait": trait, "cards": count, "points": count * count}
                                   for trait in SCORABLE if trait not in done and (count := counts.get(trait, 0))]
    found.sort(key=lambda entry: -entry["points"])
    return found


def seat_trait_points(state: FilloryState, seat: int) -> list[dict[str, Any]]:
    """trait_points for the seat's control zone, counted straight from the state (one pass over the cards)."""
    done = {trait_of(trait, "scored").name for trait in state.scored(seat)}
    return _points(trait_counts(state.locations, f"zone:{seat}"), done)
