"""What every game's rules share: the move error, the one message style, the shared checks, JSON helpers.

A game is a package ``companion/rules/<game>/`` whose ``__init__.py`` declares ``SPEC`` (a
:class:`~companion.rules.spec.GameSpec`) and whose public front offers:

- ``GAME_ID``, ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``MOVE_TYPES`` and ``OPTIONS`` (from the spec)
- ``setup(players, options, rng) -> State`` — randomness only from the injected ``random.Random``
- ``apply(state, seat, move) -> State`` — pure; :func:`referee` does the shared checks (move type, fields,
  seat, game over, turn) first; raises :class:`IllegalMove` naming the rule, with its seat and move
- ``view(state, seat | None) -> dict`` — the only way state leaves the server; ``None`` is the
  public (table) view; every other seat's secrets are stripped
- ``score(state) -> list[dict]`` — per seat ``{"seat", "name", "total", "breakdown": [{"cause", "points"}]}``
- ``outcome(state) -> Outcome`` — over?, winner, and why
- ``advice(state, seat) -> list[dict]`` — "what could I do now?", best first
- ``redact_move(move, actor, viewer) -> dict`` — a logged move as ``viewer`` may see it
- ``describe_move(move, actor, names) -> str`` — one human line for the move log (public wording)
- ``state_to_json(state) -> dict`` / ``state_from_json(data) -> State`` — exact round trip
- ``random_legal_move(state, seat, rng)`` — a legal move or None, for playouts and benchmarks
- ``choices(state, seat)``, ``stalled(state)`` and ``charted_totals(state, rows)`` — hooks with defaults
  here (:func:`no_choices`, :func:`never_stalled`, :func:`scored_totals`) for a game that needs none

The front is typed by :class:`companion.rules.front.Rules` and checked against it when first loaded.

State is a frozen dataclass. Rules modules import no Flask and no SQLite.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Collection,
    Mapping,
    Protocol,
    Sequence,
    TypeVar,
)

from .fields import a_quoted, wrong_field

if TYPE_CHECKING:
    from .choices import Choice
    from .spec import GameSpec


def sentence(message: str) -> str:
    """The one message style: a sentence — capital first letter, a full stop (or ! ?) at the end."""
    text = message.strip()
    if not text:
        return text
    first = text.split(" ", 1)[0]
    if "_" not in first:  # an identifier such as first_seat keeps its spelling
        text = text[:1].upper() + text[1:]
    return text + ("" if text.endswith((".", "!", "?", "…")) else ".")


class IllegalMove(Exception):
    """A move the rules forbid. ``rule`` is a stable rule ID (or None for a malformed move).

    The message is always a sentence (:func:`sentence`); ``seat`` and ``move`` are the context, set by
    the base (:func:`referee`) for every game's refusals; ``pending`` names the choice the game waits for
    when that is the only reason for the refusal."""

    def __init__(self, message: str, rule: str | None = None, *, move: Mapping[str, Any] | None = None,
                 seat: int | None = None, pending: Mapping[str, Any] | None = None):
        message = sentence(message)
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.move = dict(move) if move is not None else None
        self.seat = seat
        #: When the move is refused only because the game first waits for a choice the rules require (a
        #: pending pass of a marker, a team's help): ``{"seat", "move", "choice", "rule", "title"}`` — the
        #: seat that must choose, the move type, the id of its Choice in ``choices(state, seat)``, the rule
        #: and a sentence for the table. A correction may insert that choice before the refused move.
        self.pending = dict(pending) if pending is not None else None

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]" if self.rule else self.message


class SetupError(ValueError):
    """Bad players or options for a new game (the web layer answers 400/422 with the message, a sentence, and
    the rule the options break, if it is one the game's rules name)."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(sentence(message))
        self.rule = rule


@dataclass(frozen=True)
class TeamTotal:
    """One team of a team game as the end counts it: its seats and their combined total."""

    seats: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class Outcome:
    """Whether the game is over, who won and why. A game at a dead end (``stalled``) is not over but says why it
    can go no further in ``reason``, as an ended game does: every reader of the end (the result page and its
    exports) shows that sentence."""

    over: bool
    winner: int | None = None     # a seat index, or None (no winner yet / shared win)
    reason: str = ""              # e.g. "Ann reached 104 VP"
    winners: tuple[int, ...] = () # all winning seats (teams, shared wins)
    #: the rule that settled the end where "the most points wins" does not (a tie-break, a shared win, a dead
    #: end), or None; when it is the project's own reading (provenance "authored"), ``reason`` says so
    #: (:func:`as_read`)
    rule: str | None = None
    #: a team game's teams, each with its combined total (the winners' team first is not implied); () otherwise
    teams: tuple[TeamTotal, ...] = ()
    #: the finishing order where the game's own tie-breaks set it (:func:`places_by`): groups of seats that share
    #: a place, best first, every seat once (partners share their team's place); () when "the winners first,
    #: then the most points" is the order
    places: tuple[tuple[int, ...], ...] = ()

    @property
    def winning_seats(self) -> list[int]:
        """Every winning seat, in order, whichever of ``winners`` and ``winner`` the game set."""
        return sorted(set(self.winners or (() if self.winner is None else (self.winner,))))


def places_by(keys: Sequence[Any]) -> tuple[tuple[int, ...], ...]:
    """Seats in finishing order by their sort keys (``keys[seat]``, smallest first): seats with equal keys share a
    place, e.g. ``places_by([(-9, 0), (-9, -1), (-4, 0)])`` is ``((1,), (0,), (2,))``."""
    order = sorted(range(len(keys)), key=lambda seat: keys[seat])
    places: list[list[int]] = []
    for seat in order:
        if places and keys[places[-1][0]] == keys[seat]:
            places[-1].append(seat)
        else:
            places.append([seat])
    return tuple(tuple(place) for place in places)


#: what an ending settled by an authored rule says when its rule gives no words of its own (``reading``)
SILENT_RULEBOOK = "the rulebook does not settle this"


class _Ruled(Protocol):
    @property
    def provenance(self) -> str: ...

    @property
    def reading(self) -> str: ...


def as_read(reason: str, rule: _Ruled) -> str:
    """``reason`` as the table is told it when ``rule`` settled the end: unchanged for a rule from the rulebook;
    for the project's own reading where the rulebook is silent (provenance ``authored``), with that said briefly,
    in the rule's own words (its ``reading``), e.g. "… (our reading: the rulebook gives no team tie-break)"."""
    reading = our_reading(rule)
    return reason if reading is None else f"{reason} (our reading: {reading})"


def our_reading(rule: _Ruled) -> str | None:
    """What the rulebook leaves open where ``rule`` is the project's own reading (provenance ``authored``), in
    the rule's own words (its ``reading``, else :data:`SILENT_RULEBOOK`); None for a rule from the rulebook."""
    if rule.provenance != "authored":
        return None
    return rule.reading or SILENT_RULEBOOK


#: invisible format characters a name keeps: the joiners inside emoji and scripts, and emoji flags' tags
_KEPT_FORMAT = frozenset("\u200c\u200d") | frozenset(chr(c) for c in range(0xE0020, 0xE0080))


def clean_name(name: str) -> str:
    """A player's name as shown to the table: every run of white space (line breaks and tabs too) one
    space, no control characters (U+0000...) and no invisible format characters, among them the
    direction overrides (U+202E) that would make a name in the log read as something else."""
    spaced = " ".join(name.split())  # (before the controls go: a tab or a line break is a space)
    visible = "".join(c for c in spaced if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn")
                      or c in _KEPT_FORMAT)
    return " ".join(visible.split())


def check_players(players: Any, min_players: int, max_players: int) -> tuple[str, ...]:
    """Validate a player list: 2..N distinct, non-empty names of at most 40 characters (cleaned by
    :func:`clean_name` first)."""
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise SetupError("players must be a list of names")
    names = tuple(clean_name(p) for p in players)
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
        raise SetupError(f"option 'first_seat' must be a seat number from 0 to {seats - 1}, got {first!r}")
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


StateT = TypeVar("StateT")


def no_choices(state: Any, seat: int) -> list[Choice]:
    """The default ``choices`` hook of a front that lists no moves (its seat page shows no forms)."""
    return []


def never_stalled(state: Any) -> bool:
    """The default ``stalled`` hook of a game that cannot reach a dead end (``GameSpec.can_stall`` False)."""
    return False


def scored_totals(state: Any, rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """The default ``charted_totals`` hook: the totals of ``score(state)`` (``rows``), in seat order."""
    return [row["total"] for row in sorted(rows, key=lambda row: row["seat"])]


def field(move: Mapping[str, Any], name: str, kind: type | tuple[type, ...] = str, *, required: bool = True,
          default: Any = None) -> Any:
    """A move field of the given type, or IllegalMove saying which field is wrong."""
    if name not in move or move[name] is None:
        if required:
            raise IllegalMove(f"the '{move.get('type')}' move needs {a_quoted(name)} field", None)
        return default
    value = move[name]
    if isinstance(value, bool) and kind is int:
        raise IllegalMove(f"field '{name}' must be a whole number", None)
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise IllegalMove(f"field '{name}' must be {names}, got {type(value).__name__}", None)
    return value


def referee(spec: "GameSpec", apply: Callable[[StateT, int, Mapping[str, Any]], StateT], *,
            over: Callable[[StateT], str | None], turn: Callable[[StateT], int | None],
            rule_when_over: Callable[[StateT], str | None] | None = None) -> Callable[[StateT, int, Mapping[str, Any]], StateT]:
    """A game's ``apply`` with the checks every game shares done first, in one order and one wording:

    1. the move is an object whose ``type`` is one of the spec's move types;
    2. it carries no field its move type does not declare (the field is named);
    3. the seat is a seat of this game (rule ``spec.seat_rule``);
    4. the game is not over, unless the move type may be made after the end (rule ``spec.over_rule``, or
       ``rule_when_over(state)``); ``over(state)`` is None while the game goes on, else why it ended;
    5. it is the seat's turn, unless the move type is not bound to the turn or ``turn(state)`` is None (no
       single seat's turn now; rule ``spec.turn_rule``).

    6. every field holds its declared kind (type and range: :mod:`.fields`), before the game looks at it, so that
       no refusal's words depend on what the game's own checks would have found.

    Then the game's own ``apply`` runs; every IllegalMove that leaves carries the seat and the move.
    """
    by_type = {m.type: m for m in spec.moves}
    known = ", ".join(by_type)

    def checked(state: StateT, seat: int, move: Mapping[str, Any]) -> StateT:
        if not isinstance(move, Mapping):
            raise IllegalMove("A move must be a JSON object with a 'type'", None, seat=_seat_or_none(seat))
        try:
            kind = move.get("type")
            if not isinstance(kind, str) or kind not in by_type:
                shown = repr(kind) if not isinstance(kind, str) else repr(kind[:40])
                raise IllegalMove(f"Unknown move type {shown}; {spec.title} knows: {known}", None)
            declared = by_type[kind]
            unknown = sorted(str(name)[:40] for name in move if name != "type" and name not in declared.fields)
            if unknown:
                takes = f"it takes {', '.join(repr(f) for f in declared.fields)}" if declared.fields else \
                    "it takes no other field"
                raise IllegalMove(f"The '{kind}' move has no field {', '.join(map(repr, unknown))}; {takes}", None)
            players = state.players  # type: ignore[attr-defined]  # every game's state has its players
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
                raise IllegalMove(f"There is no seat {seat!r} in this game", spec.seat_rule)
            ended = over(state)
            if ended is not None and not declared.after_the_end:
                rule = rule_when_over(state) if rule_when_over is not None else spec.over_rule
                raise IllegalMove(f"The game is over: {ended}, so no more moves are taken", rule)
            if not declared.any_seat:
                active = turn(state)
                if active is not None and seat != active:
                    raise IllegalMove(f"It is {players[active]}'s turn, not {players[seat]}'s", spec.turn_rule)
            # no field may hold junk, even one the rules do not read (what is stored must read back on every
            # page), and this is checked before the game's own checks: a game that reads a field leniently (a card
            # name trimmed of spaces) would otherwise answer one refusal or the other by a secret (a card in a
            # hidden hand or in the deck), and a move refused either way must be refused in the same words
            wrong = wrong_field(move, declared.kinds)
            if wrong is not None:
                raise IllegalMove(wrong, None)
            return apply(state, seat, move)
        except IllegalMove as error:
            if error.seat is None:
                error.seat = _seat_or_none(seat)
            if error.move is None:
                error.move = dict(move)
            raise

    checked.__doc__ = apply.__doc__
    return checked


def _seat_or_none(seat: Any) -> int | None:
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
