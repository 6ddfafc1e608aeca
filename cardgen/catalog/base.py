"""Shared machinery of the card-data layer: reading TOML files and collecting problems.

Every loader collects *all* problems it finds (file, record, field, message) and raises one
:class:`DataError` at the end, so a user fixing their own content sees the whole list at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    Any,
    Callable,
    Collection,
    Generic,
    Iterable,
    Literal,
    Mapping,
    Protocol,
    TypeVar,
)

import tomli

from .spec import parse_toml
from .versions import bind_cards

Provenance = Literal["rulebook", "authored"]
PROVENANCES: tuple[str, ...] = ("rulebook", "authored")

DEFAULT_DATA_DIR = Path(__file__).resolve().parents[2] / "data"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a data folder, located precisely enough to fix it."""

    file: str
    record: str
    field: str
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.record:
            where += f": {self.record}"
        if self.field:
            where += f": field '{self.field}'"
        return f"{where}: {self.message}"


class DataError(Exception):
    """Raised by a loader with every problem it found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in the game data:\n{lines}")


@dataclass(frozen=True)
class DataNote:
    """An anomaly of the rulebook, recorded openly: what was printed and what we use instead."""

    id: str
    subject: str  # a card id, "trait:<Name>" or "rulebook"
    field: str
    printed: str
    used: str
    action: Literal["normalised", "flagged"]
    text: str

    def describe(self) -> str:
        if self.action == "normalised":
            return f"[{self.id}] {self.field}: printed '{self.printed}', read as '{self.used}'. {self.text}"
        return f"[{self.id}] {self.field}: printed '{self.printed}' (kept, flagged). {self.text}"


@dataclass(frozen=True)
class RuleEntry:
    """A rule in our own words with a stable ID ``<game>.<area>.<rule>``."""

    id: str
    game: str
    title: str
    text: str
    tags: tuple[str, ...] = ()
    provenance: Provenance = "rulebook"
    #: for an authored rule that can settle a game's end: what the rulebook leaves open, in a few words
    #: ("the rulebook gives no team tie-break"), said with the ending it settles ("… (our reading: …)")
    reading: str = ""


CardT = TypeVar("CardT")


class CardAndRuleLookups(Generic[CardT]):
    """The card and rule look-ups every game's content shares. A game's frozen content dataclass derives
    from this and calls :meth:`_index_lookups` from ``__post_init__`` with its cards under every key they
    may be asked by (lower-case keys match a reference in any case)."""

    title: str
    rules: tuple[RuleEntry, ...]
    _card_keys: dict[str, CardT]
    _rules_by_id: dict[str, RuleEntry]
    _named_indexes: dict[str, dict[str, Any]]  # collection -> its name_index, built by named() on first use

    def _index_lookups(self, card_keys: dict[str, CardT]) -> None:
        object.__setattr__(self, "_card_keys", card_keys)
        object.__setattr__(self, "_rules_by_id", {r.id: r for r in self.rules})
        object.__setattr__(self, "_named_indexes", {})
        bind_cards(self, getattr(self, "cards", ()))  # card_version(card) resolves what the card prints here

    def named(self, collection: str, ref: str, what: str) -> Any:
        """The item of this content's ``collection`` (a tuple attribute) whose id or name is ``ref``, in any
        case; KeyError naming ``ref`` otherwise. Indexed on first use (the rules look up spells and colours
        on every state read: a scan of the tuple was most of some seat views' time)."""
        index = self._named_indexes.get(collection)
        if index is None:
            index = self._named_indexes[collection] = name_index(getattr(self, collection))
        found = index.get(ref.strip().casefold())
        if found is None:
            raise KeyError(f"no {what} '{ref}' in {self.title}")
        return found

    def card(self, ref: str) -> CardT:
        """A card by one of its keys, in any case; raises KeyError naming the reference."""
        found = self._card_keys.get(ref) or self._card_keys.get(ref.strip().casefold())
        if found is None:
            raise KeyError(f"no card '{ref}' in {self.title}")
        return found

    def find_card(self, ref: str) -> CardT | None:
        try:
            return self.card(ref)
        except KeyError:
            return None

    def subject_label(self, subject: str) -> str:
        """What a data note is about, in words: "the rulebook", "trait X" or a card's name and id. A game
        whose notes have other subjects (tiles, categories) overrides this."""
        if subject == "rulebook":
            return "the rulebook"
        if subject.startswith("trait:"):
            return f"trait {subject[6:]}"
        card = self.find_card(subject)
        return f"{getattr(card, 'name')} ({subject})" if card is not None else subject  # noqa: B009 (CardT declares no name)

    def rule(self, rule_id: str) -> RuleEntry:
        found = self._rules_by_id.get(rule_id)
        if found is None:
            raise KeyError(f"no rule '{rule_id}'")
        return found

    # Hooks a game's content may override (typed defaults, so shared code never asks hasattr):

    def label(self, card: CardT) -> str:
        """A short unambiguous name for the card (default: its name)."""
        return str(getattr(card, "name"))  # noqa: B009 (CardT declares no name)

    def card_facts(self, card: CardT) -> list[tuple[str, str]]:
        """Label/value pairs for the card's page (``/c/<game>/<card-id>``, what its printed QR code opens);
        default: none, so the page shows the card's label, notes and :meth:`card_rules`. A game whose pages
        module gives ``GamePages.card_context`` draws its own card page instead."""
        return []

    def card_rules(self, card: CardT) -> list[RuleEntry]:
        """The rule entries the card touches, most specific first (default: none)."""
        return []

    def ability_text(self, card: CardT) -> str:
        """What the card does, in words, for the rules search (default: nothing)."""
        return ""


class _Named(Protocol):
    @property
    def name(self) -> str: ...


NamedT = TypeVar("NamedT", bound=_Named)


def name_index(items: Iterable[NamedT]) -> dict[str, NamedT]:
    """Every item under its case-folded name and its id; the first item wins a key, as in a scan."""
    index: dict[str, NamedT] = {}
    for item in items:
        index.setdefault(item.name.casefold(), item)
        item_id = getattr(item, "id", None)
        if item_id is not None:
            index.setdefault(item_id, item)
    return index


@dataclass
class Reader:
    """Reads one TOML file of a data folder and records problems instead of raising."""

    root: Path
    name: str
    problems: list[Problem] = field(default_factory=list)
    #: the file itself could not be read (missing, empty, not UTF-8, not TOML): no further problem of it is
    #: recorded (each would be a consequence)
    unread: bool = field(default=False, repr=False)

    @property
    def label(self) -> str:
        return str(self.root / self.name)

    def load(self, *, empty_ok: bool = False) -> dict[str, Any]:
        """The file's tables; {} and an unreadable-file problem if it is missing, cannot be parsed, or (unless
        ``empty_ok``) holds nothing."""
        path = self.root / self.name
        data = b""
        try:
            data = path.read_bytes()
            doc = parse_toml(data)
            if not doc and not empty_ok:
                self.unreadable("is empty (no tables or fields)")
            return doc
        except FileNotFoundError:
            self.unreadable("file is missing")
        except tomli.TOMLDecodeError as exc:
            self.unreadable(f"not valid TOML: {exc}")
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            self.unreadable(f"is not UTF-8 text (byte {exc.start}, on line {line}, cannot be read): save it as UTF-8")
        except OSError as exc:
            self.unreadable(f"cannot be read: {exc}")
        return {}

    def unreadable(self, message: str) -> None:
        self.problems.append(Problem(self.label, "", "", message))
        self.unread = True

    def problem(self, record: str, field_name: str, message: str) -> None:
        """Record a problem of this file; none once the file could not be read (each would only say that a
        table or field of the unread file is missing: one problem says what is wrong)."""
        if not self.unread:
            self.problems.append(Problem(self.label, record, field_name, message))

    def records(self, doc: dict[str, Any], key: str, required: bool = True) -> list[dict[str, Any]]:
        """The ``[[key]]`` tables; none is a problem unless ``required`` is False."""
        value = doc.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.problem("", key, f"expected a list of [[{key}]] tables")
            return []
        if not value and required:
            self.problem("", key, f"no [[{key}]] records")
        return value

    def unknown_fields(self, rec: dict[str, Any], record: str, known: tuple[str, ...], prefix: str = "") -> None:
        """Report fields the loader would silently ignore (usually a misspelt name)."""
        for key in rec:
            if key not in known:
                self.problem(record, prefix + key, f"unknown field (known: {', '.join(known)})")

    def text(self, rec: dict[str, Any], record: str, key: str, *, required: bool = True,
             default: str = "") -> str:
        value = rec.get(key.rsplit(".", 1)[-1])  # 'trick.kind' names field 'kind' of a sub-table
        if value is None:
            if required:
                self.problem(record, key, "is missing")
            return default
        if not isinstance(value, str) or (required and not value.strip()):
            self.problem(record, key, f"expected a non-empty string, got {value!r}")
            return default
        return value.strip()

    def integer(self, rec: dict[str, Any], record: str, key: str, *, minimum: int | None = None,
                maximum: int | None = None, required: bool = True, default: int = 0) -> int:
        value = rec.get(key.rsplit(".", 1)[-1])  # 'trick.kind' names field 'kind' of a sub-table
        if value is None:
            if required:
                self.problem(record, key, "is missing")
            return default
        if not isinstance(value, int) or isinstance(value, bool):
            self.problem(record, key, f"expected a whole number, got {value!r}")
            return default
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            self.problem(record, key, f"{value} is outside {minimum}..{maximum}")
            return default
        return value

    def strings(self, rec: dict[str, Any], record: str, key: str, *, required: bool = True) -> tuple[str, ...]:
        value = rec.get(key.rsplit(".", 1)[-1])  # 'trick.kind' names field 'kind' of a sub-table
        if value is None:
            if required:
                self.problem(record, key, "is missing")
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(record, key, f"expected a list of non-empty strings, got {value!r}")
            return ()
        return tuple(v.strip() for v in value)

    def provenance(self, rec: dict[str, Any], record: str, key: str = "provenance",
                   default: Provenance = "rulebook") -> Provenance:
        """``rec[key]``, "rulebook" or "authored" (``default`` when it is left out); a problem names ``key``."""
        value = rec.get(key, default)
        if value not in PROVENANCES:
            self.problem(record, key, f"must be one of {', '.join(PROVENANCES)}, got {value!r}")
            return "rulebook"
        return "authored" if value == "authored" else "rulebook"


#: the fields of a [[rule]] and of a [[note]] (any other is reported: a misspelt optional field such as
#: 'provenance' or 'reading' would otherwise be left out without a word)
RULE_FIELDS = ("id", "title", "text", "tags", "provenance", "reading")
NOTE_FIELDS = ("id", "subject", "field", "printed", "used", "action", "text")


def load_rules(reader: Reader, game: str) -> tuple[RuleEntry, ...]:
    """Load ``rules.toml``: [[rule]] records with id, title, text, tags."""
    doc = reader.load()
    out: list[RuleEntry] = []
    seen: set[str] = set()
    for i, rec in enumerate(reader.records(doc, "rule"), 1):
        label = f"rule #{i}"
        rid = reader.text(rec, label, "id")
        if rid:
            label = f"rule #{i} '{rid}'"
            if not rid.startswith(game + "."):
                reader.problem(label, "id", f"must start with '{game}.'")
            if rid in seen:
                reader.problem(label, "id", "duplicate rule id")
            seen.add(rid)
        reader.unknown_fields(rec, label, RULE_FIELDS)
        out.append(RuleEntry(
            id=rid, game=game, title=reader.text(rec, label, "title"), text=reader.text(rec, label, "text"),
            tags=reader.strings(rec, label, "tags", required=False), provenance=reader.provenance(rec, label),
            reading=reader.text(rec, label, "reading", required=False),
        ))
    return tuple(out)


def load_notes(reader: Reader) -> tuple[DataNote, ...]:
    """Load ``notes.toml``: [[note]] records describing the rulebook's anomalies. The file is optional: a
    game whose rulebook has no slips needs none."""
    if not (reader.root / reader.name).exists():
        return ()
    doc = reader.load(empty_ok=True)
    out: list[DataNote] = []
    seen: set[str] = set()
    for i, rec in enumerate(reader.records(doc, "note", required=False), 1):  # a rulebook without slips: none
        label = f"note #{i}"
        nid = reader.text(rec, label, "id")
        if nid:
            label = f"note #{i} '{nid}'"
            if nid in seen:
                reader.problem(label, "id", "duplicate note id")
            seen.add(nid)
        reader.unknown_fields(rec, label, NOTE_FIELDS)
        action = rec.get("action", "normalised")
        if action not in ("normalised", "flagged"):
            reader.problem(label, "action", f"must be 'normalised' or 'flagged', got {action!r}")
            action = "flagged"
        out.append(DataNote(
            id=nid, subject=reader.text(rec, label, "subject"), field=reader.text(rec, label, "field"),
            printed=reader.text(rec, label, "printed"), used=reader.text(rec, label, "used", required=False),
            action=action, text=reader.text(rec, label, "text"),
        ))
    return tuple(out)


def player_range(reader: Reader, game: dict[str, Any], default_max: int) -> tuple[int, int]:
    """game.toml's ``min_players`` and ``max_players`` (1..10 each; max below min is a problem)."""
    min_p = reader.integer(game, "game", "min_players", minimum=1, maximum=10, default=2)
    max_p = reader.integer(game, "game", "max_players", minimum=1, maximum=10, default=default_max)
    if min_p > max_p:
        reader.problem("game", "max_players", f"{max_p} is below min_players {min_p}")
    return min_p, max_p


def check_note_subjects(reader: Reader, notes: Iterable[DataNote], *, is_record: Callable[[str], bool],
                        prefixed: Mapping[str, Collection[str]], accepted: str,
                        words: Collection[str] = ("rulebook",)) -> None:
    """Every note's subject names something: one of ``words``, a record id (``is_record``), or
    ``kind:id`` for a kind in ``prefixed``; ``accepted`` says what may be named, for the problem."""
    for note in notes:
        kind, sep, ref = note.subject.partition(":")
        if note.subject in words or (not sep and is_record(note.subject)):
            continue
        if sep and ref in prefixed.get(kind, ()):
            continue
        reader.problem(f"note '{note.id}'", "subject", f"unknown subject '{note.subject}' ({accepted})")


class RuleLinked(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def rule(self) -> str: ...


def check_rule_links(reader: Reader, kind: str, records: Iterable[RuleLinked], rules: Iterable[RuleEntry]) -> None:
    """Every record's ``rule`` names an entry of rules.toml (not checked when rules.toml gave none: that file's
    own problem says why)."""
    rule_ids = {r.id for r in rules}
    if rule_ids:
        for record in records:
            if record.rule and record.rule not in rule_ids:
                reader.problem(f"{kind} '{record.id}'", "rule", f"no rule entry '{record.rule}' in rules.toml")


def read_table(reader: Reader, doc: dict[str, Any], key: str) -> dict[str, Any]:
    """The ``[key]`` table of a TOML document ({} and a problem if it is missing or not a table)."""
    value = doc.get(key)
    if not isinstance(value, dict):
        reader.problem(key, "", f"expected a [{key}] table")
        return {}
    return value


def read_flag(reader: Reader, rec: dict[str, Any], record: str, key: str, *, default: bool | None = None) -> bool:
    """A true/false field (``default`` if it is left out; with no default it must be there)."""
    value = rec.get(key, default)
    if not isinstance(value, bool):
        reader.problem(record, key, f"expected true or false, got {value!r}")
        return False
    return value
