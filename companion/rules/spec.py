"""A game declares itself once: a :class:`GameSpec`, found by :func:`discover` — no shared list names games.

Each game package ``companion/rules/<game>/`` declares ``SPEC = GameSpec(...)`` in its ``__init__.py``,
which imports nothing heavy (no content, no rules code); ``rules_module`` names its public front (its
``game`` module, a :class:`~companion.rules.front.Rules`), imported on first use by :meth:`GameSpec.rules`. So the companion can list every game, and say which one's data is broken, without
loading any game's rules.

Where specs come from, in this order (the first spec for an id wins; a second one is an error):

1. every subpackage of :mod:`companion.rules` that has a ``SPEC``;
2. the ``spellbook.games`` entry points of installed distributions (each names a module with a ``SPEC``,
   or a ``GameSpec`` itself): a game packaged outside this tree;
3. extra modules named by the caller, e.g. ``create_app({"EXTRA_GAMES": ["<module>"]})`` or the environment
   variable ``COMPANION_EXTRA_GAMES`` (comma-separated module names) — as the test game under ``tests/`` is.

Rules modules import no Flask and no SQLite; neither does this module.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, cast

from cardgen.catalog.spec import (  # one list of extra games for all layers
    EXTRA_GAMES_ENV,
    extra_modules_from_env,
)

from .front import Rules, missing_members

if TYPE_CHECKING:
    from cardgen.catalog import GameFacts

ENTRY_POINT_GROUP = "spellbook.games"
FORMAT_KEY = "format_version"


#: The kinds a move field may hold (checked by :mod:`companion.rules.fields` before the game's rules run):
TEXT = "text"                          # an id, a name: a string
TEXTS = "texts"                        # a list of strings
NUMBER = "number"                      # a whole number
SEAT = "seat"                          # a seat number
TEXT_OR_NUMBER = "text_or_number"      # a string or a whole number (e.g. a shop by id or place)
TEXTS_OR_NUMBERS = "texts_or_numbers"  # a list of strings or whole numbers
TEXT_OR_TEXTS = "text_or_texts"        # a string, or a list of strings (the rules refuse the list by rule)
COUNTS = "counts"                      # an object of whole numbers by name
KINDS = frozenset({TEXT, TEXTS, NUMBER, SEAT, TEXT_OR_NUMBER, TEXTS_OR_NUMBERS, TEXT_OR_TEXTS, COUNTS})


@dataclass(frozen=True)
class MoveSpec:
    """One move type: its ``type``, a one-line description (the docs are tested against it) and every field
    it may carry besides ``type``, each with its kind (``{"card": TEXT}``; :data:`KINDS`). The base refuses a
    move with any other field, or with a field of another type or out of range, naming it."""

    type: str
    description: str
    #: the fields, each with its kind (given as a mapping; kept as the names, in order, and :attr:`kinds`)
    fields: Any = ()
    #: the move may still be made once the game is over (e.g. a private note of one's hand)
    after_the_end: bool = False
    #: the move is not bound to the turn: any seat may make it when the rules say so
    any_seat: bool = False
    #: the move is a private note, not a report of the table: an undo passes over it (so a note never blocks
    #: anyone's undo), and a note that no longer fits after an undo or correction is dropped
    private_note: bool = False
    #: the move confirms the end as the table sees it (e.g. every total): a correction of an earlier move
    #: clears every such confirmation after it (the table must confirm what it now reads), and says so
    confirms_end: bool = False
    #: once the game is over the move is final: a correction or removal of it is refused with the game's
    #: over rule, as the move itself would be (the table settled the end on it)
    final_once_over: bool = False
    #: field name -> kind (from the mapping given as ``fields``)
    kinds: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        given = self.fields
        kinds = dict(given) if isinstance(given, Mapping) else {**{name: "" for name in given}, **self.kinds}
        missing = sorted(name for name, kind in kinds.items() if kind not in KINDS)
        if missing:
            raise ValueError(f"move '{self.type}': every field needs a kind from {sorted(KINDS)}; not so: {missing}")
        object.__setattr__(self, "fields", tuple(kinds))
        object.__setattr__(self, "kinds", kinds)


#: rules module name -> the module object found to be a whole front (checked once per module object)
_CHECKED_FRONTS: dict[str, ModuleType] = {}


@dataclass(frozen=True)
class GameSpec:
    """Everything shared code needs to know about one game, declared (never found out by duck typing)."""

    id: str                                   # the game's id: URLs, the store's game column, data/<id>/
    moves: tuple[MoveSpec, ...]
    #: the module of the public front (setup, apply, view, score, outcome, ...), usually the spec's own package
    rules_module: str
    #: setup options: name -> one-line description
    options: Mapping[str, str] = field(default_factory=dict)
    #: the module of the game's phone pages (a ``PAGES = GamePages(...)``), or None for the generic pages
    pages_module: str | None = None
    #: the module adding the game's quick score calculator to the API (``/api/calc/<id>``), or None
    calculator_module: str | None = None
    #: the module reading a photo of a player's cards into the game's calculator (and, on a seat page,
    #: auditing where the companion believes they are): a ``PHOTO = PhotoScoring(...)``, or None
    photo_module: str | None = None
    #: the print kit's id for this game (cardgen), or None when there is nothing to print
    print_kit: str | None = None
    #: whether some of the state is secret from some seats (then ``view`` strips it per seat)
    hidden_information: bool = True
    #: whether what ``redact_move`` leaves out of another seat's move is a secret at the real table (a drawn
    #: card, a hidden reveal): then a refused correction names neither that move nor its author. False where
    #: the moves only keep off the screens what the table saw face-up (JS&MN's feats: magicianship is hidden)
    redacted_moves_are_secret: bool = True
    #: what a change to history that would end the game sooner may tell the seat that tries it, without making
    #: it (a refusal, the corrections page's preview): "reason" (where and why it ends: both public, as a
    #: goal score everyone sees reached), "place" (which moves now come after the end, not why: the reason
    #: compares what is hidden), or "secret" (not even that: whether it ends there rests on what some seat keeps
    #: hidden, as a goal met by a score nobody else sees). Under "secret" a take-back, correction or
    #: put-back that ends the game sooner is made, every later move removed with it and said in its log line,
    #: as the table would play on from the end that was announced; a refusal would have told one seat alone
    #: what the others hide, and a preview let it ask again and again.
    sooner_end: str = "place"
    #: under ``sooner_end`` "secret": (state, seat, move) -> whether that seat's move, made at that state, is a
    #: point where the game may end on what only that seat knows (a confrontation decided by its hidden score).
    #: A change that the replay carries past such a point of another seat's is answered as if the game might
    #: have ended there: a later move that no longer fits is removed with the change, as the moves after an end
    #: it brings are, never refused (a refusal, or a preview naming that move, told whether the game ended
    #: there). None: every move of another seat is such a point.
    may_end_in_secret: Callable[[Any, int, Mapping[str, Any]], bool] | None = None
    #: (data folder) -> the game's content; default: the card-data layer's loader for ``id``.
    #: Raises :class:`cardgen.catalog.DataError` naming file, record and field when the data is broken.
    load_content: Callable[[Path], Any] | None = None
    #: the stored state format's version (the store keeps it beside the state as ``format_version``)
    state_version: int = 1
    #: per older version v: a function turning a version-v state JSON into a version-(v+1) one. Format 0 is a
    #: state stored before formats were versioned; 0 -> 1 only adds the version, unless a game says otherwise.
    state_upgrades: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = field(default_factory=dict)
    #: the rule id a move after the end is refused with
    over_rule: str | None = None
    #: the rule id a move out of turn is refused with
    turn_rule: str | None = None
    #: the rule id a move from a seat the game does not have is refused with
    seat_rule: str | None = None
    #: where the game is listed among the others (home page, search): lower first, then by id
    order: int = 100
    #: the game may reach a dead end nobody wins (its front's ``stalled(state)`` says when; pages then call it over)
    can_stall: bool = False
    #: what ``score``'s totals count while the game goes on (the result chart's words)
    points: str = "points"
    #: what they count once the game is over, when the end shows another measure (JS&MN: prestige during play,
    #: magicianship, secret until then, at the end); None: the same as ``points``
    final_points: str | None = None

    def __post_init__(self) -> None:
        types = [m.type for m in self.moves]
        if not types or len(set(types)) != len(types):
            raise ValueError(f"{self.id}: move types must be given, each once: {types}")
        if self.sooner_end not in ("reason", "place", "secret"):
            raise ValueError(f"{self.id}: sooner_end must be 'reason', 'place' or 'secret', not {self.sooner_end!r}")

    @property
    def facts(self) -> GameFacts:
        """The game's name and player counts, as its data says them (``data/<id>/game.toml``, read by the
        card-data layer): never repeated in code."""
        from cardgen.catalog import (
            game_facts,  # the card-data layer; imported here so specs stay light
        )

        return game_facts(self.id)

    @property
    def title(self) -> str:
        """The game's name as players know it (its ``game.toml``'s ``title``)."""
        return self.facts.title

    @property
    def min_players(self) -> int:
        return self.facts.min_players

    @property
    def max_players(self) -> int:
        return self.facts.max_players

    @property
    def private_moves(self) -> frozenset[str]:
        """The move types that are private notes (:attr:`MoveSpec.private_note`)."""
        return frozenset(m.type for m in self.moves if m.private_note)

    @property
    def end_confirmations(self) -> frozenset[str]:
        """The move types that confirm the end (:attr:`MoveSpec.confirms_end`)."""
        return frozenset(m.type for m in self.moves if m.confirms_end)

    @property
    def final_once_over(self) -> frozenset[str]:
        """The move types no correction may change once the game is over (:attr:`MoveSpec.final_once_over`)."""
        return frozenset(m.type for m in self.moves if m.final_once_over)

    @property
    def move_types(self) -> dict[str, str]:
        """Move type -> description, in the declared order."""
        return {m.type: m.description for m in self.moves}

    def move(self, kind: str) -> MoveSpec:
        return next(m for m in self.moves if m.type == kind)

    def rules(self) -> Rules:
        """The game's public front (imported, and so its content loaded, on first use), checked to be a
        :class:`~companion.rules.front.Rules`: a TypeError names what it lacks."""
        front = importlib.import_module(self.rules_module)
        if _CHECKED_FRONTS.get(self.rules_module) is not front:
            missing = missing_members(front)
            if missing:
                raise TypeError(f"{self.rules_module}, the rules front of {self.id}, lacks {', '.join(missing)} "
                                "(see companion.rules.front.Rules)")
            _CHECKED_FRONTS[self.rules_module] = front
        return cast(Rules, front)

    def stored_state(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A state's JSON (``state_to_json``) as the store keeps it: with this spec's format version."""
        if FORMAT_KEY in data:
            raise ValueError(f"{self.id}: a state's JSON may not use the key '{FORMAT_KEY}'")
        return {**data, FORMAT_KEY: self.state_version}

    def upgraded_state(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A stored state's JSON brought to this spec's format (for ``state_from_json``), whatever format
        it was stored in; a ValueError for a format newer than this code knows."""
        state = dict(data)
        version = state.pop(FORMAT_KEY, 0)
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise ValueError(f"malformed {self.id} state: '{FORMAT_KEY}' must be a whole number, got {version!r}")
        if version > self.state_version:
            raise ValueError(f"this {self.title} game was stored in format {version} by a newer companion; "
                             f"this one reads formats up to {self.state_version}")
        while version < self.state_version:
            upgrade = self.state_upgrades.get(version)
            if upgrade is None and version != 0:
                raise ValueError(f"{self.id}: no upgrade from state format {version}")
            state = upgrade(state) if upgrade is not None else state
            version += 1
        return state

    def content(self, data_dir: Path) -> Any:
        """The game's content from ``data_dir`` (a DataError when broken)."""
        if self.load_content is not None:
            return self.load_content(Path(data_dir))
        from cardgen.catalog import (
            load_game,  # the card-data layer; imported here so specs stay light
        )

        return load_game(self.id, Path(data_dir))


class DuplicateGame(ValueError):
    """Two specs claim the same game id."""


def _spec_of(module: ModuleType | GameSpec, where: str) -> GameSpec:
    spec = module if isinstance(module, GameSpec) else getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise TypeError(f"{where} declares no SPEC = GameSpec(...)")
    return spec


def _add(found: dict[str, GameSpec], spec: GameSpec, where: str) -> None:
    other = found.get(spec.id)
    if other is not None and other is not spec:
        raise DuplicateGame(f"two games have the id '{spec.id}' ({other.rules_module} and {where})")
    found[spec.id] = spec


def discover(extra: Iterable[str] = ()) -> dict[str, GameSpec]:
    """Every game spec: this package's subpackages, installed entry points, then ``extra`` module names."""
    from companion import rules as package

    found: dict[str, GameSpec] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.ispkg:
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            if isinstance(getattr(module, "SPEC", None), GameSpec):
                _add(found, _spec_of(module, module.__name__), module.__name__)
    for point in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        _add(found, _spec_of(point.load(), point.value), point.value)
    for name in (*extra_modules_from_env(), *extra):
        _add(found, _spec_of(importlib.import_module(name), name), name)
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


__all__ = ["COUNTS", "KINDS", "NUMBER", "SEAT", "TEXT", "TEXTS", "TEXTS_OR_NUMBERS", "TEXT_OR_NUMBER",
           "TEXT_OR_TEXTS", "DuplicateGame", "ENTRY_POINT_GROUP", "EXTRA_GAMES_ENV", "FORMAT_KEY", "GameSpec",
           "MoveSpec", "discover"]
