"""``POST /api/calc/mandragora``: final scores from a score pad, through the HTTP API."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.catalog import content

GAME = content("mandragora")
URL = "/api/calc/mandragora"


def error(status: int, sentence: str, rule: str | None = None) -> dict[str, Any]:
    """The expected error body; every error is a sentence, ending with a full stop."""
    ended = sentence if sentence.endswith((".", "!", "?", "…")) else sentence + "."
    return {"ok": False, "error": ended, "rule": rule, "status": status}


def spells(*pairs: tuple[int, int]) -> list[dict[str, int]]:
    return [{"spell_value": spell, "book_value": book} for spell, book in pairs]


def pad(name: str, *pairs: tuple[int, int], **fields: Any) -> dict[str, Any]:
    return {"name": name, "spells": spells(*pairs), **fields}


def test_the_rulebooks_scoring_example_totals_13(client: FlaskClient) -> None:
    example = GAME.scoring_example   # pairs as printed: spellbook + spell
    sorcerer = {"name": "Example",
                "spells": [{"spell_value": spell, "book_value": book} for book, spell in example.pairs],
                "hand_colours": ["red", "yellow", "white"], "disappearance": 1, "curse_marker": True}
    response = client.post(URL, json={"players": [sorcerer, pad("Ben", (1, 0))]})
    assert response.status_code == 200
    answer = response.get_json()
    first = answer["players"][0]
    assert first["total"] == 13 and example.printed_total == 12
    assert [row["points"] for row in first["breakdown"]] == [5, 2, 4, 4, 2, -2, -2]
    assert first["breakdown"][0] == {"cause": "Spell 3 + spellbook 2", "points": 5}
    assert first["breakdown"][-2:] == [{"cause": "Curse marker", "points": -2},
                                       {"cause": "3 colours left in hand (after Disappearance: 2)", "points": -2}]
    assert first["spells_cast"] == 5
    assert answer["players"][1] == {"name": "Ben", "total": 1, "spells_cast": 1, "breakdown": [
        {"cause": "Spell 1 + spellbook 0", "points": 1}, {"cause": "0 colours left in hand", "points": 0}]}
    assert answer["teams"] is None and answer["winners"] == [0] and answer["winner_names"] == ["Example"]
    assert answer["decided_by"] == "score" and answer["rule"] == "mandragora.score.winner"
    assert answer["verdict"] == "Example wins with 13 points"


def test_a_tie_on_points_goes_to_more_spells_cast(client: FlaskClient) -> None:
    answer = client.post(URL, json={"players": [pad("Ann", (5, 3)), pad("Ben", (3, 1), (2, 2)),
                                                pad("Cy", (1, 0), hand_colours=["green"])]}).get_json()
    assert [p["total"] for p in answer["players"]] == [8, 8, 0]
    assert answer["winners"] == [1] and answer["winner_names"] == ["Ben"] and answer["decided_by"] == "spells cast"
    assert answer["verdict"] == "Ann and Ben tie on 8 points; Ben cast more spells (2 to 1) and wins"
    assert answer["players"][2]["breakdown"][-1] == {"cause": "1 colour left in hand", "points": -1}


def test_equal_points_and_spells_share_the_win(client: FlaskClient) -> None:
    answer = client.post(URL, json={"players": [pad("Ann", (4, 0)), pad("Ben", (2, 2)), pad("Cy", (1, 0))]}).get_json()
    assert answer["winners"] == [0, 1] and answer["winner_names"] == ["Ann", "Ben"]
    # the rule a tracked game's end names, and the same words: the shared win is our reading
    assert answer["decided_by"] == "shared" and answer["rule"] == "mandragora.score.shared"
    assert answer["verdict"] == ("Ann and Ben share the win: 4 points and 1 spell cast each (our reading: the "
                                 "rulebook's tie-break stops at the spells)")


def test_purification_and_two_disappearances(client: FlaskClient) -> None:
    answer = client.post(URL, json={"players": [
        pad("Ann", (5, 0), (2, 1), hand_colours=["red", "blue", "black"], purification=True),
        pad("Ben", (4, 3), (5, 2), (1, 0), hand_colours=["purple", "green", "white"], disappearance=2),
        pad("Cy")]}).get_json()
    assert answer["players"][0]["breakdown"][-1] == {"cause": "Purification: hand discarded", "points": 0}
    assert answer["players"][0]["total"] == 8
    assert answer["players"][1]["breakdown"][-1] == {"cause": "3 colours left in hand (after Disappearance: 1)",
                                                     "points": -1}
    assert answer["players"][1]["total"] == 14 and answer["winner_names"] == ["Ben"]


def test_teams_add_their_partners_scores(client: FlaskClient) -> None:
    players = [pad("Ann", (5, 3)), pad("Ben", (2, 0)), pad("Cy", (1, 0), curse_marker=True),
               pad("Di", (3, 0), (1, 0), hand_colours=["yellow"])]
    answer = client.post(URL, json={"players": players, "teams": [[0, 2], [1, 3]]}).get_json()
    assert answer["teams"] == [{"members": [0, 2], "names": ["Ann", "Cy"], "total": 7, "spells_cast": 2},
                               {"members": [1, 3], "names": ["Ben", "Di"], "total": 5, "spells_cast": 3}]
    assert answer["winners"] == [0] and answer["winner_names"] == ["Ann & Cy"]
    assert answer["decided_by"] == "score" and answer["rule"] == "mandragora.team.score"
    assert answer["verdict"] == "Team Ann & Cy wins with 7 points"


def test_a_team_tie_goes_to_the_team_with_more_spells_and_may_be_shared(client: FlaskClient) -> None:
    level = [pad("Ann", (4, 0)), pad("Ben", (1, 0), (1, 0)), pad("Cy"), pad("Di", (2, 0))]
    answer = client.post(URL, json={"players": level, "teams": [[0, 2], [1, 3]]}).get_json()
    assert answer["winners"] == [1] and answer["decided_by"] == "spells cast"
    assert answer["rule"] == "mandragora.team.tie"
    assert answer["verdict"] == ("Team Ann & Cy and team Ben & Di tie on 4 points; team Ben & Di cast more spells "
                                 "(3 to 1) and wins "
                                 "(our reading: the rulebook gives no team tie-break)")
    shared = [pad("Ann", (4, 0)), pad("Ben", (3, 0)), pad("Cy", (3, 0)), pad("Di", (2, 0))]
    answer = client.post(URL, json={"players": shared, "teams": [[0, 1], [2, 3]]}).get_json()
    assert [t["total"] for t in answer["teams"]] == [7, 5]
    answer = client.post(URL, json={"players": shared, "teams": [[0, 3], [1, 2]]}).get_json()
    assert answer["winners"] == [0, 1] and answer["decided_by"] == "shared"
    assert answer["rule"] == "mandragora.team.tie"
    assert answer["verdict"] == ("Team Ann & Di and team Ben & Cy share the win: 6 points and 2 spells cast each "
                                 "(our reading: "
                                 "the rulebook gives no team tie-break)")


TWO = [pad("Ann"), pad("Ben")]


@pytest.mark.parametrize("body, sentence", [
    ({}, "The request needs a 'players' field"),
    ({"players": [pad("Ann")]}, "'players' needs at least 2 item(s)"),
    ({"players": [pad(n) for n in "ABCDE"]}, "'players' takes at most 4 items"),
    ({"players": [pad("Ann", (6, 1)), pad("Ben")]}, "'players[0].spells[0].spell_value' must be at most 5"),
    ({"players": [pad("Ann", (0, 1)), pad("Ben")]}, "'players[0].spells[0].spell_value' must be at least 1"),
    ({"players": [pad("Ann"), pad("Ben", (2, 4))]}, "'players[1].spells[0].book_value' must be at most 3"),
    ({"players": [pad("Ann"), {"name": "Ben", "spells": [{"spell_value": "3", "book_value": 1}]}]},
     "'players[1].spells[0].spell_value' must be a whole number"),
    ({"players": [pad("Ann", disappearance=3), pad("Ben")]}, "'players[0].disappearance' must be at most 2"),
    ({"players": [pad("Ann", colours=["red"]), pad("Ben")]}, "'players[0].colours' is not a field of this request"),
    ({"players": [pad(""), pad("Ben")]}, "'players[0].name' must not be empty"),
    ({"players": [pad("Ann", hand_colours="red"), pad("Ben")]}, "'players[0].hand_colours' must be a list"),
    ({"players": TWO, "teams": [[0, 1, 2], [3]]}, "'teams[0]' takes at most 2 items"),
    ({"players": TWO, "teams": [[0, 4], [1, 2]]}, "'teams[0][1]' must be at most 3"),
])
def test_malformed_pads_are_400_naming_the_field(client: FlaskClient, body: dict[str, Any], sentence: str) -> None:
    response = client.post(URL, json=body)
    assert response.status_code == 400 and response.get_json() == error(400, sentence)


FOUR = [pad("Ann", (1, 0)), pad("Ben", (2, 0)), pad("Cy", (3, 0)), pad("Di", (4, 0))]


@pytest.mark.parametrize("body, sentence, rule", [
    ({"players": [pad("Ann", curse_marker=True), pad("Ben", curse_marker=True)]},
     "Only one sorcerer can hold the Curse marker, not Ann and Ben", "mandragora.curse.most"),
    ({"players": [pad("Ann", hand_colours=["pink"]), pad("Ben")]},
     "Sorcerer Ann: there is no colour 'pink' in Mandragora; hand colours are purple, red, green, yellow, blue, black, white "
     "(white for mandrakes)", None),
    ({"players": [pad("Ann", hand_colours=["blue"]), pad("Ben")]},
     "Sorcerer Ann: no blue card is played with 2 sorcerers", "mandragora.setup.players"),
    ({"players": [pad("Ann", hand_colours=["red", "white", "red"]), pad("Ben")]},
     "Sorcerer Ann: red is listed twice; list each colour left in hand once", None),
    ({"players": [pad("Ann", (5, 1), disappearance=1, purification=True), pad("Ben")]},
     "Sorcerer Ann cast 1 spell but is scored for 2 end-of-game spells (Disappearance, Purification)",
     "mandragora.effect.kinds"),
    ({"players": [pad("Ann", (4, 1), disappearance=1), pad("Ben", (5, 1), (1, 1), disappearance=2)]},
     "There are only 2 Disappearance spells in the game", "mandragora.effect.disappearance"),
    ({"players": [pad("Ann", (5, 1), purification=True), pad("Ben", (5, 1), purification=True)]},
     "There is only 1 Purification spell in the game", "mandragora.effect.purification"),
    ({"players": [pad("Ann", *[(1, 0)] * 13), pad("Ben", *[(1, 0)] * 12)]},
     "The sorcerers cast more than the 24 spell cards of the game", "mandragora.components"),
    ({"players": [pad("  "), pad("Ben")]}, "Every sorcerer needs a name that is not only spaces", None),
    # rulebook colour table: black spellbooks 1 — one hand at most can show black
    ({"players": [pad("Ann", hand_colours=["black", "red"]), pad("Ben", hand_colours=["white", "black"])]},
     "Ann and Ben both show black in hand, but a game of 2 sorcerers has only 1 black card",
     "mandragora.end.colour-count"),
    ({"players": FOUR[:3], "teams": [[0, 2], [1, 3]]}, "The team variant is for 4 sorcerers, not 3",
     "mandragora.team.seating"),
    ({"players": FOUR, "teams": [[0, 2], [2, 3]]}, "The teams must be two pairs that together name each sorcerer "
     "0 to 3 once, e.g. [[0, 2], [1, 3]]", "mandragora.team.seating"),
])
def test_pads_no_game_could_end_with_are_422(client: FlaskClient, body: dict[str, Any], sentence: str,
                                             rule: str | None) -> None:
    response = client.post(URL, json=body)
    assert response.status_code == 422 and response.get_json() == error(422, sentence, rule)


def test_one_black_hand_and_many_white_hands_are_fine(client: FlaskClient) -> None:
    answer = client.post(URL, json={"players": [pad("Ann", hand_colours=["black", "white"]),
                                                pad("Ben", hand_colours=["white"]), pad("Cy", hand_colours=["white"])]})
    assert answer.status_code == 200
    assert [row["total"] for row in answer.get_json()["players"]] == [-2, -1, -1]


def test_blue_is_fine_with_three_sorcerers_and_names_are_trimmed(client: FlaskClient) -> None:
    answer = client.post(URL, json={"players": [pad(" Ann ", hand_colours=["blue"]), pad("Ben"), pad("Cy")]})
    assert answer.status_code == 200 and answer.get_json()["players"][0]["name"] == "Ann"


def test_the_openapi_document_describes_the_calculator(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    operation = document["paths"]["/api/calc/mandragora"]["post"]
    assert set(operation["responses"]) == {"200", "400", "408", "413", "422"}
    schemas = document["components"]["schemas"]
    request = schemas["MandragoraScoreRequest"]
    assert request["properties"]["players"]["items"] == {"$ref": "#/components/schemas/SorcererPad"}
    colours = schemas["SorcererPad"]["properties"]["hand_colours"]["items"]["enum"]
    assert colours == [c.id for c in GAME.colours] + ["white"]
    assert schemas["SpellScored"]["properties"]["spell_value"]["maximum"] == 5


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.sampled_from(["red", "white", "Ann", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["name", "spells", "hand_colours", "disappearance", "purification", "curse_marker",
                         "spell_value", "book_value", "players", "teams"]), inner, max_size=5),
    max_leaves=20)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(body=json_values)
def test_no_pad_makes_the_server_fail(client: FlaskClient, body: Any) -> None:
    response = client.post(URL, json=body)
    # (json=None sends no body and no Content-Type: 415, JSON only with application/json)
    assert response.status_code in ((200, 400, 422) if body is not None else (415,)), (body, response.get_json())
    if response.status_code != 200:
        answer = response.get_json()
        assert answer["ok"] is False and answer["error"] and not answer["error"][:1].islower()
