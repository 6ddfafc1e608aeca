"""What a seat may do now, as data: the moves it may make and the values each field may take.

Every rules module offers ``choices(state, seat) -> list[Choice]``. The phone's move forms are
rendered from it by one set of templates (``templates/pages/_choices.html``), so no page or script
works out a rule again; a printed card's QR code can offer the moves that name that card.

A :class:`Choice` is one move type the seat may make now, with its :class:`Field` s; each field
lists its :class:`Option` s (value sent, name shown) or, for numbers, its ``min``/``max``. A few
declared dependencies tie fields together, all checked by the page's script and by
:func:`satisfied` (tests build moves from choices with :func:`sample_move`):

- ``Field.when`` / ``Option.when``: only while another one-value field holds one of these values, or
  an option tagged with one of them (a spell's effect fields, the spells of the power chosen, the
  ingredients a spellbook of that colour takes); ``unless`` the opposite;
- ``Option.needs``: only while a list field holds at least that many items (a power needs as many
  ingredients);
- ``Option.caps``: while this option is chosen, a list field holds at most that many items (the
  cursed scrolls among the cards of the shop the Assistant reaches);
- ``Option.also``: fields sent with this option (the shop the steps reach, for the server's check);
- ``Option.copies``: this option sends the value picked in that other field ("the card I just drew").

Rules a form cannot pre-filter (a relation between several picks) are named in ``Choice.checks``:
the server still judges them and refuses with that rule id. Secrets: choices for a seat come only
from what that seat may know; a value is never listed or left out because of another seat's
hidden cards.
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

#: Field kinds: one value from ``options``; several distinct values; a whole number in min..max;
#: a list made of ``options`` values, each repeated 0..``Option.max`` times (ingredients by colour).
KINDS = ("one", "many", "number", "counts")
#: How many options a list may show before the page gives it a search-as-you-type filter.
SEARCH_FROM = 9


@dataclass(frozen=True)
class Option:
    value: Any
    label: str
    detail: str = ""
    #: counts fields: how many times this value may go into the list
    max: int = 1
    when: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    unless: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    needs: Mapping[str, int] = field(default_factory=dict)
    caps: Mapping[str, int] = field(default_factory=dict)
    also: Mapping[str, Any] = field(default_factory=dict)
    #: a card page this option is about: (game, card id), or None
    card: tuple[str, str] | None = None
    #: words other fields' ``when``/``unless`` may name instead of this value (e.g. its colour)
    tags: tuple[str, ...] = ()
    #: shown in a row of short buttons under this heading (``short`` on the button), e.g. "Red spellbooks"
    group: str = ""
    short: str = ""
    #: send the value picked in this other field instead of ``value`` (e.g. "the card I discard for this trick")
    copies: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"value": self.value, "label": self.label}
        for name in ("detail", "when", "unless", "needs", "caps", "also", "tags", "group", "short", "copies"):
            if getattr(self, name):
                data[name] = _plain(getattr(self, name))
        if self.max != 1:
            data["max"] = self.max
        if self.card:
            data["card"] = list(self.card)
        return data


@dataclass(frozen=True)
class Field:
    name: str           # the move's key; "outer.inner" for a key of an object inside the move, "outer.0" for
                        # the first item of a list whose order matters (a row laid out)
    label: str
    kind: str = "one"
    options: tuple[Option, ...] = ()
    min: int = 0        # number: the least value; many/counts: the fewest items
    max: int | None = None  # number: the greatest value; many/counts: the most items (None: no limit)
    required: bool = True   # one: a value must be picked (False: may be left out)
    when: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    unless: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    #: a value filled in beforehand (never on an irreversible choice)
    default: Any = None
    hint: str = ""
    #: one, not required: the words of the answer that leaves the field out
    none_label: str = "None"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name}: kind must be one of {', '.join(KINDS)}, not {self.kind!r}")

    @property
    def searchable(self) -> bool:
        """A long list gets a search-as-you-type filter (options in grouped rows are short already)."""
        return sum(1 for o in self.options if not o.group) >= SEARCH_FROM

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "label": self.label, "kind": self.kind,
                                "required": self.required}
        if self.options:
            data["options"] = [o.to_json() for o in self.options]
        if self.kind != "one":
            data["min"] = self.min
            data["max"] = self.max
        for name in ("when", "unless", "hint"):
            if getattr(self, name):
                data[name] = _plain(getattr(self, name))
        if self.default is not None:
            data["default"] = self.default
        return data


@dataclass(frozen=True)
class Choice:
    move: str            # the move type sent
    label: str           # the button's words, e.g. "Seek"
    fields: tuple[Field, ...] = ()
    title: str = ""      # what the form asks, e.g. "Cast a spell"
    hint: str = ""
    rule: str | None = None  # the rule entry the form links to
    irreversible: bool = False
    checks: tuple[str, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)  # fields always sent as they are
    id: str = ""         # a stable name for the form (the page's element id)
    folded: bool = False  # shown folded under its title (a move people make now and then)
    primary: bool = True
    #: whether the game waits for this move from the seat now ("Your move" on its phone): by default a primary
    #: move not folded away; False for a move reported whenever it happens at the table, in no turn order
    awaited: bool | None = None

    @property
    def awaits(self) -> bool:
        return self.primary and not self.folded if self.awaited is None else self.awaited

    def __post_init__(self) -> None:
        if self.irreversible and any(f.default is not None for f in self.fields):
            raise ValueError(f"{self.move}: an irreversible choice has no preselected answer")

    @property
    def form_id(self) -> str:
        return self.id or f"c-{self.move.replace('_', '-')}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move, "id": self.form_id, "label": self.label, "title": self.title,
                                "irreversible": self.irreversible,
                                "fields": [f.to_json() for f in self.fields]}
        for name in ("hint", "rule", "checks", "fixed"):
            if getattr(self, name):
                data[name] = _plain(getattr(self, name))
        return data


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def to_json(choices: Iterable[Choice]) -> list[dict[str, Any]]:
    return [c.to_json() for c in choices]


def awaits(choices: Iterable[Choice]) -> bool:
    """Whether the game waits for a move from the seat these choices are for: its phone says "Your move" (the
    heading, the status bar, the tab's dot, the buzz and sound, "Your games"), only then. A seat may have moves
    it can report and still not be waited for (a note of its hand, a spell cast at any time, a report of what
    happened at the table in a game whose turn order is not tracked)."""
    return any(c.awaits for c in choices)


# -- long lists sent once per page ---------------------------------------------------------------------

def plain(f: Field) -> bool:
    """A list a page may send as data (one or several values, nothing preselected, no rows of short buttons,
    more than one option): see :func:`shared_lists`."""
    return f.kind in ("one", "many") and f.default is None and len(f.options) > 1 and not any(
        o.group for o in f.options)


def rows_within(options: Sequence[Option], base: Sequence[Option]) -> list[int] | None:
    """The rows of ``base`` that ``options`` keeps, if ``options`` is ``base`` with some left out (in order)."""
    rows: list[int] = []
    at = 0
    for option in options:
        while at < len(base) and base[at] != option:
            at += 1
        if at == len(base):
            return None
        rows.append(at)
        at += 1
    return rows


def shared_lists(choices: Iterable[Choice]) -> list[tuple[Option, ...]]:
    """The plain lists of these choices, each once; a list that is another one with some options left out
    is not among them (a field offering it names the rows it keeps: five forms offering a hand of 96 cards, or
    the cards of some elements only, send the 96 once)."""
    found: list[tuple[Option, ...]] = []
    for f in sorted((f for c in choices for f in c.fields if plain(f)), key=lambda f: -len(f.options)):
        if not any(rows_within(f.options, base) is not None for base in found):
            found.append(f.options)
    return found


def list_rows(options: Sequence[Option], bases: Sequence[Sequence[Option]]) -> tuple[int, list[int] | None] | None:
    """Which shared list a field's options come from (its index) and the rows kept (None: all of them)."""
    for index, base in enumerate(bases):
        rows = rows_within(options, base)
        if rows is not None:
            return index, None if len(rows) == len(base) else rows
    return None


# -- building moves from choices, and checking a move against them -----------------------------------

def _tags(choice: Choice, move: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """The tags of the option chosen in each one-value field."""
    found: dict[str, tuple[str, ...]] = {}
    for f in choice.fields:
        if f.kind == "one":
            value = _get(move, f.name)
            for option in f.options:
                if option.tags and option.value == value:
                    found[f.name] = option.tags
    return found


def _holds(conditions: Mapping[str, tuple[Any, ...]], move: Mapping[str, Any], tags: Mapping[str, tuple[str, ...]],
           negate: bool = False) -> bool:
    for name, values in conditions.items():
        inside = _get(move, name) in values or any(tag in values for tag in tags.get(name, ()))
        if inside == negate:
            return False
    return True


def _get(move: Mapping[str, Any], name: str) -> Any:
    outer, _, inner = name.partition(".")
    value = move.get(outer)
    if inner.isdecimal():   # "a.0": the first item of list a (a row laid out in order)
        return value[int(inner)] if isinstance(value, list) and int(inner) < len(value) else None
    if inner:
        return value.get(inner) if isinstance(value, Mapping) else None
    return value


def _count(move: Mapping[str, Any], name: str) -> int:
    value = _get(move, name)
    return len(value) if isinstance(value, list) else 0


def active(choice: Choice, item: Field | Option, move: Mapping[str, Any]) -> bool:
    """Whether a field or option of ``choice`` applies, given the move's other values."""
    tags = _tags(choice, move)
    if not (_holds(item.when, move, tags) and _holds(item.unless, move, tags, negate=True)):
        return False
    return all(_count(move, name) >= least for name, least in getattr(item, "needs", {}).items())


def _caps(choice: Choice, move: Mapping[str, Any]) -> dict[str, int]:
    """Limits on list fields set by the options chosen in one-value fields."""
    found: dict[str, int] = {}
    for f in choice.fields:
        if f.kind != "one":
            continue
        for option in f.options:
            if option.caps and _get(move, f.name) == option.value:
                for name, most in option.caps.items():
                    found[name] = min(most, found.get(name, most))
    return found


def _set(move: dict[str, Any], name: str, value: Any) -> None:
    outer, _, inner = name.partition(".")
    if inner.isdecimal():
        items = move.setdefault(outer, [])
        items.extend([None] * (int(inner) + 1 - len(items)))
        items[int(inner)] = value
    elif inner:
        move.setdefault(outer, {})[inner] = value
    else:
        move[name] = value


def sample_move(choice: Choice, rng: random.Random) -> dict[str, Any] | None:
    """A move built from the choice as a player filling in its form could (fields in order, each
    honouring the choices made above it); None if some required field has nothing to offer."""
    move: dict[str, Any] = {"type": choice.move, **dict(choice.fixed)}
    for f in choice.fields:
        if not active(choice, f, move):
            continue
        options = [o for o in f.options if active(choice, o, move)]
        if f.kind == "one":
            if not options:
                if f.required:
                    return None
                continue
            if not f.required and rng.random() < 0.25:
                continue
            picked = rng.choice(options)
            _set(move, f.name, _get(move, picked.copies) if picked.copies else picked.value)
            for name, value in picked.also.items():
                _set(move, name, value)
        elif f.kind == "number":
            top = f.max if f.max is not None else f.min + 20
            if top < f.min:
                return None
            _set(move, f.name, rng.randint(f.min, top))
        else:
            most = _caps(choice, move).get(f.name, f.max)
            pool = [o for o in options for _ in range(o.max if f.kind == "counts" else 1)]
            rng.shuffle(pool)
            top = len(pool) if most is None else min(most, len(pool))
            if top < f.min:
                return None
            size = rng.randint(f.min, top)
            items = [o.value for o in pool[:size]]
            order = {o.value: i for i, o in enumerate(f.options)}
            _set(move, f.name, sorted(items, key=lambda v: order[v]))
    return move


def satisfied(choice: Choice, move: Mapping[str, Any]) -> bool:
    """Whether ``move`` is one a player could build from ``choice`` (every field within its options)."""
    if move.get("type") != choice.move:
        return False
    if any(move.get(k) != v for k, v in choice.fixed.items()):
        return False
    known = {"type", *choice.fixed}
    caps = _caps(choice, move)
    for f in choice.fields:
        known.add(f.name.partition(".")[0])
        if not active(choice, f, move):
            if _get(move, f.name) is not None and not any(g.name == f.name and active(choice, g, move)
                                                          for g in choice.fields):
                return False
            continue
        value = _get(move, f.name)
        options = [o for o in f.options if active(choice, o, move)]
        if f.kind == "one":
            if value is None:
                if f.required and options:
                    return False
                continue
            picked = next((o for o in options if (o.value == value and type(o.value) is type(value))
                           or (o.copies and _get(move, o.copies) == value)), None)
            if picked is None:
                return False
            known.update(name.partition(".")[0] for name in picked.also)
            if any(_get(move, name) not in (None, also) for name, also in picked.also.items()):
                return False
        elif f.kind == "number":
            if not isinstance(value, int) or isinstance(value, bool):
                return False
            if value < f.min or (f.max is not None and value > f.max):
                return False
        else:
            items = value if value is not None else []
            if not isinstance(items, list):
                return False
            most = caps.get(f.name, f.max)
            if len(items) < f.min or (most is not None and len(items) > most):
                return False
            allowed = {o.value: (o.max if f.kind == "counts" else 1) for o in options}
            for item in set(map(repr, items)):
                matches = [i for i in items if repr(i) == item]
                if matches[0] not in allowed or len(matches) > allowed[matches[0]]:
                    return False
    return set(move) <= known


def find(choices: Sequence[Choice], move: Mapping[str, Any]) -> Choice | None:
    """The choice ``move`` fits, if any."""
    return next((c for c in choices if satisfied(c, move)), None)


# -- another seat's forms: the same words of that seat ----------------------------------------------------

#: words after which "you" is the object ("for you", "gives you"), not the one who acts
_OBJECT_AFTER = frozenset("for with to at from by of on against about than gives tells shows lets asks".split())
#: words that stay as they are after "he"/"she" too: modal verbs and past tenses the forms use
_SAME_VERB = frozenset("can could may might must shall should will would did had was took drew made gave chose "
                       "got held kept saw won lost put just also still only then now first never".split())
_IRREGULAR = {"are": "is", "am": "is", "were": "was", "have": "has", "do": "does", "go": "goes"}
_ASKED = re.compile(r"\b(do|are|have|were|did|can|could|will|would|may|must|should)\s+you\b", re.IGNORECASE)
_ASKING = {"do": "does", "are": "is", "have": "has", "were": "was"}
_WORD = re.compile(r"\b(you|your|yours|yourself|my|mine|me|I)\b(?:(\s+)([A-Za-z]+))?", re.IGNORECASE)
_LAST_WORD = re.compile(r"([A-Za-z]+)\W*$")


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if lower in _SAME_VERB or lower.endswith("ed") or not verb.islower():
        return verb
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lower.endswith("y") and lower[-2:-1] not in tuple("aeiou"):
        return verb[:-1] + "ies"
    return verb + "s"


def spoken_of(text: str, name: str) -> str:
    """``text`` written for the seat that makes the move ("you", "your", "my", "I") said of ``name`` instead, for
    another phone showing that seat's form (a correction fixing another player's move): "A knight of yours
    reached…" → "A knight of Ben's reached…", "you arrive 2nd" → "Ben arrives 2nd", "Which card did you draw?"
    → "Which card did Ben draw?", "Place my Control token" → "Place Ben's Control token"."""
    def asked(match: re.Match[str]) -> str:  # "do you play" → "does Ben play": the next verb stays as it is
        verb = match.group(1)
        said = _ASKING.get(verb.lower(), verb.lower())
        return f"{said.capitalize() if verb[0].isupper() else said} {name}"

    def said(match: re.Match[str]) -> str:
        word, gap, after = match.group(1), match.group(2) or "", match.group(3) or ""
        lower = word.lower()
        if word == "i":
            return match.group(0)
        if lower in ("your", "yours", "my", "mine"):
            return f"{name}'s{gap}{after}"
        previous = _LAST_WORD.search(text, 0, match.start())
        if lower in ("me", "yourself") or (previous and previous.group(1).lower() in _OBJECT_AFTER):
            return f"{name}{gap}{after}"
        return f"{name}{gap}{_third_person(after) if after else ''}"  # the one who acts: "you hold" → "Ben holds"

    text = _ASKED.sub(asked, text)
    return _WORD.sub(said, text)


def _spoken(item: Any, name: str, fields: Sequence[str]) -> dict[str, Any]:
    return {f: spoken_of(getattr(item, f), name) for f in fields}


def for_another(choices: Iterable[Choice], name: str) -> list[Choice]:
    """``choices`` as another phone shows them: every word the seat would read as "you", "your" or "my" names
    ``name`` (values, rules and dependencies unchanged: the move sent is the same)."""
    said = []
    for choice in choices:
        fields = tuple(dataclasses.replace(
            f, **_spoken(f, name, ("label", "hint", "none_label")),
            options=tuple(dataclasses.replace(o, **_spoken(o, name, ("label", "detail", "group", "short")))
                          for o in f.options)) for f in choice.fields)
        said.append(dataclasses.replace(choice, fields=fields, **_spoken(choice, name, ("label", "title", "hint"))))
    return said


__all__ = ["Choice", "Field", "KINDS", "Option", "SEARCH_FROM", "active", "find", "for_another", "list_rows", "plain",
           "rows_within", "sample_move", "satisfied", "shared_lists", "spoken_of", "to_json"]
