"""Mandragora: ``apply`` — whose move it is, seeking, pending choices, dropping out, hand notes, the reckoning."""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, NoReturn, Sequence

from cardgen.catalog.mandragora import WHITE

from ..base import IllegalMove, field, referee
from . import SPEC
from .cast import cast
from .state import (
    BLACK_BOOK,
    COLOUR_COPIES,
    GAME,
    HAND_COLOUR_IDS,
    INGREDIENT_COLOURS,
    INGREDIENT_COPIES,
    ITEMS,
    MANDRAKE,
    MANDRAKES,
    SHOP_COUNT,
    Board,
    MandragoraState,
    scroll_id,
    seat_field,
    shop_index,
    shop_label,
)
from .text import plural
from .turns import end_turn, give_scrolls, start_countdown_if_deck_empty

MOVE_TYPES: dict[str, str] = SPEC.move_types
TURN_MOVES = ("seek", "cast", "decline_extra_turn", "drop_out")
TEAM_KINDS = ("give", "receive", "exchange", "none")
#: Card ids a hand note may name (items that can be in a hand: no scrolls).
NOTE_CARDS: dict[str, str] = {c.id: c.kind for c in ITEMS if c.kind != "cursed_scroll"}


def _ended(state: MandragoraState) -> str | None:
    """Why the game is over (None while it goes on)."""
    if state.phase != "over":
        return None
    from .game import (
        outcome,  # the front's outcome: scores every hand, only needed for this refusal
    )

    return outcome(state).reason or "every hand is revealed and scored"


def _turn(state: MandragoraState) -> int | None:
    """The seat whose turn it is; None in the reckoning and while a choice waits (others make those)."""
    return None if state.phase == "reckoning" or state.pending else state.turn_seat


def _apply(state: MandragoraState, seat: int, move: Mapping[str, Any]) -> MandragoraState:
    kind = move["type"]
    board = Board(state)
    if kind == "note_hand":
        _note_hand(board, seat, move)
        return board.freeze()
    if state.phase == "reckoning":
        if kind != "reveal_hand":
            raise IllegalMove("the game has ended: every sorcerer now reveals the colours left in hand",
                              "mandragora.end.game-over")
        _reveal(board, seat, move)
        return board.freeze()
    if kind == "reveal_hand":
        raise IllegalMove("hands are revealed only once the game has ended", "mandragora.end.reveal")
    if state.pending:
        _pending_move(board, seat, kind, move)
        end_turn(board)
        return board.freeze()
    if kind == "pass_curse_marker":
        if not state.legacy_tie:
            _refuse_free_pass(state)
        _legacy_pass(board, seat, move)
        return board.freeze()
    if kind == "team_help":
        raise IllegalMove("you may help your partner only right after you receive cursed scrolls in the team game",
                          "mandragora.team.exchange")
    if kind == "decline_extra_turn":
        if not state.extra_turn:
            raise IllegalMove("you have no extra turn from Replication to give up", "mandragora.effect.replication")
    elif kind == "drop_out":
        if state.countdown_marker not in ("III", "II", "final"):
            raise IllegalMove("you may drop out only during the last three rounds", "mandragora.end.drop-out")
        board.dropped[seat] = True
    elif kind == "seek":
        _seek(board, seat, move)
    else:
        cast(board, seat, move)
    end_turn(board)
    return board.freeze()



#: The state after ``seat`` makes ``move``; IllegalMove (rule, seat and move set) if the rules forbid it. The
#: base checks the move type, its fields, the seat, the end (a hand note is still taken) and the turn first.
apply = referee(SPEC, _apply, over=_ended, turn=_turn)

def _seek(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    """Move the Assistant, take the cards there, restock the shops passed (mandragora.seek.*)."""
    state = board.state
    reach = state.move_range(seat)
    steps = field(move, "steps", int)
    if not 1 <= steps <= reach:
        rule = "mandragora.effect.swiftness" if state.swiftness(seat) else "mandragora.seek.move"
        raise IllegalMove(f"the Assistant moves 1 to {reach} shops clockwise, not {steps}", rule)
    destination = (state.assistant + steps) % SHOP_COUNT
    if move.get("shop") is not None and shop_index(state, move["shop"], "shop") != destination:
        raise IllegalMove(f"{steps} shop{'s' * (steps != 1)} on from the Assistant is the "
                          f"{shop_label(state, destination)}", "mandragora.seek.move")
    refs = field(move, "scrolls", list, required=False, default=[])
    cards = board.shop_cards[destination]
    if len(refs) > cards:
        raise IllegalMove(f"the {shop_label(state, destination)} holds {cards} card{'s' * (cards != 1)}, "
                          f"not {len(refs)} cursed scrolls", "mandragora.seek.scrolls")
    free = [c.id for c in state.free_scrolls()]
    scrolls: list[str] = []
    for ref in refs:
        scrolls.append(scroll_id(ref, [s for s in free if s not in scrolls], "scrolls", "mandragora.seek.scrolls",
                                 "still in the deck or at a shop"))
    others = cards - len(scrolls)
    items_left = state.pool() - len(free)
    if others > items_left:
        need = cards - items_left
        raise IllegalMove(f"only {items_left} of the {state.pool()} cards at the shops and in the deck are not "
                          f"cursed scrolls, so at least {need} of the {cards} cards taken here must be cursed "
                          f"scrolls, not {len(scrolls)}", "mandragora.seek.scrolls")
    board.shop_cards[destination] = 0
    board.hand_counts[seat] += others
    for i in range(steps):
        if board.deck_count == 0:
            break
        board.shop_cards[(state.assistant + i) % SHOP_COUNT] += 1
        board.deck_count -= 1
    board.assistant = destination
    start_countdown_if_deck_empty(board, seat)
    give_scrolls(board, seat, scrolls, causer=seat)


def _refuse_free_pass(state: MandragoraState) -> NoReturn:
    """The marker moves only at a check (rule mandragora.curse.tie): a pass with no pending tie is refused."""
    holder = state.curse_holder
    who = "Nobody holds the Curse marker" if holder is None else f"{state.players[holder]} keeps the Curse marker"
    raise IllegalMove(f"{who} until a sorcerer gains or loses cursed scrolls: the marker is passed only on the "
                      "tie that such a change leaves, and then the companion asks for it", "mandragora.curse.tie")


def _legacy_pass(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    """A game stored before format 2: the holder, still tied for the most, may pass the marker at will (the
    reading that game began with, so its log replays)."""
    state = board.state
    holder = state.curse_holder
    if holder is None or seat != holder:
        _refuse_free_pass(state)
    curses = [state.curses(s) for s in range(len(state.players))]
    tied = [s for s, count in enumerate(curses) if count == max(curses) and s != holder]
    if curses[holder] < max(curses) or not tied:
        _refuse_free_pass(state)
    to = seat_field(state, move, "to")
    if to not in tied:
        raise IllegalMove(f"the Curse marker goes to {_or([state.players[s] for s in tied])}, tied for the most "
                          "curses", "mandragora.curse.tie")
    board.curse_holder = to


def _or(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _pending_move(board: Board, seat: int, kind: str, move: Mapping[str, Any]) -> None:
    """The choice the game waits for (``state.pending[0]``); any other move is refused naming that choice in
    table words, with ``IllegalMove.pending`` saying which seat must make which move first."""
    state = board.state
    waiting = state.pending[0]
    who = state.players[waiting.seat]
    if waiting.kind == "curse_marker":
        names = _or([state.players[s] for s in waiting.candidates])
        if seat != waiting.seat or kind != "pass_curse_marker":
            raise IllegalMove(f"first {who}, who holds the Curse marker, gives it to {names}: they are tied for "
                              "the most curses", "mandragora.curse.tie",
                              pending=pending_choice(state))
        to = seat_field(state, move, "to")
        if to not in waiting.candidates:
            raise IllegalMove(f"the Curse marker goes to {names}, tied for the most curses", "mandragora.curse.tie")
        board.curse_holder = to
    else:
        if seat != waiting.seat or kind != "team_help":
            partner = state.players[waiting.partner] if waiting.partner is not None else "their partner"
            raise IllegalMove(f"first {who}, who just received cursed scrolls, chooses whether to give a card to "
                              f"{partner}, receive one, exchange one, or none", "mandragora.team.exchange",
                              pending=pending_choice(state))
        _team_help(board, seat, move, waiting.partner)
    board.pending.pop(0)


def pending_choice(state: MandragoraState) -> dict[str, Any] | None:
    """The choice the game waits for before any other move, or None: ``{"seat", "move", "choice", "rule",
    "title"}`` (the move type to send, the id of its :class:`Choice` in ``choices(state, seat)``, its rule
    and a sentence for the table). Public: everyone at the table sees a tie or a team's help being asked for."""
    if not state.pending or state.phase != "play":
        return None
    waiting = state.pending[0]
    who = state.players[waiting.seat]
    if waiting.kind == "curse_marker":
        names = _or([state.players[s] for s in waiting.candidates])
        return {"seat": waiting.seat, "move": "pass_curse_marker", "choice": "m-curse", "rule": "mandragora.curse.tie",
                "title": f"{who} gives the Curse marker to {names}"}
    partner = state.players[waiting.partner] if waiting.partner is not None else "their partner"
    return {"seat": waiting.seat, "move": "team_help", "choice": "m-team", "rule": "mandragora.team.exchange",
            "title": f"{who} chooses how to help {partner}"}


def _team_help(board: Board, seat: int, move: Mapping[str, Any], partner: int | None) -> None:
    help_kind = field(move, "kind", str)
    if help_kind not in TEAM_KINDS or partner is None:
        raise IllegalMove(f"field 'kind' must be one of {', '.join(TEAM_KINDS)}", None)
    hands = board.hand_counts
    names = board.state.players
    if help_kind in ("give", "exchange") and hands[seat] == 0:
        raise IllegalMove(f"{names[seat]} has no card in hand to {help_kind}", "mandragora.team.exchange")
    if help_kind in ("receive", "exchange") and hands[partner] == 0:
        raise IllegalMove(f"{names[partner]} has no card in hand to pass", "mandragora.team.exchange")
    if help_kind == "give":
        hands[seat] -= 1
        hands[partner] += 1
    elif help_kind == "receive":
        hands[seat] += 1
        hands[partner] -= 1


def note_token(ref: Any) -> str:
    """One hand-note entry in its stored form: an item card id, a colour id (an ingredient) or 'mandrake'.

    Accepted: item card ids (spellbook-yellow-2, ingredient-red-4, mandrake-3), colour ids or names
    for an ingredient of that colour (also 'ingredient-yellow'), 'mandrake', and 'black' for the
    black spellbook.
    """
    if not isinstance(ref, str) or not ref.strip():
        raise IllegalMove("every hand note entry must be a card id, a colour or 'mandrake'", None)
    text = ref.strip().casefold()
    if text.startswith("ingredient-") and text[len("ingredient-"):] in INGREDIENT_COLOURS:
        text = text[len("ingredient-"):]
    if text == "black":
        return BLACK_BOOK
    if text == MANDRAKE or text in INGREDIENT_COLOURS or text in NOTE_CARDS:
        return text
    card = GAME.find_card(text)
    if card is not None and card.kind == "cursed_scroll":
        raise IllegalMove("cursed scrolls never go into a hand: they lie in front of you", "mandragora.hand.note")
    try:
        colour = GAME.colour(text)
    except KeyError:
        raise IllegalMove(f"'{ref}' is not an item card id, an ingredient colour or 'mandrake'", None) from None
    if colour.id not in INGREDIENT_COLOURS:
        return BLACK_BOOK
    return colour.id


def note_bucket(token: str) -> str | None:
    """What a note entry uses up: its ingredient colour, "mandrake", or None (a spellbook)."""
    kind = NOTE_CARDS.get(token)
    if token == MANDRAKE or kind == "mandrake":
        return MANDRAKE
    if token in INGREDIENT_COLOURS:
        return token
    if kind == "ingredient":
        return GAME.card(token).colour
    return None


def note_room(state: MandragoraState) -> Counter[str]:
    """Ingredients of each colour and mandrakes that are neither cast nor in the box: at most this many in a hand."""
    room = Counter(INGREDIENT_COPIES[len(state.players)])
    room[MANDRAKE] = len(MANDRAKES)
    for casts in state.casts:
        for c in casts:
            for ingredient in c.ingredients:
                room[ingredient] -= 1
            if c.book == MANDRAKE:
                room[MANDRAKE] -= 1
    return room


def check_note(state: MandragoraState, seat: int, tokens: list[str]) -> None:
    """A note is at most the hand, names each card once, and only cards that can still be in a hand."""
    if len(tokens) > state.hand_counts[seat]:
        raise IllegalMove(f"the note lists {len(tokens)} cards but {state.players[seat]} has "
                          f"{state.hand_counts[seat]} in hand", "mandragora.hand.note")
    ids = [t for t in tokens if t in NOTE_CARDS]
    if len(set(ids)) != len(ids):
        raise IllegalMove("the note names the same card twice", "mandragora.hand.note")
    gone = state.cast_books() | state.removed()
    taken = sorted(t for t in ids if t in gone)
    if taken:
        raise IllegalMove(f"{taken[0]} is in a cast spell or back in the box", "mandragora.hand.note")
    noted = Counter(bucket for token in tokens if (bucket := note_bucket(token)) is not None)
    room = note_room(state)
    for what, count in sorted(noted.items()):
        if count > room[what]:
            raise IllegalMove(f"only {room[what]} {what} card{'s' * (room[what] != 1)} can still be in a hand",
                              "mandragora.hand.note")


def _note_hand(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    if board.state.phase == "over":
        raise IllegalMove("the game is over", "mandragora.end.game-over")
    tokens = [note_token(ref) for ref in field(move, "cards", list)]
    check_note(board.state, seat, tokens)
    board.hand_notes[seat] = tuple(tokens)


def colours_left(state: MandragoraState) -> Counter[str]:
    """Cards of each hand colour neither in a cast spell nor in the box: at most this many hands show it
    (the single black spellbook: one hand at most)."""
    used = state.cast_colours()
    copies = COLOUR_COPIES[len(state.players)]
    return Counter({c: copies[c] - used[c] for c in HAND_COLOUR_IDS})


def colour_conflict(state: MandragoraState, reveals: Sequence[Sequence[str] | None] | None = None) -> str | None:
    """Why the hands revealed (``reveals``, default the state's: all of them shown) cannot all be right, else
    None: the first colour more hands show than it has cards outside cast spells and the box. Said to every
    phone, since every hand is then shown (mandragora.end.colour-count)."""
    shown_by = state.reveals if reveals is None else reveals
    if not all(r is not None for r in shown_by):
        return None
    left = colours_left(state)
    for colour in HAND_COLOUR_IDS:
        shown = sum(colour in (r or ()) for r in shown_by)
        if shown > left[colour]:
            cards = f"only {left[colour]} {colour} card{'s' * (left[colour] != 1)} can" if left[colour] else \
                "no card of it can"
            return (f"the hands revealed show {colour} {plural(shown, 'time')}, but {cards} still be in a hand: whoever "
                    f"revealed {colour} wrongly corrects their reveal (on their own phone); the game ends once "
                    "the hands add up")
    return None


def available_colours(state: MandragoraState) -> list[str]:
    """Hand colours that can still be in some hand: not every card of the colour is cast or in the box."""
    left = colours_left(state)
    return [c for c in HAND_COLOUR_IDS if left[c] > 0]


def _reveal(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    state = board.state
    if state.reveals[seat] is not None:
        raise IllegalMove(f"{state.players[seat]} has already revealed their hand", "mandragora.end.reveal")
    raw = field(move, "colours", list)
    colours: list[str] = []
    for ref in raw:
        if not isinstance(ref, str) or not ref.strip():
            raise IllegalMove("every colour must be a colour id or 'white'", None)
        text = ref.strip().casefold()
        if text == MANDRAKE:
            text = WHITE
        if text != WHITE:
            try:
                text = GAME.colour(text).id
            except KeyError:
                raise IllegalMove(f"'{ref}' is not a colour: use {', '.join(HAND_COLOUR_IDS)}", None) from None
        if text in colours:
            raise IllegalMove(f"{text} is listed twice: name each colour once", "mandragora.end.reveal")
        colours.append(text)
    held = state.hand_counts[seat]
    if len(colours) > held or (held > 0) != bool(colours):
        raise IllegalMove(f"{state.players[seat]} has {held} card{'s' * (held != 1)} in hand, so "
                          f"{'no colour' if held == 0 else f'1 to {min(held, len(HAND_COLOUR_IDS))} colours'}",
                          "mandragora.end.reveal")
    boxed = [c for c in colours if COLOUR_COPIES[len(state.players)][c] == 0]
    if boxed:  # set by the number of players alone: no later correction changes it
        raise IllegalMove(f"no {boxed[0]} card can be in a hand: all of them are in the box in a game of "
                          f"{len(state.players)}", "mandragora.end.reveal")
    reveals = [*state.reveals[:seat], tuple(colours), *state.reveals[seat + 1:]]
    if all(r is not None for r in reveals):
        # the last hand shown: a colour every card of which is cast or boxed is refused (public: the casts are
        # on the table). A colour shown by more hands than it has cards left is NOT refused: the refusal told
        # the last sorcerer, before their own hand was shown, what the others had revealed (one refused tap a
        # colour). As at the table, where the hands are laid down at once, the reveal is taken, every hand is
        # shown, and the game ends only once the hands add up (colour_conflict; whoever revealed wrongly
        # corrects their reveal, on their own phone)
        possible = available_colours(state)
        gone = [c for c in colours if c not in possible]
        if gone:
            raise IllegalMove(f"no {gone[0]} card can be in a hand: all of them are in cast spells or in the box",
                              "mandragora.end.reveal")
    board.reveals[seat] = tuple(colours)
    if all(r is not None for r in board.reveals) and colour_conflict(state, board.reveals) is None:
        board.phase = "over"
