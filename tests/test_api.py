"""The JSON API through Flask's test client: every endpoint, every status code, exact error bodies."""

from __future__ import annotations

import tempfile
import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate

from cardgen.catalog import GAMES as CATALOG_GAMES
from cardgen.catalog import content
from companion.rules import GAMES as RULES_GAMES
from companion.rules import rules_for
from companion.store import Store
from companion.web import create_app

fillory = rules_for("fillory")
ALL_CARDS = [card.id for card in content("fillory").cards]


def as_sentence(message: str) -> str:
    """How every error reads (the one message style): a capital first letter and a full stop at the end."""
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?", "…")) else message + "."


def error(status: int, message: str, rule: str | None = None, **extra: Any) -> dict[str, Any]:
    """The expected error body; every error reads as a sentence."""
    return {"ok": False, "error": as_sentence(message), "rule": rule, "status": status, **extra}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def store(app: Flask) -> Store:
    store: Store = app.extensions["store"]
    return store


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"], "options": {}})
    assert response.status_code == 201
    return dict(response.get_json())


def deck_card(store: Store, game_id: str, index: int = 0) -> str:
    _, state = store.current(game_id)
    table = fillory.view(state, None)
    seen = set(table["neutral"]) | set(table["discard"])
    for player in table["players"]:
        seen |= set(player["zone"]) | set(fillory.view(state, player["seat"])["players"][player["seat"]]["hand"])
    return str([card for card in ALL_CARDS if card not in seen][index])


def post_draw(client: FlaskClient, store: Store, game: dict[str, Any], seat: int, action_id: str,
              version: int | None = None) -> Any:
    current = store.version(game["id"]) if version is None else version
    return client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["seats"][seat]["token"]),
                       json={"version": current, "action_id": action_id,
                             "move": {"type": "draw", "card": deck_card(store, game["id"])}})


# -- POST /api/games ---------------------------------------------------------------------------

def test_create_game_201(client: FlaskClient, game: dict[str, Any]) -> None:
    assert set(game) == {"id", "game", "join_code", "version", "seats", "host_token"}
    assert game["version"] == 0 and [s["name"] for s in game["seats"]] == ["Ann", "Ben"]
    response = client.post("/api/games", json={"game": "fillory", "players": ["Cat", "Dan", "Eve"],
                                               "options": {"first_seat": 2}})
    assert response.status_code == 201
    assert response.headers["Location"] == f"/api/games/{response.get_json()['id']}"


@pytest.mark.parametrize("body, message", [
    ({"players": ["Ann", "Ben"]}, "the request needs a 'game' field"),
    ({"game": "fillory", "players": "Ann, Ben"}, "'players' must be a list"),
    ({"game": "fillory", "players": ["Ann", 7]}, "'players[1]' must be text"),
    ({"game": "fillory", "players": []}, "'players' needs at least 1 item(s)"),
    ({"game": "fillory", "players": ["Ann", "Ben"], "options": []}, "'options' must be an object"),
    ({"game": "fillory", "players": ["Ann", "Ben"], "colour": "red"}, "'colour' is not a field of this request"),
    ({"game": "", "players": ["Ann", "Ben"]}, "'game' must not be empty"),
    ([1, 2], "the request body must be a JSON object"),
])
def test_create_game_400_names_the_field(client: FlaskClient, body: Any, message: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400 and response.get_json() == error(400, message)


def test_body_that_is_not_json_is_415(client: FlaskClient) -> None:
    response = client.post("/api/games", data="players=Ann", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and response.get_json() == error(
        415, "the request body must be JSON sent with 'Content-Type: application/json' (this one's content type: "
             "'application/x-www-form-urlencoded')")


def test_broken_json_is_400(client: FlaskClient) -> None:
    response = client.post("/api/games", data='{"game": ', content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("The request body must be standard JSON (")


@pytest.mark.parametrize("body, message", [
    ({"game": "fillory", "players": ["Ann", "ann"]}, "player names must be different"),
    ({"game": "fillory", "players": ["Ann"]}, "this game takes 2 to 6 players, not 1"),
    ({"game": "chess", "players": ["Ann", "Ben"]}, f"unknown game 'chess' (known: {', '.join(RULES_GAMES)})"),
])
def test_create_game_422_for_a_game_that_cannot_be_set_up(client: FlaskClient, body: Any, message: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422 and response.get_json() == error(422, message)


def test_too_large_a_body_is_413(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"game": "fillory", "players": ["x" * 70_000, "Ben"]})
    assert response.status_code == 413 and response.get_json() == error(
        413, f"the request body is {len(response.request.get_data()):,} bytes; at most 65,536 are taken")


# -- GET /api/games/<id>, version, log ---------------------------------------------------------

def test_get_game_public_and_per_seat(client: FlaskClient, store: Store, game: dict[str, Any]) -> None:
    assert post_draw(client, store, game, 0, "a1").status_code == 200
    public = client.get(f"/api/games/{game['id']}").get_json()
    assert set(public) == {"id", "game", "join_code", "version", "state", "scores", "over", "winner", "winners", "players",
                           "claimed"}
    assert public["version"] == 1 and public["players"] == ["Ann", "Ben"] and public["claimed"] == [True, True]
    assert public["over"] is False and public["winner"] is None
    assert public["state"]["you"] is None and [p["hand"] for p in public["state"]["players"]] == [None, None]
    assert [s["total"] for s in public["scores"]] == [0, 0]
    mine = client.get(f"/api/games/{game['id']}", headers=bearer(game["seats"][0]["token"])).get_json()
    assert mine["state"]["you"] == 0 and len(mine["state"]["players"][0]["hand"]) == 1
    assert mine["state"]["players"][1]["hand"] is None


def test_get_game_304_until_something_changes(client: FlaskClient, store: Store, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    unchanged = client.get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == etag
    seat_view = client.get(url, headers={"If-None-Match": etag, **bearer(game["seats"][0]["token"])})
    assert seat_view.status_code == 200 and seat_view.headers["ETag"] != etag
    released = client.post(f"{url}/seats/1/release", headers=bearer(game["host_token"]))
    assert released.status_code == 200
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200  # a released seat shows
    etag = client.get(url).headers["ETag"]
    ben = client.post("/api/join", json={"code": game["join_code"], "seat": 1}).get_json()["token"]
    game["seats"][1]["token"] = ben
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200  # a claimed seat shows
    etag = client.get(url).headers["ETag"]
    post_draw(client, store, game, 1, "a1")
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200  # a move shows


def test_get_game_404_and_401(client: FlaskClient, game: dict[str, Any]) -> None:
    missing = client.get("/api/games/nope")
    assert missing.status_code == 404 and missing.get_json() == error(404, "there is no game 'nope'")
    wrong = client.get(f"/api/games/{game['id']}", headers=bearer("forged"))
    assert wrong.status_code == 401 and wrong.get_json() == error(401, "that seat token does not belong to this game")
    assert wrong.headers["WWW-Authenticate"] == 'Bearer realm="seat"'
    scheme = client.get(f"/api/games/{game['id']}", headers={"Authorization": "Basic YWJj"})
    assert scheme.status_code == 401
    assert scheme.get_json() == error(401, "the Authorization header must read 'Bearer <seat token>'")


def test_version_endpoint(client: FlaskClient, store: Store, game: dict[str, Any]) -> None:
    assert client.get(f"/api/games/{game['id']}/version").get_json() == {"version": 0}
    post_draw(client, store, game, 0, "a1")
    response = client.get(f"/api/games/{game['id']}/version")
    assert response.get_json() == {"version": 1} and response.headers["Cache-Control"] == "no-store"
    assert client.get("/api/games/nope/version").get_json() == error(404, "there is no game 'nope'")


def test_log_is_redacted_for_each_viewer(client: FlaskClient, store: Store, game: dict[str, Any]) -> None:
    post_draw(client, store, game, 0, "a1")
    post_draw(client, store, game, 1, "a2")
    url = f"/api/games/{game['id']}/log"
    mine = client.get(url, headers=bearer(game["seats"][0]["token"])).get_json()["entries"]
    assert mine[0]["move"]["card"] is not None and mine[1]["move"]["card"] is None
    public = client.get(url).get_json()["entries"]
    assert [e["move"]["card"] for e in public] == [None, None]
    assert [e["seq"] for e in client.get(url + "?since=1").get_json()["entries"]] == [2]


@pytest.mark.parametrize("since", ["-1", "two", "1.5", "1234567890"])
def test_log_400_for_a_bad_since(client: FlaskClient, game: dict[str, Any], since: str) -> None:
    response = client.get(f"/api/games/{game['id']}/log?since={since}")
    assert response.status_code == 400
    assert response.get_json() == error(400, "'since' must be a whole number of at least 0 and at most 999999999")


# -- POST moves and undo -----------------------------------------------------------------------

def test_move_200_returns_the_new_version_and_my_view(client: FlaskClient, store: Store, game: dict[str, Any]) -> None:
    response = post_draw(client, store, game, 0, "a1")
    body = response.get_json()
    assert response.status_code == 200 and body["ok"] is True and body["version"] == 1 and body["seq"] == 1
    assert body["state"]["you"] == 0 and len(body["state"]["players"][0]["hand"]) == 1


def test_move_retry_with_the_same_action_id_is_not_applied_twice(client: FlaskClient, store: Store,
                                                                 game: dict[str, Any]) -> None:
    # the phone sends the very same body again (the next card of the deck would be another move: refused)
    body = {"version": 0, "action_id": "once", "move": {"type": "draw", "card": deck_card(store, game["id"])}}
    first = client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["seats"][0]["token"]), json=body)
    again = client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["seats"][0]["token"]), json=body)
    assert first.status_code == again.status_code == 200
    assert again.get_json()["seq"] == first.get_json()["seq"] == 1
    assert store.version(game["id"]) == 1 and len(store.log(game["id"], None)) == 1


def test_move_401_without_or_with_a_bad_token(client: FlaskClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}/moves"
    body = {"version": 0, "action_id": "a1", "move": {"type": "draw", "card": "Time Loop"}}
    missing = client.post(url, json=body)
    assert missing.status_code == 401 and missing.get_json() == error(
        401, "this needs your seat token: send 'Authorization: Bearer <seat token>'")
    other_game = client.post("/api/games", json={"game": "fillory", "players": ["Cat", "Dan"]}).get_json()
    foreign = client.post(url, json=body, headers=bearer(other_game["seats"][0]["token"]))
    assert foreign.status_code == 401 and foreign.get_json() == error(401, "that seat token does not belong to this game")


def test_move_403_when_the_token_is_for_another_seat(client: FlaskClient, game: dict[str, Any]) -> None:
    response = client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["seats"][1]["token"]),
                           json={"version": 0, "action_id": "a1", "seat": 0, "move": {"type": "decline"}})
    assert response.status_code == 403 and response.get_json() == error(403, "your token is for seat 1 (Ben), not seat 0")


def test_move_404_for_an_unknown_game(client: FlaskClient, game: dict[str, Any]) -> None:
    response = client.post("/api/games/nope/moves", headers=bearer(game["seats"][0]["token"]),
                           json={"version": 0, "action_id": "a1", "move": {"type": "decline"}})
    assert response.status_code == 404 and response.get_json() == error(404, "there is no game 'nope'")


def test_move_409_for_a_stale_version_leaves_the_game_unchanged(client: FlaskClient, store: Store,
                                                               game: dict[str, Any]) -> None:
    post_draw(client, store, game, 0, "a1")
    before = client.get(f"/api/games/{game['id']}").get_json()
    stale = post_draw(client, store, game, 1, "a2", version=0)
    assert stale.status_code == 409
    assert stale.get_json() == error(409, "the game has moved on to version 1; reload and try again", version=1)
    assert client.get(f"/api/games/{game['id']}").get_json() == before


def test_move_422_names_the_rule(client: FlaskClient, game: dict[str, Any]) -> None:
    response = client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["seats"][0]["token"]),
                           json={"version": 0, "action_id": "a1", "move": {"type": "draw", "card": "Quentin"}})
    body = response.get_json()
    assert response.status_code == 422 and body["rule"] == "fillory.card.location" and body["status"] == 422
    assert body["ok"] is False and "Quentin" in body["error"]
    unknown = client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["seats"][0]["token"]),
                          json={"version": 0, "action_id": "a2", "move": {"type": "fly"}})
    assert unknown.status_code == 422 and unknown.get_json()["rule"] is None
    assert unknown.get_json()["error"].startswith("Unknown move type 'fly'")


@pytest.mark.parametrize("body, message", [
    ({"action_id": "a1", "move": {"type": "decline"}}, "the request needs a 'version' field"),
    ({"version": "0", "action_id": "a1", "move": {"type": "decline"}}, "'version' must be a whole number"),
    ({"version": True, "action_id": "a1", "move": {"type": "decline"}}, "'version' must be a whole number"),
    ({"version": -1, "action_id": "a1", "move": {"type": "decline"}}, "'version' must be at least 0"),
    ({"version": 0, "action_id": "", "move": {"type": "decline"}}, "'action_id' must not be empty"),
    ({"version": 0, "move": {"type": "decline"}}, "the request needs an 'action_id' field"),
    ({"version": 0, "action_id": "a1", "move": "draw"}, "'move' must be an object"),
])
def test_move_400_for_a_malformed_body(client: FlaskClient, game: dict[str, Any], body: Any, message: str) -> None:
    response = client.post(f"/api/games/{game['id']}/moves", headers=bearer(game["seats"][0]["token"]), json=body)
    assert response.status_code == 400 and response.get_json() == error(400, message)


def test_undo_200_409_422(client: FlaskClient, store: Store, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}/undo"
    ann, ben = bearer(game["seats"][0]["token"]), bearer(game["seats"][1]["token"])
    nothing = client.post(url, headers=ann, json={"version": 0, "action_id": "u0"})
    assert nothing.status_code == 422 and nothing.get_json() == error(422, "there is no move left to take back")
    post_draw(client, store, game, 0, "a1")
    stale = client.post(url, headers=ann, json={"version": 0, "action_id": "u2"})
    assert stale.status_code == 409 and stale.get_json()["version"] == 1
    done = client.post(url, headers=ben, json={"version": 1, "action_id": "u3"})  # any seat may take it back
    assert done.status_code == 200 and done.get_json()["version"] == 2
    assert done.get_json()["state"]["you"] == 1
    assert client.get(f"/api/games/{game['id']}", headers=ann).get_json()["state"]["players"][0]["hand"] == []
    kinds = [(e["kind"], e["undone"]) for e in client.get(f"/api/games/{game['id']}/log").get_json()["entries"]]
    assert kinds == [("move", True), ("undo", False)]


# -- POST /api/join -----------------------------------------------------------------------------

def no_free_seat(code: str, seat: int) -> dict[str, Any]:
    return error(404, f"no game with the join code '{code}' has a free seat {seat}; check the code on the host's phone")


def test_join_claims_a_seat_once(client: FlaskClient, store: Store, game: dict[str, Any]) -> None:
    held = client.post("/api/join", json={"code": game["join_code"], "seat": 1})
    assert held.status_code == 404  # seats created through the API are held by whoever got their tokens
    client.post(f"/api/games/{game['id']}/seats/1/release", headers=bearer(game["host_token"]))
    joined = client.post("/api/join", json={"code": game["join_code"].lower(), "seat": 1})
    assert joined.status_code == 200
    body = joined.get_json()
    assert body["id"] == game["id"] and body["seat"] == 1
    assert store.seat_for_token(game["id"], body["token"]) == 1
    again = client.post("/api/join", json={"code": game["join_code"], "seat": 1})
    assert again.status_code == 404 and again.get_json() == no_free_seat(game["join_code"], 1)


def test_join_answers_alike_for_a_bad_code_a_missing_seat_and_a_taken_one(client: FlaskClient,
                                                                          game: dict[str, Any]) -> None:
    code = "AAAAAA" if game["join_code"] != "AAAAAA" else "BBBBBB"
    client.post(f"/api/games/{game['id']}/seats/0/release", headers=bearer(game["host_token"]))
    assert client.post("/api/join", json={"code": game["join_code"], "seat": 0}).status_code == 200
    answers = [client.post("/api/join", json={"code": c, "seat": s})
               for c, s in ((code.lower(), 0), (game["join_code"], 5), (game["join_code"], 0))]
    assert [a.status_code for a in answers] == [404, 404, 404]
    assert answers[0].get_json() == no_free_seat(code, 0)
    assert answers[1].get_json() == no_free_seat(game["join_code"], 5)
    assert answers[2].get_json() == no_free_seat(game["join_code"], 0)
    assert {k: v for k, v in answers[0].headers.items() if k != "Content-Length"} == {
        k: v for k, v in answers[2].headers.items() if k != "Content-Length"}
    missing = client.post("/api/join", json={"code": game["join_code"]})
    assert missing.status_code == 400 and missing.get_json() == error(400, "the request needs a 'seat' field")


# -- search, calculator, OpenAPI ------------------------------------------------------------------

def test_search_endpoint(client: FlaskClient) -> None:
    results = client.get("/api/search?q=summ&game=fillory&limit=5").get_json()["results"]
    assert 1 <= len(results) <= 5 and results[0]["id"] == "fillory.summon"
    assert client.get("/api/search?q=").get_json() == {"results": []}
    bad_game = client.get("/api/search?q=x&game=chess")
    assert bad_game.status_code == 400 and bad_game.get_json() == error(400, f"unknown game 'chess' (known: {', '.join(CATALOG_GAMES)})")
    bad_limit = client.get("/api/search?q=x&limit=500")
    assert bad_limit.status_code == 400
    assert bad_limit.get_json() == error(400, "'limit' must be a whole number of at least 1 and at most 50")


def test_search_endpoint_prefers_the_asking_game_and_corrects_typos_in_scope(client: FlaskClient) -> None:
    for game in CATALOG_GAMES:
        first = client.get(f"/api/search?q=who+goes+first&prefer={game}").get_json()["results"][0]
        assert first["game"] == game
    scoped = client.get("/api/search?q=banishh&game=mandragora").get_json()["results"]
    assert scoped and scoped[0]["title"].startswith("Banishment")
    bad = client.get("/api/search?q=x&prefer=chess")
    assert bad.status_code == 400 and bad.get_json() == error(400, f"unknown game 'chess' (known: {', '.join(CATALOG_GAMES)})")


def test_calculator(client: FlaskClient) -> None:
    response = client.post("/api/calc/fillory", json={"zone": ["Quentin", "alice", "Brakebills"], "scored": ["fillory"]})
    traits = response.get_json()["traits"]
    assert response.status_code == 200 and traits[0] == {"trait": "Student", "cards": 3, "points": 9}
    assert "Character" not in [t["trait"] for t in traits] and "Fillory" not in [t["trait"] for t in traits]
    unknown = client.post("/api/calc/fillory", json={"zone": ["Gandalf"]})
    assert unknown.status_code == 422 and unknown.get_json() == error(422, "there is no card 'Gandalf' in Magicians of Fillory")
    twice = client.post("/api/calc/fillory", json={"zone": ["Quentin", "quentin"]})
    assert twice.get_json() == error(422, "Quentin is listed twice; there is one copy of each card")
    trait = client.post("/api/calc/fillory", json={"zone": [], "scored": ["Wizardry"]})
    assert trait.get_json() == error(422, "there is no trait 'Wizardry' in Magicians of Fillory")
    missing = client.post("/api/calc/fillory", json={"scored": []})
    assert missing.status_code == 400 and missing.get_json() == error(400, "the request needs a 'zone' field")


def test_openapi_is_valid_and_documents_every_api_route(app: Flask, client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    assert document["openapi"] == "3.1.0"
    documented = {(path, method.upper()) for path, ops in document["paths"].items() for method in ops}
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):  # every API blueprint's routes (api, calc_<game>, photo_api, api_docs)
            path = rule.rule.replace("<game_id>", "{game_id}").replace("<int:seat>", "{seat}")
            served |= {(path, m) for m in rule.methods or () if m not in ("HEAD", "OPTIONS")}
    assert documented == served


# -- framework errors ---------------------------------------------------------------------------

def test_unknown_api_route_is_json_404(client: FlaskClient) -> None:
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and response.get_json() == error(404, "there is nothing at /api/nothing-here")


def test_wrong_method_is_json_405(client: FlaskClient) -> None:
    response = client.delete("/api/games")
    assert response.status_code == 405
    assert response.get_json() == error(405, "DELETE is not allowed at /api/games; use POST")
    assert response.headers["Allow"] == "OPTIONS, POST"


def test_unexpected_exception_is_json_500_without_a_traceback(app: Flask) -> None:
    def explode() -> str:
        raise RuntimeError("secret internals")

    app.add_url_rule("/api/explode", "explode", explode)
    response = app.test_client().get("/api/explode")
    assert response.status_code == 500
    assert response.get_json() == error(500, "something went wrong on our side; the error has been logged")
    assert b"secret internals" not in response.data and b"Traceback" not in response.data


def test_html_pages_get_an_html_404_with_the_sentence(client: FlaskClient) -> None:
    response = client.get("/no/such/page", headers={"Accept": "text/html"})
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert b"There is nothing at /no/such/page" in response.data


def test_api_is_csrf_exempt_but_forms_are_protected(app: Flask) -> None:
    app.add_url_rule("/test-form", "test_form", lambda: "posted", methods=["POST"])
    client = app.test_client()
    refused = client.post("/test-form", data={"x": "1"})
    assert refused.status_code == 400 and b"The CSRF token is missing." in refused.data
    assert client.post("/api/games", json={"game": "fillory", "players": ["A", "B"]}).status_code == 201


# -- no input makes the server fail ---------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12)
move_fields = st.fixed_dictionaries({"type": st.sampled_from(sorted(fillory.MOVE_TYPES)) | st.text(max_size=8)},
                                    optional={name: json_values | st.sampled_from(ALL_CARDS[:20]) for name in (
                                        "card", "to", "trait", "target", "targets", "take", "target_seat",
                                        "draw", "place", "to_hand", "to_zone", "discard")})


def test_random_bodies_and_moves_never_cause_a_server_error() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": f"{folder}/fuzz.sqlite3", "SECRET_KEY": "fuzz"})
        client = app.test_client()
        created = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).get_json()
        token = bearer(created["seats"][0]["token"])
        paths = ["/api/games", f"/api/games/{created['id']}/moves", f"/api/games/{created['id']}/undo",
                 "/api/join", "/api/calc/fillory"]

        @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(path=st.sampled_from(paths), body=json_values, move=move_fields)
        def check(path: str, body: Any, move: dict[str, Any]) -> None:
            version = app.extensions["store"].version(created["id"])
            for payload in (body, {"version": version, "action_id": uuid.uuid4().hex, "move": move}):
                response = client.post(path, json=payload, headers=token)
                assert response.status_code < 500, (path, payload, response.get_json())
                if response.status_code >= 400:
                    answer = response.get_json()
                    assert answer["ok"] is False and answer["status"] == response.status_code and answer["error"]

        check()
        app.extensions["store"].close()


@pytest.mark.parametrize("path", ["/api/games/%00", "/api/games/" + "x" * 5000, "/api/games/%F0%9F%83%8F/log",
                                  "/api/games/a'b/version", "/api/search?q=%00&limit=0x10"])
def test_odd_urls_are_4xx(client: FlaskClient, path: str) -> None:
    response = client.get(path, headers={"Authorization": "Bearer \u2603"})
    assert 400 <= response.status_code < 500 and response.get_json()["ok"] is False


def test_api_requests_open_no_cookie_session_but_pages_do(client: FlaskClient) -> None:
    from companion.web import NoSessionOnApi

    assert isinstance(client.application.session_interface, NoSessionOnApi)
    created = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]})
    assert "Set-Cookie" not in created.headers
    assert "Set-Cookie" not in client.get(f"/api/games/{created.get_json()['id']}").headers
    home = client.get("/")  # the new-game form's CSRF token lives in the cookie session
    assert "session=" in home.headers.get("Set-Cookie", "")
