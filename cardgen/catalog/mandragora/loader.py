"""The Mandragora loader: reads ``data/mandragora/*.toml``, checks every fact, builds the content.

Problems are collected per file (file, record, field) and raised together as one DataError. Besides
each field's own checks, the cards are counted against the rulebook's component list and colour
table in ``game.toml``, removal lists against the rulebook's numbers, and the worked scoring example
against its printed subtotal.
"""

from __future__ import annotations

import re
from dataclasses import replace
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
from .content import MandragoraContent
from .types import (
    COLOUR_SYMBOLS,
    EFFECT_KINDS,
    EFFECTS,
    GAME_ID,
    ITEM_KINDS,
    Card,
    Colour,
    ComponentCounts,
    Removal,
    ScoringExample,
    ShopTile,
    Spell,
)

_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
#: game.toml's top-level keys (any other is reported: a misspelt field would be ignored)
GAME_FIELDS = ("title", "source", "min_players", "max_players", "players_provenance", "team_players",
               "mandrakes_per_player", "move_range", "countdown_rounds", "curse_penalty", "colour_penalty",
               "mandrake_hand_colour", "spell_values", "spellbook_values", "max_mandrakes_per_spell",
               "spellbooks_per_spell", "contents", "colour", "scoring_example")
COUNT_FIELDS = ("cards", "spells", "items", "cursed_scrolls", "mandrakes", "spellbooks", "ingredients",
                "shop_tiles", "day_shops", "night_shops")


def _ints(reader: Reader, rec: dict[str, Any], record: str, key: str, *, low: int, high: int) -> tuple[int, ...]:
    value = rec.get(key)
    if value is None:
        reader.problem(record, key, "is missing")
        return ()
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        reader.problem(record, key, f"expected a list of whole numbers, got {value!r}")
        return ()
    bad = [v for v in value if not low <= v <= high]
    if bad:
        reader.problem(record, key, f"{bad[0]} is outside {low}..{high}")
        return ()
    return tuple(value)


def _range(reader: Reader, doc: dict[str, Any], key: str, low: int, high: int) -> tuple[int, int]:
    before = len(reader.problems)
    pair = _ints(reader, doc, "game", key, low=low, high=high)
    if len(pair) != 2 or pair[0] > pair[1]:
        if len(reader.problems) == before:  # a list of numbers in range, but not a pair (an empty one too)
            reader.problem("game", key, f"expected [lowest, highest], got {list(pair)}")
        return (low, high)
    return (pair[0], pair[1])


def _record_id(reader: Reader, rec: dict[str, Any], kind: str, number: int, taken: list[str] | None = None,
               form: str = "lower-case letters, digits and hyphens") -> tuple[str, str]:
    """The id of the ``number``-th ``kind`` record and the label its problems go under (by id when it has
    one); reports an id not of the ``form`` the pattern allows and, given the ids ``taken``, a duplicate."""
    rid = reader.text(rec, f"{kind} #{number}", "id")
    label = f"{kind} '{rid}'" if rid else f"{kind} #{number}"
    if rid and not _ID.match(rid):
        reader.problem(label, "id", f"'{rid}' must be {form}")
    if taken is not None and rid in taken:
        reader.problem(label, "id", f"duplicate {kind} id")
    return rid, label


def _colours(reader: Reader, doc: dict[str, Any]) -> list[Colour]:
    colours: list[Colour] = []
    for i, rec in enumerate(reader.records(doc, "colour"), 1):
        cid, label = _record_id(reader, rec, "colour", i, [x.id for x in colours])
        reader.unknown_fields(rec, label, ("id", "name", "column", "ingredients", "spellbooks", "symbol",
                                           "black_magic", "provenance"))
        column = reader.integer(rec, label, "column", minimum=1, maximum=6)
        if column and any(c.column == column for c in colours):
            reader.problem(label, "column", f"column {column} is already taken")
        symbol = reader.text(rec, label, "symbol")
        if symbol and symbol not in COLOUR_SYMBOLS:
            reader.problem(label, "symbol", f"unknown symbol '{symbol}' (known: {', '.join(COLOUR_SYMBOLS)})")
        colours.append(Colour(
            id=cid, name=reader.text(rec, label, "name"), column=column,
            ingredients=reader.integer(rec, label, "ingredients", minimum=0, maximum=99),
            spellbooks=reader.integer(rec, label, "spellbooks", minimum=0, maximum=99), symbol=symbol,
            black_magic=read_flag(reader, rec, label, "black_magic", default=False),
            provenance=reader.provenance(rec, label)))
    symbols = [c.symbol for c in colours]
    for c in colours:
        if symbols.count(c.symbol) > 1:
            reader.problem(f"colour '{c.id}'", "symbol", f"'{c.symbol}' is used by another colour too")
    for c in colours:
        if c.black_magic and c.ingredients:
            reader.problem(f"colour '{c.id}'", "ingredients", "a black-magic colour has no ingredients")
    return colours


def _contents(reader: Reader, doc: dict[str, Any]) -> ComponentCounts:
    table = read_table(reader, doc, "contents")
    reader.unknown_fields(table, "contents", (*COUNT_FIELDS, "scrolls_by_curses"))
    counts = {key: reader.integer(table, "contents", key, minimum=0, maximum=999) for key in COUNT_FIELDS}
    by_curses = _ints(reader, table, "contents", "scrolls_by_curses", low=0, high=99) if table else ()
    result = ComponentCounts(scrolls_by_curses=by_curses, **counts)
    sums = (("cursed_scrolls", sum(by_curses), "scrolls_by_curses"),
            ("items", result.cursed_scrolls + result.mandrakes + result.spellbooks + result.ingredients,
             "cursed_scrolls + mandrakes + spellbooks + ingredients"),
            ("cards", result.items + result.spells, "items + spells"),
            ("shop_tiles", result.day_shops + result.night_shops, "day_shops + night_shops"))
    if table and not reader.problems:
        for key, total, parts in sums:
            if getattr(result, key) != total:
                reader.problem("contents", key, f"{getattr(result, key)} is not {parts} ({total})")
    return result


def _example(reader: Reader, doc: dict[str, Any], spell_range: tuple[int, int],
             book_range: tuple[int, int]) -> ScoringExample:
    table = read_table(reader, doc, "scoring_example")
    label = "scoring_example"
    reader.unknown_fields(table, label, ("pairs", "printed_pairs_total", "curse_marker", "colours_in_hand",
                                         "colours_removed", "printed_total", "disappearance_pair", "total_note",
                                         "provenance"))
    pairs: list[tuple[int, int]] = []
    raw = table.get("pairs", [])
    if not isinstance(raw, list) or not raw:
        reader.problem(label, "pairs", "expected a list of [spellbook, spell] pairs")
        raw = []
    for j, pair in enumerate(raw, 1):
        ok = (isinstance(pair, list) and len(pair) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in pair))
        if not ok:
            reader.problem(label, f"pairs[{j}]", f"expected [spellbook value, spell value], got {pair!r}")
        elif not book_range[0] <= pair[0] <= book_range[1]:
            reader.problem(label, f"pairs[{j}]", f"spellbook value {pair[0]} is outside {book_range[0]}..{book_range[1]}")
        elif not spell_range[0] <= pair[1] <= spell_range[1]:
            reader.problem(label, f"pairs[{j}]", f"spell value {pair[1]} is outside {spell_range[0]}..{spell_range[1]}")
        else:
            pairs.append((pair[0], pair[1]))
    example = ScoringExample(
        pairs=tuple(pairs), printed_pairs_total=reader.integer(table, label, "printed_pairs_total", minimum=0),
        curse_marker=read_flag(reader, table, label, "curse_marker", default=False),
        colours_in_hand=reader.integer(table, label, "colours_in_hand", minimum=0, maximum=7),
        colours_removed=reader.integer(table, label, "colours_removed", minimum=0, maximum=7),
        printed_total=reader.integer(table, label, "printed_total", minimum=-99, maximum=999),
        disappearance_pair=reader.integer(table, label, "disappearance_pair", minimum=0, maximum=len(raw) or 1,
                                          required=False),
        total_note=reader.text(table, label, "total_note", required=False),
        provenance=reader.provenance(table, label))
    if len(pairs) == len(raw) and pairs and sum(b + s for b, s in pairs) != example.printed_pairs_total:
        reader.problem(label, "printed_pairs_total", f"{example.printed_pairs_total} is not the sum of the pairs "
                                                     f"({sum(b + s for b, s in pairs)})")
    return example


def _items(reader: Reader, doc: dict[str, Any], colours: dict[str, Colour],
           book_range: tuple[int, int]) -> list[tuple[str, Card]]:
    """The item cards, expanded from their groups, each with the group id it came from."""
    out: list[tuple[str, Card]] = []
    for i, rec in enumerate(reader.records(doc, "item"), 1):
        stem, label = _record_id(reader, rec, "item", i, list(dict.fromkeys(s for s, _ in out)),
                                 form="lower-case letters, digits and hyphens (max 40)")
        reader.unknown_fields(rec, label, ("id", "name", "kind", "colour", "curses", "values", "count", "provenance"))
        name = reader.text(rec, label, "name")
        kind = reader.text(rec, label, "kind")
        if kind and kind not in ITEM_KINDS:
            reader.problem(label, "kind", f"unknown kind '{kind}' (known: {', '.join(ITEM_KINDS)})")
            continue
        colour = reader.text(rec, label, "colour", required=kind in ("spellbook", "ingredient"))
        if kind in ("cursed_scroll", "mandrake") and "colour" in rec:
            reader.problem(label, "colour", f"a {kind.replace('_', ' ')} has no colour")
            colour = ""
        elif colour and colour not in colours:
            reader.problem(label, "colour", f"unknown colour '{colour}' (known: {', '.join(colours)})")
            colour = ""
        if kind == "ingredient" and colour and colours[colour].black_magic:
            reader.problem(label, "colour", f"there are no {colour} ingredients")
        curses = 0
        if kind == "cursed_scroll":
            curses = reader.integer(rec, label, "curses", minimum=1, maximum=3)
        elif "curses" in rec:
            reader.problem(label, "curses", "only cursed scrolls give curses")
        values: tuple[int | None, ...]
        if kind == "spellbook":
            values = _ints(reader, rec, label, "values", low=book_range[0], high=book_range[1])
            if len(set(values)) != len(values):
                reader.problem(label, "values", "each spellbook of a group needs its own value")
            if "count" in rec:
                reader.problem(label, "count", "spellbooks are counted by their values; leave count out")
        else:
            if "values" in rec:
                reader.problem(label, "values", "only spellbooks have values")
            values = (None,) * reader.integer(rec, label, "count", minimum=1, maximum=99, default=1)
        provenance = reader.provenance(rec, label)
        for n, value in enumerate(values, 1):
            if len(values) == 1:
                card_id = stem
            else:
                card_id = f"{stem}-{value if kind == 'spellbook' else n}"
            out.append((stem, Card(game=GAME_ID, id=card_id, number=0, name=name, kind=kind,  # type: ignore[arg-type]
                                   colour=colour or None, value=value, curses=curses, spell=None,
                                   provenance=provenance)))
    return out


def _check_counts(reader: Reader, game_r: Reader, items: list[tuple[str, Card]], colours: list[Colour],
                  counts: ComponentCounts) -> None:
    """Cards against the colour table, and the colour table and kinds against the component list."""
    def group_of(kind: str, colour: str | None = None, curses: int = 0) -> str:
        for stem, card in items:
            if card.kind == kind and card.colour == colour and card.curses == curses:
                return f"item '{stem}'"
        return ""

    def tally(kind: str, colour: str | None = None, curses: int | None = None) -> int:
        return sum(1 for _, c in items if c.kind == kind and (colour is None or c.colour == colour)
                   and (curses is None or c.curses == curses))

    for colour in colours:
        for kind, field_name, expected in (("ingredient", "count", colour.ingredients),
                                           ("spellbook", "values", colour.spellbooks)):
            have = tally(kind, colour.id)
            if have != expected:
                record = group_of(kind, colour.id)
                reader.problem(record, field_name if record else "item",
                               f"{have} {colour.id} {kind}s here, but the colour table in game.toml says {expected}")
    for key, total in (("ingredients", sum(c.ingredients for c in colours)),
                       ("spellbooks", sum(c.spellbooks for c in colours))):
        if colours and total != getattr(counts, key):
            game_r.problem("contents", key, f"the rulebook's {getattr(counts, key)} is not what the colour table "
                                            f"adds up to ({total})")
    for curses, expected in enumerate(counts.scrolls_by_curses, 1):
        have = tally("cursed_scroll", curses=curses)
        if have != expected:
            record = group_of("cursed_scroll", curses=curses)
            reader.problem(record, "count" if record else "item",
                           f"{have} scrolls with {curses} curse(s) here, but game.toml's contents say {expected}")
    if tally("mandrake") != counts.mandrakes:
        record = group_of("mandrake")
        reader.problem(record, "count" if record else "item",
                       f"{tally('mandrake')} mandrakes here, but game.toml's contents say {counts.mandrakes}")


def _spells(reader: Reader, doc: dict[str, Any], spell_range: tuple[int, int],
            expected_cards: int) -> list[Spell]:
    spells: list[Spell] = []
    for i, rec in enumerate(reader.records(doc, "spell"), 1):
        sid, label = _record_id(reader, rec, "spell", i, [x.id for x in spells])
        reader.unknown_fields(rec, label, ("id", "name", "count", "values", "kind", "effect", "rule", "text",
                                           "provenance", "values_provenance"))
        count = reader.integer(rec, label, "count", minimum=1, maximum=20)
        before = len(reader.problems)
        values = _ints(reader, rec, label, "values", low=spell_range[0], high=spell_range[1])
        if len(reader.problems) == before and count and len(values) != count:  # [] too: no card printed
            reader.problem(label, "values", f"{len(values)} values for {count} cards")
        kind = reader.text(rec, label, "kind")
        if kind and kind not in EFFECT_KINDS:
            reader.problem(label, "kind", f"unknown kind '{kind}' (known: {', '.join(EFFECT_KINDS)})")
        effect = reader.text(rec, label, "effect")
        if effect and effect not in EFFECTS:
            reader.problem(label, "effect", f"unknown effect '{effect}' (known: {', '.join(EFFECTS)})")
        elif effect and kind in EFFECT_KINDS and EFFECTS[effect][0] != kind:
            reader.problem(label, "kind", f"effect '{effect}' is {EFFECTS[effect][0]}, not {kind}")
        values_prov: Provenance = reader.provenance(rec, label, "values_provenance", "authored")
        spells.append(Spell(id=sid, name=reader.text(rec, label, "name"), count=count, values=values,
                            kind=kind, effect=effect, rule=reader.text(rec, label, "rule"),  # type: ignore[arg-type]
                            text=reader.text(rec, label, "text"), provenance=reader.provenance(rec, label),
                            values_provenance=values_prov))
    total = sum(s.count for s in spells)
    if spells and not reader.problems and total != expected_cards:
        reader.problem("", "spell", f"{total} spell cards here, but game.toml's contents say {expected_cards}")
    return spells


def _shops(reader: Reader, doc: dict[str, Any],
           counts: ComponentCounts) -> tuple[list[ShopTile], tuple[str, ...], Provenance]:
    shops: list[ShopTile] = []
    for i, rec in enumerate(reader.records(doc, "shop"), 1):
        sid, label = _record_id(reader, rec, "shop", i, [x.id for x in shops])
        reader.unknown_fields(rec, label, ("id", "name", "time", "start", "provenance"))
        time = reader.text(rec, label, "time")
        if time and time not in ("day", "night"):
            reader.problem(label, "time", f"must be 'day' or 'night', got '{time}'")
        start = read_flag(reader, rec, label, "start", default=False)
        if start and time == "night":
            reader.problem(label, "start", "the start tile is a day shop (setup deals 6 day cards)")
        shops.append(ShopTile(id=sid, name=reader.text(rec, label, "name"), time=time,  # type: ignore[arg-type]
                              start=start, provenance=reader.provenance(rec, label)))
    if shops:
        starts = [s.id for s in shops if s.start]
        if len(starts) != 1:
            reader.problem("", "start", f"exactly one shop must be the start tile, found {len(starts)}")
        for time, expected in (("day", counts.day_shops), ("night", counts.night_shops)):
            have = sum(1 for s in shops if s.time == time)
            if have != expected:
                reader.problem("", "shop", f"{have} {time} shops here, but game.toml's contents say {expected}")
    reader.unknown_fields({k: v for k, v in doc.items() if k != "shop"}, "shops", ("circle_order", "circle_provenance"))
    order = reader.strings(doc, "shops", "circle_order")
    ids = [s.id for s in shops]
    if order and sorted(order) != sorted(ids):
        unknown = [o for o in order if o not in ids]
        detail = f"unknown shop '{unknown[0]}'" if unknown else "must list every shop exactly once"
        reader.problem("shops", "circle_order", detail)
    provenance = reader.provenance(doc, "shops", "circle_provenance", "authored")
    return shops, order, provenance


def _removals(reader: Reader, doc: dict[str, Any], cards: dict[str, Card] | None, colours: dict[str, Colour],
              players: tuple[int, int]) -> list[Removal]:
    """The removal lists; checked against the cards only when ``cards`` is given (cards.toml loaded cleanly)."""
    removals: list[Removal] = []
    for i, rec in enumerate(reader.records(doc, "removal"), 1):
        count_players = reader.integer(rec, f"removal #{i}", "players", minimum=players[0], maximum=players[1] - 1)
        label = f"removal for {count_players} players" if count_players else f"removal #{i}"
        reader.unknown_fields(rec, label, ("players", "colours", "colour_cards", "cards", "count", "provenance"))
        if count_players and any(r.players == count_players for r in removals):
            reader.problem(label, "players", "a second list for the same number of players")
        removed_colours = reader.strings(rec, label, "colours", required=False)
        for colour in removed_colours:
            if colour not in colours:
                reader.problem(label, "colours", f"unknown colour '{colour}'")
        colour_cards = reader.integer(rec, label, "colour_cards", minimum=0, maximum=999, required=bool(removed_colours))
        have = sum(1 for c in (cards or {}).values() if c.kind != "spell" and c.colour in removed_colours)
        if cards is not None and removed_colours and have != colour_cards:
            reader.problem(label, "colour_cards", f"{', '.join(removed_colours)} has {have} item cards, "
                                                  f"the rulebook says {colour_cards}")
        before = len(reader.problems)
        listed = reader.strings(rec, label, "cards")
        listed_ok = len(reader.problems) == before
        for card_id in listed if cards is not None else ():
            card = (cards or {}).get(card_id)
            if card is None:
                reader.problem(label, "cards", f"'{card_id}' does not name a card")
            elif card.kind == "spell":
                reader.problem(label, "cards", f"'{card_id}' is a spell; only magical items leave the game")
            elif card.colour in removed_colours:
                reader.problem(label, "cards", f"'{card_id}' is already removed with its colour")
        if len(set(listed)) != len(listed):
            reader.problem(label, "cards", "a card is listed twice")
        count = reader.integer(rec, label, "count", minimum=0, maximum=999)
        if listed_ok and count != len(listed):  # an empty list too: the table would remove nothing
            reader.problem(label, "cards", f"{len(listed)} cards listed, the rulebook says {count}")
        removals.append(Removal(players=count_players, colours=removed_colours, colour_cards=colour_cards,
                                cards=listed, provenance=reader.provenance(rec, label)))
    return removals


def _check_subjects(reader: Reader, notes: tuple[DataNote, ...], cards: dict[str, Card], spells: list[Spell],
                    colours: dict[str, Colour], shops: list[ShopTile]) -> None:
    check_note_subjects(reader, notes, is_record=cards.__contains__,
                        prefixed={"spell": {s.id for s in spells}, "colour": set(colours),
                                  "shop": {s.id for s in shops}},
                        accepted="a card id, spell:<id>, colour:<id>, shop:<id> or rulebook")


def load(root: Path) -> MandragoraContent:
    """Load and validate a Mandragora data folder; raises DataError listing every problem."""
    game_r = Reader(root, "game.toml")
    game = game_r.load()
    game_r.unknown_fields(game, "game", GAME_FIELDS)
    title = game_r.text(game, "game", "title")
    source = game_r.text(game, "game", "source", required=False)
    players_provenance = game_r.provenance(game, "game", "players_provenance")
    hand_colour = game_r.text(game, "game", "mandrake_hand_colour")
    min_p, max_p = player_range(game_r, game, default_max=4)
    spell_range = _range(game_r, game, "spell_values", 1, 9)
    book_range = _range(game_r, game, "spellbook_values", 0, 9)
    colours = _colours(game_r, game)
    colour_map = {c.id: c for c in colours}
    counts = _contents(game_r, game)
    example = _example(game_r, game, spell_range, book_range)
    ints = {key: game_r.integer(game, "game", key, minimum=low, maximum=high, default=low) for key, low, high in (
        ("team_players", 2, 10), ("mandrakes_per_player", 0, 5), ("move_range", 1, 9), ("countdown_rounds", 1, 9),
        ("curse_penalty", 0, 20), ("colour_penalty", 0, 20), ("max_mandrakes_per_spell", 0, 5),
        ("spellbooks_per_spell", 1, 5))}

    card_r = Reader(root, "cards.toml")
    items = _items(card_r, card_r.load(), colour_map, book_range)
    if not card_r.problems:
        _check_counts(card_r, game_r, items, colours, counts)

    spell_r = Reader(root, "spells.toml")
    spells = _spells(spell_r, spell_r.load(), spell_range, counts.spells)
    cards: list[Card] = []
    for number, (_, item) in enumerate(items, 1):
        cards.append(replace(item, number=number))
    for spell in spells:
        for n, value in enumerate(spell.values, 1):
            cards.append(Card(game=GAME_ID, id=f"{spell.id}-{n}", number=len(cards) + 1, name=spell.name,
                              kind="spell", colour=None, value=value, curses=0, spell=spell.id,
                              provenance=spell.provenance))
    by_id: dict[str, Card] = {}
    for card in cards:
        if card.id in by_id:
            owner = card_r if card.kind != "spell" else spell_r
            owner.problem(f"card '{card.id}'", "id", "two cards get this id")
        by_id[card.id] = card

    shop_r = Reader(root, "shops.toml")
    shops, circle, circle_provenance = _shops(shop_r, shop_r.load(), counts)
    removal_r = Reader(root, "removals.toml")
    removals = _removals(removal_r, removal_r.load(), None if card_r.problems else by_id, colour_map, (min_p, max_p))

    note_r = Reader(root, "notes.toml")
    notes = load_notes(note_r)
    _check_subjects(note_r, notes, by_id, spells, colour_map, shops)
    rules_r = Reader(root, "rules.toml")
    rules = load_rules(rules_r, GAME_ID)
    check_rule_links(spell_r, "spell", spells, rules)
    if not any(p.record == "scoring_example" for p in game_r.problems) and not spell_r.problems:
        _check_example(game_r, example, spells, notes, ints["curse_penalty"], ints["colour_penalty"])

    problems: list[Problem] = []
    for reader in (game_r, card_r, spell_r, shop_r, removal_r, note_r, rules_r):
        problems.extend(reader.problems)
    if problems:
        raise DataError(problems)
    cards = [replace(c, notes=tuple(n for n in notes if n.subject == c.id)) for c in cards]
    return MandragoraContent(
        game=GAME_ID, title=title, source=source, min_players=min_p, max_players=max_p,
        players_provenance=players_provenance, mandrake_hand_colour=hand_colour, spell_values=spell_range,
        spellbook_values=book_range, components=counts, colours=tuple(colours), spells=tuple(spells),
        cards=tuple(cards), shops=tuple(shops), circle_order=circle, circle_provenance=circle_provenance,
        removals=tuple(removals), scoring_example=example, rules=rules, notes=notes, **ints)


def _check_example(reader: Reader, example: ScoringExample, spells: list[Spell], notes: tuple[DataNote, ...],
                   curse_penalty: int, colour_penalty: int) -> None:
    """The example's Disappearance must exist at its value; a wrong printed total needs its note."""
    if example.disappearance_pair and example.pairs and example.disappearance_pair <= len(example.pairs):
        value = example.pairs[example.disappearance_pair - 1][1]
        values = {v for s in spells if s.effect == "discard_colour" for v in s.values}
        if spells and value not in values:
            reader.problem("scoring_example", "disappearance_pair",
                           f"pair {example.disappearance_pair} has spell value {value}, but no Disappearance card "
                           f"is worth {value}")
    total = example.breakdown(curse_penalty, colour_penalty).total
    if example.pairs and example.printed_total != total:
        note = next((n for n in notes if n.id == example.total_note), None)
        if note is None:
            reader.problem("scoring_example", "total_note", f"the printed total {example.printed_total} is not the "
                                                            f"computed {total}: name the note that explains it")
        elif note.used != str(total):
            reader.problem("scoring_example", "total_note", f"note '{note.id}' uses {note.used!r}, but the example "
                                                            f"adds up to {total}")
