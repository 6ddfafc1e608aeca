"""Jonathan Strange & Mr Norrell ``apply``: starting feats, the year's preparation, choosing an action or
stilling the waters, visits (moves and engagements) and connexions. Magic, books, spells and the end of
a turn live in :mod:`.magic`. Every refusal names a rule id of ``data/jsmn/rules.toml``.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import IllegalMove, field, referee
from . import SPEC
from .magic import (
    MAGIC_MOVES,
    card_leaves_hand,
    draw_spell,
    drew_cards,
    free_feat,
    gain_prestige,
    on_turn,
    start_magic,
    take_book,
)
from .spells import cast_spell
from .state import (
    ACTION_IDS,
    BOOKS,
    CONNEXION_DISCS,
    CONNEXION_TYPES,
    ELEMENTS,
    GAME,
    INTRODUCTIONS,
    INVITATIONS,
    LIMITS,
    MAGICIANS,
    MARSEILLES,
    NAMED,
    STUDY,
    TRACKS,
    JsmnState,
    Turn,
    connexion_first,
    refuse,
    replace,
    rule,
)

MOVE_TYPES: dict[str, str] = SPEC.move_types


def _location(ref: Any, rule_id: str) -> str:
    if not isinstance(ref, str):
        raise IllegalMove("'to' must be a location id", None)
    key = ref.strip().casefold()
    if key == GAME.map.london_space:
        raise refuse("the London space is never occupied: choose a location in the City of London", "jsmn.move.london")
    try:
        location = GAME.map.location(key)
    except KeyError:
        raise refuse(f"there is no location '{ref[:40]}' on the map", rule_id) from None
    return location.id


# -- setup and preparation ---------------------------------------------------------------------------

def _starting_feats(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    if state.phase != "setup":
        raise refuse("the starting feats are reported before the first year", "jsmn.setup.hand")
    if state.seats[seat].started:
        raise refuse("you have already reported your three starting feats", "jsmn.setup.hand")
    feats = field(move, "feats", list)
    if len(feats) != LIMITS.start_feats or len(set(map(str, feats))) != LIMITS.start_feats:
        raise refuse(f"report exactly {LIMITS.start_feats} different feats of magic", "jsmn.setup.hand")
    for fid in feats:
        free_feat(state, fid, seat)
    state = state.with_seat(seat, started=True, feats=tuple((str(f), ()) for f in feats))
    return replace(state, phase="preparation") if all(s.started for s in state.seats) else state


def _row(move: Mapping[str, Any], name: str, known: Mapping[str, Any], count: int) -> tuple[str, ...]:
    """The face-up row laid out at setup, reported with the first year's preparation (rule jsmn.setup.rows)."""
    ids = field(move, name, list)
    if len(ids) != count or len(set(map(str, ids))) != count or not all(i in known for i in ids):
        raise refuse(f"'{name}' must name the {count} different cards laid out at setup", "jsmn.setup.rows")
    return tuple(str(i) for i in ids)


def _new_year(state: JsmnState, move: Mapping[str, Any]) -> JsmnState:
    if state.phase == "setup":
        raise refuse("every player reports their three starting feats first", "jsmn.setup.hand")
    if state.phase != "preparation":
        raise refuse("the year's preparation comes after every player's turn", "jsmn.year.sequence")
    card = field(move, "marseilles")
    if card not in MARSEILLES:
        raise refuse(f"there is no card of Marseilles '{card[:40]}'", "jsmn.year.marseilles")
    if card in state.marseilles:
        raise refuse(f"{MARSEILLES[card].name} was revealed in an earlier year", "jsmn.year.marseilles")
    first = not state.marseilles
    year = state.year if first else state.year + 1
    row, discard = state.book_row, state.book_discard
    for name, laid in (("books", state.book_row), ("named", state.named_row)):
        # the rows are laid out once, at setup: a report that names them otherwise is refused, not passed over
        given = move.get(name)
        if given is None:
            continue
        if not first:
            raise refuse(f"'{name}' is reported only with the first year's preparation, with the rows laid out "
                         "at setup: leave it out", "jsmn.setup.rows")
        if laid and list(given) != list(laid):
            raise refuse(f"'{name}' must name the row already laid out at setup, or be left out", "jsmn.setup.rows")
    if not first:
        discard = discard + row[:1]
        row = row[1:]
        shifted = replace(state, book_row=row, book_discard=discard)
        unseen = shifted.books_unseen()
        if unseen and move.get("book") is None:  # a rules matter, not a malformed move: the row needs its third book
            reshuffled = " (the deck is empty: the discard pile is shuffled into a new one)" if set(unseen) <= set(
                discard) else ""
            raise refuse(f"a book of magic is revealed into the row every year after the first{reshuffled}: name it "
                         "in 'book'", "jsmn.year.books")
        book = field(move, "book", required=False)
        if book is not None:
            if book not in unseen:
                raise refuse(f"'{book[:40]}' is not a book of magic left in the deck", "jsmn.year.books")
            if book in discard:  # the deck was empty: the discard pile became the deck
                discard = ()
            row = row + (book,)
    else:
        if move.get("book") is not None:
            raise refuse("no book is revealed in the first year", "jsmn.year.books")
        row = row or _row(move, "books", BOOKS, LIMITS.available_books)
        state = replace(state, named_row=state.named_row or _row(move, "named", NAMED,
                                                                  LIMITS.available_named_connexions))
    fairy = min(TRACKS.fairy_length, state.fairy + MARSEILLES[card].strength)
    state = replace(state, year=year, marseilles=state.marseilles + (card,), fairy=fairy, book_row=row,
                    book_discard=discard, played=(), phase="turn", prepared=True)
    return replace(state, turn=Turn(seat=state.order()[0]))


# -- choose an action ------------------------------------------------------------------------------------

def _confidant(state: JsmnState, seat: int) -> JsmnState:
    here = state.seats[seat]
    return state.with_seat(seat, introductions=here.introductions + 1) if here.has("confidant") else state


def _choose_action(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    turn = on_turn(state, seat)
    if turn.step != "action":
        raise refuse("the action is chosen once, at the start of your turn", "jsmn.action.choose")
    action = field(move, "action")
    if action not in ACTION_IDS:
        raise refuse(f"unknown action '{action[:40]}' (known: {', '.join(ACTION_IDS)})", "jsmn.action.choose")
    here = state.seats[seat]
    if action in here.covered:
        raise refuse("that action's symbol is covered by a disc: choose another or still the waters",
                     "jsmn.action.covered")
    state = _confidant(state, seat)
    turn = replace(turn, step="visits", action=action)
    if action == "kings-roads":
        turn = replace(turn, kings_roads=True)
    elif action in STUDY:
        turn = replace(turn, elements=STUDY[action])
    elif action == "acquire-book":
        state = take_book(state, seat, move, "jsmn.action.acquire-book")
    elif action == "unique":
        state, turn = _unique(state, seat, turn, move)
    return replace(state, turn=turn)


def _unique(state: JsmnState, seat: int, turn: Turn, move: Mapping[str, Any]) -> tuple[JsmnState, Turn]:
    effect = MAGICIANS[state.seats[seat].magician].unique_effect
    if effect == "extra_element":
        element = field(move, "element")
        if element not in ELEMENTS:
            raise refuse(f"choose one of the six elements, not '{element[:40]}'", "jsmn.unique.strange")
        return state, replace(turn, elements=(element,))
    if effect == "borrow_connexion":
        kind = field(move, "connexion")
        if kind not in CONNEXION_TYPES or kind == "pupil" or state.seats[seat].has(kind):
            raise refuse("borrow a connexion type you do not have (not the pupil)", "jsmn.unique.segundus")
        # a borrowed Confidant draws nothing: it acts before an action is chosen (rule jsmn.unique.segundus)
        return state, replace(turn, borrowed=kind)
    if effect == "books_twice":
        return state, replace(turn, book_uses=2)
    return state, replace(turn, max_engagements=turn.max_engagements + 1)


def _still(state: JsmnState, seat: int) -> JsmnState:
    turn = on_turn(state, seat)
    if turn.step != "action":
        raise refuse("still the waters instead of choosing an action, at the start of your turn", "jsmn.action.still")
    state = _confidant(state.with_seat(seat, covered=()), seat)
    return replace(state, turn=replace(turn, step="visits", action="still"))


# -- visits -------------------------------------------------------------------------------------------

def _visiting(state: JsmnState, seat: int) -> Turn:
    turn = on_turn(state, seat)
    if turn.step == "action":
        raise refuse("choose an action or still the waters before your visits", "jsmn.turn.steps")
    if turn.step == "magic":
        raise refuse("visits come before doing magic", "jsmn.turn.steps")
    return turn


def _move(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    turn = _visiting(state, seat)
    if turn.moves >= turn.max_moves:
        raise refuse(f"you have made your {turn.max_moves} moves this turn", "jsmn.visit.limits")
    to = _location(field(move, "to"), "jsmn.move.path")
    here = state.seats[seat].location
    turn = replace(turn, moves=turn.moves + 1)
    if here is not None:
        if to == here:
            raise refuse("your magician is already there", "jsmn.move.path")
        steps = GAME.map.steps(here, to) or 99
        coach = turn.coachman and (state.seats[seat].has("coachman") or turn.borrowed == "coachman")
        if steps == 1:
            pass
        elif steps == 2 and coach:
            turn = replace(turn, coachman=False)
        elif steps <= 3 and turn.long_move:
            turn = replace(turn, long_move=False)
        elif turn.kings_roads:
            turn = replace(turn, kings_roads=False)
        else:
            raise refuse(f"{_place_name(to)} is {steps} locations away; a move goes to a neighbour",
                         "jsmn.move.path")
    return replace(state.with_seat(seat, location=to), turn=turn)


def _place_name(location: str) -> str:
    return str(GAME.map.location(location).name)


def _engage(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    turn = _visiting(state, seat)
    if turn.engagements >= turn.max_engagements:
        raise refuse(f"you have fulfilled {turn.max_engagements} engagements this turn", "jsmn.visit.limits")
    card = field(move, "card")
    here = state.seats[seat]
    turn = replace(turn, engagements=turn.engagements + 1)
    if card in INVITATIONS:
        invitation = INVITATIONS[card]
        if here.invitations < 1:
            raise refuse("you hold no invitation", "jsmn.hand.count")
        if here.location != invitation.location:
            raise refuse(f"{invitation.name} is in {_place_name(invitation.location)}; go there first",
                         "jsmn.engage.location")
        intros = field(move, "introductions", int, required=False, default=0)
        feats = field(move, "feats", list, required=False, default=[])
        if intros < 0 or intros + len(feats) > LIMITS.invitation_takes:
            raise refuse(f"an invitation gives at most {LIMITS.invitation_takes} introductions and feats",
                         "jsmn.engage.invitation")
        if len(set(map(str, feats))) != len(feats):
            raise refuse("take two different feats of magic", "jsmn.feat.take")
        for fid in feats:
            free_feat(state, fid, seat)
        state = card_leaves_hand(replace(state, turn=turn), card)
        state = state.with_seat(seat, invitations=here.invitations - 1, introductions=here.introductions + intros,
                                feats=here.feats + tuple((str(f), ()) for f in feats))
        return drew_cards(state) if intros else state
    if card in INTRODUCTIONS:
        introduction = INTRODUCTIONS[card]
        if here.introductions < 1:
            raise refuse("you hold no introduction", "jsmn.hand.count")
        if here.location != introduction.location:
            if not turn.teilo:
                raise refuse(f"{introduction.name} is in {_place_name(introduction.location)}; go there first",
                             "jsmn.engage.location")
            turn = replace(turn, teilo=False)
        state = card_leaves_hand(replace(state, turn=turn), card)
        assert state.turn is not None
        pending = state.turn.pending
        state = replace(state.with_seat(seat, introductions=here.introductions - 1),
                        turn=replace(state.turn, held_back=False, intro_from=here.prestige))
        state = gain_prestige(state, seat, introduction.prestige)
        assert state.turn is not None
        # what Canute's Tide may take back: the prestige this introduction really gave (less than printed at
        # the top of the track, none there at all)
        gained = introduction.prestige if state.legacy_canute else state.seats[seat].prestige - here.prestige
        return replace(state, turn=replace(state.turn, intro_gained=state.turn.pending - pending,
                                           last_introduction=gained))
    raise refuse(f"'{card[:40]}' is not an invitation or introduction", "jsmn.engage.location")


def _connexion(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    turn = on_turn(state, seat)
    if turn.pending < 1:
        raise refuse("you gain a connexion only on or past a marked space of the prestige track", "jsmn.connexion.gain")
    here = state.seats[seat]
    if len(here.connexions) >= CONNEXION_DISCS:
        raise refuse("all four of your connexion discs are placed", "jsmn.connexion.limit")
    named = move.get("named")
    turn = replace(turn, pending=turn.pending - 1)
    if state.legacy_canute and turn.intro_gained:   # format 1: only this closed Canute's Tide's moment
        turn = replace(turn, last_introduction=0)
    if named is None:
        kind = field(move, "connexion")
        if kind not in CONNEXION_TYPES:
            raise refuse(f"unknown connexion type '{kind[:40]}'", "jsmn.connexion.gain")
        if here.has(kind):
            raise refuse("that connexion type already holds your disc", "jsmn.connexion.filled")
        return replace(state.with_seat(seat, connexions=here.connexions + (kind,)), turn=turn)
    if not isinstance(named, str) or named not in state.named_row:
        raise refuse("take one of the two face-up named connexions", "jsmn.connexion.named")
    card = NAMED[named]
    if here.has(card.connexion_type):
        raise refuse(f"{card.name} is a {card.connexion_type} and that space is already filled",
                     "jsmn.connexion.filled")
    row = tuple(n for n in state.named_row if n != named)
    state = replace(state.with_seat(seat, connexions=here.connexions + (card.connexion_type,),
                                    named=here.named + (named,)), named_row=row, turn=turn)
    unseen = state.named_unseen()
    reveal = field(move, "reveal", required=bool(unseen))
    if reveal is not None:
        if reveal not in unseen:
            raise refuse(f"'{reveal[:40]}' is not a named connexion left in the deck", "jsmn.connexion.named")
        state = replace(state, named_row=row + (reveal,))
    return _named_effect(state, seat, card.effect, move)


def _named_effect(state: JsmnState, seat: int, effect: str, move: Mapping[str, Any]) -> JsmnState:
    here = state.seats[seat]
    assert state.turn is not None
    if effect == "move_anywhere":
        return state.with_seat(seat, location=_location(field(move, "to"), "jsmn.connexion.named"))
    if effect == "place_any_element":
        return replace(state, turn=replace(state.turn, free_tokens=state.turn.free_tokens + ("available",)))
    if effect == "draw_invitations":
        return drew_cards(state.with_seat(seat, invitations=here.invitations + 2))
    if effect == "draw_introductions":
        return drew_cards(state.with_seat(seat, introductions=here.introductions + 2))
    if effect == "take_book":
        return take_book(state, seat, move, "jsmn.connexion.named", "book_reveal")
    return draw_spell(state, seat)


def _ended(state: JsmnState) -> str | None:
    """Why the game is over (None while it goes on)."""
    if state.phase != "over":
        return None
    if state.defeated_by is not None:
        return f"{state.players[state.defeated_by]} defeated the fairy"
    return "the reign of 1817 has ended"


def _over_rule(state: JsmnState) -> str:
    return rule("jsmn.end.reign" if state.defeated_by is None else "jsmn.fairy.defeat")


def _turn(state: JsmnState) -> int | None:
    """The seat whose turn is being played; None in the preparation of a year and before the first."""
    return state.turn.seat if state.phase == "turn" and state.turn is not None else None


def _apply(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    kind = move["type"]
    if kind == "starting_feats":
        return _starting_feats(state, seat, move)
    if kind == "new_year":
        return _new_year(state, move)
    if state.phase != "turn" and kind not in ("cast_spell",):
        raise refuse("no turn is being played: reveal this year's card of Marseilles first", "jsmn.year.sequence")
    if state.turn is not None and state.turn.pending and kind != "connexion" and seat == state.turn.seat:
        raise connexion_first(state.players, seat)
    if state.turn is not None and seat == state.turn.seat and state.turn.last_introduction and not state.legacy_canute:
        # Canute's Tide answers an introduction just after it: the introducer's next move (a connexion it
        # gave, a move, magic, another engagement...) closes that moment (rule jsmn.spell.canutes-tide)
        state = replace(state, turn=replace(state.turn, last_introduction=0))
    if kind == "choose_action":
        return _choose_action(state, seat, move)
    if kind == "still_waters":
        return _still(state, seat)
    if kind == "move":
        return _move(state, seat, move)
    if kind == "engage":
        return _engage(state, seat, move)
    if kind == "connexion":
        return _connexion(state, seat, move)
    if kind in ("magic", "use_book", "street_magic"):
        return MAGIC_MOVES[kind](start_magic(state, seat), seat, move)
    if kind == "place_token":
        # a token a spell or Vinculus gave is placed at once, wherever in the turn it came (rule
        # jsmn.magic.place): it needs no discard, so it is not doing magic and the visits go on after it
        if on_turn(state, seat).step == "action":
            raise refuse("choose an action or still the waters first", "jsmn.turn.steps")
        return MAGIC_MOVES[kind](state, seat, move)
    if kind == "cast_spell":
        return cast_spell(state, seat, move)
    return MAGIC_MOVES[kind](state, seat, move)



#: The state after ``seat`` plays ``move``; IllegalMove (rule, seat and move set) if the rules forbid it. The
#: base checks the move type, its fields, the seat, the end and the turn first.
apply = referee(SPEC, _apply, over=_ended, turn=_turn, rule_when_over=_over_rule)

__all__ = ["MOVE_TYPES", "apply"]
