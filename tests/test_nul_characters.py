"""A NUL character (U+0000) anywhere a request carries text: no id, code, name or field of the companion holds
one, and PostgreSQL cannot store one in text (every such request was a 500 on a PostgreSQL node, found by an
attack run). A path holding one is answered 404 before any view runs; an action id takes no control character (400); a
join code holding one is a code no game has; a name loses it as any control character; the same on both
stores, and the game is unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient

from companion.web import create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FlaskClient]:
    database = str(tmp_path / "n.sqlite3") if request.param == "sqlite" else request.getfixturevalue("postgres_dsn")
    app = create_app({"DATABASE": database, "SECRET_KEY": "k", "TESTING": True, "WTF_CSRF_ENABLED": False})
    yield app.test_client()
    app.extensions["store"].close()


def _game(client: FlaskClient) -> dict[str, Any]:
    made = client.post("/api/games", json={"game": "barony-sorcery", "players": ["Ann", "Ben"]})
    assert made.status_code == 201
    return dict(made.get_json())


def test_a_nul_in_an_address_is_no_page(client: FlaskClient) -> None:
    game = _game(client)
    for path in (f"/api/games/{game['id']}%00", f"/api/games/%00{game['id']}/log", f"/g/{game['id']}%00",
                 f"/g/{game['id']}%00/result.json", "/j/%00ABCDE", f"/g/{game['id']}/seat/0%00"):
        answer = client.get(path)
        assert answer.status_code == 404, (path, answer.status_code)
        assert "NUL" in answer.get_data(as_text=True)


def test_a_nul_in_a_field_gets_the_answer_any_bad_value_gets_and_nothing_changes(client: FlaskClient) -> None:
    game = _game(client)
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    move = {"type": "explore", "location": "Fairy Ring", "reward": 3}
    # an action id is stored: it takes no control character (a 400 naming the field)
    for answer in (client.post(f"/api/games/{game['id']}/moves", headers=token,
                               json={"version": 0, "action_id": "a\x00b", "move": move}),
                   client.post(f"/api/games/{game['id']}/undo", headers=token, json={"version": 0, "action_id": "\x00"})):
        assert answer.status_code == 400 and "action_id" in answer.get_json()["error"], answer.get_json()
    # a join code with one is a code no game has: the answer a wrong code gets
    wrong = game["join_code"][:5] + ("Y" if game["join_code"][5] != "Y" else "Z")
    for code in (game["join_code"][:5] + "\x00", "\x00" + game["join_code"]):
        assert client.post("/api/join", json={"code": code, "seat": 1}).status_code == \
            client.post("/api/join", json={"code": wrong, "seat": 1}).status_code == 404
        held = client.get("/join", query_string={"code": code})
        assert held.status_code == client.get("/join", query_string={"code": wrong}).status_code
    # a name loses its control characters, as ever
    named = client.post("/api/games", json={"game": "barony-sorcery", "players": ["A\x00nn", "Ben"]})
    assert named.status_code == 201 and [s["name"] for s in named.get_json()["seats"]] == ["Ann", "Ben"]
    assert client.get(f"/g/{game['id']}/seat/0/fix", query_string={"who": "\x001"}).status_code in (200, 403)
    assert client.get(f"/api/games/{game['id']}/version").get_json() == {"version": 0}
    assert client.get(f"/api/games/{game['id']}/log").get_json() == {"entries": []}
