"""Magicians of Fillory: applying one reported move to the state (turn steps, abilities, score, end).

``apply`` is pure: it copies the state into a :class:`Board`, checks the move against the rules and
returns a new frozen state, or raises :class:`IllegalMove` with a sentence and a rule id from
``data/fillory/rules.toml`` (rule None for a malformed move). Card tricks live in fillory.tricks.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from cardgen.catalog.fillory import AbilityOption

from ..base import IllegalMove, field, referee
from . import SPEC
from .play import stalled
from .state import (
    GAME,
    STEPS,
    Board,
    FilloryState,
    LedgerEntry,
    card_id,
    name,
    not_at,
    rule_for_trick,
    trait_of,
)
from .tricks import apply_trick

MOVE_TYPES: dict[str, str] = SPEC.move_types

#: The steps in which each move type may be made (score and end_turn may also skip a spent action).
ALLOWED_STEPS: dict[str, tuple[str, ...]] = {
    "draw": ("draw",),
    "play": ("action",),
    "summon": ("ability",),
    "banish": ("ability",),
    "decline": ("ability",),
    "trick": ("trick",),
    "score": ("trick", "score"),
    "end_turn": ("trick", "score", "end"),
    "lose_card": ("score",),  # (only while a Religion or Threat trick waits: see lose_card)
}

PHASE_ORDER = "fillory.turn.phase-order"
LOCATION = "fillory.card.location"


def _ended(state: FilloryState) -> str | None:
    """Why the game is over (None while it goes on); a dead end (:func:`.play.stalled`) takes no move either."""
    if state.phase != "over":
        if stalled(state):
            return (f"no card is left to draw, play or score, so nobody can reach {GAME.victory_points} victory "
                    "points (a dead end)")
        return None
    winner = state.players[state.winner] if state.winner is not None else "someone"
    return f"{winner} reached {GAME.victory_points} victory points"


def _turn(state: FilloryState) -> int | None:
    """The active seat; None while the starting hands are dealt (every seat draws its own)."""
    return state.turn_seat if state.phase == "play" else None


def _apply(state: FilloryState, seat: int, move: Mapping[str, Any]) -> FilloryState:
    kind = move["type"]
    board = Board(state)
    if state.phase == "deal":
        if kind != "draw":
            raise IllegalMove(f"Every player first draws a starting hand of {GAME.starting_hand} cards; "
                              "the first turn starts after that.", "fillory.setup.deal")
        deal_draw(board, seat, move)
        return board.freeze()
    if kind == "lose_card" or board.loss is not None:
        lose_card(board, seat, move)  # (the only move while a card trick waits for its victim)
        return board.freeze()
    check_step(board, seat, kind)
    HANDLERS[kind](board, seat, move)
    return board.freeze()


# --- steps ---------------------------------------------------------------------------------------

def action_skippable(board: Board, seat: int) -> bool:
    """The action phase may be passed over only when the hand is empty: Time's extra one is an action phase too
    (rule fillory.trick.time: play another card from your hand)."""
    return board.step == "action" and board.count_at(f"hand:{seat}") == 0


def check_step(board: Board, seat: int, kind: str) -> None:
    step = board.step or "draw"
    allowed = ALLOWED_STEPS[kind]
    if step in allowed or (kind in ("score", "end_turn") and action_skippable(board, seat)):
        return
    if kind in ("summon", "banish", "decline"):
        raise IllegalMove("No special ability is waiting: an ability works only right after its card "
                          "is played from your hand.", "fillory.ability.when")
    if step == "ability":
        if kind in ("draw", "play"):
            raise IllegalMove(_too_late(kind, board), PHASE_ORDER)
        what = "the played card's ability"
        if board.pending is not None:
            played = GAME.card(board.pending)
            what = f"{played.name}'s ability ({GAME.ability_text(played)})"
        raise IllegalMove(f"First resolve {what} or decline it.", PHASE_ORDER)
    if STEPS.index(step) < STEPS.index(allowed[0]):
        if step == "draw":
            raise IllegalMove("Draw your card first: every turn starts with the draw phase.", PHASE_ORDER)
        if board.extra_action and kind == "trick":
            raise IllegalMove("There is no second card trick: the Time trick gave you an extra action, "
                              "then comes the score phase.", PHASE_ORDER)
        raise IllegalMove("Play a card from your hand first: the action phase comes before the card trick, "
                          "score and end phases.", PHASE_ORDER)
    raise IllegalMove(_too_late(kind, board), PHASE_ORDER)


def _too_late(kind: str, board: Board) -> str:
    if kind == "draw":
        return "You have already drawn this turn; phases never go back."
    if kind == "play":
        return "You have already played your card this turn; phases never go back."
    if kind == "trick":
        return "The card trick phase is over for this turn; phases never go back."
    return "You have already scored this turn; only ending the turn is left."


def after_ability(board: Board) -> None:
    board.pending = None
    board.step = "score" if board.extra_action else "trick"


def start_turn(board: Board, seat: int) -> None:
    board.turn_seat = seat
    board.turn_number += 1
    board.extra_action = False
    board.pending = None
    nothing_to_draw = "deck" not in board.locations and "discard" not in board.locations
    board.step = "action" if nothing_to_draw else "draw"


# --- handlers ------------------------------------------------------------------------------------

def draw_one(board: Board, seat: int, card: str) -> None:
    """Move ``card`` from the deck into ``seat``'s hand, reshuffling the discard pile if the deck is empty."""
    if "deck" not in board.locations:
        if "discard" not in board.locations:
            raise IllegalMove("The deck and the discard pile are both empty: there is nothing to draw.",
                              "fillory.draw.reshuffle")
        board.reshuffle()
    if board.where(card) != "deck":
        raise not_at(card, "the deck", board, seat, LOCATION)
    board.move(card, f"hand:{seat}")


def deal_draw(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    card = card_id(field(move, "card"), "card")
    if board.count_at(f"hand:{seat}") >= GAME.starting_hand:
        raise IllegalMove(f"You already hold your {GAME.starting_hand} starting cards; the game starts "
                          "when everyone has drawn theirs.", "fillory.setup.deal")
    draw_one(board, seat, card)
    if all(board.count_at(f"hand:{s}") >= GAME.starting_hand for s in range(len(board.players))):
        board.phase = "play"
        board.turn_number = 0
        start_turn(board, board.state.first_seat)


def turn_draw(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    draw_one(board, seat, card_id(field(move, "card"), "card"))
    board.step = "action"


def play(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    card = card_id(field(move, "card"), "card")
    if board.where(card) != f"hand:{seat}":
        raise not_at(card, "your hand", board, seat, LOCATION)
    board.move(card, f"zone:{seat}")
    if GAME.card(card).ability:
        board.pending = card
        board.step = "ability"
    else:
        after_ability(board)


def _options(board: Board, action: str) -> tuple[AbilityOption, ...]:
    assert board.pending is not None
    return tuple(opt for opt in GAME.card(board.pending).ability if opt.action == action)


def _matching(board: Board, action: str, card: str) -> None:
    """Refuse ``card`` unless one of the waiting ability's ``action`` options names it or its trait."""
    pending = name(board.pending or "")
    options = _options(board, action)
    if not options:
        others = GAME.ability_text(GAME.card(board.pending or ""))
        raise IllegalMove(f"{pending}'s ability cannot {action} ({others}).", "fillory.ability.target")
    traits = GAME.card(card).traits
    if not any(opt.target == card if opt.kind == "card" else opt.target in traits for opt in options):
        labels = " or ".join(opt.label(GAME) for opt in options)
        raise IllegalMove(f"{pending}'s ability can {action} {labels}; {name(card)} does not match.",
                          "fillory.ability.target")


def summon(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    card = card_id(field(move, "card"), "card")
    destination = field(move, "to")
    if destination not in ("hand", "zone"):
        raise IllegalMove("field 'to' must be 'hand' or 'zone'", None)
    _matching(board, "summon", card)
    if board.where(card) == f"zone:{seat}":
        raise IllegalMove(f"{name(card)} is already in your control zone; summon takes a card from "
                          "anywhere else.", "fillory.summon")
    board.move(card, f"{destination}:{seat}")
    after_ability(board)


def banish(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    card = card_id(field(move, "card"), "card")
    _matching(board, "banish", card)
    place = board.where(card)
    if place != "neutral" and not (place.startswith("zone:") and place != f"zone:{seat}"):
        raise not_at(card, "the neutral zone or an opponent's control zone (the only places banish "
                     "reaches)", board, seat, "fillory.banish")
    board.move(card, "discard")
    after_ability(board)


def decline(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    after_ability(board)


def trick(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    kind = apply_trick(board, seat, move)
    if board.phase == "over":
        return
    if kind == "extra_action":
        board.extra_action = True
        board.step = "action"
    else:
        board.step = "score"


def score(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    trait = trait_of(field(move, "trait"))
    if not trait.scorable:
        raise IllegalMove(f"The {trait.name} trait can never be scored.", "fillory.score.no-character")
    done = {e.trait: e.points for e in board.ledger[seat] if e.kind == "score"}
    if trait.name in done:
        raise IllegalMove(f"You already scored {trait.name} ({done[trait.name]} VP); each trait scores "
                          "only once per player.", "fillory.score.once")
    count = board.count_with(f"zone:{seat}", trait.name)
    if count == 0:
        raise IllegalMove(f"No card in your control zone has the trait {trait.name}, so it would score "
                          "nothing.", "fillory.score.empty")
    board.step = "end"
    board.award(seat, LedgerEntry("score", trait.name, count, count * count))


def end_turn(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    refs = field(move, "discard", list, required=False, default=[])
    discards = [card_id(ref, "discard") for ref in refs]
    if len(set(discards)) != len(discards):
        raise IllegalMove("field 'discard' lists the same card twice", None)
    for card in discards:
        if board.where(card) != f"hand:{seat}":
            raise not_at(card, "your hand", board, seat, LOCATION)
    held = board.count_at(f"hand:{seat}")
    excess = max(0, held - GAME.hand_limit)
    left = held - len(discards)
    if left > GAME.hand_limit:
        raise IllegalMove(f"You may keep at most {GAME.hand_limit} cards at the end of your turn: discard "
                          f"{left - GAME.hand_limit} more (you would still hold {left}).", "fillory.end.hand-limit")
    if len(discards) > excess:  # "discard excess cards": exactly the cards over the limit, no more
        what = f"exactly {excess}" if excess else "none"
        raise IllegalMove(f"You hold {held} cards, so you discard {what} at the end of your turn (only the cards "
                          f"over {GAME.hand_limit}), not {len(discards)}.", "fillory.end.hand-limit")
    for card in discards:
        board.move(card, "discard")
    start_turn(board, (seat + 1) % len(board.players))


def lose_card(board: Board, seat: int, move: Mapping[str, Any]) -> None:
    """The victim of a Religion or Threat trick says which card left their hand (FilloryState.loss): to the
    thief's hand or to the discard pile. Nothing else is taken until they have."""
    if board.loss is None:
        raise IllegalMove("No card trick is waiting for a card from your hand.", PHASE_ORDER)
    victim, trait = board.loss
    rule = rule_for_trick(trait)
    if move.get("type") != "lose_card" or seat != victim:
        raise IllegalMove(f"First {board.players[victim]} says which card the {trait} trick took from their "
                          "hand (on their own phone: only they know).", rule)
    card = card_id(field(move, "card"), "card")
    if board.where(card) != f"hand:{seat}":
        raise not_at(card, "your hand", board, seat, LOCATION)
    effect = GAME.trait(trait).trick
    stolen = effect is not None and effect.kind == "steal_random"
    board.move(card, f"hand:{board.turn_seat}" if stolen else "discard")
    board.loss = None


HANDLERS: dict[str, Callable[[Board, int, Mapping[str, Any]], None]] = {
    "draw": turn_draw, "play": play, "summon": summon, "banish": banish, "decline": decline,
    "trick": trick, "score": score, "end_turn": end_turn, "lose_card": lose_card,
}

#: The state after ``seat`` makes ``move``; raises IllegalMove (rule, seat and move set) and leaves ``state``
#: untouched. The base checks the move type, its fields, the seat, the end and the turn first.
apply = referee(SPEC, _apply, over=_ended, turn=_turn,
               rule_when_over=lambda state: "fillory.game.over" if state.phase == "over" else "fillory.game.dead-end")
