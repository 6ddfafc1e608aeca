"""Mandragora: what follows a move — the Curse marker, the team option, the next turn and the countdown."""

from __future__ import annotations

from .state import CARD, Board, Pending


def recompute_curse(board: Board, causer: int, changed: set[int]) -> None:
    """Check who is cursed after a sorcerer gained or lost cursed scrolls (mandragora.curse.most, .tie, .nobody).

    The rulebook checks every time anyone gains or loses scrolls: a unique most-cursed seat takes the
    marker; with no curses at all nobody holds it. On a tie the holder gives it to one of the *other*
    tied sorcerers (to one of the tied when the holder is no longer among them): at once when only one
    can take it, otherwise as a pending choice of the holder (of ``causer`` if nobody held it) that
    play waits for, the end of the game included. A tie the change did not reach is no exception: the
    rulebook checks on every change, so the holder passes the marker then too. (A game stored before
    format 2, ``legacy_tie``, keeps its old reading: a tie no ``changed`` seat is among left the marker.)
    """
    curses = [sum(CARD[s].curses for s in scrolls) for scrolls in board.scrolls]
    most = max(curses)
    board.pending = [p for p in board.pending if p.kind != "curse_marker"]
    if most == 0:
        board.curse_holder = None
        return
    leaders = [seat for seat, count in enumerate(curses) if count == most]
    holder = board.curse_holder
    if len(leaders) == 1:
        board.curse_holder = leaders[0]
        return
    if board.state.legacy_tie and holder in leaders and not changed & set(leaders):
        return
    candidates = [seat for seat in leaders if seat != holder]
    if len(candidates) == 1:
        board.curse_holder = candidates[0]
        return
    chooser = holder if holder is not None else causer
    board.pending.insert(0, Pending("curse_marker", chooser, tuple(candidates)))


def give_scrolls(board: Board, seat: int, scrolls: list[str], causer: int) -> None:
    """Lay scrolls in front of ``seat``, re-check the curse, and offer the team option (mandragora.team.exchange)."""
    if not scrolls:
        return
    board.scrolls[seat].extend(scrolls)
    recompute_curse(board, causer, {seat, causer})
    partner = board.state.partner(seat)
    if partner is not None:
        board.pending.append(Pending("team_help", seat, partner=partner))


def start_countdown_if_deck_empty(board: Board, seat: int) -> None:
    """The deck ran out during ``seat``'s turn: the countdown starts with the next seat (mandragora.end.countdown)."""
    if board.deck_count == 0 and board.countdown_seat is None:
        board.countdown_seat = (seat + 1) % len(board.state.players)
        board.countdown_marker = "pending"


def _enter_reckoning(board: Board) -> None:
    board.phase = "reckoning"
    board.turn_seat = None
    board.extra_turn = False


def end_turn(board: Board) -> None:
    """Pass the turn once the move and every choice it caused are done.

    A Replication keeps the turn with the same seat (``extra_turn``). Otherwise play passes clockwise
    to the next seat still in the game; passing the countdown seat's place flips the marker
    pending → III → II → final, and passing it once more ends the game, as does everyone dropping out.
    """
    if board.phase != "play" or board.pending or board.turn_seat is None:
        return
    seat = board.turn_seat
    if board.grant_extra_turn and not board.dropped[seat]:
        board.extra_turn = True
        board.turn_number += 1
        return
    board.extra_turn = False
    if all(board.dropped):
        _enter_reckoning(board)
        return
    count = len(board.state.players)
    position = seat
    while True:
        position = (position + 1) % count
        if position == board.countdown_seat and board.countdown_marker is not None:
            if board.countdown_marker == "final":
                _enter_reckoning(board)
                return
            board.countdown_marker = {"pending": "III", "III": "II", "II": "final"}[board.countdown_marker]
        if not board.dropped[position]:
            break
    board.turn_seat = position
    board.turn_number += 1
