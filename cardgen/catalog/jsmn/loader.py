"""The Jonathan Strange & Mr Norrell loader: reads ``data/jsmn/*.toml``, checks every fact, builds the content.

Problems are collected per file (file, record, field) and raised together as one DataError. Besides each
field's own checks, every deck is counted against the rulebook's component list in ``game.toml``, the
token and disc counts against each other, the map is checked connected with the rulebook's named
locations on it, and the rulebook's example turn is checked possible with our cards and map.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

from ..base import (
    DataError,
    DataNote,
    Problem,
    Reader,
    RuleEntry,
    check_note_subjects,
    load_notes,
    load_rules,
    read_flag,
    read_table,
)
from .content import CARD_RULES, SPELL_RULES, JsmnContent
from .decks import (
    DECK_FILES,
    check_decks,
    read_choice,
    read_deck,
    read_elements,
    read_ints,
    read_number,
    read_records,
    required_provenance,
)
from .map import REGIONS, EuropeMap, Location, MapPath
from .types import (
    CONNEXION_TYPE_IDS,
    DECKS,
    ELEMENT_IDS,
    GAME_ID,
    UNIQUE_EFFECTS,
    Action,
    Card,
    ConnexionType,
    Contents,
    Element,
    ExampleTurn,
    Introduction,
    Invitation,
    Limits,
    Magician,
    MagicianshipValues,
    Tracks,
)

#: Locations the rulebook names (its example turn); they must be on the map, where history puts them.
NAMED_LOCATIONS: dict[str, tuple[float, float]] = {"madrid": (40.4, -3.7), "florence": (43.8, 11.3),
                                                  "padua": (45.4, 11.9)}


#: game.toml's top-level keys and the fields of its tables read by :func:`_game` (any other is reported: a
#: misspelt field would be ignored)
GAME_FIELDS = ("title", "source", "min_players", "max_players", "players_provenance", "limits", "magicianship",
               "contents", "years", "fairy", "prestige", "any_element", "element", "action", "connexion_type",
               "magician", "example")
TABLE_FIELDS: dict[str, tuple[str, ...]] = {
    "limits": (*Limits.__dataclass_fields__, "provenance"),
    "magicianship": ("feat_values", "book", "pupil", "spell", "provenance"),
    "contents": (*Contents.__dataclass_fields__, "provenance"),
    "years": ("first", "last", "ravens", "provenance"),
    "fairy": ("start", "advanced_starts", "length", "provenance", "length_provenance"),
    "prestige": ("start", "connexion_spaces", "length", "provenance", "spaces_provenance"),
}


def _game(reader: Reader, game: dict[str, Any]) -> dict[str, Any]:
    limits_t, magic_t, contents_t = (read_table(reader, game, k) for k in ("limits", "magicianship", "contents"))
    years_t, fairy_t, prestige_t = (read_table(reader, game, k) for k in ("years", "fairy", "prestige"))
    reader.unknown_fields(game, "game", GAME_FIELDS)
    reader.provenance(game, "game", "players_provenance", "authored")
    for name, table in (("limits", limits_t), ("magicianship", magic_t), ("contents", contents_t),
                        ("years", years_t), ("fairy", fairy_t), ("prestige", prestige_t)):
        if table:
            required_provenance(reader, table, name)
            reader.unknown_fields(table, name, TABLE_FIELDS[name])
    if fairy_t:
        reader.provenance(fairy_t, "fairy", "length_provenance", "authored")
    limits = Limits(**{f: reader.integer(limits_t, "limits", f, minimum=0, maximum=20)
                       for f in Limits.__dataclass_fields__})
    magic = MagicianshipValues(feat_values=read_ints(reader, magic_t, "magicianship", "feat_values", 1, 9),
                               **{f: reader.integer(magic_t, "magicianship", f, minimum=0, maximum=9)
                                  for f in ("book", "pupil", "spell")})
    contents = Contents(**{f: reader.integer(contents_t, "contents", f, minimum=0, maximum=999)
                           for f in Contents.__dataclass_fields__})
    first = reader.integer(years_t, "years", "first", minimum=1700, maximum=1900, default=1806)
    last = reader.integer(years_t, "years", "last", minimum=1700, maximum=1900, default=1817)
    ravens = read_ints(reader, years_t, "years", "ravens", first, last)
    fairy_length = reader.integer(fairy_t, "fairy", "length", minimum=1, maximum=200, default=50)
    prestige_length = reader.integer(prestige_t, "prestige", "length", minimum=1, maximum=200, default=40)
    spaces = read_ints(reader, prestige_t, "prestige", "connexion_spaces", 1, prestige_length)
    if list(spaces) != sorted(set(spaces)):
        reader.problem("prestige", "connexion_spaces", "must rise strictly")
    if spaces and len(spaces) != contents.connexion_discs:
        reader.problem("prestige", "connexion_spaces", f"{len(spaces)} spaces, but each player has "
                                                       f"{contents.connexion_discs} connexion discs")
    tracks = Tracks(first_year=first, last_year=last, raven_years=ravens,
                    fairy_start=reader.integer(fairy_t, "fairy", "start", minimum=0, maximum=0),
                    fairy_advanced=read_ints(reader, fairy_t, "fairy", "advanced_starts", 1, fairy_length),
                    fairy_length=fairy_length, prestige_start=reader.integer(prestige_t, "prestige", "start",
                                                                             minimum=0, maximum=0),
                    connexion_spaces=spaces, prestige_length=prestige_length,
                    spaces_provenance=required_provenance(reader, prestige_t, "prestige", "spaces_provenance"))
    if ravens and ravens[-1] != last:
        reader.problem("years", "ravens", f"the last year {last} must be a raven year (the game ends by then)")
    _check_contents(reader, contents, limits)
    return {"limits": limits, "magicianship": magic, "contents": contents, "tracks": tracks}


def _check_contents(reader: Reader, c: Contents, limits: Limits) -> None:
    sums = (("element_tokens", c.tokens_per_element * len(ELEMENT_IDS), "tokens_per_element × 6 elements"),
            ("discs", c.discs_per_colour * c.magician_boards, "discs_per_colour × magician_boards"),
            ("discs_per_colour", c.action_discs + c.prestige_discs + c.connexion_discs,
             "action_discs + prestige_discs + connexion_discs"),
            ("decks", len(DECKS), "the seven decks"), ("magician_pieces", c.magician_boards, "magician_boards"))
    for key, total, parts in sums:
        if getattr(c, key) != total:
            reader.problem("contents", key, f"{getattr(c, key)} is not {parts} ({total})")
    if c.connexion_discs > len(CONNEXION_TYPE_IDS):
        reader.problem("contents", "connexion_discs", "more discs than connexion types")


def _elements(reader: Reader, game: dict[str, Any]) -> list[Element]:
    elements = read_records(reader, game, "element", ("name", "name_one", "symbol"), lambda rec, rid, label: Element(
        id=rid, name=reader.text(rec, label, "name"), symbol=reader.text(rec, label, "symbol"),
        provenance=required_provenance(reader, rec, label),
        name_one=reader.text(rec, label, "name_one", required=False)))
    if [e.id for e in elements] != list(ELEMENT_IDS):
        reader.problem("", "element", f"expected the six elements in order: {', '.join(ELEMENT_IDS)}")
    symbols = [e.symbol for e in elements]
    if len(set(symbols)) != len(symbols):
        reader.problem("", "element", "two elements share a symbol")
    return elements


def _boards(reader: Reader, game: dict[str, Any], contents: Contents) -> dict[str, Any]:
    actions = read_records(reader, game, "action", ("name", "text", "study"), lambda rec, rid, label: Action(
        id=rid, name=reader.text(rec, label, "name"), text=reader.text(rec, label, "text"),
        study=read_elements(reader, rec, label, "study") if "study" in rec else (),
        provenance=required_provenance(reader, rec, label)))
    if len(actions) + 1 != contents.action_discs:
        reader.problem("", "action", f"{len(actions)} standard actions + the unique action is not the "
                                     f"{contents.action_discs} action slots")
    studied = sorted(e for a in actions for e in a.study)
    if studied != sorted(ELEMENT_IDS):
        reader.problem("", "action", "the study actions must cover each element exactly once")
    types = read_records(reader, game, "connexion_type", ("name", "text", "magicianship"),
                     lambda rec, rid, label: ConnexionType(
                         id=rid, name=reader.text(rec, label, "name"), text=reader.text(rec, label, "text"),
                         magicianship=reader.integer(rec, label, "magicianship", minimum=0, maximum=9, required=False),
                         provenance=required_provenance(reader, rec, label)))
    if sorted(t.id for t in types) != sorted(CONNEXION_TYPE_IDS):
        reader.problem("", "connexion_type", f"expected the six types: {', '.join(CONNEXION_TYPE_IDS)}")
    known = ("name", "unique_action", "unique_text", "unique_effect", "colour", "symbol", "unique_provenance")
    magicians = read_records(reader, game, "magician", known, lambda rec, rid, label: Magician(
        id=rid, name=reader.text(rec, label, "name"), unique_action=reader.text(rec, label, "unique_action"),
        unique_text=reader.text(rec, label, "unique_text"),
        unique_effect=read_choice(reader, rec, label, "unique_effect", UNIQUE_EFFECTS, "unique effect"),
        colour=reader.text(rec, label, "colour"), symbol=reader.text(rec, label, "symbol"),
        provenance=required_provenance(reader, rec, label), unique_provenance=required_provenance(reader, rec, label,
                                                                                 "unique_provenance")))
    if len(magicians) != contents.magician_boards:
        reader.problem("", "magician", f"{len(magicians)} magician boards, the rulebook has {contents.magician_boards}")
    for attr in ("colour", "symbol"):
        values = [getattr(m, attr) for m in magicians]
        if len(set(values)) != len(values):
            reader.problem("", "magician", f"two magicians share a {attr}")
    return {"actions": tuple(actions), "connexion_types": tuple(types), "magicians": tuple(magicians)}


def _map(reader: Reader, doc: dict[str, Any]) -> EuropeMap:
    london = read_table(reader, doc, "london")
    space = reader.text(london, "london", "space") if london else ""
    if london:
        required_provenance(reader, london, "london")
        reader.unknown_fields(london, "london", ("space", "provenance"))
    locations: list[Location] = read_records(reader, doc, "location", ("name", "region", "lat", "lon"),
                                         lambda rec, rid, label: Location(
        id=rid, name=reader.text(rec, label, "name"),
        region=read_choice(reader, rec, label, "region", REGIONS, "region"),  # type: ignore[arg-type]
        lat=read_number(reader, rec, label, "lat", 30, 65), lon=read_number(reader, rec, label, "lon", -15, 35),
        provenance=required_provenance(reader, rec, label)))
    ids = {loc.id: loc for loc in locations}
    londons = [loc.id for loc in locations if loc.region == "london"]
    if londons != [space]:
        reader.problem("london", "space", f"exactly one location of region \"london\" must be the space "
                                          f"'{space}', found {londons}")
    if len({loc.name for loc in locations}) != len(locations):
        reader.problem("", "location", "two locations share a name")
    paths: list[MapPath] = []
    for i, rec in enumerate(reader.records(doc, "path"), 1):
        label = f"path #{i}"
        reader.unknown_fields(rec, label, ("between", "provenance"))
        pair = reader.strings(rec, label, "between")
        if len(pair) != 2 or pair[0] == pair[1]:
            reader.problem(label, "between", f"expected two different location ids, got {list(pair)}")
            continue
        label = f"path {pair[0]}-{pair[1]}"
        for end in pair:
            if end not in ids:
                reader.problem(label, "between", f"'{end}' does not name a location")
            elif ids[end].region == "city":
                reader.problem(label, "between", f"'{end}' is a City location: the City is reached through London")
        if any(set(p.between) == set(pair) for p in paths):
            reader.problem(label, "between", "the same path twice")
        paths.append(MapPath(between=(pair[0], pair[1]), provenance=required_provenance(reader, rec, label)))
    europe_map = EuropeMap(locations=tuple(locations), paths=tuple(paths), london_space=space)
    if not reader.problems:
        if not europe_map.is_connected():
            reader.problem("", "path", "the map is not connected: some location cannot be reached")
        for loc_id, (lat, lon) in NAMED_LOCATIONS.items():
            loc = ids.get(loc_id)
            if loc is None:
                reader.problem("", "location", f"the rulebook names '{loc_id}': it must be on the map")
            elif abs(loc.lat - lat) > 0.5 or abs(loc.lon - lon) > 0.5:
                reader.problem(f"location '{loc_id}'", "lat", f"must be where history puts it (about {lat}, {lon})")
    return europe_map


def _check_example(reader: Reader, ex: ExampleTurn, content: JsmnContent) -> None:
    """The rulebook's example turn must be possible with our map and cards."""
    def fail(field_name: str, message: str) -> None:
        reader.problem("example", field_name, message)

    by_id = {c.id: c for c in content.cards}
    invitation, introduction = by_id.get(ex.invitation), by_id.get(ex.introduction)
    if not isinstance(invitation, Invitation) or invitation.location != ex.start:
        fail("invitation", f"'{ex.invitation}' must be an invitation in '{ex.start}'")
    if not isinstance(introduction, Introduction) or introduction.location != ex.destination:
        fail("introduction", f"'{ex.introduction}' must be an introduction in '{ex.destination}'")
    elif introduction.prestige != ex.prestige_gained:
        fail("introduction", f"'{ex.introduction}' gives {introduction.prestige} prestige, the example "
                             f"{ex.prestige_gained}")
    europe = content.map
    if europe.steps(ex.start, ex.destination) != ex.steps:
        fail("steps", f"{ex.start} to {ex.destination} takes {europe.steps(ex.start, ex.destination)} steps on "
                      f"our map, the example {ex.steps}")
    if europe.steps(ex.start, ex.via) != 2 or ex.destination not in europe.neighbours(ex.via):
        fail("via", f"{ex.via} must be two steps from {ex.start} (one coachman move) and next to {ex.destination}")
    total = ex.feats_magicianship + ex.books * content.magicianship.book + (content.magicianship.pupil
                                                                           if ex.pupil else 0)
    if total != ex.total:
        fail("total", f"{ex.total} is not feats + books + pupil ({total})")
    strengths = [c.strength for c in content.marseilles]
    tracks = content.tracks
    year_index = ex.year - tracks.first_year + 1
    if not tracks.first_year <= ex.year <= tracks.last_year:
        fail("year", f"{ex.year} is not a year of the game ({tracks.first_year}..{tracks.last_year})")
    elif not any(sum(combo) == ex.fairy for combo in combinations(strengths, year_index)):
        fail("fairy", f"no {year_index} cards of Marseilles add up to {ex.fairy}")
    if not any(c.invitations == ex.invitations_drawn and ex.element_available in c.elements
               and ex.element_unavailable not in c.elements for c in content.marseilles):
        fail("invitations_drawn", f"no card of Marseilles draws {ex.invitations_drawn} and shows "
                                  f"{ex.element_available} but not {ex.element_unavailable}")
    if ex.magician not in {m.id for m in content.magicians}:
        fail("magician", f"'{ex.magician}' is not a magician")


def _check_subjects(reader: Reader, notes: tuple[DataNote, ...], content: JsmnContent) -> None:
    known = {"location": {loc.id for loc in content.map.locations}, "magician": {m.id for m in content.magicians},
             "element": set(ELEMENT_IDS), "connexion-type": set(CONNEXION_TYPE_IDS)}
    check_note_subjects(reader, notes, is_record=lambda subject: content.find_card(subject) is not None,
                        prefixed=known, words=("rulebook", "balance"),
                        accepted="a card id, location:, magician:, element:, connexion-type:, balance or rulebook")


def _check_rule_links(reader: Reader, rules: tuple[RuleEntry, ...]) -> None:
    ids = {r.id for r in rules}
    wanted = {r for rs in CARD_RULES.values() for r in rs} | set(SPELL_RULES.values()) | {"jsmn.move.london"}
    wanted |= {f"jsmn.connexion.{t}" for t in CONNEXION_TYPE_IDS}
    for rule_id in sorted(wanted - ids):
        reader.problem("", "rule", f"the cards link to '{rule_id}': it must be a rule entry")


def _example(reader: Reader, game: dict[str, Any]) -> ExampleTurn:
    table = read_table(reader, game, "example")
    if table:
        required_provenance(reader, table, "example")
    fields = ExampleTurn.__dataclass_fields__
    if table:
        reader.unknown_fields(table, "example", (*fields, "provenance"))
    values: dict[str, Any] = {}
    for name in fields:
        if name == "pupil":
            values[name] = read_flag(reader, table, "example", name)
        elif fields[name].type in ("int", int):
            values[name] = reader.integer(table, "example", name, minimum=0, maximum=3000)
        else:
            values[name] = reader.text(table, "example", name)
    return ExampleTurn(**values)


def load(root: Path) -> JsmnContent:
    """Load and validate a Jonathan Strange & Mr Norrell data folder; raises DataError listing every problem."""
    game_r = Reader(root, "game.toml")
    game = game_r.load()
    parts = _game(game_r, game)
    elements = _elements(game_r, game)
    boards = _boards(game_r, game, parts["contents"])
    any_element = read_table(game_r, game, "any_element")
    any_symbol = game_r.text(any_element, "any_element", "symbol")
    if any_element:
        game_r.unknown_fields(any_element, "any_element", ("symbol", "provenance"))
        required_provenance(game_r, any_element, "any_element")
    example = _example(game_r, game)
    map_r = Reader(root, "map.toml")
    europe = _map(map_r, map_r.load())

    readers = {kind: Reader(root, file) for kind, (file, _) in DECK_FILES.items()}
    decks = {kind: read_deck(kind, readers[kind], readers[kind].load(), europe, parts["limits"], parts["magicianship"])
             for kind in DECKS}
    check_decks(readers, decks, parts["contents"], parts["magicianship"], parts["tracks"])
    cards: list[Card] = []
    for kind in DECKS:
        for card in decks[kind]:
            if any(c.id == card.id for c in cards):
                readers[kind].problem(f"{kind} '{card.id}'", "id", "another deck's card has this id")
            if any(c.name == card.name for c in cards):
                readers[kind].problem(f"{kind} '{card.id}'", "name", f"another card is named '{card.name}'")
            cards.append(replace(card, number=len(cards) + 1))

    note_r, rules_r = Reader(root, "notes.toml"), Reader(root, "rules.toml")
    notes, rules = load_notes(note_r), load_rules(rules_r, GAME_ID)
    _check_rule_links(rules_r, rules)
    problems: list[Problem] = [*game_r.problems, *map_r.problems, *(p for r in readers.values() for p in r.problems)]
    if problems:
        raise DataError([*problems, *note_r.problems, *rules_r.problems])
    cards = [replace(c, notes=tuple(n for n in notes if n.subject == c.id)) for c in cards]
    content = JsmnContent(
        game=GAME_ID, title=game_r.text(game, "game", "title"), source=game_r.text(game, "game", "source"),
        min_players=game_r.integer(game, "game", "min_players", minimum=1, maximum=4),
        max_players=game_r.integer(game, "game", "max_players", minimum=1, maximum=4),
        elements=tuple(elements), any_element_symbol=any_symbol, map=europe, cards=tuple(cards), example=example,
        rules=rules, notes=notes, **parts, **boards)
    _check_example(game_r, example, content)
    _check_subjects(note_r, notes, content)
    problems = [*game_r.problems, *note_r.problems, *rules_r.problems]
    if problems:
        raise DataError(problems)
    return content
