"""Seats through the JSON API: held from the start, released by the host, handed to another phone, renamed.

A seat is held by exactly one phone at a time. Every test plays the part of a stranger as well as the
table: a stranger who knows the (public) join code must never get a held seat, and a released or
handed-over token must stop working at once, on every route that takes one.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from cardgen.catalog import content
from companion.rules import rules_for
from companion.store import HANDOVER_MINUTES, Store

fillory = rules_for("fillory")
ALL_CARDS = [card.id for card in content("fillory").cards]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben", "Cat"], "options": {}})
    assert response.status_code == 201
    return dict(response.get_json())


def store_of(client: FlaskClient) -> Store:
    store: Store = client.application.extensions["store"]
    return store


def a_draw(client: FlaskClient, game: dict[str, Any], token: str, action_id: str) -> Any:
    store = store_of(client)
    version, state = store.current(game["id"])
    table = fillory.view(state, None)
    seen = set(table["neutral"]) | set(table["discard"])
    for seat in range(len(table["players"])):
        seen |= set(fillory.view(state, seat)["players"][seat]["hand"]) | set(table["players"][seat]["zone"])
    card = next(c for c in ALL_CARDS if c not in seen)
    return client.post(f"/api/games/{game['id']}/moves", headers=bearer(token),
                       json={"version": version, "action_id": action_id, "move": {"type": "draw", "card": card}})


def log_texts(client: FlaskClient, game: dict[str, Any]) -> list[str]:
    return [e["text"] for e in client.get(f"/api/games/{game['id']}/log").get_json()["entries"]]


def test_a_stranger_with_the_join_code_gets_no_seat_of_an_api_game(client: FlaskClient, game: dict[str, Any]) -> None:
    public = client.get(f"/api/games/{game['id']}").get_json()
    assert public["claimed"] == [True, True, True] and public["join_code"] == game["join_code"]
    for seat in range(3):
        stolen = client.post("/api/join", json={"code": game["join_code"], "seat": seat})
        assert stolen.status_code == 404 and "token" not in stolen.get_json()  # as for an unknown code
    assert isinstance(game["host_token"], str) and len(game["host_token"]) >= 32
    assert game["host_token"] not in {s["token"] for s in game["seats"]}


def test_the_host_releases_a_seat_its_old_token_stops_at_once_and_the_code_opens_it_again(
        client: FlaskClient, game: dict[str, Any]) -> None:
    ben = game["seats"][1]["token"]
    assert a_draw(client, game, ben, "b1").status_code == 200
    url = f"/api/games/{game['id']}/seats/1/release"
    assert client.post(url).status_code == 401                                   # no token
    assert client.post(url, headers=bearer(ben)).status_code == 403              # a seat is not the host
    assert client.post(url, headers=bearer(ben + "x")).status_code == 401        # nobody's token
    assert client.post(f"/api/games/{game['id']}/seats/7/release", headers=bearer(game["host_token"])).status_code == 404
    released = client.post(url, headers=bearer(game["host_token"]))
    assert released.status_code == 200 and released.get_json() == {"ok": True, "version": 2, "seq": 2}
    # the old phone is out, on every route that takes a token
    assert client.get(f"/api/games/{game['id']}", headers=bearer(ben)).status_code == 401
    assert client.get(f"/api/games/{game['id']}/log", headers=bearer(ben)).status_code == 401
    assert a_draw(client, game, ben, "b2").status_code == 401
    assert client.post(f"/api/games/{game['id']}/undo", headers=bearer(ben),
                       json={"version": 2, "action_id": "u"}).status_code == 401
    assert log_texts(client, game)[-1] == "Ben's seat was released: it can be joined again with the game's code"
    assert client.get(f"/api/games/{game['id']}").get_json()["claimed"] == [True, False, True]
    assert client.post(url, headers=bearer(game["host_token"])).status_code == 409  # nobody holds it now
    # the table page's ?released=<seat> (the host's return after a release): a seat number int() cannot read
    # (a superscript or circled digit, which str.isdigit() accepts) is ignored, not a 500
    for shown in ("1", "١", "¹", "①", "0", "99"):
        assert client.get(f"/g/{game['id']}", query_string={"released": shown}).status_code == 200, shown
    joined = client.post("/api/join", json={"code": game["join_code"], "seat": 1})
    assert joined.status_code == 200
    new_ben = joined.get_json()["token"]
    mine = client.get(f"/api/games/{game['id']}", headers=bearer(new_ben)).get_json()
    assert mine["state"]["you"] == 1 and len(mine["state"]["players"][1]["hand"]) == 1  # the hand stays with the seat
    assert client.post("/api/join", json={"code": game["join_code"], "seat": 1}).status_code == 404


def test_a_seat_is_handed_to_another_phone_with_a_one_time_code(client: FlaskClient, game: dict[str, Any]) -> None:
    ben, cat = game["seats"][1]["token"], game["seats"][2]["token"]
    url = f"/api/games/{game['id']}/seats/1/handover"
    assert client.post(url).status_code == 401
    assert client.post(url, headers=bearer(cat)).status_code == 403      # only the seat's own phone
    first = client.post(url, headers=bearer(ben)).get_json()
    offer = client.post(url, headers=bearer(ben))
    assert offer.status_code == 200 and offer.headers["Cache-Control"] == "no-store"
    body = offer.get_json()
    assert body["link"].endswith(f"/h/{body['code']}") and len(body["code"]) == 8
    # a newer code replaces the older one
    assert client.post("/api/handover", json={"code": first["code"]}).status_code == 404
    taken = client.post("/api/handover", json={"code": body["code"].lower()})
    assert taken.status_code == 200
    new = taken.get_json()
    assert new["id"] == game["id"] and new["seat"] == 1
    assert client.get(f"/api/games/{game['id']}", headers=bearer(ben)).status_code == 401  # the old phone lost it
    assert client.get(f"/api/games/{game['id']}", headers=bearer(new["token"])).get_json()["state"]["you"] == 1
    assert client.post("/api/handover", json={"code": body["code"]}).status_code == 404   # once only
    assert log_texts(client, game)[-1] == "Ben's seat moved to another phone"
    assert client.get(f"/api/games/{game['id']}").get_json()["claimed"] == [True, True, True]


def test_a_hand_over_code_expires(client: FlaskClient, game: dict[str, Any]) -> None:
    store = store_of(client)
    code = store.handover_code(game["id"], 1)["code"]
    store.backend._db().execute("UPDATE seat_handovers SET expires = '2000-01-01T00:00:00.000+00:00'")
    store.backend._db().commit()
    refused = client.post("/api/handover", json={"code": code})
    assert refused.status_code == 404 and "expired" in refused.get_json()["error"]
    assert HANDOVER_MINUTES >= 5
    assert client.get(f"/api/games/{game['id']}", headers=bearer(game["seats"][1]["token"])).status_code == 200


def test_players_are_renamed_by_their_own_phone_or_the_host(client: FlaskClient, game: dict[str, Any]) -> None:
    url = f"/api/games/{game['id']}/seats/1/rename"
    ben, cat = game["seats"][1]["token"], game["seats"][2]["token"]
    assert client.post(url, headers=bearer(cat), json={"name": "Benjamin"}).status_code == 403
    assert client.post(url, json={"name": "Benjamin"}).status_code == 401
    same = client.post(url, headers=bearer(ben), json={"name": "cat"})
    assert same.status_code == 422 and same.get_json()["error"] == "Another player is already called cat."
    assert client.post(url, headers=bearer(ben), json={"name": " "}).status_code == 422
    assert client.post(url, headers=bearer(ben), json={"name": "x" * 41}).status_code == 400
    assert a_draw(client, game, ben, "b1").status_code == 200
    renamed = client.post(url, headers=bearer(ben), json={"name": "Benjamin"})
    assert renamed.status_code == 200
    public = client.get(f"/api/games/{game['id']}").get_json()
    assert public["players"] == ["Ann", "Benjamin", "Cat"]
    assert [p["name"] for p in public["state"]["players"]] == ["Ann", "Benjamin", "Cat"]
    assert [s["name"] for s in public["scores"]] == ["Ann", "Benjamin", "Cat"]
    texts = log_texts(client, game)
    assert texts[-1] == "Ben is now called Benjamin" and texts[0].startswith("Benjamin drew")
    by_host = client.post(f"/api/games/{game['id']}/seats/2/rename", headers=bearer(game["host_token"]),
                          json={"name": "Catherine"})
    assert by_host.status_code == 200
    # the names survive an undo (a replay from set-up) and the stored log replayed from scratch
    undone = client.post(f"/api/games/{game['id']}/undo", headers=bearer(cat), json={"version": 3, "action_id": "u"})
    assert undone.status_code == 200
    store = store_of(client)
    assert store.replay(game["id"]).players == ("Ann", "Benjamin", "Catherine")
    assert store.current(game["id"])[1].players == ("Ann", "Benjamin", "Catherine")
    assert log_texts(client, game)[-1].startswith("Catherine took back Benjamin's move 1: Benjamin drew")


def test_a_seat_freed_after_the_end_can_be_joined_again_with_the_code(client: FlaskClient) -> None:
    # the release's log line says the seat can be joined again with the game's code: after the end too, so
    # its player can come back (to correct a move only that seat may); a finished game with every seat held
    # takes no one
    game = client.post("/api/games", json={"game": "barony-sorcery", "players": ["Ann", "Ben"]}).get_json()
    tokens = [s["token"] for s in game["seats"]]
    for seat, move in ((0, {"type": "end_game"}), (0, {"type": "base_points", "points": 10}),
                       (1, {"type": "base_points", "points": 12}), (0, {"type": "confirm_totals"}),
                       (1, {"type": "confirm_totals"})):
        version = client.get(f"/api/games/{game['id']}/version").get_json()["version"]
        sent = client.post(f"/api/games/{game['id']}/moves", headers=bearer(tokens[seat]),
                           json={"version": version, "action_id": f"m{version}", "move": move})
        assert sent.status_code == 200, sent.get_json()
    assert client.get(f"/api/games/{game['id']}").get_json()["over"]
    code = {"code": game["join_code"], "seat": 1}
    assert client.post("/api/join", json=code).status_code == 404                 # over, every seat held
    assert client.post(f"/api/games/{game['id']}/seats/1/release",
                       headers=bearer(game["host_token"])).status_code == 200
    told = client.post(f"/api/games/{game['id']}/undo", headers=bearer(tokens[1]), json={"version": 6, "action_id": "u"})
    assert told.status_code == 401 and game["join_code"] in told.get_json()["error"]
    joined = client.post("/api/join", json=code)
    assert joined.status_code == 200
    assert client.get(f"/api/games/{game['id']}", headers=bearer(joined.get_json()["token"])).get_json()["state"]["you"] == 1
    assert client.post("/api/join", json=code).status_code == 404                 # held again: closed again
    # the first phone's token now meets a seat another phone holds: it is not sent to the code
    late = client.post(f"/api/games/{game['id']}/undo", headers=bearer(tokens[1]), json={"version": 6, "action_id": "u2"})
    assert late.status_code == 401 and "another phone holds it now" in late.get_json()["error"]
    assert game["join_code"] not in late.get_json()["error"]


def test_a_seat_number_in_an_address_is_ascii_digits_only(client: FlaskClient, game: dict[str, Any]) -> None:
    """``/g/<id>/seat/١`` (an Arabic-Indic one) is no page: Werkzeug's own ``<int:>`` read any Unicode digit, so
    it opened seat 1's page, one page under two addresses. Every ``<int:>`` of the app is the ASCII one."""
    from werkzeug.routing import IntegerConverter

    from companion.web import AsciiInt

    app = client.application
    ints = [c for rule in app.url_map.iter_rules() for c in rule._converters.values() if isinstance(c, IntegerConverter)]
    assert ints and all(isinstance(c, AsciiInt) for c in ints)
    assert client.get(f"/g/{game['id']}/seat/1").status_code != 404
    for shown in ("١", "¹", "①", "１", "01", "001"):
        assert client.get(f"/g/{game['id']}/seat/{shown}").status_code == 404, shown
        assert client.post(f"/api/games/{game['id']}/seats/{shown}/release",
                           headers=bearer(game["host_token"])).status_code == 404, shown
