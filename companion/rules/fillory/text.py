"""Magicians of Fillory: moves as the move log shows them — redacted per viewer, and in words."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardgen.catalog.fillory import Trait

from ..base import seat_name
from .state import GAME, TRAIT_ALIASES, lookup_card

#: Per trick effect kind, the move fields that name a card going into the actor's hand (secret).
SECRET_TRICK_FIELDS: dict[str, tuple[str, ...]] = {
    "search_deck": ("take",),
    "draw_and_place": ("draw",),
    "steal_random": ("take",),
    "draw_split": ("to_hand",),
}


def _trick_kind(move: Mapping[str, Any]) -> str | None:
    trait = _find_trait(move.get("trait"))
    return trait.trick.kind if trait is not None and trait.trick is not None else None


def redact_move(move: Mapping[str, Any], actor: int, viewer: int | None) -> dict[str, Any]:
    """The move as ``viewer`` may see it: cards that went secretly into the actor's hand become None."""
    shown = dict(move)
    if viewer is not None and viewer == actor:
        return shown
    kind = move.get("type")
    if kind in ("draw", "lose_card") and "card" in shown:  # (a stolen card goes into the thief's hand unseen)
        shown["card"] = None
    elif kind == "trick":
        effect = _trick_kind(move)
        hidden = list(SECRET_TRICK_FIELDS.get(effect or "", ()))
        if effect == "from_discard" and move.get("to") == "hand":
            hidden.append("take")
        for key in hidden:
            if key in shown:
                shown[key] = None
    return shown


def _card(ref: Any) -> str:
    if not isinstance(ref, str):
        return "a card"
    found = lookup_card(ref)
    return GAME.card(found).name if found is not None else ref


def _find_trait(ref: Any) -> Trait | None:
    if not isinstance(ref, str):
        return None
    return GAME.find_trait(ref) or GAME.find_trait(TRAIT_ALIASES.get(ref.strip().casefold(), ""))


def _trait(ref: Any) -> str:
    found = _find_trait(ref)
    return found.name if found is not None else str(ref)


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _trick_effect(move: Mapping[str, Any], names: Sequence[str]) -> str:
    trait = _find_trait(move.get("trait"))
    effect = trait.trick if trait is not None else None
    if effect is None:
        return "used a card trick"
    target = _card(move.get("target"))
    victim = seat_name(names, move.get("target_seat"))
    where = "their control zone" if move.get("to") == "zone" else "their hand"
    texts = {
        "peek_deck": f"looked at the top {effect.count} cards of the deck",
        "peek_hand": f"looked at {victim}'s hand",
        "to_neutral": (f"moved {target} to the neutral zone" if move.get("target")
                       else f"found no {effect.trait} to move"),
        "swap": ("swapped " + " and ".join(_card(t) for t in move["targets"][:2]) if move.get("targets")
                 else f"found no two {effect.trait}s to swap"),
        "search_deck": f"took one of the top {effect.count} cards of the deck into their hand",
        "revive": (f"brought {target} back from the discard pile into their control zone" if move.get("target")
                   else f"found no {effect.trait} in the discard pile"),
        "extra_action": "takes another action phase",
        "draw_and_place": (f"drew a card and put {_card(move.get('place'))} into their control zone"
                           if move.get("place") else "drew a card"),
        "gain_vp": f"gained {effect.count} VP",
        "steal_random": f"took a random card from {victim}'s hand",
        "draw_split": (f"drew two cards, kept one and put {_card(move.get('to_zone'))} into their control zone"
                       if move.get("to_zone") else "drew a card into their hand"),
        "from_discard": (f"took {_card(move.get('take'))} from the discard pile into {where}"
                         if move.get("to") == "zone" else "took a random card from the discard pile into their hand"),
        "force_discard": f"made {victim} discard a card at random",
    }
    return texts.get(effect.kind, "used a card trick")


def describe_move(move: Mapping[str, Any], actor: int, names: Sequence[str]) -> str:
    """One public line for the move log, e.g. 'Ann played Quentin.' (never names a secret card)."""
    who = seat_name(names, actor)
    kind = move.get("type")
    if kind == "draw":
        return f"{who} drew a card."
    if kind == "lose_card":
        return f"{who} gave up the card the trick took from their hand."
    if kind == "play":
        return f"{who} played {_card(move.get('card'))}."
    if kind == "summon":
        where = "their control zone" if move.get("to") == "zone" else "their hand"
        return f"{who} summoned {_card(move.get('card'))} into {where}."
    if kind == "banish":
        return f"{who} banished {_card(move.get('card'))} to the discard pile."
    if kind == "decline":
        return f"{who} declined the special ability."
    if kind == "trick":
        trait = _trait(move.get("trait"))
        found = _find_trait(move.get("trait"))
        if found is not None and found.trick is None:
            return f"{who} discarded {_card(move.get('card'))} for the {trait} trait, which has no trick."
        return f"{who} discarded {_card(move.get('card'))} for the {trait} trick and {_trick_effect(move, names)}."
    if kind == "score":
        return f"{who} scored the trait {_trait(move.get('trait'))}."
    if kind == "end_turn":
        discards = [_card(c) for c in (move.get("discard") or [])]
        tail = f", discarding {_listing(discards)}" if discards else ""
        return f"{who} ended their turn{tail}."
    return f"{who} made a move."
