"""The calculators read names as the moves do (issue 12): Fillory's accepts every spelling a move accepts;
JS&MN's names no winner when nobody reaches the fairy (the rulebook's Game End and Advanced Difficulty)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.rules.fillory.state import CARD_ALIASES, TRAIT_ALIASES, card_id, trait_of

FILLORY = "/api/calc/fillory"


@pytest.mark.parametrize("spelling, card", [("Kady’s Mother", "kadys-mother"), ("Kady's Mother", "kadys-mother"),
                                            ("Jane", "jane-chatwin"), ("kadys-mother", "kadys-mother")])
def test_the_fillory_calculator_reads_card_names_as_moves_do(client: FlaskClient, spelling: str, card: str) -> None:
    assert card_id(spelling, "card") == card                          # what a move accepts
    by_name = client.post(FILLORY, json={"zone": [spelling]})
    by_id = client.post(FILLORY, json={"zone": [card]})
    assert by_name.status_code == 200, by_name.get_json()
    assert by_name.get_json() == by_id.get_json()


def test_every_alias_a_move_accepts_the_calculator_accepts(client: FlaskClient) -> None:
    for alias, card in CARD_ALIASES.items():
        answer = client.post(FILLORY, json={"zone": [alias]})
        assert answer.status_code == 200 and answer.get_json() == client.post(FILLORY, json={"zone": [card]}).get_json()
    for alias, trait in TRAIT_ALIASES.items():
        assert trait_of(alias).name == trait
        answer = client.post(FILLORY, json={"zone": ["Quentin"], "scored": [alias.title()]})
        assert answer.status_code == 200
        assert trait not in [t["trait"] for t in answer.get_json()["traits"]]


def test_the_same_card_under_two_spellings_is_still_listed_twice(client: FlaskClient) -> None:
    answer = client.post(FILLORY, json={"zone": ["Jane", "jane-chatwin"]})
    assert answer.status_code == 422 and "listed twice" in answer.get_json()["error"]


JSMN = "/api/calc/jsmn"


def _pads(*magicianship: int) -> list[dict[str, Any]]:
    return [{"name": name, "feats": [m] if m else [], "prestige": 10 - i, "stack": 0}
            for i, (name, m) in enumerate(zip(("Ann", "Ben", "Cy"), magicianship, strict=False))]


def test_the_jsmn_calculator_names_the_greatest_magician_once_the_fairy_is_defeated(client: FlaskClient) -> None:
    answer = client.post(JSMN, json={"fairy_strength": 4, "players": _pads(5, 3, 2)}).get_json()
    assert answer["defeated"] and answer["winner_names"] == ["Ann"] and answer["winners"] == [0]


def test_nobody_reaching_the_fairy_names_nobody_the_greatest_magician(client: FlaskClient) -> None:
    answer = client.post(JSMN, json={"fairy_strength": 20, "players": _pads(5, 3, 2)}).get_json()
    assert not answer["defeated"] and answer["winners"] == [] and answer["winner_names"] == []
    assert "nobody is the greatest magician of the age" in answer["reason"]
    assert answer["best_names"] == ["Ann"] and answer["rule"] == "jsmn.end.reign"      # still compared
    assert "everyone loses" not in answer["reason"]


def test_at_advanced_difficulty_an_undefeated_fairy_means_everyone_loses(client: FlaskClient) -> None:
    answer = client.post(JSMN, json={"fairy_strength": 20, "difficulty": 4, "players": _pads(5, 3, 2)}).get_json()
    assert answer["winners"] == [] and "everyone loses" in answer["reason"]
    assert answer["rule"] == "jsmn.difficulty.advanced"
    won = client.post(JSMN, json={"fairy_strength": 4, "difficulty": 8, "players": _pads(5, 3, 2)}).get_json()
    assert won["winner_names"] == ["Ann"]
    bad = client.post(JSMN, json={"fairy_strength": 4, "difficulty": 5, "players": _pads(5, 3, 2)})
    assert bad.status_code in (400, 422)
