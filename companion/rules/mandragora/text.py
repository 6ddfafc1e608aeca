"""Mandragora: moves as the move log shows them — redacted per viewer, and in words.

Secret: a seat's hand note and the colours it reveals at the end. Anyone but the actor sees only
``{"type": "note_hand"}`` and ``{"type": "reveal_hand"}``; once every hand is revealed the colours
are on the score sheet (``view``), never in another seat's copy of the log.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import IllegalMove, seat_name
from .cast import ingredient_id
from .state import GAME, MANDRAKE

SECRET_MOVES: tuple[str, ...] = ("note_hand", "reveal_hand")


def redact_move(move: Mapping[str, Any], actor: int, viewer: int | None) -> dict[str, Any]:
    """The move as ``viewer`` may see it: another seat's note and revealed colours are left out."""
    if viewer is not None and viewer == actor:
        return dict(move)
    if move.get("type") in SECRET_MOVES:
        return {"type": move["type"]}
    return dict(move)


def plural(count: int, word: str) -> str:
    """'1 spell', '2 spells', '0 spells', '-1 points'."""
    return f"{count} {word}{'s' if count != 1 else ''}"


def _scroll(ref: Any) -> str:
    if isinstance(ref, int) and not isinstance(ref, bool):
        return f"a cursed scroll ({plural(ref, 'curse')})"
    card = GAME.find_card(ref) if isinstance(ref, str) else None
    if card is None or card.kind != "cursed_scroll":
        return "a cursed scroll"
    return f"a cursed scroll ({plural(card.curses, 'curse')})"


def _shop_said(ref: Any) -> str:
    """A shop a move names, for the log: by name; given by its place in the circle (the API allows it), by that
    place counted from the start tile, which every circle begins with (the log line is made without the state,
    and the circle may be shuffled, so the shop's name is not known here)."""
    shop = _shop(ref)
    if shop:
        return f"the {shop}"
    if isinstance(ref, int) and not isinstance(ref, bool):
        start = GAME.start_shop.name
        return f"the {start}" if ref == 0 else f"the shop {plural(ref, 'place')} clockwise from the {start}"
    return f"shop {ref}"


def _shop(ref: Any) -> str | None:
    if isinstance(ref, str):
        try:
            return GAME.shop(ref.strip()).name
        except KeyError:
            return None
    return None


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _seek(who: str, move: Mapping[str, Any]) -> str:
    steps = move.get("steps")
    text = f"{who} sent the Assistant {plural(steps, 'shop') if isinstance(steps, int) else 'on'}"
    shop = _shop(move.get("shop"))
    if shop:
        text += f" to the {shop}"
    scrolls = move.get("scrolls") or []
    if not isinstance(scrolls, list) or not scrolls:
        return text + " and took the cards there."
    if len(scrolls) == 1:
        return text + f" and took the cards there, one of them {_scroll(scrolls[0])}."
    return text + f" and took the cards there, {len(scrolls)} of them cursed scrolls: " \
                  f"{_listing([_scroll(s) for s in scrolls])}."


def _book(ref: Any) -> str:
    if not isinstance(ref, str):
        return "a spellbook"
    if ref.strip().casefold() == MANDRAKE:
        return "a mandrake"
    card = GAME.find_card(ref.strip())
    return f"the {GAME.label(card)}" if card is not None else ref


def _spell(ref: Any) -> str:
    if not isinstance(ref, str):
        return "a spell"
    try:
        return GAME.spell(ref.strip()).name
    except KeyError:
        card = GAME.find_card(ref.strip())
        return GAME.spell(card.spell).name if card is not None and card.spell else ref


def _effect(spell: str, move: Mapping[str, Any], names: Sequence[str]) -> str:
    if spell == "Banishment" and move.get("scroll") is not None:
        return f" and banished {_scroll(move['scroll'])}"
    if spell == "Transfer" and move.get("scroll") is not None:
        return f" and gave {seat_name(names, move.get('to'))} {_scroll(move['scroll'])}"
    if spell == "Substitution" and move.get("from") is not None:
        return f" and drew a card from {seat_name(names, move['from'])}'s hand, giving one back"
    if spell == "Levitation" and move.get("shop") is not None:
        where = _shop_said(move["shop"])
        taken = _scroll(move["scroll"]) if move.get("scroll") is not None else "a card"
        return f" and took {taken} from {where}"
    if spell == "Replication":
        return " and may take another turn"
    if spell == "Swiftness":
        return "; the Assistant now goes one shop further on their turns"
    return ""


def _ingredient(ref: Any) -> str:
    """An ingredient as the rules read it (its colour, 'a mandrake'), not as it was typed ("  YELLOW ")."""
    try:
        found = ingredient_id(ref)
    except IllegalMove:
        return str(ref)
    return "a mandrake" if found == MANDRAKE else found


def _cast(who: str, move: Mapping[str, Any], names: Sequence[str]) -> str:
    spell = _spell(move.get("spell"))
    ingredients = move.get("ingredients")
    used = ""
    if isinstance(ingredients, list) and ingredients:
        used = " with " + _listing([_ingredient(i) for i in ingredients])
    power = move.get("power")
    return f"{who} cast {spell} (power {power}) on {_book(move.get('book'))}{used}{_effect(spell, move, names)}."


def describe_move(move: Mapping[str, Any], actor: int, names: Sequence[str]) -> str:
    """One public line for the move log, e.g. 'Ann sent the Assistant 2 shops to the Moonlit Well …'."""
    who = seat_name(names, actor)
    kind = move.get("type")
    if kind == "seek":
        return _seek(who, move)
    if kind == "cast":
        return _cast(who, move, names)
    if kind == "decline_extra_turn":
        return f"{who} gave up the extra turn from Replication."
    if kind == "drop_out":
        return f"{who} dropped out for the rest of the game."
    if kind == "pass_curse_marker":
        return f"{who} passed the Curse marker to {seat_name(names, move.get('to'))}."
    if kind == "team_help":
        texts = {"give": "gave their partner a card", "receive": "took a card from their partner",
                 "exchange": "swapped a card with their partner", "none": "did not trade with their partner"}
        return f"{who} {texts.get(str(move.get('kind')), 'helped their partner')}."
    if kind == "note_hand":
        return f"{who} updated their private hand note."
    if kind == "reveal_hand":
        return f"{who} revealed the colours left in their hand."
    return f"{who} made a move."
