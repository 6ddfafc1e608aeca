"""Mandragora: what the shared tests need to know (tests/game_traits.py)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Mapping

from game_traits import GameTraits, Moves, SecretModel, strings_in

from cardgen.catalog import content
from companion.rules import GAMES


def rearrange_hidden(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """Rewrite another seat's private hand note, and its revealed colours while not everyone has revealed."""
    others = [s for s in range(len(state.players)) if s != viewer]
    notes, reveals = list(state.hand_notes), list(state.reveals)
    seat = rng.choice(others)
    notes[seat] = tuple(reversed(notes[seat] or ())) + ("mandrake",) if rng.random() < 0.5 else None
    if not all(r is not None for r in reveals):
        hidden = [s for s in others if reveals[s] is not None]
        if hidden:
            reveals[rng.choice(hidden)] = ("white",)
    changed = replace(state, hand_notes=tuple(notes), reveals=tuple(reveals))
    return None if changed == state else changed


def form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the seat's form writes it: scrolls and levitated scrolls by their curses, the spell by
    id, a shop by its id (as the seek form's), lists in the form's order. None: a move no form writes."""
    from companion.rules.mandragora.state import (
        CARD,
        GAME,
        INGREDIENT_COLOURS,
        MANDRAKE,
        shop_index,
    )

    out = dict(move)
    kind = move["type"]
    if kind == "seek":
        out["scrolls"] = sorted(s if isinstance(s, int) else CARD[s].curses for s in move.get("scrolls", []))
        if not out["scrolls"]:
            out.pop("scrolls")
        out["shop"] = state.circle[(state.assistant + move["steps"]) % len(state.circle)]
    elif kind == "cast":
        order = [*INGREDIENT_COLOURS, MANDRAKE]
        out["ingredients"] = sorted(move["ingredients"], key=order.index)
        out["spell"] = GAME.spell(move["spell"]).id
        if out["spell"] == "levitation":
            if move.get("shop") is not None:
                out["shop"] = state.circle[shop_index(state, move["shop"], "shop")]
            if isinstance(move.get("scroll"), str):
                out["scroll"] = CARD[move["scroll"]].curses
    elif kind == "note_hand":
        return None   # a note may name ingredient cards by id; the form counts them by colour
    return out



# -- secrets (tests/test_reliability_secrets.py) --

# Mandragora: the companion never knows which card is in which hand; what a seat keeps secret is its
# private hand note and, until every hand is revealed, the colours it reveals at the end. Ingredient
# and mandrake card ids are never public (casts name colours and "mandrake"), so such an id in another
# seat's note is a string this viewer must never meet. Revealed colours are common words ("yellow"):
# the twin game and tests/test_rules_mandragora.py check those instead.

def _mandragora_never_public(card_id: str) -> bool:
    card = content("mandragora").find_card(card_id)
    return card is not None and card.id == card_id and card.kind in ("ingredient", "mandrake")


def _mandragora_note_ids(moves: Moves, seat: int) -> set[str]:
    return {token for actor, move in moves if actor == seat and move.get("type") == "note_hand"
            for token in move.get("cards", []) if isinstance(token, str) and _mandragora_never_public(token)}


def mandragora_secrets(history: list[Any], moves: Moves, viewer: int | None) -> set[str]:
    rules = GAMES["mandragora"]
    seen = set().union(*(strings_in(rules.redact_move(move, actor, viewer)) for actor, move in moves)) \
        if moves else set()
    found: set[str] = set()
    for seat in range(len(history[-1].players)):
        if seat != viewer:
            found |= _mandragora_note_ids(moves, seat) - seen
    return found


def mandragora_twin_swap(history: list[Any], moves: Moves, seat: int) -> dict[str, str] | None:
    """A card id in ``seat``'s current note, named by no other seat, swapped with a spellbook nobody ever
    named (still in this game): the twin's note is as legal, and the seat's own page must show it."""
    catalog, state = content("mandragora"), history[-1]
    note = state.hand_notes[seat] or ()
    mentioned = set().union(*(strings_in(move) for _, move in moves)) if moves else set()
    by_others = set().union(*(strings_in(move) for actor, move in moves if actor != seat)) if moves else set()
    removed = {card.id for card in catalog.removed_for(len(state.players))}
    spare = sorted(c.id for c in catalog.cards_of("spellbook") if c.id not in mentioned and c.id not in removed)
    for token in note:
        card = catalog.find_card(token)
        if card is not None and card.id == token and token not in by_others and spare:
            return {token: spare[0], spare[0]: token}
    return None


def mandragora_names(secrets: set[str]) -> set[str]:
    return {token for token in secrets}


#: a 3-player game ends after about 80 moves: three rounds of 15 acknowledged moves fit before the crashes;
#: a 2-player game after about 50, so the secrets test reads its routes early
TRAITS = GameTraits(label_sentences={"curses_one": "GIBT 1 FLUCH", "curses_other": "GIBT 2 FLÜCHE",
                                     "worth_other": "PUNKTE WERT", "ingredient": "ZAUBER"},
                    secret_model=SecretModel(mandragora_secrets, mandragora_twin_swap, mandragora_names),
                    secret_checkpoints=(6, 20, 34),
                    form_move=form_move, rearrange_hidden=rearrange_hidden, min_moves_per_game=30,
                    crash_acks_per_round=15)
