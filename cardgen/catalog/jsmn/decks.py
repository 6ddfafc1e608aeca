"""Jonathan Strange & Mr Norrell loader, part one: the shared field readers and the seven decks.

Each deck file is read into typed cards (one builder per kind), every field checked, and the decks are
counted against the rulebook's component list. :mod:`cardgen.catalog.jsmn.loader` builds the rest.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..base import Provenance, Reader, read_flag
from .map import EuropeMap
from .types import (
    BOOK_FORMS,
    CONNEXION_TYPE_IDS,
    ELEMENT_IDS,
    GAME_ID,
    NAMED_EFFECTS,
    PERSON_KINDS,
    SPELL_EFFECTS,
    SPELL_TIMINGS,
    Book,
    Card,
    Contents,
    Feat,
    Introduction,
    Invitation,
    Limits,
    MagicianshipValues,
    MarseillesCard,
    NamedConnexion,
    Spell,
    Tracks,
)

_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")
DECK_FILES: dict[str, tuple[str, str]] = {  # kind -> (file, record key)
    "invitation": ("invitations.toml", "invitation"), "introduction": ("introductions.toml", "introduction"),
    "feat": ("feats.toml", "feat"), "spell": ("spells.toml", "spell"), "connexion": ("connexions.toml", "connexion"),
    "book": ("books.toml", "book"), "marseilles": ("marseilles.toml", "marseilles"),
}
RULEBOOK_SPELLS = ("teilos-hand", "daedaluss-rose")


def required_provenance(reader: Reader, rec: dict[str, Any], record: str, key: str = "provenance") -> Provenance:
    """A required provenance: every record says where its facts come from."""
    if key not in rec:
        reader.problem(record, key, "is missing (\"rulebook\" or \"authored\")")
        return "authored"
    return reader.provenance(rec, record, key)


def read_number(reader: Reader, rec: dict[str, Any], record: str, key: str, low: float, high: float) -> float:
    value = rec.get(key)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value <= high:
        reader.problem(record, key, f"expected a number in {low:g}..{high:g}, got {value!r}")
        return 0.0
    return float(value)


def read_ints(reader: Reader, rec: dict[str, Any], record: str, key: str, low: int, high: int) -> tuple[int, ...]:
    value = rec.get(key)
    if not isinstance(value, list) or not value or not all(
            isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in value):
        reader.problem(record, key, f"expected a list of whole numbers in {low}..{high}, got {value!r}")
        return ()
    return tuple(value)


def read_choice(reader: Reader, rec: dict[str, Any], record: str, key: str, known: tuple[str, ...] | dict[str, Any],
            what: str) -> str:
    value = reader.text(rec, record, key)
    if value and value not in known:
        reader.problem(record, key, f"unknown {what} '{value}' (known: {', '.join(known)})")
    return value


def read_elements(reader: Reader, rec: dict[str, Any], record: str, key: str) -> tuple[str, ...]:
    values = reader.strings(rec, record, key)
    for value in values:
        if value not in ELEMENT_IDS:
            reader.problem(record, key, f"unknown element '{value}' (known: {', '.join(ELEMENT_IDS)})")
    if len(set(values)) != len(values):
        reader.problem(record, key, "an element is listed twice")
    return tuple(sorted(values, key=lambda e: ELEMENT_IDS.index(e) if e in ELEMENT_IDS else 99))


def read_records(reader: Reader, doc: dict[str, Any], key: str, known: tuple[str, ...],
             build: Callable[[dict[str, Any], str, str], Any]) -> list[Any]:
    """Each ``[[key]]`` record with a unique id, unknown fields reported, built by ``build(rec, id, label)``."""
    out: list[Any] = []
    seen: set[str] = set()
    for i, rec in enumerate(reader.records(doc, key), 1):
        rid = reader.text(rec, f"{key} #{i}", "id")
        label = f"{key} '{rid}'" if rid else f"{key} #{i}"
        if rid and not _ID.match(rid):
            reader.problem(label, "id", f"'{rid}' must be lower-case letters, digits and hyphens")
        if rid in seen:
            reader.problem(label, "id", f"duplicate {key} id")
        seen.add(rid)
        reader.unknown_fields(rec, label, ("id", *known, "provenance"))
        out.append(build(rec, rid, label))
    return out


def _base(kind: str, rid: str, reader: Reader, rec: dict[str, Any], label: str) -> dict[str, Any]:
    return {"game": GAME_ID, "id": rid, "number": 0, "name": reader.text(rec, label, "name"), "kind": kind,
            "provenance": required_provenance(reader, rec, label)}


def _place(reader: Reader, rec: dict[str, Any], label: str, europe: EuropeMap) -> str:
    where = reader.text(rec, label, "location")
    try:
        if where and not europe.location(where).occupiable:
            reader.problem(label, "location", f"'{where}' is never occupied: name a City location")
    except KeyError:
        reader.problem(label, "location", f"'{where}' does not name a location on the map")
    return where


def read_deck(kind: str, reader: Reader, doc: dict[str, Any], europe: EuropeMap, limits: Limits,
          magic: MagicianshipValues) -> list[Card]:
    def element(rec: dict[str, Any], label: str) -> str:
        return read_choice(reader, rec, label, "element", ELEMENT_IDS, "element")

    def invitation(rec: dict[str, Any], rid: str, label: str) -> Card:
        where = _place(reader, rec, label, europe)
        london = read_flag(reader, rec, label, "london")
        region = next((loc.region for loc in europe.locations if loc.id == where), None)
        if region is not None and london != (region == "city"):
            reader.problem(label, "london", f"must be {str(region == 'city').lower()}: '{where}' is "
                                            f"{'in' if region == 'city' else 'not in'} the City of London")
        return Invitation(**_base(kind, rid, reader, rec, label), element=element(rec, label), location=where,
                          london=london)

    def introduction(rec: dict[str, Any], rid: str, label: str) -> Card:
        return Introduction(**_base(kind, rid, reader, rec, label), element=element(rec, label),
                            prestige=reader.integer(rec, label, "prestige", minimum=1, maximum=5),
                            location=_place(reader, rec, label, europe),
                            person=read_choice(reader, rec, label, "person", PERSON_KINDS, "kind of person"))

    def feat(rec: dict[str, Any], rid: str, label: str) -> Card:
        value = reader.integer(rec, label, "magicianship", minimum=1, maximum=9)
        if value and value not in magic.feat_values:
            reader.problem(label, "magicianship", f"{value} is not a feat value ({magic.feat_values})")
        raw = rec.get("requires")
        requires: list[tuple[str, int]] = []
        if not isinstance(raw, dict) or not raw:
            reader.problem(label, "requires", f"expected a table of element = tokens, got {raw!r}")
        else:
            for el, count in raw.items():
                if el not in ELEMENT_IDS:
                    reader.problem(label, f"requires.{el}", f"unknown element (known: {', '.join(ELEMENT_IDS)})")
                elif not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 5:
                    reader.problem(label, f"requires.{el}", f"expected 1..5 tokens, got {count!r}")
                else:
                    requires.append((el, count))
        requires.sort(key=lambda pair: ELEMENT_IDS.index(pair[0]))
        return Feat(**_base(kind, rid, reader, rec, label), magicianship=value, requires=tuple(requires))

    def spell(rec: dict[str, Any], rid: str, label: str) -> Card:
        effect = read_choice(reader, rec, label, "effect", SPELL_EFFECTS, "spell effect")
        elements = read_elements(reader, rec, label, "elements") if "elements" in rec else ()
        if (effect == "place_listed_element") != bool(elements):
            reader.problem(label, "elements", "only a spell placing listed elements lists them, and it must")
        granted = reader.integer(rec, label, "magicianship", minimum=0, maximum=9, required=False)
        if (effect == "magicianship") != bool(granted) or (granted and granted != magic.spell):
            reader.problem(label, "magicianship", f"a magicianship spell grants {magic.spell}; no other spell does")
        prestige = reader.integer(rec, label, "discard_prestige", minimum=0, maximum=9)
        if prestige != limits.spell_discard_prestige:
            reader.problem(label, "discard_prestige", f"every spell is discarded for {limits.spell_discard_prestige}")
        return Spell(**_base(kind, rid, reader, rec, label), effect=effect,
                     timing=read_choice(reader, rec, label, "timing", SPELL_TIMINGS, "timing"),
                     text=reader.text(rec, label, "text"), elements=elements, magicianship=granted,
                     discard_prestige=prestige)

    def connexion(rec: dict[str, Any], rid: str, label: str) -> Card:
        return NamedConnexion(**_base(kind, rid, reader, rec, label),
                              connexion_type=read_choice(reader, rec, label, "type", CONNEXION_TYPE_IDS,
                                                         "connexion type"),
                              effect=read_choice(reader, rec, label, "effect", NAMED_EFFECTS, "effect"),
                              text=reader.text(rec, label, "text"))

    def book(rec: dict[str, Any], rid: str, label: str) -> Card:
        return Book(**_base(kind, rid, reader, rec, label), author=reader.text(rec, label, "author"),
                    form=read_choice(reader, rec, label, "form", BOOK_FORMS, "form"), element=element(rec, label))

    def marseilles(rec: dict[str, Any], rid: str, label: str) -> Card:
        return MarseillesCard(**_base(kind, rid, reader, rec, label), english=reader.text(rec, label, "english"),
                              strength=reader.integer(rec, label, "strength", minimum=0, maximum=9),
                              invitations=reader.integer(rec, label, "invitations", minimum=1, maximum=5),
                              elements=read_elements(reader, rec, label, "elements"))

    builders: dict[str, tuple[tuple[str, ...], Callable[[dict[str, Any], str, str], Card]]] = {
        "invitation": (("name", "element", "location", "london"), invitation),
        "introduction": (("name", "element", "prestige", "location", "person"), introduction),
        "feat": (("name", "magicianship", "requires"), feat),
        "spell": (("name", "effect", "timing", "text", "elements", "magicianship", "discard_prestige"), spell),
        "connexion": (("name", "type", "effect", "text"), connexion),
        "book": (("name", "author", "form", "element"), book),
        "marseilles": (("name", "english", "strength", "invitations", "elements"), marseilles),
    }
    known, build = builders[kind]
    return read_records(reader, doc, DECK_FILES[kind][1], known, build)


def check_decks(readers: dict[str, Reader], decks: dict[str, list[Card]], contents: Contents,
                 magic: MagicianshipValues, tracks: Tracks) -> None:
    for kind, cards in decks.items():
        if not readers[kind].problems and len(cards) != contents.deck_size(kind):
            readers[kind].problem("", DECK_FILES[kind][1], f"{len(cards)} cards here, but game.toml's contents "
                                                           f"say {contents.deck_size(kind)}")
    feats = [c for c in decks["feat"] if isinstance(c, Feat)]
    if feats and sorted({f.magicianship for f in feats}) != sorted(magic.feat_values):
        readers["feat"].problem("", "magicianship", f"every feat value {magic.feat_values} must occur")
    spells = {c.id for c in decks["spell"]}
    for rid in RULEBOOK_SPELLS:
        if spells and rid not in spells:
            readers["spell"].problem("", "spell", f"the rulebook's spell '{rid}' is missing")
    named = [c for c in decks["connexion"] if isinstance(c, NamedConnexion)]
    types = [c.connexion_type for c in named]
    if len(set(types)) != len(types):
        readers["connexion"].problem("", "type", "two named connexions share a connexion type")
    for rid, ctype in (("davey", "coachman"), ("vinculus", "street-magician")):
        if named and not any(c.id == rid and c.connexion_type == ctype for c in named):
            readers["connexion"].problem("", "connexion", f"the rulebook's '{rid}' ({ctype}) is missing")
    books = [c for c in decks["book"] if isinstance(c, Book)]
    if books and {b.form for b in books} != set(BOOK_FORMS):
        readers["book"].problem("", "form", f"all three forms must occur: {', '.join(BOOK_FORMS)}")
    years = [c for c in decks["marseilles"] if isinstance(c, MarseillesCard)]
    if years and len(years) != len(tracks.years):
        readers["marseilles"].problem("", "marseilles", f"one card per year: {len(tracks.years)} years")
    top = max(tracks.difficulties, default=0) + sum(c.strength for c in years)
    if top > tracks.fairy_length:
        readers["marseilles"].problem("", "strength", f"the fairy can reach {top}, past the track's end "
                                                      f"{tracks.fairy_length}")
