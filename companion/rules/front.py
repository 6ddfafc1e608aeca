"""What a game's rules front offers shared code: the :class:`Rules` protocol (typed, checked when loaded).

A game's front is a plain module (``companion/rules/<game>/game.py``, or the whole game in one module):
``GameSpec.rules_module`` names it and :meth:`GameSpec.rules` imports it on first use and checks that it has
every member below, so shared code calls a typed front and never asks ``hasattr``. A hook a game may not
need has a typed default in :mod:`companion.rules.base` that the front re-exports (``no_choices`` as
``choices``, ``never_stalled`` as ``stalled``, ``scored_totals`` as ``charted_totals``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence, runtime_checkable

if TYPE_CHECKING:
    from .base import Outcome
    from .choices import Choice
    from .spec import GameSpec


@runtime_checkable
class Rules(Protocol):
    """A game's rules front. States are the game's own frozen dataclasses (``Any`` here)."""

    SPEC: GameSpec
    GAME_ID: str
    TITLE: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    MOVE_TYPES: Mapping[str, str]
    OPTIONS: Mapping[str, str]

    def setup(self, players: Sequence[str], options: Mapping[str, Any] | None = None,
              rng: random.Random | None = None) -> Any: ...

    def apply(self, state: Any, seat: int, move: Mapping[str, Any]) -> Any: ...

    def view(self, state: Any, seat: int | None = None) -> dict[str, Any]: ...

    def score(self, state: Any) -> list[dict[str, Any]]: ...

    def outcome(self, state: Any) -> Outcome: ...

    def advice(self, state: Any, seat: int) -> list[dict[str, Any]]: ...

    def redact_move(self, move: Mapping[str, Any], actor: int, viewer: int | None) -> dict[str, Any]: ...

    def describe_move(self, move: Mapping[str, Any], actor: int, names: Sequence[str]) -> str: ...

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def random_legal_move(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any] | None: ...

    #: the moves the seat may make now (default :func:`~companion.rules.base.no_choices`: none listed)
    def choices(self, state: Any, seat: int) -> list[Choice]: ...

    #: a dead end nobody wins (asked only when ``SPEC.can_stall``; default never)
    def stalled(self, state: Any) -> bool: ...

    #: the totals the result chart plots after a move, in seat order, from the state and its ``score`` rows
    #: (default :func:`~companion.rules.base.scored_totals`: the rows' totals). A game whose final totals are
    #: typed in and reviewed counts them once the table confirmed them: a total sent back was never the game's.
    def charted_totals(self, state: Any, rows: Sequence[Mapping[str, Any]]) -> list[int]: ...


#: the members every front must have: the protocol's constants and functions, in declared order
MEMBERS: tuple[str, ...] = (*Rules.__annotations__,
                            *(name for name, value in vars(Rules).items() if callable(value) and not name.startswith("_")))


def missing_members(front: object) -> list[str]:
    """The protocol's members ``front`` lacks (empty: it is a :class:`Rules`)."""
    return [name for name in MEMBERS if not hasattr(front, name)]


__all__ = ["MEMBERS", "Rules", "missing_members"]
