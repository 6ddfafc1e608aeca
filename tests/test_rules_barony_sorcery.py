"""Barony: Sorcery rules: every refusal (rule id + sentence), exact positions, and the rulebook's examples."""

from __future__ import annotations

import importlib
import json
import random
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

import pytest
from flask.testing import FlaskClient

from cardgen.catalog import content
from companion.rules import IllegalMove, Outcome, SetupError
from companion.rules.barony_sorcery import game as barony
from companion.rules.barony_sorcery.cast import UnknownSpell, check_cast, legal_casts
from companion.rules.barony_sorcery.state import (
    BaronyState,
    state_from_json,
    state_to_json,
)

GAME = content("barony-sorcery")
RULE_IDS = {rule.id for rule in GAME.rules}
RULES_DIR = Path(barony.__file__).parent
PLAYERS = ("Ann", "Ben", "Cy", "Dee", "Eve")
#: Every spell but Tornado, Portal, Sanctuary and Charm: the spells of both combination examples.
EXAMPLE_SPELLS = ("velocity", "teleport", "abundance", "petrify", "sanctuary")
BOARD = ("standing-stones", "whispering-well", "ruined-tower", "fairy-ring", "forgotten-shrine")


def position(players: int = 3, *, spells: Sequence[str] = EXAMPLE_SPELLS, locations: Sequence[str] = BOARD[:4],
             controls: Mapping[str, Sequence[int]] | None = None, magic: Sequence[int] | None = None,
             phase: str = "play", base: Sequence[int | None] | None = None) -> BaronyState:
    """A consistent position: the supply holds whatever Magic the seats do not."""
    held = tuple(magic) if magic is not None else (0,) * players
    return BaronyState(
        players=PLAYERS[:players], spells=tuple(spells), locations=tuple(locations),
        controls=tuple(tuple((controls or {}).get(loc, ())) for loc in locations), magic=held,
        supply=30 - sum(held), phase=phase,  # type: ignore[arg-type]
        base_points=tuple(base) if base is not None else (None,) * players)


def refused(state: BaronyState, seat: int, move: dict[str, Any]) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        barony.apply(state, seat, move)
    error = caught.value
    assert error.rule is None or error.rule in RULE_IDS, error.rule
    assert error.move == move
    assert error.seat == (seat if isinstance(seat, int) and not isinstance(seat, bool) else None)
    assert error.message[:1].isupper() or error.rule is None
    return error


# --- the rule ids ----------------------------------------------------------------------------------

def test_every_rule_id_the_module_names_exists() -> None:
    named = set()
    for path in RULES_DIR.glob("*.py"):
        named |= set(re.findall(r'"(barony-sorcery\.[a-z-]+\.[a-z-]+)"', path.read_text(encoding="utf-8")))
    assert named and not named - RULE_IDS, sorted(named - RULE_IDS)
    companion = {"barony-sorcery.companion.turns", "barony-sorcery.companion.end", "barony-sorcery.companion.over"}
    assert companion <= RULE_IDS
    for spell in GAME.spells:
        assert spell.rule in RULE_IDS


# --- setup -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, mysterious", [(2, 3), (3, 4), (4, 5), (5, 5)])
def test_setup_draws_five_spells_and_the_mysterious_locations_the_table_needs(players: int, mysterious: int) -> None:
    state = barony.setup(PLAYERS[:players], {}, random.Random(7))
    assert len(state.spells) == 5 == len(set(state.spells))
    order = [spell.id for spell in GAME.spells]
    assert list(state.spells) == sorted(state.spells, key=order.index)
    assert len(state.locations) == mysterious and set(state.locations) <= set(BOARD)
    assert state.controls == ((),) * mysterious and state.magic == (0,) * players and state.supply == 30
    assert state.phase == "play" and state.base_points == (None,) * players
    assert barony.setup(PLAYERS[:players], {}, random.Random(7)) == state  # seeded: the same table twice
    drawn = {barony.setup(PLAYERS[:players], {}, random.Random(seed)).spells for seed in range(20)}
    assert len(drawn) > 10  # really drawn, not always the same five


def test_setup_takes_the_spells_and_locations_the_table_laid_out() -> None:
    state = barony.setup(["Ann", "Ben"], {"spells": ["SANCTUARY", "velocity", "Teleport", "petrify", "Abundance"],
                                          "locations": ["Fairy Ring", "tile-1", "ruined-tower"]})
    assert state.spells == EXAMPLE_SPELLS
    assert state.locations == ("standing-stones", "ruined-tower", "fairy-ring")


@pytest.mark.parametrize("players, options, message", [
    (2, {"spells": ["Velocity", "Teleport"]},
     "Option 'spells' needs exactly 5 spells, not 2 (rule barony-sorcery.setup.spells)"),
    (2, {"spells": ["Velocity", "velocity", "Charm", "Portal", "Petrify"]},
     "Option 'spells' names the same spell twice"),
    (2, {"spells": ["Velocity", "Fireball", "Charm", "Portal", "Petrify"]},
     "Option 'spells': there is no spell 'Fireball'"),
    (2, {"spells": "Velocity"}, "Option 'spells' must be a list of names"),
    (2, {"locations": ["Fairy Ring"]},
     "Option 'locations' needs exactly 3 locations, not 1 (rule barony-sorcery.setup.mysterious)"),
    (4, {"locations": list(BOARD[:4])}, "needs exactly 5 locations, not 4"),
    (3, {"locations": ["Fairy Ring", "Atlantis", "tile-1", "tile-2"]}, "there is no location 'Atlantis'"),
    (3, {"locations": [1, 2, 3, 4]}, "Option 'locations' must be a list of names"),
    (3, {"first_seat": 0}, "Unknown option 'first_seat'; Barony: Sorcery knows: spells, locations"),
    (3, [], "Options must be an object"),
    (1, {}, "This game takes 2 to 5 players, not 1"),
    (6, {}, "This game takes 2 to 5 players, not 6"),
])
def test_setup_refuses_what_the_table_cannot_have(players: int, options: Any, message: str) -> None:
    with pytest.raises(SetupError, match=re.escape(message)) as refused:
        barony.setup(list(PLAYERS[:players]) + (["Fay"] if players == 6 else []), options, random.Random(1))
    # a refusal that names its rule in words names it in the answer's "rule" too (the API's JSON field)
    named = re.search(r"\(rule ([\w.-]+)\)", str(refused.value))
    assert refused.value.rule == (named.group(1) if named else None)


def test_the_api_names_the_rule_a_refused_setup_breaks(client: FlaskClient) -> None:
    """"Option 'locations' needs exactly 3 locations, not 1 (rule barony-sorcery.setup.mysterious)" came with
    "rule": null, so a phone could not link the rule it names."""
    response = client.post("/api/games", json={"game": "barony-sorcery", "players": ["Ann", "Ben"],
                                               "options": {"locations": ["Fairy Ring"]}})
    assert response.status_code == 422
    assert response.get_json()["rule"] == "barony-sorcery.setup.mysterious"


# --- exploring ----------------------------------------------------------------------------------------

def test_explore_places_control_tokens_in_arrival_order_for_three_two_one_magic() -> None:
    state = position(4)
    for seat, expected in ((2, 3), (0, 2), (3, 1)):
        before = state
        state = barony.apply(state, seat, {"type": "explore", "location": "Whispering Well"})
        assert state.magic[seat] - before.magic[seat] == expected  # barony-sorcery.explore.reward
        assert state.supply == before.supply - expected
    assert state.controls_on("whispering-well") == (2, 0, 3)  # barony-sorcery.explore.control
    shown = barony.view(state, 1)["locations"][1]
    assert shown["controls"] == [{"seat": 2, "name": "Cy", "order": 1, "reward": 3},
                                 {"seat": 0, "name": "Ann", "order": 2, "reward": 2},
                                 {"seat": 3, "name": "Dee", "order": 3, "reward": 1}]
    assert shown["full"] and shown["next_reward"] == 0


def test_a_location_takes_each_players_token_once() -> None:
    state = position(controls={"fairy-ring": [1]}, magic=[0, 3, 0])
    error = refused(state, 1, {"type": "explore", "location": "fairy-ring"})
    assert error.rule == "barony-sorcery.explore.once"
    assert error.message == ("You already have a Control token on the Fairy Ring: each player may place only one "
                             "there and is rewarded only once.")


def test_a_full_location_is_refused_and_nothing_happens() -> None:
    state = position(4, controls={"ruined-tower": [0, 1, 2]}, magic=[3, 2, 1, 0])
    error = refused(state, 3, {"type": "explore", "location": "Ruined Tower"})
    assert error.rule == "barony-sorcery.explore.full"
    assert "nothing happens" in error.message and "no Magic tokens" in error.message


@pytest.mark.parametrize("supply, reward", [(1, 1), (0, 0)])
def test_the_reward_is_capped_by_what_the_supply_holds(supply: int, reward: int) -> None:
    state = position(2, magic=[30 - supply, 0])
    after = barony.apply(state, 1, {"type": "explore", "location": "standing-stones"})
    assert after.magic == (30 - supply, reward) and after.supply == 0  # barony-sorcery.explore.supply
    assert after.controls_on("standing-stones") == (1,)


@pytest.mark.parametrize("move, message", [
    ({"type": "explore", "location": "Atlantis"}, "There is no Mysterious location 'Atlantis' on this board"),
    ({"type": "explore", "location": "Forgotten Shrine"},
     "(it has Standing Stones, Whispering Well, Ruined Tower and Fairy Ring)"),
    ({"type": "explore", "location": 3}, "Field 'location' of the 'explore' move must be a text"),
    ({"type": "explore"}, "The 'explore' move needs a 'location' field"),
    ({"type": "teleport"}, "Unknown move type 'teleport'"),
])
def test_malformed_explorations_are_refused_without_a_rule(move: dict[str, Any], message: str) -> None:
    error = refused(position(), 0, move)
    assert error.rule is None and message in error.message


# --- casting -----------------------------------------------------------------------------------------

def test_the_rulebook_combination_examples_cost_what_it_says() -> None:
    examples = {tuple(example.spells): example.cost for example in GAME.combination_examples}
    assert examples == {("velocity", "teleport"): 2, ("abundance", "petrify", "sanctuary"): 4}
    velocity = check_cast(["Velocity", "Teleport"], 2)
    assert (velocity.legal, velocity.cost, velocity.category) == (True, 2, "movement")
    assert velocity.rule == "barony-sorcery.cast.combine"
    assert "one Movement action" in velocity.reason and "not 2" in velocity.reason
    build = check_cast(["Abundance", "Petrify", "Sanctuary"], 4)
    assert (build.legal, build.cost, build.category) == (True, 4, "construction")
    assert "one Construction action" in build.reason and "not 3" in build.reason
    assert not check_cast(["Abundance", "Petrify", "Sanctuary"], 3).legal  # 3 tokens do not pay for it


@pytest.mark.parametrize("spells, cost", [(["Velocity", "Teleport"], 2), (["abundance", "PETRIFY", "Sanctuary"], 4)])
def test_casting_a_combination_pays_its_tokens_back_to_the_supply(spells: list[str], cost: int) -> None:
    state = position(magic=[5, 0, 0])
    after = barony.apply(state, 0, {"type": "cast", "spells": spells})
    assert after.magic == (5 - cost, 0, 0) and after.supply == 25 + cost
    assert after.controls == state.controls and after.phase == "play"


def test_a_single_spell() -> None:
    result = check_cast(["sanctuary"], 2)
    assert (result.legal, result.cost, result.rule) == (True, 2, "barony-sorcery.cast.single")
    assert result.reason == ("Sanctuary costs 2 Magic tokens: pay, then use its effect at once, in place of one of "
                             "the basic actions.")
    assert barony.apply(position(magic=[2, 0, 0]), 0, {"type": "cast", "spells": ["Sanctuary"]}).magic == (0, 0, 0)


@pytest.mark.parametrize("spells, magic, rule, sentence", [
    (["Velocity", "Abundance"], 5, "barony-sorcery.cast.same-category",
     "Only spells of one category combine, and here Velocity is Movement and Abundance is Construction."),
    (["Velocity", "velocity"], 5, "barony-sorcery.cast.once",
     "Velocity is named more than once: a spell can be cast only once in the same action."),
    (["Tornado"], 5, "barony-sorcery.cast.in-play",
     "Tornado is not among the spells in play (Velocity, Teleport, Abundance, Petrify and Sanctuary); "
     "the spells not drawn at setup stay in the box."),
    (["Abundance", "Sanctuary"], 2, "barony-sorcery.cast.pay",
     "Abundance and Sanctuary cost 3 Magic tokens and you have 2: the whole cost is paid before the effect."),
    (["Sanctuary"], 0, "barony-sorcery.cast.pay",
     "Sanctuary costs 2 Magic tokens and you have 0: the whole cost is paid before the effect."),
])
def test_illegal_casts_name_their_rule_and_change_nothing(spells: list[str], magic: int, rule: str,
                                                         sentence: str) -> None:
    state = position(magic=[magic, 0, 0])
    error = refused(state, 0, {"type": "cast", "spells": spells})
    assert (error.rule, error.message) == (rule, sentence)
    answer = check_cast(spells, magic, state.spells)
    assert (answer.legal, answer.rule, answer.reason) == (False, rule, sentence)


def test_check_cast_without_magic_or_spells_in_play_checks_only_the_combination() -> None:
    assert check_cast(["Tornado", "Velocity", "Teleport"]).legal
    assert check_cast(["Tornado", "Velocity", "Teleport"]).cost == 4
    mixed = check_cast(["Charm", "Portal", "Petrify"])
    assert not mixed.legal and mixed.category is None and mixed.cost == 4


@pytest.mark.parametrize("spells, message", [
    (["Fireball"], "There is no spell called 'Fireball' in Barony: Sorcery (the spells: Velocity, Teleport, Tornado,"),
    ([], "Name at least one spell to cast"),
    ([7], "Field 'spells' of the 'cast' move must be a list of texts"),
    ("Velocity", "Field 'spells' of the 'cast' move must be a list of texts"),
    (None, "The 'cast' move needs a 'spells' field"),
])
def test_malformed_casts_are_refused_without_a_rule(spells: Any, message: str) -> None:
    error = refused(position(magic=[3, 0, 0]), 0, {"type": "cast", "spells": spells})
    assert error.rule is None and message in error.message


def test_unknown_spells_are_a_separate_error_for_the_calculator() -> None:
    with pytest.raises(UnknownSpell) as caught:
        check_cast(["Velocity", "Fly"], 3)
    assert caught.value.rule is None and isinstance(caught.value, IllegalMove)


def test_legal_casts_lists_every_affordable_combination_of_the_spells_in_play() -> None:
    found = legal_casts(EXAMPLE_SPELLS, 2)
    assert [[s.id for s in r.spells] for r in found] == [
        ["velocity", "teleport"], ["abundance", "petrify"], ["sanctuary"], ["velocity"], ["teleport"],
        ["abundance"], ["petrify"]]
    assert all(r.legal and r.cost <= 2 for r in found)
    assert len(legal_casts(EXAMPLE_SPELLS, 4)) == 3 + 7  # movement: 3 subsets; construction: all 7
    assert legal_casts(EXAMPLE_SPELLS, 0) == []


# --- the end: base-game points, score, winner --------------------------------------------------------

def test_end_game_opens_scoring_and_then_stops_exploring_and_casting() -> None:
    state = barony.apply(position(magic=[2, 0, 0]), 2, {"type": "end_game"})
    assert state.phase == "scoring"
    for move in ({"type": "explore", "location": "fairy-ring"}, {"type": "cast", "spells": ["Velocity"]},
                 {"type": "end_game"}):
        assert refused(state, 0, move).rule == "barony-sorcery.companion.end"


def test_base_points_wait_for_the_end_of_the_base_game() -> None:
    error = refused(position(), 1, {"type": "base_points", "points": 40})
    assert error.rule == "barony-sorcery.score.base" and "report the end first" in error.message


@pytest.mark.parametrize("points, message", [
    (-1, "Field 'points' must be from 0 to 999, got -1."), (1000, "Field 'points' must be from 0 to 999, got 1000."),
    ("40", "Field 'points' of the 'base_points' move must be a whole number."),
    (True, "Field 'points' of the 'base_points' move must be a whole number."),
])
def test_base_points_must_be_a_plausible_whole_number(points: Any, message: str) -> None:
    error = refused(position(phase="scoring"), 0, {"type": "base_points", "points": points})
    assert error.rule is None and error.message == message


def test_scoring_adds_three_per_control_token_and_ends_when_everyone_has_entered() -> None:
    state = position(3, controls={"fairy-ring": [0, 2], "ruined-tower": [0]}, phase="scoring")
    state = barony.apply(state, 0, {"type": "base_points", "points": 40})
    state = barony.apply(state, 0, {"type": "base_points", "points": 41})  # corrected before everyone is in
    state = barony.apply(state, 2, {"type": "base_points", "points": 44})
    assert state.phase == "scoring" and barony.view(state, None)["waiting_for"] == [1]
    assert not barony.outcome(state).over
    state = barony.apply(state, 1, {"type": "base_points", "points": 46})
    assert state.phase == "review" and state.base_points == (41, 46, 44)  # companion.review: the table checks
    assert not barony.outcome(state).over and barony.view(state, None)["waiting_for"] == [0, 1, 2]
    for seat in (2, 0, 1):
        state = barony.apply(state, seat, {"type": "confirm_totals"})
    assert state.phase == "over"
    totals = barony.score(state)
    assert [row["total"] for row in totals] == [47, 46, 47]
    assert totals[0]["breakdown"] == [{"cause": "Base game (entered)", "points": 41},
                                      {"cause": "Control token on the Ruined Tower", "points": 3},
                                      {"cause": "Control token on the Fairy Ring", "points": 3}]
    result = barony.outcome(state)  # barony-sorcery.score.tie: a tie is a shared win, the project's own reading
    assert result == Outcome(over=True, winner=None, winners=(0, 2), rule="barony-sorcery.score.tie",
                             reason="Ann and Cy share the win with 47 points each (our reading: the expansion gives "
                                    "no tie-break; a table may use the base game's)")
    assert refused(state, 1, {"type": "base_points", "points": 60}).rule == "barony-sorcery.companion.over"


def test_a_sole_winner() -> None:
    state = position(2, controls={"standing-stones": [1]}, phase="scoring", base=[50, None])
    state = barony.apply(state, 1, {"type": "base_points", "points": 48})
    state = barony.apply(state, 0, {"type": "confirm_totals"})
    state = barony.apply(state, 1, {"type": "confirm_totals"})
    assert barony.outcome(state) == Outcome(over=True, winner=1, winners=(1,), reason="Ben has the most points: 51")
    assert barony.view(state, 0)["winner"] == 1 and barony.view(state, 0)["over"]


def test_a_seat_that_is_not_in_the_game_is_refused() -> None:
    for seat in (3, -1, True, "0", None):
        assert refused(position(), seat, {"type": "end_game"}).rule is None  # type: ignore[arg-type]


# --- view, advice, log, JSON ------------------------------------------------------------------------------

def test_every_seat_sees_the_same_complete_view() -> None:
    state = position(3, controls={"fairy-ring": [1]}, magic=[0, 3, 0])
    table = barony.view(state, None)
    assert set(table) == {"game", "title", "phase", "you", "over", "winner", "winners", "magic_tokens", "supply",
                          "spells", "locations", "players", "waiting_for"}
    for seat in range(3):
        assert {**barony.view(state, seat), "you": None} == table
    assert table["players"][1] == {"seat": 1, "name": "Ben", "magic": 3, "control_tokens_left": 4,
                                   "visited": ["fairy-ring"], "control_points": 3, "base_points": None, "total": 3,
                                   "confirmed": False}
    assert table["spells"][0] == {"id": "velocity", "name": "Velocity", "category": "movement",
                                  "category_name": "Movement", "colour": "cyan", "symbol": "boot", "cost": 1,
                                  "text": GAME.spell("velocity").text, "rule": "barony-sorcery.spell.velocity"}
    assert [loc["name"] for loc in table["locations"]] == ["Standing Stones", "Whispering Well", "Ruined Tower",
                                                           "Fairy Ring"]
    assert table["supply"] == 27 and table["magic_tokens"] == 30
    with pytest.raises(ValueError):
        barony.view(state, 3)


def test_the_module_docstring_documents_every_key_of_the_view() -> None:
    state = position(3, controls={"fairy-ring": [1]}, magic=[0, 3, 0])
    table = barony.view(state, None)
    nested = {"spells": table["spells"][0], "locations": table["locations"][3],
              "controls": table["locations"][3]["controls"][0], "players": table["players"][0]}
    doc = importlib.import_module("companion.rules.barony_sorcery").__doc__ or ""  # the package describes the view
    keys = set(table) | {key for part in nested.values() for key in part}
    missing = sorted(key for key in keys if f'``{key}``' not in doc and f'"{key}"' not in doc)
    assert not missing, f"view keys not described in the module docstring: {missing}"


def test_advice_lists_legal_explorations_then_affordable_casts_then_the_end() -> None:
    state = position(4, controls={"fairy-ring": [0], "ruined-tower": [1, 2, 3]}, magic=[1, 0, 0, 0])
    advice = barony.advice(state, 0)
    assert [a["type"] for a in advice] == ["explore", "explore", "cast", "cast", "cast", "cast", "end_game"]
    assert [a["location"] for a in advice[:2]] == ["standing-stones", "whispering-well"]
    assert advice[0]["reward"] == 3
    assert [a["spells"] for a in advice[2:6]] == [["Velocity"], ["Teleport"], ["Abundance"], ["Petrify"]]
    for entry in advice:
        barony.apply(state, 0, entry["move"])  # every piece of advice is a legal move
    assert [a["type"] for a in barony.advice(position(phase="scoring"), 2)] == ["base_points"]
    assert barony.advice(position(phase="over", base=[1, 2, 3]), 0) == []


def test_the_log_describes_moves_and_hides_nothing() -> None:
    names = ["Ann", "Ben"]
    lines: dict[str, dict[str, Any]] = {
        "Ann explored the Fairy Ring and placed a Control token.": {"type": "explore", "location": "fairy-ring"},
        "Ben cast Velocity and Teleport (2 Magic tokens).": {"type": "cast", "spells": ["velocity", "Teleport"]},
        "Ann reported the end of the base game.": {"type": "end_game"},
        "Ben entered 42 base-game points.": {"type": "base_points", "points": 42},
    }
    for line, move in lines.items():
        actor = 0 if line.startswith("Ann") else 1
        assert barony.describe_move(move, actor, names) == line
        for viewer in (None, 0, 1):
            assert barony.redact_move(move, actor, viewer) == move
    assert barony.describe_move({"type": "cast", "spells": ["Nope"]}, 0, names) == "Ann cast a spell."


def test_state_json_round_trip_and_bad_states() -> None:
    state = position(3, controls={"fairy-ring": [1, 0]}, magic=[2, 3, 0], phase="scoring", base=[10, None, 3])
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    broken = [
        ({**data, "supply": 24}, "must make 30"),
        ({**data, "phase": "setup"}, "unknown phase"),
        ({**data, "game": "fillory"}, "not a barony-sorcery state"),
        ({**data, "spells": ["velocity", "velocity"]}, "distinct spell ids"),
        ({**data, "locations": [{"id": "atlantis", "controls": []}]}, "Mysterious location ids"),
        ({**data, "locations": [{"id": "fairy-ring", "controls": [0, 1, 2, 0]}]}, "at most 3 Control tokens"),
        ({**data, "base_points": [1]}, "one entry per seat"),
        ({**data, "confirmed": [True, False]}, "one true or false per seat"),
        ({**data, "confirmed": [True, False, False]}, "only while they are reviewed"),
        ({key: v for key, v in data.items() if key != "magic"}, "malformed"),
    ]
    for bad, message in broken:
        with pytest.raises(ValueError, match=message):
            state_from_json(bad)
