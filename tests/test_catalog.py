"""The card-data layer: the real Fillory data, and broken copies of it failing with exact messages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from catalog_checks import Breakage, copy_data, edit, problems_after, rewrite

from cardgen.catalog import DataError, content, load_game
from cardgen.catalog.base import DEFAULT_DATA_DIR

FILLORY = content("fillory")
SOURCE = DEFAULT_DATA_DIR / "fillory"


# -- the real data ---------------------------------------------------------------------------------

def test_real_data_counts() -> None:
    assert len(FILLORY.cards) == 110
    assert len(FILLORY.traits) == 27
    assert len(FILLORY.setup_neutral) == 13
    assert (FILLORY.victory_points, FILLORY.starting_hand, FILLORY.hand_limit) == (100, 3, 5)
    assert (FILLORY.min_players, FILLORY.max_players) == (2, 6)
    assert sorted(c.number for c in FILLORY.cards) == list(range(1, 111))
    assert len({c.id for c in FILLORY.cards}) == 110


def test_the_rulebook_trait_list() -> None:
    printed = ("Character, Female, Student, Teacher, Place, Artifact, Fillory, God, Magic, Traveler, Hedge, Sex, "
               "Knowledge, Spell, Religion, Creature, Plot, Time, Psychic, Light, Drugs, Threat, Transform, "
               "Defense, Heal, Telekinetics, Plover").split(", ")
    assert [t.name for t in FILLORY.traits] == printed
    assert [t.name for t in FILLORY.traits if not t.scorable] == ["Character"]
    assert sum(1 for t in FILLORY.traits if t.trick is not None) == 14


def test_setup_neutral_zone_is_the_rulebook_list() -> None:
    names = [FILLORY.card(cid).name for cid in FILLORY.setup_neutral]
    assert names == ["The Beast", "Quentin", "Julia", "Alice", "Penny", "Kady", "Brakebills", "Fillory & Further",
                     "Dean Fogg", "Eliza", "Elliot", "Margo", "Jane Chatwin"]


def test_every_ability_target_resolves() -> None:
    trait_names = {t.name for t in FILLORY.traits}
    for card in FILLORY.cards:
        assert card.ability, f"{card.name} has no special ability"
        for option in card.ability:
            if option.kind == "card":
                assert FILLORY.card(option.target).id == option.target
            else:
                assert option.target in trait_names, f"{card.name}: {option.target}"
        for trait in card.traits:
            assert trait in trait_names, f"{card.name}: {trait}"


@pytest.mark.parametrize("ref, expected", [
    ("quentin", "Quentin"), ("QUENTIN", "Quentin"), ("  the beast ", "The Beast"),
    ("fillory & further", "Fillory & Further"), ("kadys-mother", "Kady's Mother"),
])
def test_card_lookup_by_id_or_name_in_any_case(ref: str, expected: str) -> None:
    assert FILLORY.card(ref).name == expected


def test_unknown_card_is_a_key_error_naming_it() -> None:
    with pytest.raises(KeyError, match="no card 'Quentin Coldwater'"):
        FILLORY.card("Quentin Coldwater")
    assert FILLORY.find_card("nobody") is None
    assert FILLORY.find_trait("Telekinesis") is None


@pytest.mark.parametrize("card, sentence", [
    ("Quentin", "Summon Julia, Alice, Penny or Elliot"),
    ("Time Loop", "Summon or Banish Plot"),
    ("Mike", "Summon Elliot or Banish Eliza"),
    ("Moonstone Knife", "Banish The Beast"),
    ("Flight of Geese", "Summon Professor Mayakovsky"),
    ("Arcane Sigil", "Summon Jane Chatwin, Alice or Quentin"),
])
def test_ability_text(card: str, sentence: str) -> None:
    assert FILLORY.ability_text(FILLORY.card(card)) == sentence


def _notes_about(printed: str) -> list[str]:
    return [n.subject for n in FILLORY.notes if printed in n.printed]


@pytest.mark.parametrize("printed, subjects", [
    ("Creatures", ["mercenaries"]),
    ("Healing", ["suicide"]),
    ("the Beast", ["moonstone-knife", "stop-time", "martin-chatwin", "source-of-magic"]),
    ("Jane", ["arcane-sigil", "time-travel-device"]),
    ("Martin", ["source-of-magic", "time-travel-device"]),
    ("Mayakowski", ["flight-of-geese"]),
    ("Josh", ["victoria", "magic-carrot"]),
])
def test_rulebook_slips_have_notes(printed: str, subjects: list[str]) -> None:
    assert sorted(_notes_about(printed)) == sorted(subjects)


def test_one_trait_cards_are_flagged() -> None:
    one_trait = sorted(c.id for c in FILLORY.cards if len(c.traits) == 1)
    assert one_trait == ["amphetamines", "cocaine"]
    for card_id in one_trait:
        notes = FILLORY.card(card_id).notes
        assert [n.action for n in notes] == ["flagged"]
        assert "2 or more traits" in notes[0].text


def test_normalised_notes_are_applied_to_the_cards() -> None:
    assert "Creature" in FILLORY.card("mercenaries").traits
    assert "Heal" in FILLORY.card("suicide").traits
    assert FILLORY.card("source-of-magic").ability[0].target == "martin-chatwin"


def test_content_is_frozen() -> None:
    with pytest.raises(AttributeError):
        FILLORY.cards[0].name = "Renamed"  # type: ignore[misc]


# -- broken copies ---------------------------------------------------------------------------------

QUENTIN_TRAITS = 'traits = ["Character", "Student", "Telekinetics", "Fillory"]'
QUENTIN_SUMMONS_JULIA = '{ action = "summon", card = "Julia" },'


def unknown_trait(folder: Path) -> None:
    edit("cards.toml", QUENTIN_TRAITS, QUENTIN_TRAITS.replace("Telekinetics", "Telekinesis"))(folder)


def unresolvable_target(folder: Path) -> None:
    edit("cards.toml", QUENTIN_SUMMONS_JULIA, QUENTIN_SUMMONS_JULIA.replace("Julia", "Julio"))(folder)


def unknown_ability_trait(folder: Path) -> None:
    edit("cards.toml", '{ action = "summon", trait = "Spell" }', '{ action = "summon", trait = "Spells" }')(folder)


def duplicate_id(folder: Path) -> None:
    edit("cards.toml", 'id = "alice"', 'id = "quentin"')(folder)


def duplicate_number(folder: Path) -> None:
    edit("cards.toml", "number = 3\n", "number = 2\n")(folder)


def bad_toml(folder: Path) -> None:
    edit("rules.toml", "[[rule]]", "[[rule]\n")(folder)


def missing_file(folder: Path) -> None:
    (folder / "rules.toml").unlink()


def unknown_setup_card(folder: Path) -> None:
    edit("game.toml", '"Jane Chatwin"', '"Jane"')(folder)


def no_traits(folder: Path) -> None:
    edit("cards.toml", 'traits = ["Character", "Student", "Female", "Light"]', "traits = []")(folder)


def card_taken_out(folder: Path) -> None:
    rewrite("cards.toml", lambda text: re.sub(r"\[\[card\]\]\nnumber = 50\n.*?\n\n", "", text, count=1,
                                              flags=re.S))(folder)


@pytest.mark.parametrize("breakage, expected", [
    (unknown_trait, ["cards.toml: card #1 'Quentin': field 'traits': unknown trait 'Telekinesis'"]),
    (unresolvable_target, ["cards.toml: card #1 'Quentin': field 'ability[1].card': 'Julio' does not name a card"]),
    (unknown_ability_trait,
     ["cards.toml: card #3 'Alice': field 'ability[1].trait': 'Spells' does not name a trait"]),
    (duplicate_id, ["game.toml: game: field 'setup_neutral': 'Alice' is listed twice",
                    "cards.toml: card #3 'Alice': field 'id': duplicate card id 'quentin'"]),
    (duplicate_number, ["cards.toml: card #3 'Alice': field 'number': duplicate card number 2"]),
    (bad_toml, ["rules.toml: not valid TOML: Expected ']]' at the end of an array declaration (at line 4, column 7)",
                ]),
    (missing_file, ["rules.toml: file is missing"]),
    (unknown_setup_card, ["game.toml: game: field 'setup_neutral': 'Jane' does not name a card"]),
    (no_traits, ["cards.toml: card #3 'Alice': field 'traits': a card has at least one trait (the rulebook gives "
                 "every card 2 or more)"]),
    (card_taken_out, ["cards.toml: field 'card': no card number 50: the 109 cards are numbered 1 to 109 in the "
                      "rulebook's order"]),
], ids=lambda v: v.__name__ if callable(v) else "")
def test_broken_copy_fails_with_exact_messages(tmp_path: Path, breakage: Breakage, expected: list[str]) -> None:
    assert problems_after(tmp_path, "fillory", breakage) == expected


def test_notes_toml_is_optional(tmp_path: Path) -> None:
    """A rulebook without slips needs no notes.toml: the game loads without one, with no notes."""
    folder = copy_data(tmp_path, "fillory")
    (folder / "notes.toml").unlink()
    assert load_game("fillory", tmp_path).notes == ()


def test_problems_name_file_record_and_field_separately(tmp_path: Path) -> None:
    folder = copy_data(tmp_path, "fillory")
    unknown_trait(folder)
    with pytest.raises(DataError) as caught:
        load_game("fillory", tmp_path)
    (problem,) = caught.value.problems
    assert (problem.file, problem.record, problem.field) == (str(folder / "cards.toml"), "card #1 'Quentin'", "traits")
    assert problem.message == "unknown trait 'Telekinesis'"


def test_several_problems_are_reported_at_once(tmp_path: Path) -> None:
    folder = copy_data(tmp_path, "fillory")
    for breakage in (unknown_trait, unresolvable_target, duplicate_number, missing_file):
        breakage(folder)
    with pytest.raises(DataError) as caught:
        load_game("fillory", tmp_path)
    lines = [str(p) for p in caught.value.problems]
    assert lines == [
        f"{folder}/cards.toml: card #1 'Quentin': field 'traits': unknown trait 'Telekinesis'",
        f"{folder}/cards.toml: card #1 'Quentin': field 'ability[1].card': 'Julio' does not name a card",
        f"{folder}/cards.toml: card #3 'Alice': field 'number': duplicate card number 2",
        f"{folder}/rules.toml: file is missing",
    ]
    assert str(caught.value).startswith("4 problem(s) in the game data:\n  - ")


def test_unknown_game_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unknown game 'mandragora-x'"):
        load_game("mandragora-x", tmp_path)


def test_broken_traits_file_is_reported_once_not_per_card(tmp_path: Path) -> None:
    folder = copy_data(tmp_path, "fillory")
    with (folder / "traits.toml").open("a", encoding="utf-8") as fh:
        fh.write("\nbroken [\n")
    with pytest.raises(DataError) as err:
        load_game("fillory", tmp_path)
    files = {p.file for p in err.value.problems}
    assert files == {str(folder / "traits.toml")}, [str(p) for p in err.value.problems]
    assert "not valid TOML" in str(err.value.problems[0])
