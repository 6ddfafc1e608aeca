"""The join page offers only the seats nobody holds, and says so plainly when none is free.

Seats are held from the start (issue 12: the host's phone holds every seat it was given), so the page
a second phone opens from the code must not offer a held seat, nor leave that phone with a list and no
way in. The API keeps its one answer for an unknown code and a seat that cannot be taken.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from companion.store import Store
from companion.web.helpers import token_cookie
from tests.test_pages import csrf_token, shown

NONE_FREE = "Every seat at this table is taken"


def a_game(app: Flask, held: list[int] | None = None) -> dict[str, Any]:
    store: Store = app.extensions["store"]
    return store.create_game("fillory", ["Ann", "Ben", "Cat"], {}, held=held)


def offered(page: str) -> list[str]:
    return re.findall(r">I am (\w+)</button>", page)


def test_a_table_whose_seats_are_all_held_offers_none_and_says_so(app: Flask) -> None:
    game = a_game(app)  # the host's phone holds all three
    page = shown(app.test_client().get(f"/j/{game['join_code']}"))
    assert offered(page) == []
    assert NONE_FREE in page and "ask the host to free a seat" in page
    assert "Taken: Ann, Ben, Cat." in page
    assert "Watch the table without a seat" in page


def test_only_the_free_seats_are_offered(app: Flask) -> None:
    game = a_game(app, held=[0, 2])
    page = shown(app.test_client().get(f"/j/{game['join_code']}"))
    assert offered(page) == ["Ben"]
    assert NONE_FREE not in page and "Taken: Ann, Cat." in page


def test_the_phone_holding_seats_continues_and_is_offered_the_free_ones(app: Flask) -> None:
    game = a_game(app, held=[0])
    host = app.test_client()
    host.set_cookie(token_cookie(game["id"], 0), game["seats"][0]["token"])
    page = shown(host.get(f"/j/{game['join_code']}"))
    assert "Continue as Ann" in page and offered(page) == ["Ben", "Cat"] and "Taken:" not in page


def test_a_seat_taken_while_the_page_was_open_is_refused_and_no_longer_offered(app: Flask) -> None:
    game = a_game(app, held=[0])
    code = game["join_code"]
    late, quick = app.test_client(), app.test_client()
    token = csrf_token(late, f"/j/{code}")  # the late phone's page still offers Ben and Cat
    for seat in (1, 2):
        assert quick.post(f"/j/{code}", data={"csrf_token": csrf_token(quick, f"/j/{code}"),
                                              "seat": str(seat)}).status_code == 303
    refused = late.post(f"/j/{code}", data={"csrf_token": token, "seat": "1"})
    assert refused.status_code == 409
    page = shown(refused)
    assert "Ben's seat was just taken by another phone." in page
    assert offered(page) == [] and NONE_FREE in page


def test_the_api_answers_an_unknown_code_and_a_taken_seat_alike(app: Flask) -> None:
    game = a_game(app)
    phone = app.test_client()
    taken = phone.post("/api/join", json={"code": game["join_code"], "seat": 1})
    unknown = phone.post("/api/join", json={"code": "ZZZZZZ", "seat": 1})
    assert taken.status_code == unknown.status_code == 404
    said = [r.get_json()["error"].replace(code, "CODE")
            for r, code in ((taken, game["join_code"]), (unknown, "ZZZZZZ"))]
    assert said[0] == said[1]
