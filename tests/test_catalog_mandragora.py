"""The Mandragora card data: the rulebook's counts, the authored choices, and broken copies failing
with file, record and field."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from catalog_checks import Breakage, copy_data, delete, edit, problems_after, rewrite
from click.testing import CliRunner, Result

from cardgen.catalog import DataError, content, load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.catalog.mandragora import COLOUR_SYMBOLS, EFFECTS, WHITE, MandragoraContent
from cardgen.cli import main

MANDRAGORA: MandragoraContent = content("mandragora")
SOURCE = DEFAULT_DATA_DIR / "mandragora"


def _kinds(kind: str) -> list[str]:
    return [c.id for c in MANDRAGORA.cards if c.kind == kind]


# -- the rulebook's numbers -------------------------------------------------------------------------

def test_106_cards_numbered_items_first() -> None:
    assert len(MANDRAGORA.cards) == 106
    assert [c.number for c in MANDRAGORA.cards] == list(range(1, 107))
    assert len({c.id for c in MANDRAGORA.cards}) == 106
    assert len(MANDRAGORA.items) == 82 and len(MANDRAGORA.spell_cards) == 24
    assert all(c.number <= 82 for c in MANDRAGORA.items) and all(c.number > 82 for c in MANDRAGORA.spell_cards)


def test_spell_copies_values_and_kinds() -> None:
    copies = Counter(c.name for c in MANDRAGORA.spell_cards)
    assert copies == {"Banishment": 4, "Transfer": 4, "Substitution": 4, "Levitation": 3, "Replication": 3,
                      "Swiftness": 3, "Disappearance": 2, "Purification": 1}
    kinds = {s.name: s.kind for s in MANDRAGORA.spells}
    assert kinds == {"Banishment": "immediate", "Transfer": "immediate", "Substitution": "immediate",
                     "Levitation": "immediate", "Replication": "immediate", "Swiftness": "permanent",
                     "Disappearance": "end_of_game", "Purification": "end_of_game"}
    values = Counter(c.value for c in MANDRAGORA.spell_cards)
    assert sorted(values) == [1, 2, 3, 4, 5] and sum(values.values()) == 24  # every stack has cards
    for spell in MANDRAGORA.spells:
        assert [c.value for c in MANDRAGORA.copies_of(spell.id)] == list(spell.values)
        assert EFFECTS[spell.effect][0] == spell.kind
        assert MANDRAGORA.rule(spell.rule).title.startswith(spell.name)
        assert spell.provenance == "rulebook" and spell.values_provenance == "authored"


def test_cursed_scrolls_mandrakes_spellbooks_ingredients() -> None:
    scrolls = MANDRAGORA.cards_of("cursed_scroll")
    assert len(scrolls) == 12 and Counter(c.curses for c in scrolls) == {1: 7, 2: 4, 3: 1}
    assert len(MANDRAGORA.cards_of("mandrake")) == 7
    books = MANDRAGORA.cards_of("spellbook")
    assert len(books) == 21
    assert Counter(c.colour for c in books) == {"purple": 4, "red": 4, "green": 4, "yellow": 4, "blue": 4, "black": 1}
    for colour in ("purple", "red", "green", "yellow", "blue"):
        assert sorted(c.value for c in MANDRAGORA.cards_of("spellbook", colour)) == [0, 1, 2, 3]
    assert all(0 <= (c.value or 0) <= 3 for c in books)
    ingredients = Counter(c.colour for c in MANDRAGORA.cards_of("ingredient"))
    assert sum(ingredients.values()) == 42
    assert sorted(ingredients.values()) == [3, 6, 9, 12, 12] and "black" not in ingredients
    assert ingredients["blue"] == 12 and ingredients["yellow"] in (3, 6, 9, 12)


def test_colour_table_columns_and_the_two_named_colours() -> None:
    table = [(c.column, c.id, c.ingredients, c.spellbooks) for c in MANDRAGORA.colours]
    assert [row[2:] for row in table] == [(3, 4), (6, 4), (9, 4), (12, 4), (12, 4), (0, 1)]  # the book's order
    provenance = {c.id: c.provenance for c in MANDRAGORA.colours}
    assert provenance["blue"] == provenance["black"] == "rulebook"
    assert {c for c, p in provenance.items() if p == "authored"} == {"purple", "red", "green", "yellow"}
    assert [c.id for c in MANDRAGORA.colours if c.black_magic] == ["black"]
    assert len({c.symbol for c in MANDRAGORA.colours}) == 6 and all(c.symbol in COLOUR_SYMBOLS for c in MANDRAGORA.colours)


def test_sixteen_blue_cards() -> None:
    blue = [c for c in MANDRAGORA.cards if c.colour == "blue"]
    assert len(blue) == 16
    assert Counter(c.kind for c in blue) == {"ingredient": 12, "spellbook": 4}


def test_shop_tiles_and_circle() -> None:
    shops = MANDRAGORA.shops
    assert len(shops) == 10
    assert Counter(s.time for s in shops) == {"day": 7, "night": 3}
    assert [s.id for s in shops if s.start] == [MANDRAGORA.start_shop.id] and MANDRAGORA.start_shop.time == "day"
    assert sorted(MANDRAGORA.circle_order) == sorted(s.id for s in shops)
    assert MANDRAGORA.circle_order[0] == MANDRAGORA.start_shop.id and MANDRAGORA.circle_provenance == "authored"
    # our suggested circle never puts two night shops side by side (it wraps round)
    times = [MANDRAGORA.shop(s).time for s in MANDRAGORA.circle_order]
    assert all(not (a == b == "night") for a, b in zip(times, times[1:] + times[:1], strict=True))
    assert MANDRAGORA.shop("Owl Hollow").restock_face_up is False and MANDRAGORA.shop("apothecary").restock_face_up


# -- removals ---------------------------------------------------------------------------------------

def test_removals_for_three_and_two_sorcerers() -> None:
    three, two = MANDRAGORA.removed_for(3), MANDRAGORA.removed_for(2)
    assert len(three) == 5 and len(two) == 26
    assert MANDRAGORA.removed_for(4) == ()
    assert sum(1 for c in two if c.colour == "blue") == 16
    assert all(c.kind != "spell" for c in three + two)
    for players in (2, 3):
        removal = MANDRAGORA.removal_for(players)
        assert removal is not None and removal.provenance == "authored"
    assert MANDRAGORA.removed_with(MANDRAGORA.card("ingredient-blue-1")) == (2,)
    assert MANDRAGORA.removed_with(MANDRAGORA.card("ingredient-blue-12")) == (3, 2)
    assert MANDRAGORA.removed_with(MANDRAGORA.card("mandrake-1")) == ()
    # what is left still lets every remaining colour cast: each keeps all four spellbooks
    left = [c for c in MANDRAGORA.items if c not in two]
    assert len(left) == 56 and Counter(c.colour for c in left if c.kind == "spellbook")["red"] == 4


@pytest.mark.parametrize("players", [1, 5])
def test_removals_outside_the_player_range_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match=f"Mandragora is for 2 to 4 sorcerers, not {players}"):
        MANDRAGORA.removed_for(players)


# -- the worked example -------------------------------------------------------------------------------

def test_final_scoring_example_sums() -> None:
    example = MANDRAGORA.scoring_example
    result = MANDRAGORA.example_breakdown()
    assert result.spells == (5, 2, 4, 4, 2)
    assert result.spells_total == example.printed_pairs_total == 17
    assert (result.curse, result.colours) == (-2, -2)
    assert result.total == 13 and example.printed_total == 12
    note = next(n for n in MANDRAGORA.notes if n.id == example.total_note)
    assert note.action == "flagged" and note.used == "13" and "17 - 2 - 2 = 13" in note.text


def test_example_pairs_read_spellbook_then_spell() -> None:
    low_book, high_book = MANDRAGORA.spellbook_values
    low_spell, high_spell = MANDRAGORA.spell_values
    for book, spell in MANDRAGORA.scoring_example.pairs:
        assert low_book <= book <= high_book and low_spell <= spell <= high_spell
    # read the other way round, "0 + 4" would be a spell worth 0 and a spellbook worth 4: impossible
    assert not all(low_book <= spell <= high_book for _, spell in MANDRAGORA.scoring_example.pairs)
    pair = MANDRAGORA.scoring_example.pairs[MANDRAGORA.scoring_example.disappearance_pair - 1]
    assert pair[1] in MANDRAGORA.spell("Disappearance").values
    assert next(n for n in MANDRAGORA.notes if n.id == "example-pair-order").used == "spellbook 0 + spell 4"


# -- rules, notes, provenance -------------------------------------------------------------------------

REQUIRED_RULES = [
    "mandragora.setup.shops", "mandragora.setup.spells", "mandragora.setup.players", "mandragora.setup.mandrake",
    "mandragora.setup.stock", "mandragora.turn.choice", "mandragora.seek.move", "mandragora.seek.restock",
    "mandragora.seek.scrolls", "mandragora.seek.day-night", "mandragora.spell.prepare", "mandragora.spell.one-book",
    "mandragora.spell.power", "mandragora.spell.one-mandrake", "mandragora.black.magic", "mandragora.mandrake.wild",
    "mandragora.mandrake.as-book", "mandragora.curse.most", "mandragora.curse.tie", "mandragora.curse.penalty",
    "mandragora.effect.kinds", "mandragora.end.countdown", "mandragora.end.drop-out", "mandragora.score.spells",
    "mandragora.score.colours", "mandragora.score.white", "mandragora.score.curse", "mandragora.score.winner",
    "mandragora.team.seating", "mandragora.team.exchange", "mandragora.team.score",
]


@pytest.mark.parametrize("rule_id", REQUIRED_RULES + [f"mandragora.effect.{s.id}" for s in MANDRAGORA.spells])
def test_rule_entry_exists(rule_id: str) -> None:
    rule = MANDRAGORA.rule(rule_id)
    assert rule.game == "mandragora" and len(rule.text) > 30 and rule.tags


def test_our_own_readings_are_marked_authored() -> None:
    authored = {r.id for r in MANDRAGORA.rules if r.provenance == "authored"}
    assert {"mandragora.curse.nobody", "mandragora.team.tie", "mandragora.score.mandrake-book"} <= authored
    # an entry that says "our reading" is marked as one (Disappearance's mandrakes-as-white was not); the winner
    # entry is the rulebook's, and its shared win, our reading, has its own authored entry (score.shared)
    said = {r.id for r in MANDRAGORA.rules if "our reading" in r.text}
    assert said - {"mandragora.score.winner"} <= authored and "mandragora.score.shared" in authored
    assert "mandragora.effect.disappearance" in authored
    assert not [r.id for r in MANDRAGORA.rules if ",." in r.text]   # end.reveal ended "anyone's hand,."
    assert "mandragora.curse.tie" not in authored
    for thing in (*MANDRAGORA.cards, *MANDRAGORA.spells, *MANDRAGORA.colours, *MANDRAGORA.shops,
                  *MANDRAGORA.removals):
        assert thing.provenance in ("rulebook", "authored")
    by_kind = {(c.kind, c.colour, c.provenance) for c in MANDRAGORA.items}
    assert ("ingredient", "blue", "rulebook") in by_kind and ("cursed_scroll", None, "rulebook") in by_kind
    assert all(c.provenance == "authored" for c in MANDRAGORA.cards_of("spellbook"))  # values are ours
    assert all(s.provenance == "authored" for s in MANDRAGORA.shops)                  # names are ours


@pytest.mark.parametrize("note_id, action", [
    ("example-total", "flagged"), ("example-pair-order", "normalised"), ("colour-table-black", "normalised"),
    ("colour-names", "normalised"), ("removal-lists", "normalised"), ("curse-tie-holder", "normalised"),
    ("curse-tie-unchanged", "flagged"),
])
def test_rulebook_slips_have_notes(note_id: str, action: str) -> None:
    note = next(n for n in MANDRAGORA.notes if n.id == note_id)
    assert note.action == action and note.printed and note.text


def test_note_subjects_read_as_names() -> None:
    assert MANDRAGORA.subject_label("colour:black") == "colour Black"
    assert MANDRAGORA.subject_label("rulebook") == "the rulebook"
    assert MANDRAGORA.subject_label("spellbook-red-2") == "Red Spellbook (2) (spellbook-red-2)"
    assert MANDRAGORA.subject_label("shop:owl-hollow") == "shop Owl Hollow"


# -- look-ups and card meaning --------------------------------------------------------------------------

def test_lookups_in_any_case_and_clear_key_errors() -> None:
    assert MANDRAGORA.card("Ingredient-Blue-3").id == "ingredient-blue-3"
    assert MANDRAGORA.spell("levitation").name == MANDRAGORA.spell("LEVITATION").name == "Levitation"
    assert MANDRAGORA.colour("Blue").id == "blue"
    with pytest.raises(KeyError, match="no card 'ingredient-blue-13' in Mandragora"):
        MANDRAGORA.card("ingredient-blue-13")
    with pytest.raises(KeyError, match="no spell 'Fireball'"):
        MANDRAGORA.spell("Fireball")
    assert MANDRAGORA.find_card("nothing") is None


def test_hand_colours_labels_and_facts() -> None:
    assert MANDRAGORA.hand_colour(MANDRAGORA.card("mandrake-2")) == WHITE
    assert MANDRAGORA.hand_colour(MANDRAGORA.card("scroll-two-curses-1")) is None
    assert MANDRAGORA.hand_colour(MANDRAGORA.card("spellbook-black")) == "black"
    assert MANDRAGORA.label(MANDRAGORA.card("scroll-three-curses")) == "Cursed Scroll (3 curses)"
    assert MANDRAGORA.label(MANDRAGORA.card("banishment-3")) == "Banishment (2)"
    facts = dict(MANDRAGORA.card_facts(MANDRAGORA.card("ingredient-blue-12")))
    assert facts["Colour"] == "Blue (symbol: water drop)"
    assert facts["Left in the box"] == "with 3 sorcerers and with 2 sorcerers"
    spell = dict(MANDRAGORA.card_facts(MANDRAGORA.card("swiftness-1")))
    assert spell["Effect"] == "Permanent (infinity icon)" and spell["Value"] == "2"


@pytest.mark.parametrize("card_id, first_rules", [
    ("transfer-1", ["mandragora.effect.transfer", "mandragora.effect.kinds"]),
    ("scroll-one-curse-1", ["mandragora.curse.count", "mandragora.seek.scrolls"]),
    ("mandrake-1", ["mandragora.mandrake.wild", "mandragora.mandrake.as-book"]),
    ("spellbook-black", ["mandragora.spell.prepare", "mandragora.spell.one-book", "mandragora.black.magic"]),
    ("spellbook-red-0", ["mandragora.spell.prepare", "mandragora.spell.one-book", "mandragora.spell.same-colour"]),
])
def test_card_rules(card_id: str, first_rules: list[str]) -> None:
    rules = [r.id for r in MANDRAGORA.card_rules(MANDRAGORA.card(card_id))]
    assert rules[:len(first_rules)] == first_rules


def test_every_card_has_rules_facts_and_text() -> None:
    for card in MANDRAGORA.cards:
        assert MANDRAGORA.card_rules(card), card.id
        assert MANDRAGORA.ability_text(card).endswith("."), card.id
        assert dict(MANDRAGORA.card_facts(card))["Kind"] == card.kind_label


def test_content_is_frozen() -> None:
    with pytest.raises(AttributeError):
        MANDRAGORA.cards[0].name = "Renamed"  # type: ignore[misc]


# -- broken copies ----------------------------------------------------------------------------------------

RED_INGREDIENTS = 'id = "ingredient-red"\nname = "Red Ingredient"\nkind = "ingredient"\ncolour = "red"'
BLUE_COUNT = 'colour = "blue"\ncount = 12'


@pytest.mark.parametrize("breakage, expected", [
    (edit("cards.toml", RED_INGREDIENTS, RED_INGREDIENTS.replace('"red"', '"orange"')),
     ["cards.toml: item 'ingredient-red': field 'colour': unknown colour 'orange' "
      "(known: purple, red, green, yellow, blue, black)"]),
    (edit("cards.toml", BLUE_COUNT, BLUE_COUNT.replace("12", "11")),
     ["cards.toml: item 'ingredient-blue': field 'count': 11 blue ingredients here, but the colour table in "
      "game.toml says 12"]),
    (edit("cards.toml", "curses = 3", "curses = 4"),
     ["cards.toml: item 'scroll-three-curses': field 'curses': 4 is outside 1..3"]),
    (edit("cards.toml", "curses = 2\ncount = 4", "curses = 2\ncount = 3"),
     ["cards.toml: item 'scroll-two-curses': field 'count': 3 scrolls with 2 curse(s) here, but game.toml's "
      "contents say 4"]),
    (edit("cards.toml", 'id = "scroll-three-curses"', 'id = "mandrake-1"'),
     ["cards.toml: card 'mandrake-1': field 'id': two cards get this id"]),
    (edit("cards.toml", 'colour = "black"\nvalues = [3]', 'colour = "black"\nvalues = [4]'),
     ["cards.toml: item 'spellbook-black': field 'values': 4 is outside 0..3"]),
    (edit("spells.toml", "values = [1, 1, 2, 2]", "values = [1, 1, 2]"),
     ["spells.toml: spell 'banishment': field 'values': 3 values for 4 cards"]),
    (edit("spells.toml", "values = [4, 5]", "values = [4, 6]"),
     ["spells.toml: spell 'disappearance': field 'values': 6 is outside 1..5"]),
    (edit("spells.toml", 'kind = "permanent"', 'kind = "immediate"'),
     ["spells.toml: spell 'swiftness': field 'kind': effect 'extra_move' is permanent, not immediate"]),
    (edit("spells.toml", 'rule = "mandragora.effect.purification"', 'rule = "mandragora.effect.purify"'),
     ["spells.toml: spell 'purification': field 'rule': no rule entry 'mandragora.effect.purify' in rules.toml"]),
    (edit("spells.toml", "count = 1\n", "count = 2\n"),
     ["spells.toml: spell 'purification': field 'values': 1 values for 2 cards"]),
    (edit("removals.toml", '"ingredient-red-6", "ingredient-green-9"', '"ingredient-red-7", "ingredient-green-9"'),
     ["removals.toml: removal for 3 players: field 'cards': 'ingredient-red-7' does not name a card"]),
    (edit("removals.toml", '"ingredient-red-5", "ingredient-red-6",\n', '"ingredient-red-5",\n'),
     ["removals.toml: removal for 2 players: field 'cards': 9 cards listed, the rulebook says 10"]),
    (edit("removals.toml", '"scroll-one-curse-6", "scroll-one-curse-7",', '"ingredient-blue-1", "scroll-one-curse-7",'),
     ["removals.toml: removal for 2 players: field 'cards': 'ingredient-blue-1' is already removed with its colour"]),
    (edit("removals.toml", "colour_cards = 16", "colour_cards = 15"),
     ["removals.toml: removal for 2 players: field 'colour_cards': blue has 16 item cards, the rulebook says 15"]),
    (edit("shops.toml", 'name = "Owl Hollow"\ntime = "night"', 'name = "Owl Hollow"\ntime = "night"\nstart = true'),
     ["shops.toml: shop 'owl-hollow': field 'start': the start tile is a day shop (setup deals 6 day cards)",
      "shops.toml: field 'start': exactly one shop must be the start tile, found 2"]),
    (edit("shops.toml", '"scriptorium", "owl-hollow",', '"scriptorium",'),
     ["shops.toml: shops: field 'circle_order': must list every shop exactly once"]),
    (edit("shops.toml", 'name = "Glasshouse"\ntime = "day"', 'name = "Glasshouse"\ntime = "night"'),
     ["shops.toml: field 'shop': 6 day shops here, but game.toml's contents say 7",
      "shops.toml: field 'shop': 4 night shops here, but game.toml's contents say 3"]),
    (edit("game.toml", "printed_pairs_total = 17", "printed_pairs_total = 18"),
     ["game.toml: scoring_example: field 'printed_pairs_total': 18 is not the sum of the pairs (17)"]),
    (edit("game.toml", "disappearance_pair = 4", "disappearance_pair = 1"),
     ["game.toml: scoring_example: field 'disappearance_pair': pair 1 has spell value 3, but no Disappearance "
      "card is worth 3"]),
    (edit("game.toml", "pairs = [[2, 3]", "pairs = [[4, 3]"),
     ["game.toml: scoring_example: field 'pairs[1]': spellbook value 4 is outside 0..3"]),
    (edit("notes.toml", 'used = "13"', 'used = "12"'),
     ["game.toml: scoring_example: field 'total_note': note 'example-total' uses '12', but the example adds up to 13"]),
    (edit("game.toml", 'symbol = "flame"', 'symbol = "heart"'),
     ["game.toml: colour 'red': field 'symbol': unknown symbol 'heart' "
      "(known: crystal, flame, leaf, flower, drop, pentagram)"]),
    (edit("game.toml", "column = 1\ningredients = 3", "column = 1\ningredients = 4"),
     ["game.toml: contents: field 'ingredients': the rulebook's 42 is not what the colour table adds up to (43)",
      "cards.toml: item 'ingredient-purple': field 'count': 3 purple ingredients here, but the colour table in "
      "game.toml says 4"]),
    (edit("game.toml", "items = 82", "items = 81"),
     ["game.toml: contents: field 'items': 81 is not cursed_scrolls + mandrakes + spellbooks + ingredients (82)",
      "game.toml: contents: field 'cards': 106 is not items + spells (105)"]),
    (edit("notes.toml", 'subject = "colour:black"', 'subject = "colour:grey"'),
     ["notes.toml: note 'colour-table-black': field 'subject': unknown subject 'colour:grey' "
      "(a card id, spell:<id>, colour:<id>, shop:<id> or rulebook)"]),
    (edit("rules.toml", "[[rule]]", "[[rule]\n"),
     ["rules.toml: not valid TOML: Expected ']]' at the end of an array declaration (at line 6, column 7)"]),
    (edit("spells.toml", "values = [1, 1, 2, 2]", "values = []"),
     ["spells.toml: spell 'banishment': field 'values': 0 values for 4 cards"]),
    (edit("game.toml", "spell_values = [1, 5]", "spell_values = []"),
     ["game.toml: game: field 'spell_values': expected [lowest, highest], got []"]),
    (rewrite("removals.toml", lambda text: re.sub(r"cards = \[[^\]]*\]", "cards = []", text, count=1)),
     ["removals.toml: removal for 3 players: field 'cards': 0 cards listed, the rulebook says 5"]),
    (edit("cards.toml", 'id = "scroll-three-curses"', 'id = "scroll-two-curses"'),
     ["cards.toml: item 'scroll-two-curses': field 'id': duplicate item id"]),
    (delete("removals.toml"),
     ["removals.toml: file is missing"]),
], ids=lambda v: v.__name__ if callable(v) else "")
def test_broken_copy_fails_with_exact_messages(tmp_path: Path, breakage: Breakage, expected: list[str]) -> None:
    assert problems_after(tmp_path, "mandragora", breakage) == expected


def test_problem_fields_are_separate(tmp_path: Path) -> None:
    folder = copy_data(tmp_path, "mandragora")
    edit("cards.toml", BLUE_COUNT, BLUE_COUNT.replace("12", "11"))(folder)
    with pytest.raises(DataError) as caught:
        load_game("mandragora", tmp_path)
    (problem,) = caught.value.problems
    assert (problem.file, problem.record, problem.field) == (str(folder / "cards.toml"), "item 'ingredient-blue'",
                                                             "count")


# -- cardgen check --------------------------------------------------------------------------------------

def _check(root: Path) -> Result:
    return CliRunner().invoke(main, ["check", "--data", str(root)])


def test_cardgen_check_lists_mandragora_counts_and_notes() -> None:
    result = _check(DEFAULT_DATA_DIR)
    assert result.exit_code == 0, result.output
    assert "mandragora: Mandragora: 106 cards, 8 spells, 6 colours, 10 shops, 62 rules, 15 notes" in result.output
    assert "    colour Black:\n      [colour-table-black] colour table, black column: printed" in result.output
    assert "[example-total] final-scoring example, total: printed 'TOTAL: 12 points' (kept, flagged)." in result.output


def test_cardgen_check_reports_a_broken_mandragora_copy(tmp_path: Path) -> None:
    folder = copy_data(tmp_path, "mandragora")
    shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
    edit("cards.toml", BLUE_COUNT, BLUE_COUNT.replace("12", "11"))(folder)
    theme = tmp_path / "print" / "themes" / "mandragora.toml"
    theme.write_text(theme.read_text(encoding="utf-8").replace('traits = ["blue"]', 'traits = ["bleu"]'),
                     encoding="utf-8")
    result = _check(tmp_path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1:-1] == [  # after a blank line, before the FAILED summary
        "mandragora: 1 problem(s)",
        f"  {folder}/cards.toml: item 'ingredient-blue': field 'count': 11 blue ingredients here, but the colour "
        "table in game.toml says 12",
    ]
    edit("cards.toml", BLUE_COUNT.replace("12", "11"), BLUE_COUNT)(folder)
    result = _check(tmp_path)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[1:-1] == [  # after a blank line, before the FAILED summary
        "mandragora colour theme: 2 problem(s)",
        f"  {theme}: family: field 'traits': colour 'blue' is in no family",
        f"  {theme}: family 'Blue': field 'traits': unknown colour 'bleu'",
    ]
