"""Mandragora final scoring as a pure function: the rulebook's example, the penalties, the tie-breaks."""

from __future__ import annotations

import pytest

from cardgen.catalog import content
from companion.rules.mandragora.scoring import (
    PlayerTally,
    final_scores,
    tallies_from_json,
)

GAME = content("mandragora")


def test_the_rulebooks_final_scoring_example_is_13_not_the_printed_12() -> None:
    example = GAME.scoring_example
    tally = PlayerTally("Example", spells=tuple((spell, book) for book, spell in example.pairs),
                        hand_colours=example.colours_in_hand, disappearance=example.colours_removed,
                        curse_marker=example.curse_marker)
    result = final_scores([tally])
    player = result.players[0]
    assert player.total == 13
    assert example.printed_total == 12  # the printed slip stays flagged in the data, not in the score
    note = next(n for n in GAME.notes if n.id == example.total_note)
    assert note.action == "flagged" and note.used == "13"
    assert [points for _, points in player.breakdown] == [5, 2, 4, 4, 2, -2, -2]
    assert player.breakdown[-1] == ("3 colours left in hand (after Disappearance: 2)", -2)
    assert sum(points for _, points in player.breakdown[:5]) == example.printed_pairs_total == 17


def test_spell_rows_use_the_labels_and_a_mandrake_book_counts_zero() -> None:
    tally = PlayerTally("Ann", spells=((3, 2), (4, 0)), spell_labels=("Banishment 3 + Red Spellbook 2",
                                                                       "Replication 4 + Mandrake 0"))
    player = final_scores([tally]).players[0]
    assert player.breakdown == (("Banishment 3 + Red Spellbook 2", 5), ("Replication 4 + Mandrake 0", 4),
                                ("0 colours left in hand", 0))
    assert player.total == 9 and player.spells_cast == 2


def test_purification_clears_the_hand_penalty_and_pending_colours_add_no_row() -> None:
    pure = final_scores([PlayerTally("Bo", spells=((5, 1),), hand_colours=6, purification=True)]).players[0]
    assert pure.breakdown == (("Spell 5 + spellbook 1", 6), ("Purification: hand discarded", 0))
    pending = final_scores([PlayerTally("Cy", spells=((2, 3),), hand_colours=None, curse_marker=True)]).players[0]
    assert pending.breakdown == (("Spell 2 + spellbook 3", 5), ("Curse marker", -2)) and pending.total == 3


def test_named_colours_say_how_many_disappearance_discards_not_which() -> None:
    """The player chooses which colours go, and no move reports the choice: the line named the first ones listed
    ("blue, white discarded") as if the player had chosen them."""
    player = final_scores([PlayerTally("Ed", hand_colours=3, disappearance=2,
                                       colour_names=("blue", "white", "red"))]).players[0]
    assert player.breakdown == (("3 colours left in hand: blue, white, red (after Disappearance: 1; two of them "
                                 "discarded)", -1),)
    with pytest.raises(ValueError, match="one name per colour"):
        PlayerTally("Ed", hand_colours=2, colour_names=("blue",))


def test_disappearance_never_takes_the_penalty_below_zero() -> None:
    player = final_scores([PlayerTally("Di", hand_colours=1, disappearance=2)]).players[0]
    assert player.breakdown == (("1 colour left in hand (after Disappearance: 0)", 0),)


@pytest.mark.parametrize("tallies, winners, decided_by", [
    ([PlayerTally("A", spells=((5, 3),)), PlayerTally("B", spells=((1, 0),))], (0,), "score"),
    ([PlayerTally("A", spells=((4, 0),)), PlayerTally("B", spells=((2, 1), (1, 0)))], (1,), "spells cast"),
    ([PlayerTally("A", spells=((4, 0),)), PlayerTally("B", spells=((3, 1),)), PlayerTally("C")], (0, 1), "shared"),
])
def test_winner_tie_break_on_spells_then_shared(tallies: list[PlayerTally], winners: tuple[int, ...],
                                                decided_by: str) -> None:
    result = final_scores(tallies)
    assert result.winners == winners and result.decided_by == decided_by and result.teams is None


def test_team_totals_decide_the_team_game() -> None:
    tallies = [PlayerTally("A", spells=((5, 3),)), PlayerTally("B", spells=((2, 0),)),
               PlayerTally("C", spells=((1, 0),), curse_marker=True), PlayerTally("D", spells=((3, 0), (1, 0)))]
    result = final_scores(tallies, [[0, 2], [1, 3]])
    assert result.teams is not None
    assert [(t.members, t.total, t.spells_cast) for t in result.teams] == [((0, 2), 7, 2), ((1, 3), 6, 3)]
    assert result.winners == (0,) and result.decided_by == "score"
    level = final_scores([PlayerTally("A", spells=((4, 0),)), PlayerTally("B", spells=((1, 0), (1, 0))),
                          PlayerTally("C"), PlayerTally("D", spells=((2, 0),))], [[0, 2], [1, 3]])
    assert level.winners == (1,) and level.decided_by == "spells cast"


@pytest.mark.parametrize("tally_args, message", [
    ({"spells": ((6, 0),)}, "spell cards are worth 1 to 5"),
    ({"spells": ((3, 4),)}, "spellbooks are worth 0 to 3"),
    ({"hand_colours": 8}, "colours left in hand must be 0 to 7"),
    ({"disappearance": 3}, "Disappearance spells must be 0 to 2"),
    ({"spells": ((3, 1),), "spell_labels": ("a", "b")}, "one label per spell"),
])
def test_impossible_tallies_are_refused(tally_args: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PlayerTally("Ann", **tally_args)  # type: ignore[arg-type]


@pytest.mark.parametrize("teams", [[[0, 1]], [[0, 2], [1]], [[0, 2], [1, 3, 3]], [[0, 2], [1, "3"]]])
def test_bad_teams_are_refused(teams: list[list[object]]) -> None:
    with pytest.raises(ValueError, match="teams must split"):
        final_scores([PlayerTally(name) for name in "ABCD"], teams)  # type: ignore[arg-type]


def test_calculator_json_round_trip() -> None:
    tallies, teams = tallies_from_json({"players": [
        {"name": "Ann", "spells": [[2, 3], {"spell": 4, "book": 0}], "hand_colours": 2, "curse_marker": True},
        {"name": "Bo"}]})
    assert teams is None and tallies[0].spells == ((2, 3), (4, 0))
    data = final_scores(tallies, teams).to_json()
    assert data["players"][0]["total"] == 5 + 4 - 2 - 2 and data["winners"] == [0] and data["decided_by"] == "score"
    assert data["players"][1]["breakdown"] == [{"cause": "0 colours left in hand", "points": 0}]


@pytest.mark.parametrize("payload, message", [
    ([], "send an object"),
    ({"players": []}, "1 to 4 sorcerers"),
    ({"players": [{"name": "A", "colour": 1}]}, "unknown field 'colour'"),
    ({"players": [{"name": ""}]}, "1 to 40 characters"),
    ({"players": [{"name": "A", "spells": [[1]]}]}, r"spell 1 must be \[spell value, spellbook value\]"),
    ({"players": [{"name": "A", "spells": [["1", 0]]}]}, "pair of whole numbers"),
    ({"players": [{"name": "A", "curse_marker": "yes"}]}, "'curse_marker' must be true or false"),
    ({"players": [{"name": "A", "curse_marker": True}, {"name": "B", "curse_marker": True}]}, "only one sorcerer"),
    ({"players": [{"name": "A", "hand_colours": True}]}, "colours left in hand"),
    ({"players": [{"name": "A"}], "teams": "0,1"}, "'teams' must be a list"),
])
def test_calculator_json_errors_say_what_is_wrong(payload: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tallies_from_json(payload)
