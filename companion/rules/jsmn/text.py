"""Jonathan Strange & Mr Norrell: moves as the move log shows them — redacted per viewer, and in words.

Secret until the end (rule jsmn.magicianship.secret): which feats of magic a seat holds and completes.
Anyone but the actor sees a move without those ids: starting feats as a bare ``{"type": "starting_feats"}``,
an invitation's feats as ``feats_taken`` (a count), magic without its ``feat``/``feats``, and a cast without
the feat Morgan's Veil took. Which spell a seat casts is not secret: a spell is kept secret in hand, but it
is played for its effect, which the table sees (a magicianship spell lies face up in front of its caster), so
every seat's log names it. Everything else is on the table for all.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import seat_name
from .state import (
    BOOKS,
    GAME,
    INTRODUCTIONS,
    INVITATIONS,
    MARSEILLES,
    NAMED,
    SPELLS,
    TRACKS,
)

HIDDEN_FIELDS: dict[str, tuple[str, ...]] = {
    "magic": ("feat",), "use_book": ("feats",), "street_magic": ("feat",), "place_token": ("feat",),
    "cast_spell": ("feat",),
}


def redact_move(move: Mapping[str, Any], actor: int, viewer: int | None) -> dict[str, Any]:
    """The move as ``viewer`` may see it: another seat's feats are left out."""
    if viewer is not None and viewer == actor:
        return dict(move)
    kind = move.get("type")
    if kind == "starting_feats":
        return {"type": kind}
    if kind == "engage" and "feats" in move:
        shown = {k: v for k, v in move.items() if k != "feats"}
        feats = move.get("feats")
        shown["feats_taken"] = len(feats) if isinstance(feats, list) else 0
        return shown
    hidden = HIDDEN_FIELDS.get(str(kind), ())
    return {k: v for k, v in move.items() if k not in hidden}


def _card_name(ref: Any) -> str:
    card = GAME.find_card(ref) if isinstance(ref, str) else None
    return GAME.label(card) if card is not None else "a card"


def _place(ref: Any) -> str:
    try:
        return str(GAME.map.location(ref).name) if isinstance(ref, str) else "somewhere"
    except KeyError:
        return "somewhere"


def _engage(who: str, move: Mapping[str, Any]) -> str:
    card = move.get("card")
    if card in INTRODUCTIONS:
        person = INTRODUCTIONS[card]
        return f"{who} met {person.name} in {_place(person.location)} (+{person.prestige} prestige)."
    if card in INVITATIONS:
        invitation = INVITATIONS[card]
        intros = move.get("introductions", 0) if isinstance(move.get("introductions"), int) else 0
        feats = move.get("feats_taken", 0)
        gains = [f"{intros} introduction{'s' * (intros != 1)}"] if intros else []
        if feats:
            gains.append(f"{feats} feat{'s' * (feats != 1)} of magic")
        got = " and ".join(gains) if gains else "nothing more"
        return f"{who} attended {invitation.name} in {_place(invitation.location)} and took {got}."
    return f"{who} fulfilled an engagement."


def _cast(who: str, move: Mapping[str, Any]) -> str:
    """A cast as the table saw it: the spell by name, and what its move named (never a feat's id)."""
    spell = SPELLS.get(str(move.get("spell")))
    if spell is None:
        return f"{who} cast a spell."
    effect = spell.effect
    detail = ""
    if effect == "magicianship":
        detail = " and laid it face up in front of them"
    elif effect == "move_anywhere":
        detail = f" and moved to {_place(move.get('to'))}"
    elif effect == "take_feat":
        detail = " and took a feat of magic"
    elif effect == "reuse_book" and str(move.get("book")) in BOOKS:
        detail = f" to use {BOOKS[str(move.get('book'))].name} again"
    elif effect == "uncover_action":
        try:
            detail = f", uncovering {GAME.action(str(move.get('action'))).name}"
        except KeyError:
            pass
    elif effect == "study_any" and isinstance(move.get("elements"), list):
        detail = f": {' and '.join(str(e) for e in move['elements'])} are available to them this turn"
    elif effect == "swap_engagement" and move.get("card") is not None:
        detail = f", discarding {_card_name(move.get('card'))}"
    return f"{who} cast {spell.name}{detail}."


def describe_move(move: Mapping[str, Any], actor: int, names: Sequence[str]) -> str:
    """One line for the move log, in the public wording (no hidden feat is named)."""
    who = seat_name(names, actor)
    shown = redact_move(move, actor, None)
    kind = shown.get("type")
    if kind == "starting_feats":
        return f"{who} has laid out their three starting feats of magic."
    if kind == "new_year":
        card = MARSEILLES.get(str(shown.get("marseilles")))
        text = f"A new year: {card.name} ({card.english}) is revealed; the fairy grows {card.strength} stronger." \
            if card is not None else "A new year begins."
        book = BOOKS.get(str(shown.get("book")))
        return text + (f" {book.name} joins the books of magic." if book is not None else "")
    if kind == "choose_action":
        action = shown.get("action")
        if action == "unique":
            return f"{who} took their unique action."
        try:
            return f"{who} chose: {GAME.action(str(action)).name}."
        except KeyError:
            return f"{who} chose an action."
    if kind == "still_waters":
        return f"{who} stilled the waters."
    if kind == "move":
        return f"{who} moved to {_place(shown.get('to'))}."
    if kind == "engage":
        return _engage(who, shown)
    if kind == "connexion":
        named = NAMED.get(str(shown.get("named")))
        if named is not None:
            return f"{who} gained a named connexion: {named.name}."
        return f"{who} gained a connexion: {str(shown.get('connexion', 'one')).replace('-', ' ')}."
    if kind == "magic":
        return f"{who} discarded {_card_name(shown.get('card'))} to do magic."
    if kind == "use_book":
        book = BOOKS.get(str(shown.get("book")))
        return f"{who} used {book.name if book else 'a book of magic'}."
    if kind == "street_magic":
        return f"{who} did street magic."
    if kind == "place_token":
        return f"{who} placed a {shown.get('element', '')} token without a discard."
    if kind == "advisor":
        return f"{who}'s advisor exchanged {_card_name(shown.get('card'))}."
    if kind == "cast_spell":
        return _cast(who, shown)
    if kind == "discard_spell":
        return f"{who} discarded a spell for 1 prestige."
    if kind == "end_turn":
        return f"{who} ended their turn."
    return f"{who}: {kind}."


def raven_year(year: int) -> bool:
    return year in TRACKS.raven_years


__all__ = ["describe_move", "raven_year", "redact_move"]
