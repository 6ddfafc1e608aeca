"""Jonathan Strange & Mr Norrell: doing magic (discards, books, the Street Magician, free tokens), the
Advisor, prestige and the stack, and the end of a turn (confronting the fairy, drawing, the hand limit,
tidying, the next player, the next year or the end of the game).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..base import IllegalMove, field
from .state import (
    BOOKS,
    CONNEXION_DISCS,
    ELEMENTS,
    FEAT_NEEDS,
    FEATS,
    INTRODUCTIONS,
    INVITATIONS,
    LIMITS,
    TRACKS,
    JsmnState,
    Turn,
    magicianship,
    refuse,
    replace,
)


def on_turn(state: JsmnState, seat: int) -> Turn:
    """The turn in progress, if it is ``seat``'s (rule jsmn.turn.order)."""
    turn = state.turn
    if state.phase != "turn" or turn is None:
        raise refuse("no turn is being played: reveal this year's card of Marseilles first", "jsmn.year.sequence")
    if turn.seat != seat:
        raise refuse(f"it is {state.players[turn.seat]}'s turn", "jsmn.turn.order")
    return turn


def free_feat(state: JsmnState, fid: Any, seat: int | None = None) -> None:
    """Refuse a feat that is not a feat of magic or is already in front of a player or completed.

    The refusal names nobody (rule jsmn.companion.feat-refusals): the asker's own feat is named as theirs;
    any other feat out of the row gets one sentence, whoever holds it and whether it is completed (the row
    on the table shows that it is not there). Who took it is face-up at the table, but this answer does not
    need it; a correction's replay may name the later move that took it."""
    if not isinstance(fid, str) or fid not in FEATS:
        raise refuse(f"there is no feat of magic '{str(fid)[:40]}'", "jsmn.feat.take")
    if seat is not None and (fid in state.seats[seat].completed or state.seats[seat].tokens_on(fid) is not None):
        raise refuse(f"{FEATS[fid].name} is already yours: take another feat", "jsmn.feat.take")
    if fid in state.feats_out():
        raise refuse(f"{FEATS[fid].name} is not in the row of available feats: take one of the face-up feats",
                     "jsmn.companion.feat-refusals")


def draw_spell(state: JsmnState, seat: int) -> JsmnState:
    """Draw a spell if one is left: the game has 24, and the discard pile becomes the deck when it runs out
    (rule jsmn.spell.deck); with every spell in a hand or kept in front of a magician, nothing is drawn."""
    if state.spells_left() < 1:
        return state
    return state.with_seat(seat, spells=state.seats[seat].spells + 1)


def card_leaves_hand(state: JsmnState, card: str) -> JsmnState:
    """Note that the one copy of ``card`` was fulfilled this turn; refuse it if it already was (rule
    jsmn.cards.one-copy: it lies in the discard pile). A draw during the turn forgets the list, since a
    deck that ran out is reshuffled from that pile. (A card discarded to do magic is reported for its
    element only, so it is not checked.)"""
    turn = state.turn
    if turn is None:
        return state
    if card in turn.cards_played:
        name = (INVITATIONS[card].name if card in INVITATIONS else INTRODUCTIONS[card].name)
        raise refuse(f"{name} was already fulfilled this turn: the game has one {name} card, now in the discard pile",
                     "jsmn.cards.one-copy")
    return replace(state, turn=replace(turn, cards_played=turn.cards_played + (card,)))


def drew_cards(state: JsmnState) -> JsmnState:
    """A card was drawn during the turn: a reshuffled discard pile may have brought a played card back."""
    turn = state.turn
    return state if turn is None or not turn.cards_played else replace(state, turn=replace(turn, cards_played=()))


def has_connexion(state: JsmnState, seat: int, kind: str) -> bool:
    turn = state.turn
    borrowed = turn is not None and turn.seat == seat and turn.borrowed == kind
    return state.seats[seat].has(kind) or borrowed


def gain_prestige(state: JsmnState, seat: int, amount: int) -> JsmnState:
    """Move ``seat``'s disc up, on top of any stack where it lands, and count the connexions it earns
    (rules jsmn.prestige.stack, jsmn.connexion.gain; the track ends at its last space, where a disc that
    cannot rise does not move and keeps its place in the stack, rule jsmn.prestige.track-end)."""
    if amount <= 0:
        return state
    here = state.seats[seat]
    after = min(TRACKS.prestige_length, here.prestige + amount)
    if after == here.prestige and not state.legacy_cap_stack:
        return state    # on the last space already: the disc does not move, so it keeps its place in the stack
    clock = state.clock + 1
    state = replace(state.with_seat(seat, prestige=after, arrival=clock), clock=clock)
    turn = state.turn
    if turn is not None and turn.seat == seat:
        room = CONNEXION_DISCS - len(here.connexions) - turn.pending
        gained = max(0, min(TRACKS.connexions_passed(here.prestige, after), room))
        state = replace(state, turn=replace(turn, pending=turn.pending + gained))
    return state


def take_book(state: JsmnState, seat: int, move: Mapping[str, Any], rule_id: str,
              reveal_field: str = "reveal") -> JsmnState:
    """Take a book from the row and reveal the reported replacement into the slot by the fairy track."""
    book = field(move, "book")
    if book not in state.book_row:
        raise refuse(f"'{book[:40]}' is not one of the available books of magic", rule_id)
    row = tuple(b for b in state.book_row if b != book)
    here = state.seats[seat]
    state = replace(state.with_seat(seat, books=here.books + (book,)), book_row=row)
    unseen = state.books_unseen()
    reveal = field(move, reveal_field, required=bool(unseen))
    if reveal is not None:
        if reveal not in unseen:
            raise refuse(f"'{reveal[:40]}' is not a book left in the deck", rule_id)
        discard = () if reveal in state.book_discard else state.book_discard  # the pile became the deck
        state = replace(state, book_row=row + (reveal,), book_discard=discard)
    return state


# -- doing magic ---------------------------------------------------------------------------------------

def start_magic(state: JsmnState, seat: int) -> JsmnState:
    """The turn moves on to doing magic (no more visits after it: rule jsmn.turn.steps)."""
    turn = on_turn(state, seat)
    if turn.step == "action":
        raise refuse("choose an action or still the waters first", "jsmn.turn.steps")
    return state if turn.step == "magic" else replace(state, turn=replace(turn, step="magic"))


def discard_card(state: JsmnState, seat: int, card: Any) -> tuple[JsmnState, str]:
    """Discard an invitation or introduction from ``seat``'s hand; its element."""
    here = state.seats[seat]
    if isinstance(card, str) and card in INVITATIONS:
        if here.invitations < 1:
            raise refuse("you hold no invitation", "jsmn.hand.count")
        return state.with_seat(seat, invitations=here.invitations - 1), INVITATIONS[card].element
    if isinstance(card, str) and card in INTRODUCTIONS:
        if here.introductions < 1:
            raise refuse("you hold no introduction", "jsmn.hand.count")
        return state.with_seat(seat, introductions=here.introductions - 1), INTRODUCTIONS[card].element
    raise refuse(f"'{str(card)[:40]}' is not an invitation or introduction", "jsmn.magic.discard")


def place(state: JsmnState, seat: int, element: Any, fid: Any, *, anything: bool = False) -> JsmnState:
    """Place one ``element`` token on ``seat``'s feat ``fid``; complete the feat when it is exact."""
    if element not in ELEMENTS:
        raise refuse(f"'{str(element)[:40]}' is not an element", "jsmn.magic.place")
    if not anything and element not in state.available_elements():
        raise refuse(f"{element} is not available this turn (card of Marseilles, study or unique action)",
                     "jsmn.magic.available")
    here = state.seats[seat]
    tokens = here.tokens_on(fid) if isinstance(fid, str) else None
    if tokens is None and isinstance(fid, str) and fid in here.completed:  # (a book's first token completed it)
        raise refuse(f"{FEATS[fid].name} is complete: it takes no more tokens", "jsmn.magic.exact")
    if tokens is None:
        raise refuse("place tokens on a feat of magic in front of you", "jsmn.magic.place")
    need = FEAT_NEEDS[fid].get(element, 0)
    if tokens.count(element) >= need:
        raise refuse(f"{FEATS[fid].name} takes no more {element}", "jsmn.magic.exact")
    if state.supply()[element] < 1:
        raise refuse(f"no {element} tokens are left in the supply", "jsmn.magic.supply")
    tokens = tuple(sorted(tokens + (element,)))
    done = sum(FEAT_NEEDS[fid].values()) == len(tokens)
    feats = tuple((f, tokens if f == fid else t) for f, t in here.feats if not (done and f == fid))
    state = state.with_seat(seat, feats=feats, completed=here.completed + ((fid,) if done else ()))
    return draw_spell(state, seat) if done else state


def magic(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    card = field(move, "card")
    state, element = discard_card(state, seat, card)
    return place(state, seat, element, field(move, "feat"))


def use_book(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    book_id = field(move, "book")
    here = state.seats[seat]
    turn = state.turn
    assert turn is not None
    if book_id not in here.books:
        raise refuse("use a book of magic in front of you", "jsmn.book.use")
    if turn.books_used.count(book_id) >= turn.book_uses:
        raise refuse(f"{BOOKS[book_id].name} is face down: used already this turn", "jsmn.book.once")
    book = BOOKS[book_id]
    card = field(move, "card")
    state, discarded = discard_card(state, seat, card)
    if book.form in ("double", "any") and discarded != book.element:
        raise refuse(f"{book.name} needs a {book.element} card", "jsmn.book.forms")
    feats = field(move, "feats", list)
    if book.form == "double":
        elements = [book.element, book.element]
    elif book.form == "any":
        elements = [field(move, "element")]
    else:
        elements = [book.element]
    if len(feats) < len(elements):  # (fewer: a token with nowhere to go; ordinary magic places the one)
        raise refuse(f"{book.name} places {len(elements)} tokens: name a feat for each. If only one has a feat to "
                     "go on, do magic with the card instead: it places one token", "jsmn.book.every-token")
    if len(feats) != len(elements):
        raise refuse(f"{book.name} places {len(elements)} token(s): name a feat for each", "jsmn.book.forms")
    for element, fid in zip(elements, feats, strict=True):
        state = place(state, seat, element, fid)
    return replace(state, turn=replace(turn, books_used=turn.books_used + (book_id,)))


def street_magic(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    if not has_connexion(state, seat, "street-magician"):
        raise refuse("only a magician with the Street Magician connexion may do this", "jsmn.connexion.street-magician")
    cards = field(move, "cards", list)
    if len(cards) != 2:
        raise refuse("discard exactly two cards of the same element", "jsmn.connexion.street-magician")
    state, first = discard_card(state, seat, cards[0])
    state, second = discard_card(state, seat, cards[1])
    if first != second:
        raise refuse("the two cards must show the same element", "jsmn.connexion.street-magician")
    return place(state, seat, field(move, "element"), field(move, "feat"))


def place_token(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    turn = state.turn
    assert turn is not None
    if not turn.free_tokens:
        raise refuse("no spell or connexion has given you a token to place", "jsmn.magic.spell-elements")
    element = field(move, "element")
    credit = next((c for c in turn.free_tokens if c == "available" or element in c.split(",")), None)
    if credit is None:
        raise refuse(f"the token you were given cannot be {element[:20]}", "jsmn.spell.daedaluss-rose")
    rest = list(turn.free_tokens)
    rest.remove(credit)
    state = place(state, seat, element, field(move, "feat"), anything=credit != "available")
    return replace(state, turn=replace(state.turn or turn, free_tokens=tuple(rest)))


def advisor(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    turn = on_turn(state, seat)
    if not has_connexion(state, seat, "advisor"):
        raise refuse("only a magician with the Advisor connexion may do this", "jsmn.connexion.advisor")
    if turn.advisor_used:
        raise refuse("the Advisor helps once a turn", "jsmn.connexion.advisor")
    card = field(move, "card")
    state, _ = discard_card(state, seat, card)
    here = state.seats[seat]
    state = state.with_seat(seat, invitations=here.invitations + 1) if card in INVITATIONS else \
        state.with_seat(seat, introductions=here.introductions + 1)
    state = drew_cards(state)
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, advisor_used=True))


def discard_spell(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    on_turn(state, seat)
    here = state.seats[seat]
    if here.spells < 1:
        raise refuse("you hold no spell", "jsmn.hand.count")
    return gain_prestige(state.with_seat(seat, spells=here.spells - 1), seat, LIMITS.spell_discard_prestige)


# -- the end of a turn ---------------------------------------------------------------------------------

def drawn_this_year(state: JsmnState) -> int:
    """The invitations a turn draws at its end this year (the card of Marseilles says how many)."""
    card = state.card
    return card.invitations if card is not None else 0


def hand_discards(state: JsmnState, seat: int) -> int:
    """Cards ``seat`` must discard at the end of this turn, after drawing this year's invitations."""
    return max(0, state.seats[seat].hand + drawn_this_year(state) - LIMITS.hand_limit)


def end_turn(state: JsmnState, seat: int, move: Mapping[str, Any]) -> JsmnState:
    turn = on_turn(state, seat)
    if turn.step == "action":
        raise refuse("choose an action or still the waters first", "jsmn.turn.steps")
    if state.year in TRACKS.raven_years and magicianship(state.seats[seat]) >= state.fairy:
        # the game ends at the confrontation, before the hand is tidied (jsmn.fairy.defeat): a discard sent with
        # it is passed over, as nobody at the table tidies a hand once the fairy is defeated. (Refused, it told
        # whoever corrected an earlier card of Marseilles that this magician's hidden magicianship now beat the
        # fairy, without changing anything.) A discard of cards the hand would not hold is refused as ever.
        invitations, introductions = _discard_counts(move)
        here = state.seats[seat]
        held = here.invitations + drawn_this_year(state)
        if invitations > held or introductions > here.introductions:
            raise refuse(f"the hand holds {held} invitation(s) and {here.introductions} introduction(s) to discard "
                         "from", "jsmn.hand.limit")
        return replace(state, phase="over", defeated_by=seat, played=state.played + (seat,), turn=None)
    here = state.seats[seat]
    state = state.with_seat(seat, invitations=here.invitations + drawn_this_year(state))
    state = _hand_limit(state, seat, move, max(0, state.seats[seat].hand - LIMITS.hand_limit))
    here = state.seats[seat]
    if has_connexion(state, seat, "man-of-business") and here.hand < LIMITS.hand_limit:
        state = state.with_seat(seat, invitations=here.invitations + 1)
    covered = here.covered
    if turn.action not in (None, "still") and turn.action not in covered:
        covered = covered + (turn.action,)
    state = replace(state.with_seat(seat, covered=covered), played=state.played + (seat,), turn=None)
    return next_turn(state)


def _discard_counts(move: Mapping[str, Any]) -> tuple[int, int]:
    """The invitations and introductions an end of turn's ``discard`` names (none: 0 and 0); refused when they
    are no whole numbers."""
    discard = move.get("discard") or {}
    if not isinstance(discard, Mapping):
        raise IllegalMove("'discard' must be an object such as {\"invitations\": 1, \"introductions\": 0}", None)
    invitations = discard.get("invitations", 0)
    introductions = discard.get("introductions", 0)
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (invitations, introductions)):
        raise IllegalMove("discard counts must be whole numbers", None)
    return invitations, introductions


def _hand_limit(state: JsmnState, seat: int, move: Mapping[str, Any], excess: int) -> JsmnState:
    here = state.seats[seat]
    invitations, introductions = _discard_counts(move)
    if invitations + introductions != excess or invitations > here.invitations or introductions > here.introductions:
        raise refuse(f"discard exactly {excess} card(s) to keep five invitations and introductions",
                     "jsmn.hand.limit")
    return state.with_seat(seat, invitations=here.invitations - invitations,
                           introductions=here.introductions - introductions)


def next_turn(state: JsmnState) -> JsmnState:
    """The next player in order who has not played this year, else the next year's preparation or the end."""
    waiting = state.still_to_play()
    if waiting:
        return replace(state, turn=Turn(seat=waiting[0]))
    if state.year >= TRACKS.last_year:
        return replace(state, phase="over")
    return replace(state, phase="preparation", prepared=False)


MAGIC_MOVES: dict[str, Callable[[JsmnState, int, Mapping[str, Any]], JsmnState]] = {
    "magic": magic, "use_book": use_book, "street_magic": street_magic, "place_token": place_token,
    "advisor": advisor, "discard_spell": discard_spell, "end_turn": end_turn,
}
