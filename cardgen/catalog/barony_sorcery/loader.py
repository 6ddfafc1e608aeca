"""The Barony: Sorcery loader: reads ``data/barony-sorcery/*.toml``, checks every fact, builds the content.

Problems are collected per file (file, record, field) and raised together as one DataError. Besides each
field's own checks, the spells and tiles are counted against the rulebook's component list in
``game.toml``, the tiles with a Mysterious location against the per-player-count table, and each
combination example's printed cost against its spells.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..base import (
    DataError,
    DataNote,
    Problem,
    Provenance,
    Reader,
    check_note_subjects,
    check_rule_links,
    load_notes,
    load_rules,
    player_range,
    read_flag,
    read_table,
)
from .content import BaronySorceryContent
from .types import (
    CATEGORY_IDS,
    CATEGORY_SYMBOLS,
    GAME_ID,
    MYSTERIOUS,
    PLAYER_SYMBOLS,
    TERRAINS,
    Card,
    Category,
    Combination,
    FifthPlayer,
    PlayerColour,
    ResourceKind,
    Spell,
    Tile,
)

_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
CONTENT_FIELDS = ("territory_tiles", "resource_tokens", "magic_tokens", "control_tokens",
                  "control_tokens_per_player", "spell_cards")
FIFTH_PLAYER_FIELDS = ("knights", "cities", "strongholds", "villages", "score_counters", "reference_sheets")
#: game.toml's top-level keys (any other is reported: a misspelt field would be ignored)
GAME_FIELDS = ("title", "source", "min_players", "max_players", "base_tiles", "tiles_per_player", "spells_in_play",
               "exploration_rewards", "max_controls_per_location", "points_per_control", "basic_actions",
               "hex_size_mm", "hex_size_provenance", "contents", "fifth_player", "mysterious_by_players", "category",
               "player_colour", "resource", "combination")
GAME_INTS = (("base_tiles", 1, 200), ("tiles_per_player", 1, 50), ("spells_in_play", 1, 20),
             ("max_controls_per_location", 1, 10), ("points_per_control", 0, 50), ("basic_actions", 1, 20))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def _record_id(reader: Reader, rec: dict[str, Any], kind: str, number: int, taken: list[str]) -> tuple[str, str]:
    """The id of the ``number``-th ``kind`` record and the label its problems go under (by id when it has one)."""
    rid = reader.text(rec, f"{kind} #{number}", "id")
    label = f"{kind} '{rid}'" if rid else f"{kind} #{number}"
    if rid and not _ID.match(rid):
        reader.problem(label, "id", f"'{rid}' must be lower-case letters, digits and hyphens")
    if rid and rid in taken:
        reader.problem(label, "id", f"duplicate {kind} id")
    return rid, label


def _sub_provenance(reader: Reader, rec: dict[str, Any], record: str, key: str) -> Provenance:
    return reader.provenance(rec, record, key, "authored")


def _rewards(reader: Reader, game: dict[str, Any], max_controls: int) -> tuple[int, ...]:
    value = game.get("exploration_rewards")
    if not isinstance(value, list) or not value or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in value):
        reader.problem("game", "exploration_rewards", f"expected a list of whole numbers 0..20, got {value!r}")
        return ()
    if max_controls and len(value) != max_controls:
        reader.problem("game", "exploration_rewards",
                       f"{len(value)} rewards for {max_controls} Control tokens per location (one per arrival)")
    if any(a < b for a, b in zip(value, value[1:], strict=False)):
        reader.problem("game", "exploration_rewards", "a later visitor cannot get more than an earlier one")
    return tuple(value)


def _mysterious_table(reader: Reader, game: dict[str, Any], players: tuple[int, int]) -> dict[int, int]:
    table = read_table(reader, game, "mysterious_by_players")
    out: dict[int, int] = {}
    for key, _value in table.items():
        if not key.isdecimal() or not players[0] <= int(key) <= players[1]:
            reader.problem("mysterious_by_players", key, f"must be a player count {players[0]}..{players[1]}")
            continue
        out[int(key)] = reader.integer(table, "mysterious_by_players", key, minimum=0, maximum=20)
    missing = [n for n in range(players[0], players[1] + 1) if n not in out]
    if table and missing:
        reader.problem("mysterious_by_players", str(missing[0]), "is missing")
    return dict(sorted(out.items()))


def _categories(reader: Reader, doc: dict[str, Any]) -> list[Category]:
    out: list[Category] = []
    for i, rec in enumerate(reader.records(doc, "category"), 1):
        cid, label = _record_id(reader, rec, "category", i, [c.id for c in out])
        reader.unknown_fields(rec, label, ("id", "name", "colour", "symbol", "provenance", "symbol_provenance"))
        if cid and cid not in CATEGORY_IDS:
            reader.problem(label, "id", f"unknown category '{cid}' (known: {', '.join(CATEGORY_IDS)})")
        symbol = reader.text(rec, label, "symbol")
        if symbol and symbol not in CATEGORY_SYMBOLS:
            reader.problem(label, "symbol", f"unknown symbol '{symbol}' (known: {', '.join(CATEGORY_SYMBOLS)})")
        if symbol and any(c.symbol == symbol for c in out):
            reader.problem(label, "symbol", f"'{symbol}' is used by another category too")
        colour = reader.text(rec, label, "colour")
        if colour and any(c.colour == colour for c in out):
            reader.problem(label, "colour", f"'{colour}' is used by another category too")
        out.append(Category(id=cid, name=reader.text(rec, label, "name"), colour=colour, symbol=symbol,
                            provenance=reader.provenance(rec, label),
                            symbol_provenance=_sub_provenance(reader, rec, label, "symbol_provenance")))
    return out


def _player_colours(reader: Reader, doc: dict[str, Any], expected: int) -> list[PlayerColour]:
    out: list[PlayerColour] = []
    for i, rec in enumerate(reader.records(doc, "player_colour"), 1):
        cid, label = _record_id(reader, rec, "player_colour", i, [c.id for c in out])
        reader.unknown_fields(rec, label, ("id", "name", "symbol", "fifth_player", "provenance"))
        symbol = reader.text(rec, label, "symbol")
        if symbol and symbol not in PLAYER_SYMBOLS:
            reader.problem(label, "symbol", f"unknown symbol '{symbol}' (known: {', '.join(PLAYER_SYMBOLS)})")
        elif symbol and any(c.symbol == symbol for c in out):
            reader.problem(label, "symbol", f"'{symbol}' is used by another colour too")
        out.append(PlayerColour(id=cid, name=reader.text(rec, label, "name"), symbol=symbol,
                                fifth_player=read_flag(reader, rec, label, "fifth_player", default=False),
                                provenance=reader.provenance(rec, label)))
    if out and len(out) != expected:
        reader.problem("", "player_colour", f"{len(out)} player colours, but max_players is {expected}")
    if out and sum(c.fifth_player for c in out) != 1:
        reader.problem("", "player_colour", "exactly one colour must be the fifth player's (fifth_player = true)")
    return out


def _resources(reader: Reader, doc: dict[str, Any], expected: int) -> list[ResourceKind]:
    out: list[ResourceKind] = []
    for i, rec in enumerate(reader.records(doc, "resource"), 1):
        label = f"resource #{i}"
        terrain = reader.text(rec, label, "terrain")
        if terrain:
            label = f"resource '{terrain}'"
            if terrain not in TERRAINS or terrain in ("lake", MYSTERIOUS):
                reader.problem(label, "terrain", f"'{terrain}' is not a land type that gives resources")
            elif any(r.terrain == terrain for r in out):
                reader.problem(label, "terrain", "a second record for the same land type")
        reader.unknown_fields(rec, label, ("terrain", "count", "provenance"))
        out.append(ResourceKind(terrain=terrain, count=reader.integer(rec, label, "count", minimum=1, maximum=99),
                                provenance=reader.provenance(rec, label)))
    total = sum(r.count for r in out)
    if out and not reader.problems and total != expected:
        reader.problem("", "resource", f"{total} Resource tokens here, but [contents] says {expected}")
    return out


def _combinations(reader: Reader, doc: dict[str, Any]) -> list[Combination]:
    out: list[Combination] = []
    for i, rec in enumerate(reader.records(doc, "combination"), 1):
        cid, label = _record_id(reader, rec, "combination", i, [c.id for c in out])
        reader.unknown_fields(rec, label, ("id", "spells", "cost", "gives", "not_more", "notes", "provenance"))
        out.append(Combination(id=cid, spells=reader.strings(rec, label, "spells"),
                               cost=reader.integer(rec, label, "cost", minimum=1, maximum=20),
                               gives=reader.text(rec, label, "gives"), not_more=reader.text(rec, label, "not_more"),
                               notes=reader.strings(rec, label, "notes", required=False),
                               provenance=reader.provenance(rec, label)))
    return out


def _check_combinations(reader: Reader, combos: list[Combination], spells: dict[str, Spell],
                        note_ids: set[str]) -> None:
    for combo in combos:
        label = f"combination '{combo.id}'"
        unknown = [s for s in combo.spells if s not in spells]
        if unknown:
            reader.problem(label, "spells", f"unknown spell '{unknown[0]}'")
            continue
        if len(set(combo.spells)) != len(combo.spells):
            reader.problem(label, "spells", "a spell is named twice (a spell is cast once per action)")
        if len({spells[s].category for s in combo.spells}) > 1:
            reader.problem(label, "spells", "combined spells must all be of one category")
        total = sum(spells[s].cost for s in combo.spells)
        if combo.cost and total != combo.cost:
            reader.problem(label, "cost", f"{combo.cost} is not what the spells cost together ({total})")
        for note in combo.notes:
            if note_ids and note not in note_ids:
                reader.problem(label, "notes", f"no note '{note}' in notes.toml")


def _spells(reader: Reader, doc: dict[str, Any], categories: dict[str, Category], expected: int) -> list[Spell]:
    out: list[Spell] = []
    for i, rec in enumerate(reader.records(doc, "spell"), 1):
        sid, label = _record_id(reader, rec, "spell", i, [s.id for s in out])
        reader.unknown_fields(rec, label, ("id", "name", "category", "cost", "text", "rule", "provenance"))
        category = reader.text(rec, label, "category")
        if category and categories and category not in categories:
            reader.problem(label, "category", f"unknown category '{category}' (known: {', '.join(categories)})")
        name = reader.text(rec, label, "name")
        if name and any(s.name.casefold() == name.casefold() for s in out):
            reader.problem(label, "name", "another spell has this name")
        out.append(Spell(id=sid, name=name, category=category, cost=reader.integer(rec, label, "cost", minimum=1,
                                                                                   maximum=9),
                         text=reader.text(rec, label, "text"), rule=reader.text(rec, label, "rule"),
                         provenance=reader.provenance(rec, label)))
    if out and not reader.problems:
        if len(out) != expected:
            reader.problem("", "spell", f"{len(out)} spells here, but game.toml's contents say {expected} Spell cards")
        for category in categories:
            if not any(s.category == category for s in out):
                reader.problem("", "spell", f"no spell of category '{category}'")
    return out


def _tiles(reader: Reader, doc: dict[str, Any], expected: int, mysterious_needed: int) -> list[Tile]:
    out: list[Tile] = []
    for i, rec in enumerate(reader.records(doc, "tile"), 1):
        tid, label = _record_id(reader, rec, "tile", i, [t.id for t in out])
        reader.unknown_fields(rec, label, ("id", "hexes", "location", "provenance"))
        hexes = reader.strings(rec, label, "hexes")
        if hexes and len(hexes) != 3:
            reader.problem(label, "hexes", f"a tile has 3 spaces, got {len(hexes)}")
        bad = [h for h in hexes if h not in TERRAINS]
        if bad:
            reader.problem(label, "hexes", f"unknown land type '{bad[0]}' (known: {', '.join(TERRAINS)})")
        location = reader.text(rec, label, "location", required=False)
        spaces = hexes.count(MYSTERIOUS)
        if spaces > 1:
            reader.problem(label, "hexes", "a tile holds at most one Mysterious location")
        elif spaces and not location:
            reader.problem(label, "location", "a tile with a mysterious space needs the location's name")
        elif location and not spaces and hexes and not bad:
            reader.problem(label, "hexes", f"'{location}' needs a \"{MYSTERIOUS}\" space")
        if location and any(t.location.casefold() == location.casefold() for t in out):
            reader.problem(label, "location", "another tile has a location of this name")
        three = (tuple(hexes) + ("plains",) * 3)[:3]
        out.append(Tile(id=tid, number=i, hexes=(three[0], three[1], three[2]), location=location,
                        location_id=_slug(location), provenance=reader.provenance(rec, label)))
    if out and not reader.problems:
        if len(out) != expected:
            reader.problem("", "tile", f"{len(out)} tiles here, but game.toml's contents say {expected}")
        have = sum(t.mysterious for t in out)
        if have != mysterious_needed:
            reader.problem("", "tile", f"{have} tiles with a Mysterious location, but game.toml's "
                                       f"mysterious_by_players needs {mysterious_needed}")
    return out


def _check_subjects(reader: Reader, notes: tuple[DataNote, ...], spells: list[Spell], categories: list[Category],
                    tiles: list[Tile]) -> None:
    spell_ids = {s.id for s in spells}
    check_note_subjects(reader, notes, is_record=spell_ids.__contains__,
                        prefixed={"category": {c.id for c in categories}, "tile": {t.id for t in tiles}},
                        accepted="a spell id, category:<id>, tile:<id> or rulebook")


def load(root: Path) -> BaronySorceryContent:
    """Load and validate a Barony: Sorcery data folder; raises DataError listing every problem."""
    game_r = Reader(root, "game.toml")
    game = game_r.load()
    game_r.unknown_fields(game, "game", GAME_FIELDS)
    title = game_r.text(game, "game", "title")
    source = game_r.text(game, "game", "source", required=False)
    min_p, max_p = player_range(game_r, game, default_max=5)
    ints = {key: game_r.integer(game, "game", key, minimum=low, maximum=high, default=low)
            for key, low, high in GAME_INTS}
    rewards = _rewards(game_r, game, ints["max_controls_per_location"])
    hex_size = game.get("hex_size_mm")
    if not isinstance(hex_size, (int, float)) or isinstance(hex_size, bool) or not 20 <= hex_size <= 120:
        game_r.problem("game", "hex_size_mm", f"expected millimetres between 20 and 120, got {hex_size!r}")
        hex_size = 50.0
    hex_provenance = _sub_provenance(game_r, game, "game", "hex_size_provenance")
    contents = read_table(game_r, game, "contents")
    game_r.unknown_fields(contents, "contents", CONTENT_FIELDS)
    counts = {key: game_r.integer(contents, "contents", key, minimum=0, maximum=999) for key in CONTENT_FIELDS}
    if contents and counts["control_tokens"] != counts["control_tokens_per_player"] * max_p:
        game_r.problem("contents", "control_tokens", f"{counts['control_tokens']} is not "
                                                     f"{counts['control_tokens_per_player']} per player × {max_p}")
    fifth = read_table(game_r, game, "fifth_player")
    game_r.unknown_fields(fifth, "fifth_player", FIFTH_PLAYER_FIELDS)
    fifth_player = FifthPlayer(**{key: game_r.integer(fifth, "fifth_player", key, minimum=0, maximum=99)
                                  for key in FIFTH_PLAYER_FIELDS})
    mysterious = _mysterious_table(game_r, game, (min_p, max_p))
    categories = _categories(game_r, game)
    colours = _player_colours(game_r, game, max_p)
    resources = _resources(game_r, game, counts["resource_tokens"])
    combos = _combinations(game_r, game)
    if max_p * ints["tiles_per_player"] != ints["base_tiles"] + counts["territory_tiles"] and not game_r.problems:
        game_r.problem("game", "base_tiles", f"{ints['base_tiles']} base tiles + {counts['territory_tiles']} "
                                             f"expansion tiles is not {ints['tiles_per_player']} per player × {max_p}")

    spell_r = Reader(root, "spells.toml")
    spells = _spells(spell_r, spell_r.load(), {c.id: c for c in categories}, counts["spell_cards"])
    tile_r = Reader(root, "tiles.toml")
    tiles = _tiles(tile_r, tile_r.load(), counts["territory_tiles"], max(mysterious.values(), default=0))

    note_r = Reader(root, "notes.toml")
    notes = load_notes(note_r)
    _check_subjects(note_r, notes, spells, categories, tiles)
    rules_r = Reader(root, "rules.toml")
    rules = load_rules(rules_r, GAME_ID)
    check_rule_links(spell_r, "spell", spells, rules)
    if not spell_r.problems:
        _check_combinations(game_r, combos, {s.id: s for s in spells}, {n.id for n in notes})

    problems: list[Problem] = []
    for reader in (game_r, spell_r, tile_r, note_r, rules_r):
        problems.extend(reader.problems)
    if problems:
        raise DataError(problems)
    cards = tuple(Card(game=GAME_ID, id=s.id, number=n, name=s.name, category=s.category, cost=s.cost, spell=s.id,
                       provenance=s.provenance, notes=tuple(x for x in notes if x.subject == s.id))
                  for n, s in enumerate(spells, 1))
    return BaronySorceryContent(
        game=GAME_ID, title=title, source=source,
        min_players=min_p, max_players=max_p, exploration_rewards=rewards, hex_size_mm=float(hex_size),
        hex_size_provenance=hex_provenance, fifth_player=fifth_player,
        mysterious_by_players=mysterious, categories=tuple(categories), player_colours=tuple(colours),
        resources=tuple(resources), spells=tuple(spells), cards=cards, tiles=tuple(tiles),
        combination_examples=tuple(combos), rules=rules, notes=notes, **ints, **counts)
