"""The Jonathan Strange & Mr Norrell calculator through Flask's test client: magicianship, the fairy, the winner
and its tie-break, and every kind of bad request."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from cardgen.catalog import content

CALC = "/api/calc/jsmn"


def pad(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, **fields}


def as_sentence(message: str) -> str:
    """How every error reads (the one message style): a capital first letter and a full stop at the end."""
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?", "…")) else message + "."


def error(status: int, message: str, rule: str | None = None) -> dict[str, Any]:
    return {"ok": False, "error": as_sentence(message), "rule": rule, "status": status}


def test_the_issue_example_sums_feats_books_pupil_and_spells(client: FlaskClient) -> None:
    response = client.post(CALC, json={"fairy_strength": 18, "players": [
        pad("Ann", feats=[4, 4, 3], books=1, pupil=True, spell_magicianship=0, prestige=7, stack=0),
        pad("Ben", feats=[5, 5, 2], books=2, pupil=False, spell_magicianship=1, prestige=9, stack=0)]})
    assert response.status_code == 200
    body = response.get_json()
    assert body["players"][0] == {
        "name": "Ann", "magicianship": 15, "reaches_fairy": False, "prestige": 7, "stack": 0, "breakdown": [
            {"cause": "Completed feats of magic: 4 + 4 + 3", "points": 11, "rule": "jsmn.feat.complete"},
            {"cause": "Books of magic: 1 × 1", "points": 1, "rule": "jsmn.magicianship.total"},
            {"cause": "Pupil", "points": 3, "rule": "jsmn.connexion.pupil"}]}
    assert body["players"][1]["magicianship"] == 15 and body["players"][1]["breakdown"][-1]["points"] == 1
    assert body["defeated"] is False and "not defeated" in body["fairy"]
    assert (body["winners"], body["winner_names"]) == ([], [])          # nobody is the greatest magician of the age
    assert (body["best"], body["best_names"], body["decided_by"]) == ([1], ["Ben"], "prestige")
    assert body["rule"] == "jsmn.end.reign"
    assert body["compared"] == "Ann and Ben tie on 15 magicianship; Ben is higher on the prestige track (9)"


def test_the_rulebook_example_turn_total_falls_short_of_the_fairy(client: FlaskClient) -> None:
    example = content("jsmn").example
    body = client.post(CALC, json={"fairy_strength": example.fairy, "players": [
        pad("Segundus", feats=[4, 4, 3], books=example.books, pupil=example.pupil),
        pad("Norrell", feats=[2], prestige=1)]}).get_json()
    assert body["players"][0]["magicianship"] == example.total == 15
    assert body["defeated"] is False


def test_reaching_the_fairy_defeats_him_and_most_magicianship_wins(client: FlaskClient) -> None:
    body = client.post(CALC, json={"fairy_strength": 18, "players": [
        pad("Ann", feats=[5, 5, 4], books=1, pupil=True), pad("Ben", feats=[5, 5, 5, 4], prestige=3),
        pad("Cy", feats=[2], prestige=12)]}).get_json()
    assert [p["magicianship"] for p in body["players"]] == [18, 19, 2]
    assert [p["reaches_fairy"] for p in body["players"]] == [True, True, False]
    assert body["defeated"] is True and body["fairy"] == "The fairy (18) is defeated."
    assert (body["winners"], body["decided_by"], body["rule"]) == ([1], "magicianship", "jsmn.end.total")
    assert body["reason"] == "Ben has the most magicianship: 19"


def test_equal_magicianship_and_prestige_go_to_the_disc_on_top(client: FlaskClient) -> None:
    body = client.post(CALC, json={"fairy_strength": 6, "players": [
        pad("Ann", feats=[3, 3], prestige=6, stack=1), pad("Ben", feats=[4, 2], prestige=6, stack=0)]}).get_json()
    assert (body["winner_names"], body["decided_by"], body["rule"]) == (["Ben"], "stack", "jsmn.end.tie")
    assert body["reason"] == "Ann and Ben tie on 6 magicianship and 6 prestige; Ben's disc is on top"


@pytest.mark.parametrize("players, status, message, rule", [
    ([pad("Ann", feats=[6]), pad("Ben")], 422, "Magician Ann: a feat of magic is worth 2, 3, 4 or 5 magicianship, not 6",
     "jsmn.magicianship.total"),
    ([pad("Ann", feats=[1, 2]), pad("Ben")], 422, "Magician Ann: a feat of magic is worth 2, 3, 4 or 5 magicianship, not 1",
     "jsmn.magicianship.total"),
    ([pad("Ann"), pad("ann", prestige=1)], 422, "player names must be different", None),
    ([pad("Ann", books=10), pad("Ben", books=9, prestige=1)], 422, "19 books of magic in all, but the game has 18",
     "jsmn.components"),
    ([pad("Ann", spell_magicianship=4), pad("Ben", spell_magicianship=3, prestige=1)], 422,
     "7 spells that grant magicianship in all, but the game has 6", "jsmn.components"),
    # data/jsmn/feats.toml: 33 feats, six of them worth 5
    ([pad("Ann", feats=[5, 5, 5, 5]), pad("Ben", feats=[5, 5, 5], prestige=1)], 422,
     "7 feats of magic worth 5 in all, but the game has 6", "jsmn.components"),
    ([pad("Ann", feats=[2] * 10), pad("Ben", prestige=1)], 422,
     "10 feats of magic worth 2 in all, but the game has 9", "jsmn.components"),
    ([pad("Ann", prestige=4), pad("Ben", prestige=4)], 422,
     "the 2 disc(s) on prestige 4 must have stack places 0, 1 (0 on top), one each", "jsmn.prestige.stack"),
    ([pad("Ann", stack=1), pad("Ben", prestige=2)], 422,
     "the 1 disc(s) on prestige 0 must have stack places 0 (0 on top), one each", "jsmn.prestige.stack"),
    ([pad("Ann", books=-1), pad("Ben")], 400, "'players[0].books' must be at least 0", None),
    ([pad("Ann", pupil="yes"), pad("Ben")], 400, "'players[0].pupil': Input should be a valid boolean", None),
    ([pad("Ann", prestige=41), pad("Ben")], 400, "'players[0].prestige' must be at most 40", None),
    ([pad("Ann")], 400, "'players' needs at least 2 item(s)", None),
    ([pad("Ann", wand=1), pad("Ben")], 400, "'players[0].wand' is not a field of this request", None),
])
def test_tallies_no_game_could_produce_are_refused(client: FlaskClient, players: list[dict[str, Any]], status: int,
                                                   message: str, rule: str | None) -> None:
    response = client.post(CALC, json={"fairy_strength": 18, "players": players})
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert (body["status"], body["rule"]) == (status, rule)
    assert body["error"].startswith(message[:1].upper() + message[1:])


def test_six_feats_worth_5_and_nine_of_each_other_value_are_fine(client: FlaskClient) -> None:
    players = [pad("Ann", feats=[5, 5, 5, 2, 2, 2, 2]), pad("Ben", feats=[5, 5, 5, 2, 3, 4, 2, 2, 2, 2], prestige=1)]
    response = client.post(CALC, json={"fairy_strength": 18, "players": players})
    assert response.status_code == 200, response.get_json()
    assert [p["magicianship"] for p in response.get_json()["players"]] == [23, 32]


def test_the_fairy_strength_is_required_and_bounded(client: FlaskClient) -> None:
    players = [pad("Ann"), pad("Ben", prestige=1)]
    missing = client.post(CALC, json={"players": players})
    assert missing.status_code == 400 and missing.get_json() == error(400, "the request needs a 'fairy_strength' field")
    too_strong = client.post(CALC, json={"fairy_strength": 51, "players": players})
    assert too_strong.status_code == 400 and "at most 50" in too_strong.get_json()["error"]


def test_the_calculator_is_in_the_openapi_document(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    post = document["paths"][CALC]["post"]
    schema = post["requestBody"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/JsmnEndRequest"}
    assert {"200", "400", "422"} <= set(post["responses"])
    schemas = document["components"]["schemas"]
    assert schemas["JsmnEndRequest"]["additionalProperties"] is False and "JsmnPlayerTally" in schemas


# -- what answers may show about feats (rule jsmn.companion.feat-refusals), tried as an attacker ---------------
# Rulebook: feats are dealt "face-up in their player area" and taken from the row "face-up in front of you";
# only completed feats go face down. The phones still leave other magicians' ledgers out (hidden
# magicianship), so an attacker's phone shows the same game in these twins: Ben and Cy swap one dealt feat.

X, Y = "speak-with-the-wind", "raise-a-ship-of-rain"
MINE = ["send-ravens-as-messengers", "wake-the-stone-saints", "scry-in-a-silver-basin"]
BEN = ["make-the-trees-march", "move-a-mountain-pass"]
CY = ["restore-a-lost-voice", "grow-a-hedge-in-a-night"]


def _twin(client: FlaskClient, ben_has: str, cy_has: str, ann_first: bool) -> tuple[str, list[dict[str, str]]]:
    created = client.post("/api/games", json={"game": "jsmn", "players": ["Ann", "Ben", "Cy"]}).get_json()
    headers = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
    order = [(0, MINE)] if ann_first else []
    order += [(1, [ben_has, *BEN]), (2, [cy_has, *CY])]
    for version, (seat, feats) in enumerate(order):
        answer = client.post(f"/api/games/{created['id']}/moves", headers=headers[seat], json={
            "version": version, "action_id": f"m{version}", "move": {"type": "starting_feats", "feats": feats}})
        assert answer.status_code == 200, answer.get_json()
    return created["id"], headers


def _seen_log(client: FlaskClient, game_id: str, headers: dict[str, str]) -> list[Any]:
    entries = client.get(f"/api/games/{game_id}/log", headers=headers).get_json()["entries"]
    return [(e.get("seat"), e.get("move"), e.get("text")) for e in entries]


def test_a_direct_feat_probe_answers_the_same_whoever_holds_the_feat(client: FlaskClient) -> None:
    """Same public moves, different holders of X and Y: every probe Ann can send answers byte for byte alike."""
    answers = []
    for ben_has, cy_has in ((X, Y), (Y, X)):
        game_id, headers = _twin(client, ben_has, cy_has, ann_first=False)
        seen = _seen_log(client, game_id, headers[0])
        assert len(seen) == 2
        probes = []
        for feat in (X, Y):
            reply = client.post(f"/api/games/{game_id}/moves", headers=headers[0], json={
                "version": 2, "action_id": f"p-{feat}", "move": {"type": "starting_feats", "feats": [feat, *MINE[:2]]}})
            probes.append((reply.status_code, reply.get_json()))
        answers.append((seen, probes))
    assert answers[0] == answers[1]
    status, body = answers[0][1][0]
    assert status == 422 and body["rule"] == "jsmn.companion.feat-refusals"
    assert "Ben" not in body["error"] and "Cy" not in body["error"]


def test_a_correction_probe_names_only_the_move_the_table_saw_take_the_feat(client: FlaskClient) -> None:
    """A correction that would give Ann a feat dealt later to Ben names Ben's move: the table saw that feat
    dealt face-up (the documented promise). It says nothing else: no rule, no feat, no ledger."""
    named = {}
    for ben_has, cy_has in ((X, Y), (Y, X)):
        game_id, headers = _twin(client, ben_has, cy_has, ann_first=True)
        reply = client.post(f"/api/games/{game_id}/correct", headers=headers[0], json={
            "version": 3, "action_id": "c1", "seq": 1, "move": {"type": "starting_feats", "feats": [X, *MINE[:2]]}})
        body = reply.get_json()
        assert reply.status_code == 422 and body["rule"] is None
        assert X not in json.dumps(body) and "speak with the wind" not in json.dumps(body).casefold()
        named[ben_has] = (body["seq"], [name for name in ("Ben", "Cy") if name in body["error"]])
    assert named == {X: (2, ["Ben"]), Y: (3, ["Cy"])}
