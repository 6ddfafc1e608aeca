"""What every game's rules module shares: the move error, turn/seat/game-over checks, JSON helpers.

A rules module (one per game, e.g. ``companion.rules.fillory``) is a plain Python module with:

- ``GAME_ID``, ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``
- ``MOVE_TYPES: dict[str, str]`` — every move type with a one-line description (docs are tested)
- ``setup(players, options, rng) -> State`` — randomness only from the injected ``random.Random``
- ``apply(state, seat, move) -> State`` — pure; raises :class:`IllegalMove` naming the rule
- ``view(state, seat | None) -> dict`` — the only way state leaves the server; ``None`` is the
  public (table) view; every other seat's secrets are stripped
- ``score(state) -> list[dict]`` — per seat ``{"seat", "name", "total", "breakdown": [{"cause", "points"}]}``
- ``outcome(state) -> Outcome`` — over?, winner, and why
- ``advice(state, seat) -> list[dict]`` — "what could I do now?", best first
- ``redact_move(move, actor, viewer) -> dict`` — a logged move as ``viewer`` may see it
- ``describe_move(move, actor, names) -> str`` — one human line for the move log (public wording)
- ``state_to_json(state) -> dict`` / ``state_from_json(data) -> State`` — exact round trip

State is a frozen dataclass. Rules modules import no Flask and no SQLite.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Collection, Mapping, Protocol, Sequence, TypeVar


class IllegalMove(Exception):
    """A move the rules forbid. ``rule`` is a stable rule ID (or None for a malformed move)."""

    def __init__(self, message: str, rule: str | None = None, *, move: Mapping[str, Any] | None = None,
                 seat: int | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.move = dict(move) if move is not None else None
        self.seat = seat

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]" if self.rule else self.message


class SetupError(ValueError):
    """Bad players or options for a new game (the web layer answers 400/422 with the message)."""


@dataclass(frozen=True)
class Outcome:
    over: bool
    winner: int | None = None     # a seat index, or None (no winner yet / shared win)
    reason: str = ""              # e.g. "Ann reached 104 VP"
    winners: tuple[int, ...] = () # all winning seats (teams, shared wins)


def require(condition: bool, message: str, rule: str | None) -> None:
    """Raise IllegalMove unless ``condition`` holds."""
    if not condition:
        raise IllegalMove(message, rule)


def check_players(players: Any, min_players: int, max_players: int) -> tuple[str, ...]:
    """Validate a player list: 2..N distinct, non-empty names of at most 40 characters."""
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise SetupError("players must be a list of names")
    names = tuple(p.strip() for p in players)
    if not (min_players <= len(names) <= max_players):
        raise SetupError(f"this game takes {min_players} to {max_players} players, not {len(names)}")
    if any(not n for n in names):
        raise SetupError("every player needs a name")
    if any(len(n) > 40 for n in names):
        raise SetupError("player names are at most 40 characters")
    if len({n.casefold() for n in names}) != len(names):
        raise SetupError("player names must be different")
    return names


def check_options(options: Any, known: Collection[str], title: str, example: str) -> Mapping[str, Any]:
    """The setup options (``None``: none), refused unless they are an object whose keys the game knows.

    ``example`` is a short JSON object shown when ``options`` is not an object at all.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise SetupError(f"options must be an object such as {example}")
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise SetupError(f"unknown option {', '.join(map(repr, unknown))}; {title} knows: {', '.join(known)}")
    return options


def first_seat_option(options: Mapping[str, Any], seats: int) -> int:
    """The ``first_seat`` option (default 0): a seat number of this game."""
    first = options.get("first_seat", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < seats:
        raise SetupError(f"first_seat must be a seat number from 0 to {seats - 1}, got {first!r}")
    return first


class Seated(Protocol):
    @property
    def players(self) -> Sequence[str]: ...


def check_viewer(state: Seated, seat: Any) -> None:
    """A view's viewer: ``None`` (the table) or a seat of this game; anything else is a ValueError."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players)):
        raise ValueError(f"there is no seat {seat!r} in this game")


def seat_name(names: Sequence[str], seat: Any) -> str:
    """The player's name for a log line, or 'seat N' for a seat the game does not have."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def check_seat(state: Seated, seat: Any, rule: str | None) -> int:
    """A moving seat: a seat number of this game, else IllegalMove naming ``rule``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalMove(f"there is no seat {seat!r} in this game", rule)
    return seat


StateT = TypeVar("StateT")


def applying(apply: Callable[[StateT, int, Mapping[str, Any]], StateT], state: StateT, seat: int,
             move: Mapping[str, Any]) -> StateT:
    """``apply(state, seat, move)``, with an IllegalMove it raises given its context (``seat``, ``move``)
    where it has none yet."""
    try:
        return apply(state, seat, move)
    except IllegalMove as error:
        if error.seat is None and isinstance(seat, int) and not isinstance(seat, bool):
            error.seat = seat
        if error.move is None and isinstance(move, Mapping):
            error.move = dict(move)
        raise


def move_type(move: Any, known: Mapping[str, str]) -> str:
    """The move's ``type``, checked against the module's MOVE_TYPES."""
    if not isinstance(move, Mapping):
        raise IllegalMove("a move must be a JSON object with a 'type'", None)
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in known:
        raise IllegalMove(f"unknown move type {kind!r}; known: {', '.join(known)}", None)
    return str(kind)


def field(move: Mapping[str, Any], name: str, kind: type | tuple[type, ...] = str, *, required: bool = True,
          default: Any = None) -> Any:
    """A move field of the given type, or IllegalMove saying which field is wrong."""
    if name not in move or move[name] is None:
        if required:
            raise IllegalMove(f"the '{move.get('type')}' move needs a '{name}' field", None)
        return default
    value = move[name]
    if isinstance(value, bool) and kind is int:
        raise IllegalMove(f"field '{name}' must be a whole number", None)
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise IllegalMove(f"field '{name}' must be {names}, got {type(value).__name__}", None)
    return value
