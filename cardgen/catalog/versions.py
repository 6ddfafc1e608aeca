"""Content versions of cards: a short digest of everything a printed card shows, face and back.

A printed card's QR code carries its version (``?v=...``); the card page compares it with the card as
the data says today and tells the player when their print is out of date, and ``cardgen build
--changed-since`` reprints the cards whose version differs from an old kit's manifest. The version is a
SHA-256 of the card's *printed record* (:func:`printed_record`) as sorted JSON: the card's own record, every
related record its face resolves (a spell a card names from another file, the traits it lists and their
tricks, a map location it is set at: each game's content says which), the numbers it prints (deck position
and size), the face layout revision :data:`FACE_LAYOUT`, and the words of the print labels that its own
front and back draw, in the default language, as drawn (:func:`cardgen.render.face_words.printed_words`):
a label only other cards print changes no version of this one. Same data, same version, in every process
and on every machine.

Versions once digested every label of the game instead. A card whose face is still the one it had then
keeps the version it printed with (:func:`pinned_version`, from its game's ``versions_before_words.json``), so that
the change of scheme marked no printed card out of date.

Each game's content declares what its faces print with ``printed_facts(card)``; a content binds its cards
to itself when it is built (:func:`bind_cards`), so ``card_version(card)`` alone finds the related
records (the companion calls it so). A card not bound to any content (``dataclasses.replace`` of one)
is versioned from its own record and the layout revision.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import tomli

from .spec import parse_toml

VERSION_LENGTH = 8
_FIELD = getattr(dataclasses, "_FIELD", None)  # a real field's marker (not a ClassVar or InitVar)

#: The face layouts' revision and the layout profiles the faces are set in (standard, tall, compact).
#: Bump the revision with any change to how a face lays out what it prints: every card's version changes.
FACE_LAYOUT = {"revision": 3, "profiles": {"standard": 1.0, "tall": 1.12, "compact": "min 6 pt, optional lines off"}}

_BOUND = "_printed_in"
_drafting = threading.local()  # .depth: faces are being drawn to read their words (see unversioned)
PLACEHOLDER_VERSION = "0" * VERSION_LENGTH


@contextmanager
def unversioned() -> Iterator[None]:
    """Within the block (this thread), :func:`card_version` answers a placeholder: the faces a version reads
    its words from are made, and their QR codes ask for a version, while that version is being made."""
    _drafting.depth = getattr(_drafting, "depth", 0) + 1
    try:
        yield
    finally:
        _drafting.depth -= 1


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):   # the common case first
        return value
    fields = getattr(type(value), "__dataclass_fields__", None)
    if fields is not None:
        if _FIELD is None:  # pragma: no cover - another Python: the public, slower way
            return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {name: _plain(getattr(value, name)) for name, f in fields.items() if f._field_type is _FIELD}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def bind_cards(catalog: Any, cards: Any) -> None:
    """Remember that ``cards`` are printed as ``catalog`` resolves them (called by each content when built)."""
    for card in cards:
        try:
            object.__setattr__(card, _BOUND, catalog)
        except (AttributeError, TypeError):  # pragma: no cover - a card type with slots: versioned alone
            return


def catalog_of(card: Any) -> Any:
    """The content ``card`` was loaded with, or None."""
    return getattr(card, "__dict__", {}).get(_BOUND)


def printed_record(card: Any, catalog: Any = None) -> dict[str, Any]:
    """Everything the card's face and back print, as plain data (see the module's description)."""
    catalog = catalog if catalog is not None else catalog_of(card)
    record: dict[str, Any] = {"card": _plain(card), "layout": FACE_LAYOUT}
    facts = getattr(catalog, "printed_facts", None)
    if facts is not None:
        record["printed"] = _plain(facts(card))
        words = _printed_words(catalog, card)
        if words is not None:
            record["words"] = words
        else:  # no faces to read them from: every label of the game
            root = getattr(catalog, "__dict__", {}).get("_data_root")
            labels = _labels(str(root)) if root is not None else {}
            record["labels"] = {section: labels.get(section, {}) for section in ("card", getattr(catalog, "game", ""))}
    return record


def _printed_words(catalog: Any, card: Any) -> list[str] | None:
    """The label words the card's faces draw (:func:`cardgen.render.face_words.printed_words`), None without
    the print kit."""
    try:
        from cardgen.render.face_words import printed_words
    except ImportError:  # pragma: no cover - the catalog without its print kit
        return None
    return printed_words(catalog, card)


def version_labels_path(root: Path | str) -> Path:
    """The print labels a data folder's card versions include: its ``print/labels/en.toml``, else the project's."""
    path = Path(root) / "print" / "labels" / "en.toml"
    if not path.is_file():
        path = Path(__file__).resolve().parents[2] / "data" / "print" / "labels" / "en.toml"
    return path


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path``, parsed once while it is unchanged (the print labels are read by the faces and
    by the versions alike); callers do not change what it returns. Raises what reading and parsing raise."""
    stat = path.stat()
    return _parsed_toml(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _parsed_toml(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    return parse_toml(Path(path).read_bytes())


@lru_cache(maxsize=8)
def _labels(root: str) -> dict[str, Any]:
    """The default language's print labels of a data folder (``print/labels/en.toml``), {} if it has none."""
    try:
        return read_toml(version_labels_path(root))
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError):
        return {}


#: The file beside a game's content module (``cardgen/catalog/<game>/``) pinning each card's version from
#: before versions digested the words their faces draw (they digested every label of the game) beside its
#: version since, from the same data and labels: see :func:`pinned_version`.
PINNED_VERSIONS = "versions_before_words.json"


def pins_path(catalog: Any) -> Path | None:
    """Where ``catalog``'s game keeps its pinned versions (its content module's folder), None if unknown."""
    module = sys.modules.get(type(catalog).__module__)
    where = getattr(module, "__file__", None)
    return Path(where).with_name(PINNED_VERSIONS) if where else None


@lru_cache(maxsize=32)
def _pins(path: Path | None) -> dict[str, Any]:
    try:
        found = json.loads(path.read_text(encoding="utf-8")) if path is not None else {}
    except (OSError, ValueError):  # a game with no pins (any game made since): the versions made today
        return {}
    return found if isinstance(found, dict) else {}


def pinned_version(catalog: Any, card_id: str, version: str) -> str:
    """The version a card printed before the change of scheme carries, when its face is still the one it
    printed then (today's ``version`` is the one pinned beside it); else ``version``.

    The version once digested every label of the game, so the plural of one kind of card's words changed
    every card's version. Digesting only the words a face draws changed every card's version once more, for
    nothing; the cards whose face is as it was keep the version their QR code carries (and a later change
    of their face gives them a new one).
    """
    pinned = _pins(pins_path(catalog)).get("cards", {}).get(card_id)
    if isinstance(pinned, list) and len(pinned) == 2 and pinned[1] == version:
        return str(pinned[0])
    return version


def pinned_labels_digest(catalog: Any) -> str | None:
    """The digest of the default language's face labels (:func:`cardgen.render.labels.face_labels_digest`)
    the pinned versions were made with: a card manifest recording it was printed in that language."""
    found = _pins(pins_path(catalog)).get("labels")
    return found if isinstance(found, str) else None


def card_version(card: Any, catalog: Any = None) -> str:
    """The card's print version: 8 hex digits that change whenever anything its face or back prints does."""
    if getattr(_drafting, "depth", 0):
        return PLACEHOLDER_VERSION
    catalog = catalog if catalog is not None else catalog_of(card)
    cache = getattr(catalog, "__dict__", {}).get("_versions") if catalog is not None else None
    if cache is not None:
        key = id(card)
        found = cache.get(key)
        if found is not None and found[0] is card:
            return str(found[1])
    text = json.dumps(printed_record(card, catalog), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    version = hashlib.sha256(text.encode("utf-8")).hexdigest()[:VERSION_LENGTH]
    if catalog is not None:
        version = pinned_version(catalog, str(getattr(card, "id", "")), version)
    if catalog is not None:
        if cache is None:
            cache = {}
            try:
                object.__setattr__(catalog, "_versions", cache)
            except (AttributeError, TypeError):  # pragma: no cover
                return version
        cache[id(card)] = (card, version)
    return version
