"""Jonathan Strange & Mr Norrell: who may report a move now, advice for a seat, random legal moves.

``random_legal_move(state, seat, rng)`` plays like a table that reports what happened: it picks card ids
that fit the rules (an introduction whose location is where the magician stands, a feat nobody holds),
so every move it returns is legal. Seeded playouts (tests, bench) end by 1817 at the latest.
"""

from __future__ import annotations

import random
from typing import Any

from .choices import ELEMENT_TEXT, action_name
from .magic import drawn_this_year, hand_discards, has_connexion
from .state import (
    ACTION_IDS,
    BOOKS,
    CONNEXION_TYPES,
    ELEMENTS,
    FEAT_NEEDS,
    FEATS,
    GAME,
    INTRODUCTIONS,
    INVITATIONS,
    LIMITS,
    MAGICIANS,
    MARSEILLES,
    NAMED,
    OCCUPIABLE,
    SPELLS,
    STUDY,
    TRACKS,
    JsmnState,
    Seat,
    magicianship,
    replace,
)

CARDS_BY_ELEMENT: dict[str, tuple[str, ...]] = {e: tuple(c for c in INVITATIONS if INVITATIONS[c].element == e)
                                                for e in ELEMENTS}
INTROS_BY_ELEMENT: dict[str, tuple[str, ...]] = {e: tuple(c for c in INTRODUCTIONS if INTRODUCTIONS[c].element == e)
                                                 for e in ELEMENTS}
INVITATIONS_AT: dict[str, tuple[str, ...]] = {loc: tuple(c for c, card in INVITATIONS.items() if card.location == loc)
                                              for loc in OCCUPIABLE}
INTRODUCTIONS_AT: dict[str, tuple[str, ...]] = {loc: tuple(c for c, card in INTRODUCTIONS.items()
                                                           if card.location == loc) for loc in OCCUPIABLE}
SIMPLE_SPELLS: tuple[str, ...] = tuple(s for s, spell in SPELLS.items() if spell.effect in (
    "magicianship", "extra_move", "extra_engagement", "draw_invitations", "draw_introductions", "refresh_books",
    "long_move", "place_any_element", "introduction_anywhere"))


def acting_seats(state: JsmnState) -> list[int]:
    """Seats with something to report now: unreported starting feats, the preparation, or the turn."""
    if state.phase == "setup":
        return [s for s, seat in enumerate(state.seats) if not seat.started]
    if state.phase == "preparation":
        return list(range(len(state.seats)))
    if state.phase == "turn" and state.turn is not None:
        return [state.turn.seat]
    return []


def _free_feats(state: JsmnState, count: int, rng: random.Random) -> list[str]:
    out = state.feats_out()
    free = [f for f in FEATS if f not in out]
    return rng.sample(free, min(count, len(free)))


def _placements(state: JsmnState, here: Seat, supply: bool = True) -> list[tuple[str, str]]:
    """(element, feat) pairs a token could go on now (``supply=False``: whatever the supply, which hidden feats
    of other seats change, for advice that must not depend on them)."""
    left, available = state.supply(), state.available_elements()
    found = []
    for fid, tokens in here.feats:
        for element, need in FEAT_NEEDS[fid].items():
            if element in available and tokens.count(element) < need and (not supply or left[element] > 0):
                found.append((element, fid))
    return found


def _connexion_move(state: JsmnState, seat: int, rng: random.Random) -> dict[str, Any]:
    here = state.seats[seat]
    named = [n for n in state.named_row if not here.has(NAMED[n].connexion_type)]
    if named and rng.random() < 0.4:
        card = NAMED[rng.choice(named)]
        move: dict[str, Any] = {"type": "connexion", "named": card.id}
        unseen = [n for n in state.named_unseen()]
        if unseen:
            move["reveal"] = rng.choice(unseen)
        if card.effect == "move_anywhere":
            move["to"] = rng.choice(OCCUPIABLE)
        if card.effect == "take_book":
            if not state.book_row:
                return {"type": "connexion", "connexion": rng.choice([k for k in CONNEXION_TYPES if not here.has(k)])}
            move["book"] = rng.choice(state.book_row)
            rest = [b for b in state.books_unseen() if b != move["book"]]
            if rest:
                move["book_reveal"] = rng.choice(rest)
        return move
    return {"type": "connexion", "connexion": rng.choice([k for k in CONNEXION_TYPES if not here.has(k)])}


def _action_move(state: JsmnState, seat: int, rng: random.Random) -> dict[str, Any]:
    here = state.seats[seat]
    open_actions = [a for a in ACTION_IDS if a not in here.covered and (a != "acquire-book" or state.book_row)]
    if not open_actions or rng.random() < 0.1:
        return {"type": "still_waters"}
    action = rng.choice(open_actions)
    move: dict[str, Any] = {"type": "choose_action", "action": action}
    if action == "acquire-book":
        move["book"] = rng.choice(state.book_row)
        unseen = [b for b in state.books_unseen() if b != move["book"]]
        if unseen:
            move["reveal"] = rng.choice(unseen)
    elif action == "unique":
        effect = MAGICIANS[here.magician].unique_effect
        if effect == "extra_element":
            move["element"] = rng.choice(ELEMENTS)
        elif effect == "borrow_connexion":
            move["connexion"] = rng.choice([k for k in CONNEXION_TYPES if k != "pupil" and not here.has(k)])
    return move


def _turn_options(state: JsmnState, seat: int, rng: random.Random) -> list[dict[str, Any]]:
    turn = state.turn
    assert turn is not None
    here = state.seats[seat]
    options: list[dict[str, Any]] = []
    if turn.step == "visits":
        if turn.moves < turn.max_moves:
            target = rng.choice(OCCUPIABLE) if here.location is None else \
                rng.choice(sorted(_neighbours(here.location)))
            options.append({"type": "move", "to": target})
        if turn.engagements < turn.max_engagements and here.location is not None:
            # a card fulfilled already this turn is in the discard pile (rule jsmn.cards.one-copy)
            if here.introductions and INTRODUCTIONS_AT[here.location]:
                card = rng.choice(INTRODUCTIONS_AT[here.location])
                options += [{"type": "engage", "card": card}] * 2 if card not in turn.cards_played else []
            if here.invitations and INVITATIONS_AT[here.location]:
                feats = _free_feats(state, rng.randint(0, 2), rng)
                card = rng.choice(INVITATIONS_AT[here.location])
                options += [{"type": "engage", "card": card, "introductions": rng.randint(0, 2 - len(feats)),
                             "feats": feats}] * 2 if card not in turn.cards_played else []
    placements = _placements(state, here)
    if placements and here.hand:
        element, fid = rng.choice(placements)
        pool = [c for c in CARDS_BY_ELEMENT[element]] if here.invitations else list(INTROS_BY_ELEMENT[element])
        options += [{"type": "magic", "card": rng.choice(pool), "feat": fid}] * 3
        books = [b for b in here.books if turn.books_used.count(b) < turn.book_uses and BOOKS[b].form == "convert"
                 and any(e == BOOKS[b].element and f for e, f in placements)]
        if books:
            book = rng.choice(books)
            fid = next(f for e, f in placements if e == BOOKS[book].element)
            card = rng.choice(list(INVITATIONS)) if here.invitations else rng.choice(list(INTRODUCTIONS))
            options.append({"type": "use_book", "book": book, "card": card, "feats": [fid]})
    if placements and turn.free_tokens:
        element, fid = rng.choice([(e, f) for e, f in placements])
        if "available" in turn.free_tokens:
            options.append({"type": "place_token", "element": element, "feat": fid})
    if has_connexion(state, seat, "advisor") and not turn.advisor_used and here.invitations:
        options.append({"type": "advisor", "card": rng.choice(list(INVITATIONS))})
    if here.spells:
        played = {s for other in state.seats for s in other.spells_played}
        castable = [s for s in SIMPLE_SPELLS if not (SPELLS[s].magicianship and s in played)]
        if castable:
            options.append({"type": "cast_spell", "spell": rng.choice(castable)})
        options.append({"type": "discard_spell"})
    return options


def _neighbours(location: str) -> frozenset[str]:
    return GAME.map.neighbours(location)


def _end_turn(state: JsmnState, seat: int) -> dict[str, Any]:
    here = state.seats[seat]
    drawn = drawn_this_year(state)
    excess = hand_discards(state, seat)
    if state.year in TRACKS.raven_years and magicianship(here) >= state.fairy:
        excess = 0
    if not excess:
        return {"type": "end_turn"}
    invitations = min(excess, here.invitations + drawn)
    return {"type": "end_turn", "discard": {"invitations": invitations, "introductions": excess - invitations}}


def random_legal_move(state: JsmnState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A legal move for ``seat`` now, or None when it has nothing to report."""
    if state.phase == "setup":
        if state.seats[seat].started:
            return None
        return {"type": "starting_feats", "feats": _free_feats(state, LIMITS.start_feats, rng)}
    if state.phase == "preparation":
        if seat != min(range(len(state.seats)), key=lambda s: state.seats[s].arrival):
            return None
        move: dict[str, Any] = {"type": "new_year",
                                "marseilles": rng.choice([c for c in MARSEILLES if c not in state.marseilles])}
        unseen = []
        if state.marseilles:
            unseen = replace(state, book_row=state.book_row[1:],
                             book_discard=state.book_discard + state.book_row[:1]).books_unseen()
        if unseen:
            move["book"] = rng.choice(unseen)
        if not state.marseilles and not state.book_row:  # the rows laid out at setup: the first year only
            move["books"] = rng.sample(list(BOOKS), LIMITS.available_books)
        if not state.marseilles and not state.named_row:
            move["named"] = rng.sample(list(NAMED), LIMITS.available_named_connexions)
        return move
    turn = state.turn
    if state.phase != "turn" or turn is None or turn.seat != seat:
        return None
    if turn.pending:
        return _connexion_move(state, seat, rng)
    if turn.step == "action":
        return _action_move(state, seat, rng)
    options = _turn_options(state, seat, rng)
    if not options or rng.random() < 0.12:
        return _end_turn(state, seat)
    return rng.choice(options)


def advice(state: JsmnState, seat: int) -> list[dict[str, Any]]:
    """What ``seat`` could report now, best first: ``{"type", "text", "rule"}`` per hint (its own secrets only)."""
    if state.phase == "over" or not 0 <= seat < len(state.seats):
        return []
    here = state.seats[seat]
    if state.phase == "setup":
        if here.started:
            return [{"type": "wait", "text": "Waiting for the others to report their starting feats.",
                     "rule": "jsmn.setup.hand"}]
        return [{"type": "starting_feats", "text": "Report the three feats of magic you were dealt.",
                 "rule": "jsmn.setup.hand"}]
    if state.phase == "preparation":
        return [{"type": "new_year", "text": "Reveal the next card of Marseilles and report it"
                 + ("" if not state.marseilles else ", with the book of magic revealed into the row") + ".",
                 "rule": "jsmn.year.marseilles"}]
    turn = state.turn
    if turn is None or turn.seat != seat:
        return [{"type": "wait", "text": f"It is {state.players[turn.seat] if turn else 'nobody'}'s turn.",
                 "rule": "jsmn.turn.order"}]
    hints: list[dict[str, Any]] = []
    if turn.pending:
        hints.append({"type": "connexion", "text": "You have gained a connexion: choose a type or a named connexion.",
                      "rule": "jsmn.connexion.gain"})
    elif turn.step == "action":
        open_actions = [a for a in ACTION_IDS if a not in here.covered]
        study = [a for a in open_actions if a in STUDY]
        names = [action_name(a, here.magician) for a in open_actions]
        hints.append({"type": "choose_action", "text": f"Open actions: {', '.join(names) or 'none'}"
                      + (f" (study: {', '.join(action_name(a) for a in study)})" if study else "")
                      + "; or still the waters.",
                      "rule": "jsmn.action.choose"})
    else:
        places = _placements(state, here, supply=False)
        if places:
            hints.append({"type": "magic", "text": "You can place "
                          + ", ".join(ELEMENT_TEXT[e] for e in ELEMENTS if e in {e for e, _ in places})
                          + " on your feats now.", "rule": "jsmn.magic.available"})
        if state.year in TRACKS.raven_years:
            total = magicianship(here)
            text = (f"Your magicianship is {total} against the fairy's {state.fairy}: "
                    + ("ending your turn defeats him." if total >= state.fairy else "not yet enough."))
            hints.append({"type": "confront", "text": text, "rule": "jsmn.fairy.confront"})
        hints.append({"type": "end_turn", "text": "End your turn when you are done.", "rule": "jsmn.turn.steps"})
    return hints


__all__ = ["acting_seats", "advice", "random_legal_move"]
