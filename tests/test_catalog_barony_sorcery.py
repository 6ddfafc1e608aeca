"""The Barony: Sorcery card data: the rulebook's counts and costs, the authored choices, and broken copies
failing with file, record and field."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from catalog_checks import Breakage, edit, problems_after
from click.testing import CliRunner

from cardgen.catalog import DataError, content, load_game
from cardgen.catalog.barony_sorcery import (
    CATEGORY_SYMBOLS,
    PLAYER_SYMBOLS,
    TERRAINS,
    BaronySorceryContent,
)
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.cli import main

BARONY: BaronySorceryContent = content("barony-sorcery")
SOURCE = DEFAULT_DATA_DIR / "barony-sorcery"


# -- the rulebook's numbers -------------------------------------------------------------------------

def test_game_settings() -> None:
    assert (BARONY.game, BARONY.title) == ("barony-sorcery", "Barony: Sorcery")
    assert (BARONY.min_players, BARONY.max_players) == (2, 5)
    assert (BARONY.magic_tokens, BARONY.control_tokens, BARONY.control_tokens_per_player) == (30, 25, 5)
    assert BARONY.resource_tokens == 20 and sum(r.count for r in BARONY.resources) == 20
    assert BARONY.exploration_rewards == (3, 2, 1)
    assert (BARONY.max_controls_per_location, BARONY.points_per_control, BARONY.spells_in_play) == (3, 3, 5)
    assert (BARONY.tiles_per_player, BARONY.base_tiles, BARONY.territory_tiles) == (9, 36, 9)
    assert BARONY.mysterious_by_players == {2: 3, 3: 4, 4: 5, 5: 5}
    fifth = (BARONY.fifth_player_knights, BARONY.fifth_player_cities, BARONY.fifth_player_strongholds,
             BARONY.fifth_player_villages, BARONY.fifth_player_score_counters)
    assert fifth == (7, 5, 2, 14, 1) and BARONY.fifth_player.reference_sheets == 1


def test_nine_spells_costs_and_categories() -> None:
    table = {s.name: (s.category, s.cost) for s in BARONY.spells}
    assert table == {
        "Velocity": ("movement", 1), "Teleport": ("movement", 1), "Tornado": ("movement", 2),
        "Charm": ("recruitment", 1), "Illusion": ("recruitment", 1), "Portal": ("recruitment", 2),
        "Abundance": ("construction", 1), "Petrify": ("construction", 1), "Sanctuary": ("construction", 2),
    }
    for spell in BARONY.spells:
        assert spell.provenance == "rulebook" and spell.text.endswith(".")
        assert BARONY.rule(spell.rule).title.startswith(spell.name)
        assert f"{spell.cost} Magic token" in BARONY.rule(spell.rule).title


def test_cards_are_the_spells_numbered_one_to_nine() -> None:
    assert [c.number for c in BARONY.cards] == list(range(1, 10))
    assert [c.id for c in BARONY.cards] == [s.id for s in BARONY.spells]
    assert all((c.cost, c.category) == (BARONY.spell(c.spell).cost, BARONY.spell(c.spell).category)
               for c in BARONY.cards)


def test_categories_colour_and_symbol() -> None:
    rows = [(c.id, c.name, c.colour, c.provenance, c.symbol_provenance) for c in BARONY.categories]
    assert rows == [("movement", "Movement", "cyan", "rulebook", "authored"),
                    ("recruitment", "Recruitment", "maroon", "rulebook", "authored"),
                    ("construction", "Construction", "orange", "rulebook", "authored")]
    assert len({c.symbol for c in BARONY.categories}) == 3
    assert all(c.symbol in CATEGORY_SYMBOLS for c in BARONY.categories)
    assert Counter(s.category for s in BARONY.spells) == {"movement": 3, "recruitment": 3, "construction": 3}


def test_player_colours_have_distinct_symbols() -> None:
    assert len(BARONY.player_colours) == 5
    assert len({c.symbol for c in BARONY.player_colours}) == 5
    assert all(c.symbol in PLAYER_SYMBOLS and c.provenance == "authored" for c in BARONY.player_colours)
    assert [c.id for c in BARONY.player_colours if c.fifth_player] == ["purple"]


def test_tiles_three_spaces_five_locations() -> None:
    assert len(BARONY.tiles) == 9 and all(len(t.hexes) == 3 for t in BARONY.tiles)
    assert all(h in TERRAINS for t in BARONY.tiles for h in t.hexes)
    assert sum(t.mysterious for t in BARONY.tiles) == 5 == len(BARONY.locations)
    for tile in BARONY.tiles:
        assert tile.hexes.count("mysterious") == (1 if tile.mysterious else 0)
        assert tile.provenance == "authored"
    assert len({loc.id for loc in BARONY.locations}) == 5
    assert BARONY.location("standing stones").tile == "tile-1"
    assert BARONY.tile("Fairy Ring").id == BARONY.tile("fairy-ring").id == "tile-4"


@pytest.mark.parametrize("players, tiles, mysterious, other_expansion, base", [
    (2, 18, 3, 0, 15), (3, 27, 4, 0, 23), (4, 36, 5, 0, 31), (5, 45, 5, 4, 36),
])
def test_setup_counts(players: int, tiles: int, mysterious: int, other_expansion: int, base: int) -> None:
    setup = BARONY.setup_for(players)
    assert (setup.tiles, setup.mysterious_tiles, setup.other_expansion_tiles, setup.base_tiles) == \
        (tiles, mysterious, other_expansion, base)
    assert setup.mysterious_tiles + setup.other_expansion_tiles + setup.base_tiles == setup.tiles


@pytest.mark.parametrize("players", [1, 6])
def test_setup_outside_the_player_range_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match=f"Barony: Sorcery is for 2 to 5 players, not {players}"):
        BARONY.setup_for(players)


def test_combination_examples() -> None:
    examples = {e.id: e for e in BARONY.combination_examples}
    assert examples["velocity-teleport"].spells == ("velocity", "teleport")
    assert examples["velocity-teleport"].cost == 2
    assert examples["abundance-petrify-sanctuary"].cost == 4
    for example in examples.values():
        assert sum(BARONY.spell(s).cost for s in example.spells) == example.cost
        assert len({BARONY.spell(s).category for s in example.spells}) == 1


# -- rules, notes, provenance -------------------------------------------------------------------------

REQUIRED_RULES = [f"barony-sorcery.{r}" for r in (
    "setup.tiles", "setup.mysterious", "setup.spacing", "setup.first-cities", "setup.spells", "explore.control",
    "explore.reward", "explore.full", "explore.once", "explore.supply", "cast.single", "cast.combine",
    "cast.same-category", "cast.once", "cast.in-play", "cast.pay", "cast.one-action", "cast.lone",
    "score.control", "score.base", "score.winner", "companion.turns")]


@pytest.mark.parametrize("rule_id", REQUIRED_RULES + [f"barony-sorcery.spell.{s.id}" for s in BARONY.spells])
def test_rule_entry_exists(rule_id: str) -> None:
    rule = BARONY.rule(rule_id)
    assert rule.game == "barony-sorcery" and len(rule.text) > 30 and rule.tags


def test_our_own_readings_are_marked_authored() -> None:
    authored = {r.id.removeprefix("barony-sorcery.") for r in BARONY.rules if r.provenance == "authored"}
    assert {"explore.supply", "score.winner", "score.tie", "score.base", "setup.spacing", "companion.turns"} <= authored
    assert "explore.reward" not in authored and "cast.same-category" not in authored
    assert "shared win" in BARONY.rule("barony-sorcery.score.tie").text


@pytest.mark.parametrize("note_id, subject, action", [
    ("isolated-village", "teleport", "normalised"), ("control-tokens-per-player", "rulebook", "normalised"),
    ("example-adjacent", "velocity", "normalised"), ("mysterious-spacing", "rulebook", "flagged"),
    ("magic-supply", "rulebook", "flagged"), ("charm-all-cities", "charm", "normalised"),
])
def test_rulebook_slips_have_notes(note_id: str, subject: str, action: str) -> None:
    note = next(n for n in BARONY.notes if n.id == note_id)
    assert (note.subject, note.action) == (subject, action) and note.printed and note.text
    if subject != "rulebook":
        assert note in BARONY.card(subject).notes


def test_lookups_labels_and_facts() -> None:
    assert BARONY.card("VELOCITY").id == BARONY.card("Velocity").id == "velocity"
    assert BARONY.spell("tornado").cost == 2 and BARONY.category("Recruitment").colour == "maroon"
    assert BARONY.find_card("fireball") is None
    with pytest.raises(KeyError, match="no card 'fireball' in Barony: Sorcery"):
        BARONY.card("fireball")
    with pytest.raises(KeyError, match="no spell 'Fireball'"):
        BARONY.spell("Fireball")
    assert BARONY.label(BARONY.card("portal")) == "Portal (Recruitment, cost 2)"
    facts = dict(BARONY.card_facts(BARONY.card("sanctuary")))
    assert facts["Category"] == "Construction (orange card, symbol: tower)"
    assert facts["Cost"] == "2 Magic tokens" and "Abundance + Petrify + Sanctuary" in facts["Rulebook example"]
    assert BARONY.subject_label("teleport") == "Teleport (Movement, cost 1) (teleport)"
    assert BARONY.subject_label("category:movement") == "category Movement"


def test_every_card_has_rules_and_text() -> None:
    for card in BARONY.cards:
        rules = [r.id for r in BARONY.card_rules(card)]
        assert rules[0] == f"barony-sorcery.spell.{card.id}" and "barony-sorcery.cast.combine" in rules
        assert BARONY.ability_text(card).endswith(".")
    assert "barony-sorcery.cast.lone" in [r.id for r in BARONY.card_rules(BARONY.card("tornado"))]


def test_content_is_frozen() -> None:
    with pytest.raises(AttributeError):
        BARONY.spells[0].cost = 0  # type: ignore[misc]


# -- broken copies ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("breakage, expected", [
    (edit("spells.toml", 'category = "movement"\ncost = 2', 'category = "movement"\ncost = "two"'),
     ["spells.toml: spell 'tornado': field 'cost': expected a whole number, got 'two'"]),
    (edit("spells.toml", 'category = "recruitment"\ncost = 1', 'category = "sorcery"\ncost = 1'),
     ["spells.toml: spell 'charm': field 'category': unknown category 'sorcery' "
      "(known: movement, recruitment, construction)"]),
    (edit("spells.toml", 'rule = "barony-sorcery.spell.portal"', 'rule = "barony-sorcery.spell.gate"'),
     ["spells.toml: spell 'portal': field 'rule': no rule entry 'barony-sorcery.spell.gate' in rules.toml"]),
    (edit("spells.toml", 'id = "sanctuary"', 'id = "petrify"'),
     ["spells.toml: spell 'petrify': field 'id': duplicate spell id"]),
    (edit("spells.toml", "cost = 2\ntext = \"Build a city, as", "cost = 1\ntext = \"Build a city, as"),
     ["game.toml: combination 'abundance-petrify-sanctuary': field 'cost': 4 is not what the spells cost "
      "together (3)"]),
    (edit("tiles.toml", '["mysterious", "forest", "plains"]', '["mysterious", "forest"]'),
     ["tiles.toml: tile 'tile-1': field 'hexes': a tile has 3 spaces, got 2"]),
    (edit("tiles.toml", '["lake", "forest", "mysterious"]', '["lake", "forest", "swamp"]'),
     ["tiles.toml: tile 'tile-3': field 'hexes': unknown land type 'swamp' "
      "(known: mountain, forest, plains, fields, lake, mysterious)"]),
    (edit("tiles.toml", 'location = "Fairy Ring"\n', ""),
     ["tiles.toml: tile 'tile-4': field 'location': a tile with a mysterious space needs the location's name"]),
    (edit("game.toml", "4 = 5\n", ""),
     ["game.toml: mysterious_by_players: field '4': is missing"]),
    (edit("game.toml", "magic_tokens = 30", "magic_tokens = -1"),
     ["game.toml: contents: field 'magic_tokens': -1 is outside 0..999"]),
    (edit("game.toml", 'symbol = "star"', 'symbol = "disc"'),
     ["game.toml: player_colour 'purple': field 'symbol': 'disc' is used by another colour too"]),
    (edit("game.toml", "control_tokens = 25", "control_tokens = 20"),
     ["game.toml: contents: field 'control_tokens': 20 is not 5 per player × 5"]),
    (edit("notes.toml", 'subject = "teleport"', 'subject = "teleportation"'),
     ["notes.toml: note 'isolated-village': field 'subject': unknown subject 'teleportation' (a spell id, "
      "category:<id>, tile:<id> or rulebook)"]),
    (edit("spells.toml", 'name = "Velocity"\ncategory = "movement"', 'name = "Velocity"\ncategroy = "movement"'),
     ["spells.toml: spell 'velocity': field 'categroy': unknown field "
      "(known: id, name, category, cost, text, rule, provenance)",
      "spells.toml: spell 'velocity': field 'category': is missing"]),
])
def test_broken_copy_names_file_record_and_field(tmp_path: Path, breakage: Breakage, expected: list[str]) -> None:
    assert problems_after(tmp_path, "barony-sorcery", breakage) == expected


def test_missing_file_is_named(tmp_path: Path) -> None:
    shutil.copytree(SOURCE, tmp_path / "barony-sorcery")
    (tmp_path / "barony-sorcery" / "tiles.toml").unlink()
    with pytest.raises(DataError, match=r"tiles\.toml: file is missing"):
        load_game("barony-sorcery", tmp_path)


def test_cardgen_check_lists_the_game_and_a_broken_copy(tmp_path: Path) -> None:
    ok = CliRunner().invoke(main, ["check"])
    assert ok.exit_code == 0, ok.output
    assert "barony-sorcery: Barony: Sorcery: 9 cards, 9 spells, 9 tiles," in ok.output
    assert "    Teleport (Movement, cost 1) (teleport):\n      [isolated-village]" in ok.output
    shutil.copytree(SOURCE, tmp_path / "barony-sorcery")
    edit("spells.toml", "cost = 2", "cost = 0")(tmp_path / "barony-sorcery")
    broken = CliRunner().invoke(main, ["check", "--data", str(tmp_path)])
    assert broken.exit_code == 1
    assert broken.stderr.splitlines()[1:3] == [  # after a blank line
        "barony-sorcery: 1 problem(s)",
        f"  {tmp_path}/barony-sorcery/spells.toml: spell 'tornado': field 'cost': 0 is outside 1..9"]


# -- the generic card page and search use the catalog's own descriptions -------------------------------------

def test_card_page_shows_category_cost_notes_and_rules(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/c/barony-sorcery/Teleport")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Teleport (Movement, cost 1)" in html and "Movement (cyan card, symbol: winged boot)" in html
    assert "an opponent&#39;s isolated village" in html            # the rulebook note on this card
    assert "barony-sorcery.spell.teleport" in html and "barony-sorcery.cast.lone" in html
    assert "card 2 of 9" in html and "/c/barony-sorcery/tornado" in html
    assert client.get("/c/barony-sorcery/fireball").status_code == 404


def test_search_finds_spells_and_rules() -> None:
    from companion.search import search
    found = search("tornado", game="barony-sorcery")
    assert ("card", "tornado") in [(r["kind"], r["id"]) for r in found]
    assert search("barony-sorcery.explore.supply")[0]["id"] == "barony-sorcery.explore.supply"
