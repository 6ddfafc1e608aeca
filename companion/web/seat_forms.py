"""A seat's move forms, for every game: the rules' ``choices(state, seat)`` rendered by the shared templates.

The seat page (:mod:`companion.web.seat_context`) builds one :class:`SeatForms` per seat from what every game's
front gives (its choices, its advice, the move an undo would take back) and the game's declared page hooks
(:class:`~companion.web.games.GamePages`): ``headline`` (what to do now, in words; default
:func:`generic_headline`), ``note_move`` (a move type the game's seat template shows apart, as the seat's
private note) and ``compact_lists`` (long lists of picks sent once per page as data). Nothing here names a
game; a game's own seat template reads ``forms`` and adds only what is its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from companion.rules.choices import Choice

if TYPE_CHECKING:
    from companion.web.games import GamePages


@dataclass
class SeatForms:
    """The seat's move forms, as the rules' choices (rendered by templates/pages/_choice_forms.html)."""

    #: what this seat should do now, in one sentence
    headline: str
    #: the moves the seat may make now (without ``note``)
    choices: list[Choice] = field(default_factory=list)
    #: the seat's private-note form, shown apart by the game's seat template (``GamePages.note_move``), or None
    note: Choice | None = None
    #: the rules' advice for this seat (none once the game is over)
    advice: list[dict[str, Any]] = field(default_factory=list)
    #: the move an undo would take back, in words, or None
    undo_text: str | None = None
    #: long lists of picks are sent once per page as data (templates/pages/_choices.html, js/choice-lists.js)
    compact_lists: bool = False

    @property
    def has_forms(self) -> bool:
        return bool(self.choices)

    def offers(self, move_type: str) -> bool:
        """Whether one of the forms writes a move of ``move_type``."""
        return any(c.move == move_type for c in self.choices)


def generic_headline(context: Mapping[str, Any], moves: set[str]) -> str:
    """The default headline: the game is over, it is this seat's move, or it waits for the others."""
    if context["finished"]:
        return "The game is over: see the totals and the winner on the table."
    if moves:
        return "Your move: report it below."
    return "Nothing to report now: waiting for the other players."


def seat_forms(context: Mapping[str, Any], pages: GamePages) -> SeatForms:
    """The seat's forms from the seat page's context (``choices``, ``advice``, ``undo_text``, ``finished``)."""
    offered: list[Choice] = list(context["choices"])
    note = next((c for c in offered if c.move == pages.note_move), None) if pages.note_move else None
    moves = [c for c in offered if c is not note]
    return SeatForms(headline=pages.headline(context, {c.move for c in moves}), choices=moves, note=note,
                     advice=[] if context["finished"] else list(context["advice"]),
                     undo_text=context["undo_text"], compact_lists=pages.compact_lists)


__all__ = ["SeatForms", "generic_headline", "seat_forms"]
