"""The Barony: Sorcery calculators through Flask's test client: totals, casts, and every kind of bad request."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from openapi_spec_validator import validate

TOTALS = "/api/calc/barony-sorcery"
CAST = "/api/calc/barony-sorcery/cast"


def as_sentence(message: str) -> str:
    """How every error reads (the one message style): a capital first letter and a full stop at the end."""
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?", "…")) else message + "."


def error(status: int, message: str, rule: str | None = None) -> dict[str, Any]:
    return {"ok": False, "error": as_sentence(message), "rule": rule, "status": status}


def test_totals_add_three_per_control_token_with_a_breakdown(client: FlaskClient) -> None:
    response = client.post(TOTALS, json={"players": [
        {"name": "Ann", "base_points": 42, "control_tokens": 3},
        {"name": "Ben", "base_points": 50, "control_tokens": 0},
        {"name": "Cy", "base_points": 38, "control_tokens": 4}]})
    assert response.status_code == 200
    body = response.get_json()
    assert [p["total"] for p in body["players"]] == [51, 50, 50]
    assert body["players"][0] == {"name": "Ann", "base_points": 42, "control_tokens": 3, "control_points": 9,
                                  "total": 51, "breakdown": [
                                      {"cause": "Base game (entered)", "points": 42,
                                       "rule": "barony-sorcery.score.base"},
                                      {"cause": "Control tokens on Mysterious locations: 3 × 3", "points": 9,
                                       "rule": "barony-sorcery.score.control"}]}
    assert (body["winners"], body["winner_names"], body["shared"]) == ([0], ["Ann"], False)
    assert body["reason"] == "Ann has the most points: 51" and body["rule"] == "barony-sorcery.score.winner"


def test_a_tie_is_a_shared_win(client: FlaskClient) -> None:
    body = client.post(TOTALS, json={"players": [
        {"name": "Ann", "base_points": 40, "control_tokens": 1},
        {"name": "Ben", "base_points": 37, "control_tokens": 2}]}).get_json()
    assert body["winners"] == [0, 1] and body["shared"] is True
    assert body["reason"] == ("Ann and Ben share the win with 43 points each (our reading: the expansion gives no "
                              "tie-break; a table may use the base game's)")  # as a tracked game's end says it
    assert body["rule"] == "barony-sorcery.score.tie"


@pytest.mark.parametrize("players, status, message, rule", [
    ([{"name": "Ann", "base_points": 1, "control_tokens": 0}, {"name": "ann", "base_points": 2, "control_tokens": 0}],
     422, "player names must be different", None),
    ([{"name": "Ann", "base_points": 1, "control_tokens": 4}, {"name": "Ben", "base_points": 2, "control_tokens": 0}],
     422, "Player Ann cannot have 4 Control tokens on Mysterious locations: with 2 players the board has 3, and each "
          "takes one token per player", "barony-sorcery.explore.once"),
    ([{"name": n, "base_points": 0, "control_tokens": 4} for n in ("A", "B", "C", "D")],
     422, "16 Control tokens do not fit: 5 Mysterious locations hold at most 3 each (15 in all)",
     "barony-sorcery.explore.full"),
    ([{"name": "Ann", "base_points": 1, "control_tokens": 6}, {"name": "Ben", "base_points": 2, "control_tokens": 0}],
     400, "'players[0].control_tokens' must be at most 5", None),
    ([{"name": "Ann", "base_points": -1, "control_tokens": 0}, {"name": "Ben", "base_points": 2, "control_tokens": 0}],
     400, "'players[0].base_points' must be at least 0", None),
    ([{"name": "Ann", "base_points": "12", "control_tokens": 0},
      {"name": "Ben", "base_points": 2, "control_tokens": 0}],
     400, "'players[0].base_points' must be a whole number", None),
    ([{"name": "Ann", "base_points": 12}, {"name": "Ben", "base_points": 2, "control_tokens": 0}],
     400, "the request needs a 'players[0].control_tokens' field", None),
    ([{"name": "Ann", "base_points": 12, "control_tokens": 0}], 400, "'players' needs at least 2 item(s)", None),
])
def test_totals_refuse_pads_no_game_could_produce(client: FlaskClient, players: list[dict[str, Any]], status: int,
                                                  message: str, rule: str | None) -> None:
    response = client.post(TOTALS, json={"players": players})
    assert response.status_code == status and response.get_json() == error(status, message, rule)


@pytest.mark.parametrize("spells, cost", [(["Velocity", "Teleport"], 2), (["abundance", "Petrify", "SANCTUARY"], 4)])
def test_the_rulebook_combinations_are_legal_at_their_cost(client: FlaskClient, spells: list[str], cost: int) -> None:
    body = client.post(CAST, json={"spells": spells, "magic": cost}).get_json()
    assert body["legal"] is True and body["cost"] == cost and body["rule"] == "barony-sorcery.cast.combine"
    assert [s["cost"] for s in body["spells"]] and sum(s["cost"] for s in body["spells"]) == cost
    short = client.post(CAST, json={"spells": spells, "magic": cost - 1}).get_json()
    assert short["legal"] is False and short["rule"] == "barony-sorcery.cast.pay"


def test_a_single_spell_answer_has_its_card(client: FlaskClient) -> None:
    body = client.post(CAST, json={"spells": ["tornado"]}).get_json()
    assert body == {"legal": True, "cost": 2, "category": "movement", "category_name": "Movement",
                    "rule": "barony-sorcery.cast.single",
                    "reason": "Tornado costs 2 Magic tokens: pay, then use its effect at once, in place of one of "
                              "the basic actions.",
                    "spells": [{"id": "tornado", "name": "Tornado", "category": "movement", "cost": 2,
                                "text": body["spells"][0]["text"], "rule": "barony-sorcery.spell.tornado"}]}
    assert "lone knight or village" in body["spells"][0]["text"]


@pytest.mark.parametrize("request_body, rule, reason", [
    ({"spells": ["Velocity", "Charm"]}, "barony-sorcery.cast.same-category",
     "Only spells of one category combine, and here Velocity is Movement and Charm is Recruitment."),
    ({"spells": ["Charm", "charm"], "magic": 5}, "barony-sorcery.cast.once",
     "Charm is named more than once: a spell can be cast only once in the same action."),
    ({"spells": ["Portal"], "in_play": ["Velocity", "Teleport", "Charm", "Abundance", "Petrify"]},
     "barony-sorcery.cast.in-play",
     "Portal is not among the spells in play (Velocity, Teleport, Charm, Abundance and Petrify); the spells not "
     "drawn at setup stay in the box."),
])
def test_illegal_combinations_are_answers_with_the_rule(client: FlaskClient, request_body: dict[str, Any], rule: str,
                                                        reason: str) -> None:
    response = client.post(CAST, json=request_body)
    assert response.status_code == 200
    body = response.get_json()
    assert (body["legal"], body["rule"], body["reason"]) == (False, rule, reason)


@pytest.mark.parametrize("request_body, status, message", [
    ({"spells": ["Velocity", "Fireball"]}, 422, "there is no spell called 'Fireball' in Barony: Sorcery (the spells: "
     "Velocity, Teleport, Tornado, Charm, Illusion, Portal, Abundance, Petrify and Sanctuary)"),
    ({"spells": ["Velocity"], "in_play": ["Velocity", "Teleport", "Charm", "Abundance", "Nope"]}, 422,
     "there is no spell called 'Nope'"),
    ({"spells": ["Velocity"], "in_play": ["Velocity", "velocity", "Charm", "Abundance", "Petrify"]}, 422,
     "'in_play' must name 5 different spells"),
    ({"spells": []}, 400, "'spells' needs at least 1 item(s)"),
    ({"spells": "Velocity"}, 400, "'spells' must be a list"),
    ({"spells": ["Velocity"], "magic": 31}, 400, "'magic' must be at most 30"),
    ({"spells": ["Velocity"], "wand": True}, 400, "'wand' is not a field of this request"),
    ({"magic": 3}, 400, "the request needs a 'spells' field"),
])
def test_bad_cast_requests_get_a_sentence(client: FlaskClient, request_body: dict[str, Any], status: int,
                                          message: str) -> None:
    response = client.post(CAST, json=request_body)
    body = response.get_json()
    assert response.status_code == status and body["status"] == status and body["rule"] is None
    assert body["error"].startswith(message[:1].upper() + message[1:])


@pytest.mark.parametrize("path", [TOTALS, CAST])
@pytest.mark.parametrize("data, message", [
    ("{not json", "the request body must be standard JSON (unexpected character, expected a string key)"),
    ("[1, 2]", "the request body must be a JSON object"),
])
def test_malformed_json_is_a_400(client: FlaskClient, path: str, data: str, message: str) -> None:
    response = client.post(path, data=data, content_type="application/json")
    assert response.status_code == 400 and response.get_json() == error(400, message)


def test_both_calculators_are_in_the_openapi_document(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    for path, model in ((TOTALS, "BaronyScoreRequest"), (CAST, "BaronyCastRequest")):
        post = document["paths"][path]["post"]
        assert post["requestBody"]["content"]["application/json"]["schema"] == {"$ref": f"#/components/schemas/{model}"}
        assert {"200", "400", "422"} <= set(post["responses"])
    schemas = document["components"]["schemas"]
    assert schemas["BaronyScoreRequest"]["additionalProperties"] is False
    assert "BaronyPlayerPad" in schemas and schemas["BaronyCastRequest"]["required"] == ["spells"]
