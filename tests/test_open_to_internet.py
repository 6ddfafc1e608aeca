"""An internet-facing server (issue 23), in process: links from the configured base URL, a trusted
proxy's forwarded address, IPv6 counted by /64, a per-seat move rate, clean player names.

The served side (trickled bodies, connection and stream caps, ``Keep-Alive``) is in
tests/test_served_internet.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from tests.test_api import bearer

BASE = "https://club.example:8443"


def make_app(tmp_path: Path, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "k",
                       "WTF_CSRF_ENABLED": False, **config})


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path, BASE_URL=BASE + "/")
    yield app
    app.extensions["store"].close()


def new_game(client: FlaskClient, names: list[str] | None = None, **environ: str) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": "fillory", "players": names or ["Ann", "Ben"]},
                         environ_overrides=environ)
    assert answer.status_code == 201, answer.get_json()
    return dict(answer.get_json())


# -- links ----------------------------------------------------------------------------------

def test_no_link_is_built_from_the_host_header(app: Flask) -> None:
    client = app.test_client()
    evil = {"Host": "evil.example"}
    game = new_game(client)
    offer = client.post(f"/api/games/{game['id']}/seats/0/handover", headers={**evil, **bearer(game["seats"][0]["token"])})
    assert offer.get_json()["link"] == f"{BASE}/h/{offer.get_json()['code']}"
    table = client.get(f"/g/{game['id']}", headers=evil).get_data(as_text=True)
    assert f"{BASE}/j/{game['join_code']}" in table          # the join QR code and its link
    assert "evil.example" not in table
    result = client.get(f"/g/{game['id']}/result", headers=evil)
    assert "evil.example" not in result.get_data(as_text=True)


def test_a_base_url_that_is_no_address_stops_the_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must start with http:// or https://"):
        make_app(tmp_path, BASE_URL="evil.example")


# -- the address that limits count -----------------------------------------------------------

def statuses(client: FlaskClient, times: int, **environ: str) -> list[int]:
    return [client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]},
                        environ_overrides=environ).status_code for _ in range(times)]


def test_behind_a_trusted_proxy_the_forwarded_address_is_limited(tmp_path: Path) -> None:
    app = make_app(tmp_path, TRUSTED_PROXIES="127.0.0.1, 10.0.0.0/8", NEW_GAME_LIMIT="2 per minute")
    client = app.test_client()
    via_proxy = {"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    assert statuses(client, 3, **via_proxy) == [201, 201, 429]
    assert statuses(client, 1, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.6") == [201]  # another phone
    assert statuses(client, 3, REMOTE_ADDR="127.0.0.1") == [201] * 3          # the proxy's machine itself: loopback
    # a client that is no trusted proxy cannot choose its address by writing the header
    spoofed = [statuses(client, 1, REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}")[0]
               for i in range(3)]
    assert spoofed == [201, 201, 429]
    app.extensions["store"].close()


def test_without_a_trusted_proxy_forwarded_headers_are_ignored(tmp_path: Path) -> None:
    app = make_app(tmp_path, NEW_GAME_LIMIT="1 per minute")
    client = app.test_client()
    assert statuses(client, 3, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5") == [201] * 3
    app.extensions["store"].close()


def test_ipv6_addresses_are_counted_by_their_64_network(tmp_path: Path) -> None:
    app = make_app(tmp_path, JOIN_LIMIT="3 per minute")
    client = app.test_client()

    def join(address: str) -> int:
        return client.post("/api/join", json={"code": "ZZZZZZ", "seat": 0},
                           environ_overrides={"REMOTE_ADDR": address}).status_code

    assert [join(f"2001:db8:1:2::{i:x}") for i in range(1, 6)] == [404, 404, 404, 429, 429]
    assert join("2001:db8:1:3::1") == 404                     # the next /64 is someone else
    assert [join("::ffff:192.0.2.9") for _ in range(4)][-1] == 429 and join("192.0.2.9") == 429  # one address
    app.extensions["store"].close()


# -- a seat's move rate ------------------------------------------------------------------------

def test_a_seat_past_its_move_rate_gets_a_429_with_retry_after(tmp_path: Path) -> None:
    app = make_app(tmp_path, MOVE_LIMIT="2 per minute")
    client = app.test_client()
    phone = {"REMOTE_ADDR": "192.0.2.20"}
    game = new_game(client, **phone)
    ann, ben = (bearer(s["token"]) for s in game["seats"])
    store = app.extensions["store"]

    def send(path: str, headers: dict[str, str], body: dict[str, Any]) -> Any:
        version = store.version(game["id"])
        return client.post(f"/api/games/{game['id']}/{path}", headers=headers, environ_overrides=phone,
                           json={"version": version, "action_id": f"a{version}-{path}", **body})

    def draw(headers: dict[str, str]) -> Any:
        from tests.store_checks import fillory_deck_cards

        card = fillory_deck_cards(store.current(game["id"])[1])[0]
        return send("moves", headers, {"move": {"type": "draw", "card": card}})

    assert draw(ann).status_code == 200
    assert send("undo", ann, {}).status_code == 200           # undos count too
    refused = draw(ann)
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.get_json()["error"].startswith("Too many moves from this seat (at most 2 per 1 minute)")
    version = store.version(game["id"])
    assert version == 2                                       # nothing was written
    assert draw(ann).status_code == 429                       # from another address too: it is the seat's rate
    # renames count too: each is a log entry, and the log's cap (5,000) would otherwise end the game for all
    for name in ("Bea", "Bo"):
        assert client.post(f"/api/games/{game['id']}/seats/1/rename", headers=ben, environ_overrides=phone,
                           json={"name": name}).status_code == 200
    renamed = client.post(f"/api/games/{game['id']}/seats/1/rename", headers=ben, environ_overrides=phone,
                          json={"name": "Ben"})
    assert renamed.status_code == 429 and "Retry-After" in renamed.headers
    assert store.info(game["id"])["players"][1] == "Bo" and store.version(game["id"]) == 4
    app.extensions["store"].close()


def test_a_seat_asking_for_hand_over_codes_past_its_rate_gets_a_429_with_retry_after(tmp_path: Path) -> None:
    """Each code asked for is a write (it replaces the seat's earlier code), so a seat's requests are limited
    like its moves: per game and seat, from any address, its token checked first."""
    app = make_app(tmp_path, HANDOVER_LIMIT="2 per minute")
    client = app.test_client()
    phone = {"REMOTE_ADDR": "192.0.2.21"}
    game = new_game(client, **phone)
    gid, (ann, ben) = game["id"], (bearer(s["token"]) for s in game["seats"])

    def ask(headers: dict[str, str], seat: int = 1, address: str = "192.0.2.21") -> Any:
        return client.post(f"/api/games/{gid}/seats/{seat}/handover", headers=headers,
                           environ_overrides={"REMOTE_ADDR": address})

    assert [ask(ben).status_code for _ in range(2)] == [200, 200]
    refused = ask(ben)
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.get_json()["error"].startswith("Too many hand-over codes asked for by this seat "
                                                  "(at most 2 per 1 minute)")
    assert ask(ben, address="198.51.100.4").status_code == 429   # from another address too: the seat's rate
    assert ask(ann).status_code == 403 and ask(bearer("nope")).status_code == 401  # the token is checked first
    client.set_cookie(f"seat_{gid}_1", game["seats"][1]["token"])
    page = client.post(f"/g/{gid}/seat/1/handover", environ_overrides=phone)   # the seat page's button counts too
    assert page.status_code == 429 and "Too many hand-over codes asked for by this seat" in page.get_data(as_text=True)
    assert ask(ann, seat=0).status_code == 200                   # another seat is not held up
    assert app.extensions["store"].backend._db().execute(
        "SELECT count(*) FROM seat_handovers").fetchone()[0] == 2   # one code a seat
    app.extensions["store"].close()


# -- names ---------------------------------------------------------------------------------------

def test_player_names_lose_control_and_direction_characters(app: Flask) -> None:
    client = app.test_client()
    game = new_game(client, ["A\u0000nn", "\u202eBen\u202c", "Cat\n\tMeow"])
    assert [s["name"] for s in game["seats"]] == ["Ann", "Ben", "Cat Meow"]
    assert client.post("/api/games", json={"game": "fillory", "players": ["\u202e", "Ben"]}).status_code == 422
    renamed = client.post(f"/api/games/{game['id']}/seats/0/rename", headers=bearer(game["seats"][0]["token"]),
                          json={"name": "Ann\u202e\u2066 the \u0007Bold"})
    assert renamed.status_code == 200, renamed.get_json()
    assert client.get(f"/api/games/{game['id']}").get_json()["players"][0] == "Ann the Bold"
    log = client.get(f"/api/games/{game['id']}/log").get_json()["entries"]
    assert not re.search("[\u0000-\u001f\u202a-\u202e\u2066-\u2069]", log[-1]["text"])
    assert client.post("/api/games", json={"game": "fillory",
                                           "players": ["\U0001f468\u200d\U0001f469", "Ben"]}).status_code == 201
    client.set_cookie(f"seat_{game['id']}_1", game["seats"][1]["token"])   # the page's rename form
    assert client.post(f"/g/{game['id']}/seats/1/rename", data={"name": "\u202e\u0000"}).status_code == 422


# -- the seat token stays in its HttpOnly cookie -----------------------------------------------

def test_a_seat_page_holds_no_copy_of_the_token_and_its_scripts_move_with_the_cookie(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "k"})  # CSRF on
    client = app.test_client()
    game = new_game(client)
    token, gid = game["seats"][0]["token"], game["id"]
    client.set_cookie(f"seat_{gid}_0", token)
    page = client.get(f"/g/{gid}/seat/0").get_data(as_text=True)
    assert token not in page and "data-token" not in page
    csrf = re.search(r'data-csrf="([^"]+)"', page)
    assert csrf is not None

    from tests.store_checks import fillory_deck_cards

    def draw(headers: dict[str, str], action: str) -> Any:
        card = fillory_deck_cards(app.extensions["store"].current(gid)[1])[0]
        return client.post(f"/api/games/{gid}/moves", headers=headers,
                            json={"version": app.extensions["store"].version(gid), "action_id": action, "seat": 0,
                                  "move": {"type": "draw", "card": card}})

    # what a page elsewhere can make the browser send: the cookie, but not the page's CSRF token
    forged = draw({}, "forged")
    assert forged.status_code == 400 and "CSRF" in forged.get_json()["error"]   # nothing is taken
    wrong = draw({"X-CSRFToken": "not-the-token"}, "wrong")
    assert wrong.status_code == 400 and "CSRF" in wrong.get_json()["error"]
    assert app.extensions["store"].version(gid) == 0
    sent = draw({"X-CSRFToken": csrf.group(1)}, "real")          # the page's own script
    assert sent.status_code == 200, sent.get_json()
    assert app.extensions["store"].version(gid) == 1
    app.extensions["store"].close()
