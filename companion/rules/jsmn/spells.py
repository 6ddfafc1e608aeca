"""Jonathan Strange & Mr Norrell: casting spells. Each spell's ``effect`` key (data/jsmn/spells.toml)
maps to one change of the state; a cast spell leaves the caster's hand and joins its private ledger
(a spell that grants magicianship counts there, rule jsmn.spell.magicianship).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import IllegalMove, field
from .magic import discard_card, drew_cards, free_feat, gain_prestige, on_turn
from .state import (
    ACTION_IDS,
    ELEMENTS,
    GAME,
    INVITATIONS,
    SPELLS,
    TRACKS,
    JsmnState,
    connexion_first,
    refuse,
    replace,
)

TIMED_ANY = "any-time"


def _turn_change(state: JsmnState, **changes: Any) -> JsmnState:
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, **changes))


def _destination(move: Mapping[str, Any]) -> str:
    to = field(move, "to")
    if to.strip().casefold() == GAME.map.london_space:
        raise refuse("the London space is never occupied: choose a location in the City of London", "jsmn.move.london")
    try:
        return str(GAME.map.location(to).id)
    except KeyError:
        raise refuse(f"there is no location '{to[:40]}' on the map", "jsmn.move.path") from None


def _check_timing(state: JsmnState, seat: int, spell_id: str) -> None:
    spell = SPELLS[spell_id]
    if spell.effect == "look_ahead":
        if state.phase != "preparation":
            raise refuse(f"{spell.name} is cast during a year's preparation, before the card of Marseilles",
                         "jsmn.spell.timing")
        return
    if spell.effect == "hold_back":
        turn = state.turn
        if state.phase != "turn" or turn is None or turn.seat == seat or not turn.last_introduction or turn.held_back:
            raise refuse(f"{spell.name} answers another player's introduction just after it is fulfilled, before "
                         "that player does anything else, and only one that gave prestige", "jsmn.spell.timing")
        return
    if spell.timing == TIMED_ANY:
        if state.phase not in ("preparation", "turn"):
            raise refuse("spells are cast once the years have begun", "jsmn.spell.timing")
        return
    turn = state.turn
    if state.phase != "turn" or turn is None or turn.seat != seat:
        raise refuse(f"{spell.name} is cast on your own turn", "jsmn.spell.timing")


def _hold_back(state: JsmnState) -> JsmnState:
    """Canute's Tide: the introduction gives 1 prestige less, and a connexion space it reached only with that
    prestige gives no connexion (rule jsmn.spell.canutes-tide). Choosing a connexion the introduction gave
    closes the spell's moment (moves._connexion), so the connexion taken away is still pending here. The disc
    comes back down on top of any stack where it lands, as a table moves it by hand, also after a 1-prestige
    introduction that now gives nothing (our reading, said in the rule's text)."""
    turn = state.turn
    assert turn is not None
    target = state.seats[turn.seat]
    if state.legacy_canute:   # format 1: 1 prestige, whatever the introduction gave
        after = max(0, target.prestige - 1)
    else:                     # only what the introduction gave
        after = target.prestige - min(1, turn.last_introduction)
    kept = min(turn.intro_gained, TRACKS.connexions_passed(turn.intro_from, after))
    lost = turn.intro_gained - kept
    assert lost <= turn.pending
    clock = state.clock + 1
    state = replace(state.with_seat(turn.seat, prestige=after, arrival=clock), clock=clock)
    return _turn_change(state, held_back=True, pending=turn.pending - lost, intro_gained=kept, last_introduction=0)


def cast_spell(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    spell_id = field(move, "spell")
    if spell_id not in SPELLS:
        raise refuse(f"there is no spell '{spell_id[:40]}'", "jsmn.spell.cast")
    here = state.seats[seat]
    if here.spells < 1:
        raise refuse("you hold no spell", "jsmn.hand.count")
    _check_timing(state, seat, spell_id)
    spell = SPELLS[spell_id]
    if spell.magicianship and any(spell_id in s.spells_played for s in state.seats):
        raise refuse(f"{spell.name} is already in front of a magician", "jsmn.spell.magicianship")
    if state.turn is not None and state.turn.pending and state.turn.seat == seat:
        raise connexion_first(state.players, seat)
    state = state.with_seat(seat, spells=here.spells - 1, spells_played=here.spells_played + (spell_id,))
    return _effect(state, seat, spell.effect, move)


def _effect(state: JsmnState, seat: int, effect: str, move: Mapping[str, Any]) -> JsmnState:  # noqa: C901
    here = state.seats[seat]
    turn = state.turn
    if effect in ("magicianship", "look_ahead"):
        return state
    if effect == "draw_invitations":
        return drew_cards(state.with_seat(seat, invitations=here.invitations + 2))
    if effect == "draw_introductions":
        return drew_cards(state.with_seat(seat, introductions=here.introductions + 2))
    if effect == "hold_back":
        return _hold_back(state)
    assert turn is not None
    if effect == "introduction_anywhere":
        return _turn_change(state, teilo=True)
    if effect == "place_listed_element":
        return _turn_change(state, free_tokens=turn.free_tokens + (",".join(SPELLS["daedaluss-rose"].elements),))
    if effect == "place_any_element":
        return _turn_change(state, free_tokens=turn.free_tokens + ("available",))
    if effect == "move_anywhere":
        return state.with_seat(seat, location=_destination(move))
    if effect == "long_move":
        return _turn_change(state, long_move=True)
    if effect == "extra_move":
        return _turn_change(state, max_moves=turn.max_moves + 1)
    if effect == "extra_engagement":
        return _turn_change(state, max_engagements=turn.max_engagements + 1)
    if effect == "take_feat":
        fid = field(move, "feat")
        free_feat(state, fid, seat)
        return state.with_seat(seat, feats=here.feats + ((fid, ()),))
    if effect == "reuse_book":
        book = field(move, "book")
        if book not in turn.books_used:
            raise refuse("name a book of magic you have used this turn", "jsmn.book.once")
        used = list(turn.books_used)
        used.remove(book)
        return _turn_change(state, books_used=tuple(used))
    if effect == "refresh_books":
        return _turn_change(state, books_used=())
    if effect == "uncover_action":
        action = field(move, "action")
        if action not in ACTION_IDS or action not in here.covered:
            raise refuse("name an action whose symbol one of your discs covers", "jsmn.action.covered")
        return state.with_seat(seat, covered=tuple(a for a in here.covered if a != action))
    if effect == "study_any":
        elements = field(move, "elements", list)
        if len(elements) != 2 or len(set(map(str, elements))) != 2 or not all(e in ELEMENTS for e in elements):
            raise refuse("choose two different elements", "jsmn.magic.available")
        return _turn_change(state, elements=turn.elements + tuple(e for e in elements if e not in turn.elements))
    if effect == "prestige":
        return gain_prestige(state, seat, 2)
    if effect == "swap_engagement":
        card = field(move, "card")
        state, _ = discard_card(state, seat, card)
        here = state.seats[seat]
        if card in INVITATIONS:
            return drew_cards(state.with_seat(seat, introductions=here.introductions + 1))
        return drew_cards(state.with_seat(seat, invitations=here.invitations + 1))
    raise IllegalMove(f"unknown spell effect {effect}", "jsmn.spell.cast")


__all__ = ["cast_spell", "on_turn"]
