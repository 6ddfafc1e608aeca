"""A join or a hand-over take-over sent again after its answer was lost (bad Wi-Fi at the table) gets the seat it
already got: the phone proposes its own seat token and keeps it for its retries, on SQLite and on PostgreSQL.
Without a token the request works as before; a token stored before is a clear 409; a bad one a 400; and nobody
who does not hold a token learns anything from these answers."""

from __future__ import annotations

import re
import secrets
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES
from companion.web import create_app
from companion.web.helpers import token_cookie
from tests.test_pages import csrf_token

GAME = sorted(GAMES)[0]  # any game: seats work the same for every one


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    database = str(tmp_path / "companion.sqlite3") if request.param == "sqlite" else \
        str(request.getfixturevalue("postgres_dsn"))
    made = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k"})
    yield made
    made.extensions["store"].close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_token() -> str:
    return secrets.token_urlsafe(32)  # as a phone's page makes one: 43 URL-safe characters


def new_game(client: FlaskClient, free: int | None = 1) -> dict[str, Any]:
    """A game made through the API (every seat held), with seat ``free`` released by the host."""
    players = [f"P{i}" for i in range(max(GAMES[GAME].MIN_PLAYERS, 3))]
    made = client.post("/api/games", json={"game": GAME, "players": players, "options": {}})
    assert made.status_code == 201, made.get_json()
    game = dict(made.get_json())
    if free is not None:
        released = client.post(f"/api/games/{game['id']}/seats/{free}/release", headers=bearer(game["host_token"]))
        assert released.status_code == 200
    return game


def version(client: FlaskClient, game: dict[str, Any]) -> int:
    return int(client.get(f"/api/games/{game['id']}").get_json()["version"])


def you(client: FlaskClient, game: dict[str, Any], token: str) -> Any:
    seen = client.get(f"/api/games/{game['id']}", headers=bearer(token))
    return seen.get_json()["state"].get("you") if seen.status_code == 200 else seen.status_code


def test_a_join_sent_again_with_its_token_gets_the_seat_it_already_got(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    token = new_token()
    body = {"code": game["join_code"].lower(), "seat": 1, "token": token}
    first = client.post("/api/join", json=body)  # ...whose answer the phone never got
    assert first.status_code == 200 and first.get_json() == {"id": game["id"], "seat": 1, "token": token}
    before = version(client, game)
    again = client.post("/api/join", json=body)
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert you(client, game, token) == 1 and version(client, game) == before
    assert client.get(f"/api/games/{game['id']}").get_json()["claimed"] == [True, True, True]
    # anyone else still gets today's answer, the same whether or not they propose a token
    nothing = client.post("/api/join", json={"code": game["join_code"], "seat": 1})
    other = client.post("/api/join", json={"code": game["join_code"], "seat": 1, "token": new_token()})
    assert nothing.status_code == other.status_code == 404 and nothing.get_json() == other.get_json()
    # the same token for another held seat is that seat's refusal too (it does not hold it)
    assert client.post("/api/join", json={**body, "seat": 0}).get_json() == \
        client.post("/api/join", json={"code": game["join_code"], "seat": 0}).get_json()


def test_a_join_without_a_token_still_gets_one_made_by_the_server(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    joined = client.post("/api/join", json={"code": game["join_code"], "seat": 1})
    assert joined.status_code == 200 and len(joined.get_json()["token"]) >= 32
    assert you(client, game, joined.get_json()["token"]) == 1


def test_a_take_over_sent_again_with_its_token_gets_the_seat_and_nobody_else_does(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client, free=None)
    old = game["seats"][1]["token"]
    code = client.post(f"/api/games/{game['id']}/seats/1/handover", headers=bearer(old)).get_json()["code"]
    token = new_token()
    first = client.post("/api/handover", json={"code": code, "token": token})  # its answer lost
    assert first.status_code == 200 and first.get_json() == {"id": game["id"], "seat": 1, "token": token}
    before = version(client, game)
    again = client.post("/api/handover", json={"code": code.lower(), "token": token})
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert you(client, game, token) == 1 and you(client, game, old) == 401 and version(client, game) == before
    # the used code is still used for anyone else: the same answer as an unknown code
    unknown = client.post("/api/handover", json={"code": "ZZZZZZZZ"}).get_json()
    for body in ({"code": code}, {"code": code, "token": new_token()}, {"code": code, "token": old}):
        refused = client.post("/api/handover", json=body)
        assert refused.status_code == 404 and refused.get_json()["error"] == \
            unknown["error"].replace("ZZZZZZZZ", code), body
    # once the seat moved on (released by the host), the code sent again gets nothing
    client.post(f"/api/games/{game['id']}/seats/1/release", headers=bearer(game["host_token"]))
    assert client.post("/api/handover", json={"code": code, "token": token}).status_code == 404


def test_a_proposed_token_stored_before_is_a_clear_409_and_changes_nothing(app: Flask) -> None:
    client = app.test_client()
    game, elsewhere = new_game(client), new_game(client, free=None)
    # another game's seat, another seat of this game, this seat's own before the host released it
    for used in (elsewhere["seats"][0]["token"], game["seats"][0]["token"], game["seats"][1]["token"]):
        refused = client.post("/api/join", json={"code": game["join_code"], "seat": 1, "token": used})
        assert refused.status_code == 409, refused.get_json()
        assert "used before" in refused.get_json()["error"] and game["id"] not in refused.get_json()["error"]
        assert elsewhere["id"] not in refused.get_json()["error"]
    assert client.get(f"/api/games/{game['id']}").get_json()["claimed"] == [True, False, True]  # still free
    assert you(client, game, game["seats"][1]["token"]) == 401  # the released token did not come back
    code = client.post(f"/api/games/{elsewhere['id']}/seats/1/handover",
                       headers=bearer(elsewhere["seats"][1]["token"])).get_json()["code"]
    refused = client.post("/api/handover", json={"code": code, "token": game["seats"][0]["token"]})
    assert refused.status_code == 409 and "used before" in refused.get_json()["error"]
    assert you(client, elsewhere, elsewhere["seats"][1]["token"]) == 1  # the code was not used up
    assert client.post("/api/handover", json={"code": code, "token": new_token()}).status_code == 200


@pytest.mark.parametrize("token", ["short", "a" * 31, "a" * 129, "x" * 40 + "!", "x" * 40 + "=", 12345, None])
def test_a_proposed_token_that_cannot_be_one_is_a_400_naming_the_field(app: Flask, token: Any) -> None:
    client = app.test_client()
    game = new_game(client)
    for path, body in (("/api/join", {"code": game["join_code"], "seat": 1}), ("/api/handover", {"code": "ABCDEFGH"})):
        refused = client.post(path, json={**body, "token": token})
        if token is None:  # (null: as if no token were sent)
            assert refused.status_code in (200, 404)
            continue
        assert refused.status_code == 400 and "token" in refused.get_json()["error"], refused.get_json()
    assert client.get(f"/api/games/{game['id']}").get_json()["claimed"][1] is (token is None)


def test_the_join_and_take_over_pages_answer_a_tap_sent_again_with_its_token(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client)
    code = game["join_code"]
    page = client.get(f"/j/{code}").get_data(as_text=True)
    assert 'data-seat-key' in page and 'name="token"' in page and "js/seat-key" in page
    token = new_token()
    phone = app.test_client()
    form = {"csrf_token": csrf_token(phone, f"/j/{code}"), "seat": "1", "token": token}
    for _ in range(2):  # the first answer lost: the tap sent again with the same form, answered the same
        joined = phone.post(f"/j/{code}", data=form)
        assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/g/{game['id']}/seat/1")
        assert any(c.startswith(f"{token_cookie(game['id'], 1)}={token};") for c in joined.headers.getlist("Set-Cookie"))
    stranger = app.test_client()
    taken = stranger.post(f"/j/{code}", data={"csrf_token": csrf_token(stranger), "seat": "1",
                                             "token": new_token()})
    assert taken.status_code == 409  # today's answer: the seat is taken
    bad = stranger.post(f"/j/{code}", data={"csrf_token": csrf_token(stranger), "seat": "1",
                                           "token": "too short"})
    assert bad.status_code == 400 and "seat key" in bad.get_data(as_text=True)

    handover = client.post(f"/api/games/{game['id']}/seats/2/handover", headers=bearer(game["seats"][2]["token"]))
    hcode = handover.get_json()["code"]
    offer = app.test_client()
    page = offer.get(f"/h/{hcode}").get_data(as_text=True)
    assert 'data-seat-key' in page and 'name="token"' in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf is not None
    token = new_token()
    for _ in range(2):
        took = offer.post(f"/h/{hcode}", data={"csrf_token": csrf.group(1), "token": token})
        assert took.status_code == 303 and took.headers["Location"].endswith(f"/g/{game['id']}/seat/2")
    assert you(client, game, token) == 2 and you(client, game, game["seats"][2]["token"]) == 401
    assert offer.post(f"/h/{hcode}", data={"csrf_token": csrf.group(1)}).status_code == 404  # no token: used


def test_the_same_token_proposed_to_two_games_at_once_gets_one_seat_and_a_409_never_a_500(app: Flask) -> None:
    games = [new_game(app.test_client()) for _ in range(2)]
    for _ in range(5):
        token = new_token()
        start = threading.Barrier(2)
        answers: list[int] = []

        def join(game: dict[str, Any], token: str = token, start: threading.Barrier = start,
                 answers: list[int] = answers) -> None:
            start.wait()
            answers.append(app.test_client().post("/api/join", json={"code": game["join_code"], "seat": 1,
                                                                      "token": token}).status_code)

        threads = [threading.Thread(target=join, args=(game,)) for game in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200, 409], answers
        client = app.test_client()
        holder = [g for g in games if you(client, g, token) == 1]  # one game's seat got it; the other's is free
        assert len(holder) == 1
        assert [client.get(f"/api/games/{g['id']}").get_json()["claimed"][1] for g in games].count(True) == 1
        client.post(f"/api/games/{holder[0]['id']}/seats/1/release", headers=bearer(holder[0]["host_token"]))
