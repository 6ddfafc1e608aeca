"""The seat forms of the table page (release, rename) answer a refusal as a page with a sentence, never a 500."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from companion.store import Store
from companion.web.helpers import host_cookie, token_cookie


def csrf_token(client: FlaskClient) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").get_data(as_text=True))
    assert found, "no CSRF field on the home page"
    return found.group(1)


def test_the_host_releasing_a_free_seat_gets_a_409_page_with_a_sentence(app: Flask, client: FlaskClient) -> None:
    store: Store = app.extensions["store"]
    game = store.create_game("fillory", ["Ann", "Ben"], {}, held=[0])
    client.set_cookie(host_cookie(game["id"]), game["host_token"])
    answer = client.post(f"/g/{game['id']}/seats/1/release", data={"csrf_token": csrf_token(client)})
    assert answer.status_code == 409, answer.get_data(as_text=True)[:400]
    text = html.unescape(answer.get_data(as_text=True))
    assert "No phone holds seat 1 (Ben): it can already be joined with the code." in text
    assert store.info(game["id"])["claimed"] == [True, False]


def test_renaming_a_player_to_the_same_name_gets_a_422_page_with_a_sentence(app: Flask, client: FlaskClient) -> None:
    store: Store = app.extensions["store"]
    game = store.create_game("fillory", ["Ann", "Ben"], {})
    client.set_cookie(token_cookie(game["id"], 1), game["seats"][1]["token"])
    version = store.info(game["id"])["version"]
    answer = client.post(f"/g/{game['id']}/seats/1/rename", data={"csrf_token": csrf_token(client), "name": "Ben"})
    assert answer.status_code == 422, answer.get_data(as_text=True)[:400]
    assert "Ben is already called Ben." in html.unescape(answer.get_data(as_text=True))
    assert store.info(game["id"])["version"] == version
