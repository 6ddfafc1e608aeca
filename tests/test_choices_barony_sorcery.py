"""Barony: Sorcery's ``choices(state, seat)`` and issue 12's Barony points, against the rules themselves.

- The choices offer what the rules allow now and nothing else: the locations a seat may still explore
  with what they pay, the spells its Magic tokens pay for (printed cards: ``card`` set, names shown), the
  end, the points, and in the review every total to confirm or send back; no irreversible choice has a
  preselected answer. (The hypothesis test over whole games is tests/test_rules_choices.py.)
- The review before the typed-points ending, in the rules, in the API and in the store's format upgrade.
- With 2 players a location both players have visited pays nobody; the log says what an exploration paid;
  the two rule entries that are our inference are marked authored.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from cardgen.catalog import content
from companion.rules import IllegalMove, spec_for
from companion.rules.barony_sorcery import game as barony
from companion.rules.barony_sorcery.state import BaronyState
from companion.rules.choices import find, to_json
from companion.web.card_moves import moves_with

GAME = content("barony-sorcery")
PLAYERS = ("Ann", "Ben", "Cat")
SPELLS = ("velocity", "teleport", "tornado", "charm", "abundance")
BOARD = ("standing-stones", "whispering-well", "ruined-tower", "fairy-ring")


def new(players: int = 3) -> BaronyState:
    return barony.setup(list(PLAYERS[:players] if players <= 3 else [f"P{i}" for i in range(players)]),
                        {"spells": list(SPELLS), "locations": list(BOARD[:barony.MYSTERIOUS_BY_PLAYERS[players]])})


def play(state: BaronyState, *moves: tuple[int, dict[str, Any]]) -> BaronyState:
    for seat, move in moves:
        state = barony.apply(state, seat, move)
    return state


def by_move(state: BaronyState, seat: int) -> dict[str, Any]:
    return {c.move: c for c in barony.choices(state, seat)}


def refused(state: BaronyState, seat: int, move: dict[str, Any]) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        barony.apply(state, seat, move)
    return caught.value


# -- what is offered ------------------------------------------------------------------------------

def test_explore_offers_the_open_locations_by_name_with_what_they_pay() -> None:
    state = play(new(), (1, {"type": "explore", "location": "ruined-tower"}),
                 (0, {"type": "explore", "location": "fairy-ring"}))
    explore = by_move(state, 0)["explore"]
    (location,) = explore.fields
    assert [o.value for o in location.options] == barony.open_locations(state, 0) == [
        "standing-stones", "whispering-well", "ruined-tower"]
    assert [(o.label, dict(o.also)) for o in location.options] == [
        ("Standing Stones", {"reward": 3}), ("Whispering Well", {"reward": 3}), ("Ruined Tower", {"reward": 2})]
    assert "you arrive 2nd" in location.options[2].detail and location.default is None
    for option in location.options:  # each offered exploration is legal as the form sends it
        move = {"type": "explore", "location": option.value, **option.also}
        assert find([explore], move) is explore
        barony.apply(state, 0, move)


def test_cast_offers_only_the_spells_the_seat_can_pay_for_as_printed_cards() -> None:
    state = new()
    assert "cast" not in by_move(state, 0)                      # no Magic token: nothing to cast
    state = play(state, (0, {"type": "explore", "location": "fairy-ring"}),
                 (0, {"type": "cast", "spells": ["tornado"]}))  # 3 - 2 = 1 left
    (spells,) = by_move(state, 0)["cast"].fields
    assert [o.value for o in spells.options] == ["velocity", "teleport", "charm", "abundance"]  # not Tornado (2)
    assert [o.label for o in spells.options] == ["Velocity", "Teleport", "Charm", "Abundance"]
    assert all(o.card == ("barony-sorcery", o.value) and GAME.find_card(o.value) is not None for o in spells.options)
    assert spells.max == 1 and spells.kind == "many"
    rich = play(state, (0, {"type": "explore", "location": "ruined-tower"}))      # 4 tokens
    (spells,) = by_move(rich, 0)["cast"].fields
    assert spells.max == 3   # Velocity, Teleport and Tornado together: the largest legal combination
    cast = by_move(rich, 0)["cast"]
    assert set(cast.checks) == {"barony-sorcery.cast.same-category", "barony-sorcery.cast.pay"}
    error = refused(rich, 0, {"type": "cast", "spells": ["velocity", "charm"]})
    assert error.rule in cast.checks   # a relation between picks: the server judges it and names the rule


def test_a_scanned_spell_card_offers_the_cast_with_that_card_ticked() -> None:
    state = play(new(), (0, {"type": "explore", "location": "fairy-ring"}))
    (found,) = moves_with(barony.choices(state, 0), "barony-sorcery", "velocity")
    assert found.choice.move == "cast" and found.choice.fields[0].default == ["velocity"]
    assert moves_with(barony.choices(state, 1), "barony-sorcery", "velocity") == []   # Ben has no Magic


def test_irreversible_choices_have_no_preselected_answer_and_the_phases_offer_the_right_moves() -> None:
    state = play(new(2), (0, {"type": "explore", "location": "ruined-tower"}))
    assert list(by_move(state, 0)) == ["explore", "cast", "end_game"]
    assert by_move(state, 0)["end_game"].irreversible
    state = play(state, (1, {"type": "end_game"}))
    assert list(by_move(state, 0)) == ["base_points"] and by_move(state, 0)["base_points"].fields[0].default is None
    state = play(state, (0, {"type": "base_points", "points": 30}))
    assert by_move(state, 0)["base_points"].fields[0].default == 30   # a correction starts from what was typed
    state = play(state, (1, {"type": "base_points", "points": 28}))
    review = by_move(state, 1)
    assert list(review) == ["confirm_totals", "send_back", "base_points"] and review["confirm_totals"].irreversible
    (whose,) = review["send_back"].fields
    assert [(o.value, o.label) for o in whose.options] == [(0, "Ann"), (1, "Ben")] and whose.default is None
    assert "base game 30 + Control tokens 3 = 33" in whose.options[0].detail
    for choice in (c for seat in (0, 1) for c in barony.choices(state, seat)):
        assert not choice.irreversible or all(f.default is None for f in choice.fields)
    state = play(state, (1, {"type": "confirm_totals"}))
    assert "confirm_totals" not in by_move(state, 1) and "confirm_totals" in by_move(state, 0)
    state = play(state, (0, {"type": "confirm_totals"}))
    assert barony.outcome(state).over and barony.choices(state, 0) == barony.choices(state, 1) == []
    json.dumps(to_json(barony.choices(new(), 0)))


# -- issue 12: the review of every total before the end --------------------------------------------

def scored(points: tuple[int, ...] = (40, 45, 38)) -> BaronyState:
    state = play(new(), (0, {"type": "explore", "location": "fairy-ring"}), (2, {"type": "end_game"}))
    return play(state, *((s, {"type": "base_points", "points": p}) for s, p in enumerate(points)))


def test_the_last_points_start_a_review_not_the_end() -> None:
    state = scored()
    assert state.phase == "review" and not barony.outcome(state).over
    table = barony.view(state, None)
    assert table["phase"] == "review" and table["waiting_for"] == [0, 1, 2] and table["winners"] == []
    assert [p["total"] for p in table["players"]] == [43, 45, 38]   # every total is shown before the end
    state = play(state, (0, {"type": "confirm_totals"}), (2, {"type": "confirm_totals"}))
    assert barony.view(state, None)["waiting_for"] == [1] and [p["confirmed"] for p in
                                                               barony.view(state, 1)["players"]] == [True, False, True]
    error = refused(state, 0, {"type": "confirm_totals"})
    assert error.rule == "barony-sorcery.companion.review" and "waiting for Ben" in error.message
    state = play(state, (1, {"type": "confirm_totals"}))
    assert state.phase == "over" and barony.outcome(state).winners == (1,)


def test_any_seat_sends_a_wrong_total_back_and_every_change_clears_the_confirmations() -> None:
    state = play(scored((40, 54, 38)), (0, {"type": "confirm_totals"}), (1, {"type": "confirm_totals"}))
    state = play(state, (2, {"type": "send_back", "seat": 1}))   # Cat: Ben scored 45, not 54
    assert state.phase == "scoring" and state.base_points == (40, None, 38) and not any(state.confirmed)
    assert barony.view(state, None)["waiting_for"] == [1]
    assert refused(state, 0, {"type": "confirm_totals"}).rule == "barony-sorcery.companion.review"
    state = play(state, (1, {"type": "base_points", "points": 45}), (0, {"type": "confirm_totals"}))
    state = play(state, (0, {"type": "base_points", "points": 41}))   # Ann corrects herself in the review
    assert state.phase == "review" and not any(state.confirmed)
    assert barony.describe_move({"type": "send_back", "seat": 1}, 2, PLAYERS) == \
        "Cat sent Ben's base-game points back to be entered again."
    assert barony.describe_move({"type": "confirm_totals"}, 0, PLAYERS) == "Ann confirmed every player's total."
    for bad, rule in (({"type": "send_back", "seat": 3}, None), ({"type": "send_back"}, None)):
        assert refused(play(state), 0, bad).rule == rule


def test_a_review_move_before_the_points_are_in_is_refused_with_its_rule() -> None:
    for state, why in ((new(), "the base game has not ended yet"),
                       (play(new(), (0, {"type": "end_game"}), (0, {"type": "base_points", "points": 3})),
                        "Ben and Cat have not entered base-game points yet")):
        for move in ({"type": "confirm_totals"}, {"type": "send_back", "seat": 0}):
            error = refused(state, 1, move)
            assert error.rule == "barony-sorcery.companion.review" and why in error.message


def test_a_game_stored_in_format_1_opens_in_format_2() -> None:
    spec = spec_for("barony-sorcery")
    data = barony.state_to_json(play(new(), (0, {"type": "end_game"})))
    old = {key: value for key, value in data.items() if key != "confirmed"}
    upgraded = spec.upgraded_state({**old, "format_version": 1})
    assert spec.state_version == 2 and upgraded["confirmed"] == [False, False, False]
    assert barony.state_from_json(upgraded) == barony.state_from_json(data)


def test_the_review_through_the_api(app: Flask, client: FlaskClient) -> None:
    made = client.post("/api/games", json={"game": "barony-sorcery", "players": ["Ann", "Ben"],
                                           "options": {"spells": list(SPELLS), "locations": list(BOARD[:3])}})
    game = made.get_json()

    def send(seat: int, move: dict[str, Any]) -> Any:
        version = client.get(f"/api/games/{game['id']}").get_json()["version"]
        return client.post(f"/api/games/{game['id']}/moves", json={"version": version, "action_id": f"a{version}",
                                                                    "move": move},
                           headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"})

    for seat, move in ((0, {"type": "end_game"}), (0, {"type": "base_points", "points": 20}),
                       (1, {"type": "base_points", "points": 21})):
        assert send(seat, move).status_code == 200
    state = client.get(f"/api/games/{game['id']}").get_json()["state"]
    assert state["phase"] == "review" and state["waiting_for"] == [0, 1] and not state["over"]
    assert send(0, {"type": "confirm_totals"}).status_code == 200
    answer = send(0, {"type": "confirm_totals"})
    assert answer.status_code == 422 and answer.get_json()["rule"] == "barony-sorcery.companion.review"
    assert send(1, {"type": "confirm_totals"}).status_code == 200
    state = client.get(f"/api/games/{game['id']}").get_json()["state"]
    assert state["over"] and state["winner"] == 1


# -- issue 12: 2 players, the reward in the log, provenance ---------------------------------------

def test_with_two_players_a_location_both_have_visited_pays_nobody() -> None:
    state = play(new(2), (0, {"type": "explore", "location": "ruined-tower"}),
                 (1, {"type": "explore", "location": "ruined-tower"}))
    tower = next(loc for loc in barony.view(state, None)["locations"] if loc["id"] == "ruined-tower")
    assert tower["next_reward"] == 0 and tower["everyone_visited"] and not tower["full"]
    assert "ruined-tower" not in barony.open_locations(state, 0) + barony.open_locations(state, 1)
    three = play(new(3), (0, {"type": "explore", "location": "ruined-tower"}),
                 (1, {"type": "explore", "location": "ruined-tower"}))
    tower = next(loc for loc in barony.view(three, None)["locations"] if loc["id"] == "ruined-tower")
    assert tower["next_reward"] == 1 and not tower["everyone_visited"]   # Cat may still come third


def test_the_log_says_what_an_exploration_paid_and_a_stale_reward_is_refused() -> None:
    state = play(new(), (1, {"type": "explore", "location": "fairy-ring"}))
    error = refused(state, 0, {"type": "explore", "location": "fairy-ring", "reward": 3})
    assert error.rule == "barony-sorcery.explore.reward" and "pays 2 Magic tokens now (you arrive 2nd), not 3" in \
        error.message
    move = {"type": "explore", "location": "fairy-ring", "reward": 2}
    after = barony.apply(state, 0, move)
    assert after.magic[0] == 2
    assert barony.describe_move(move, 0, PLAYERS) == \
        "Ann explored the Fairy Ring, placed a Control token and took 2 Magic tokens."
    legal = barony.random_legal_move(new(), 0, random.Random(3))
    assert legal is not None and (legal["type"] != "explore" or "reward" in legal)


def test_our_inferences_in_the_rule_entries_are_marked_authored() -> None:
    rules = {rule.id: rule for rule in GAME.rules}
    # the rulebook says neither where paid Magic tokens go nor that "isolated" means "lone"
    for rule_id in ("barony-sorcery.cast.pay", "barony-sorcery.cast.lone", "barony-sorcery.companion.review"):
        assert rules[rule_id].provenance == "authored", rule_id
    notes = {note.id: note for note in GAME.notes}   # the notes that record the two readings
    assert notes["magic-supply"].action == "flagged" and "spent tokens go back to the supply" in notes["magic-supply"].text
    assert notes["isolated-village"].action == "normalised"


def test_a_wrong_arrival_order_is_corrected_with_the_later_exploration_dropped(app: Flask) -> None:
    """Ben reached the Ruined Tower first, but Ann's phone reported first: removing Ann's exploration alone would
    make Ben's (which says it took 2) no longer fit, so the correction names it; dropped with it, both report
    again and the Magic tokens are right. Nothing changes on the refused attempt."""
    from companion.store import CorrectionRefused

    store = app.extensions["store"]
    game = store.create_game("barony-sorcery", ["Ann", "Ben"], {"spells": list(SPELLS), "locations": list(BOARD[:3])})
    for seat, reward, action in ((0, 3, "a1"), (1, 2, "a2")):
        store.apply_move(game["id"], seat, store.version(game["id"]), action,
                         {"type": "explore", "location": "ruined-tower", "reward": reward})
    before = store.current(game["id"])
    with pytest.raises(CorrectionRefused) as caught:
        store.correct(game["id"], 1, store.version(game["id"]), "c1", 1, None)
    assert caught.value.seq == 2 and store.current(game["id"]) == before
    store.correct(game["id"], 1, store.version(game["id"]), "c2", 1, None, drop=[2])
    for seat, reward, action in ((1, 3, "a3"), (0, 2, "a4")):
        store.apply_move(game["id"], seat, store.version(game["id"]), action,
                         {"type": "explore", "location": "ruined-tower", "reward": reward})
    _, state = store.current(game["id"])
    assert state.magic == (2, 3) and state.controls_on("ruined-tower") == (1, 0)
    lines = [entry["text"] for entry in store.log(game["id"], None)]
    assert "Ben explored the Ruined Tower, placed a Control token and took 3 Magic tokens." in lines
