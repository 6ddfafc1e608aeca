"""A log read checks the token and reads the log as of one version: a seat's release landing between the token's
check and the log's read was shown to the very token it revoked (the seat's view of a log holding its own
release, an answer of no moment), found by many reads of several games at once on PostgreSQL. Both stores,
every discovered game."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from flask.testing import FlaskClient

from companion.rules import GAMES
from companion.web import create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FlaskClient]:
    database = str(tmp_path / "l.sqlite3") if request.param == "sqlite" else request.getfixturevalue("postgres_dsn")
    app = create_app({"DATABASE": database, "SECRET_KEY": "k", "TESTING": True})
    yield app.test_client()
    app.extensions["store"].close()


def _released_once(monkeypatch: pytest.MonkeyPatch, store: Any, method: str, release: Callable[[], Any],
                   after: bool = False) -> None:
    """The store's ``method`` releases seat 1 at its first call (``after``: once it has read; else before)."""
    original = getattr(store, method)

    def released_meanwhile(*args: Any) -> Any:
        monkeypatch.setattr(store, method, original)  # once
        if not after:
            release()
        answer = original(*args)
        if after:
            release()
        return answer

    monkeypatch.setattr(store, method, released_meanwhile)


def _new_game(client: FlaskClient, game: str) -> dict[str, Any]:
    made = client.post("/api/games", json={"game": game, "players": [f"P{i}" for i in range(GAMES[game].MIN_PLAYERS)]})
    assert made.status_code == 201
    return dict(made.get_json())


@pytest.mark.parametrize("game", list(GAMES))
def test_a_release_landing_between_the_token_check_and_the_log_read_is_not_shown_to_its_token(
        client: FlaskClient, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    body = _new_game(client, game)
    game_id, seat_one = body["id"], {"Authorization": f"Bearer {body['seats'][1]['token']}"}
    store = client.application.extensions["store"]
    checked_at = store.version(game_id)
    _released_once(monkeypatch, store, "_read_log", lambda: store.release_seat(game_id, 1))
    answer = client.get(f"/api/games/{game_id}/log", headers=seat_one)
    assert answer.status_code == 200  # the token held the seat when it was checked: the log as it stood then
    assert [e["seq"] for e in answer.get_json()["entries"] if e["seq"] > checked_at] == []
    assert store.version(game_id) > checked_at  # (the release did land)
    # asked again, the token is refused, and the public log shows the release
    assert client.get(f"/api/games/{game_id}/log", headers=seat_one).status_code == 401
    assert [e["seq"] for e in client.get(f"/api/games/{game_id}/log").get_json()["entries"]][-1:] == [checked_at + 1]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_release_landing_between_the_cookie_check_and_the_seat_page_is_not_shown_on_it(
        client: FlaskClient, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from markupsafe import escape

    from companion.web.helpers import token_cookie

    body = _new_game(client, game)
    game_id = body["id"]
    client.set_cookie(token_cookie(game_id, 1), body["seats"][1]["token"])
    store = client.application.extensions["store"]
    checked_at = store.version(game_id)
    _released_once(monkeypatch, store, "_read_log", lambda: store.release_seat(game_id, 1))
    page = client.get(f"/g/{game_id}/seat/1")
    assert page.status_code == 200  # the cookie held the seat when it was checked: the page as it stood then
    released = client.get(f"/api/games/{game_id}/log").get_json()["entries"]
    assert [e["seq"] for e in released][-1:] == [checked_at + 1]
    assert escape(released[-1]["text"]) not in page.get_data(as_text=True)
    assert client.get(f"/g/{game_id}/seat/1").status_code == 403  # asked again: the seat is no longer this phone's


@pytest.mark.parametrize("game", list(GAMES))
def test_a_state_read_on_one_node_checks_the_token_again_when_another_node_moved_the_game_on(
        client: FlaskClient, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A node holds in its cache only the versions it read: when the version its token check read is not there,
    the state comes from the database as it stands, and was shown with that newer version to a token whose seat
    another node had released meanwhile."""
    other = create_app({"DATABASE": client.application.config["DATABASE"], "SECRET_KEY": "k", "TESTING": True})
    try:
        body = _new_game(other.test_client(), game)
        game_id, seat_one = body["id"], {"Authorization": f"Bearer {body['seats'][1]['token']}"}
        store = client.application.extensions["store"]
        checked_at = store.version(game_id)
        _released_once(monkeypatch, store, "info_and_seat",  # through the other node, once the token was read
                       lambda: other.extensions["store"].release_seat(game_id, 1), after=True)
        answer = client.get(f"/api/games/{game_id}", headers=seat_one)
        assert answer.status_code == 401 or answer.get_json()["version"] == checked_at, answer.get_json()
    finally:
        other.extensions["store"].close()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seat_page_on_one_node_checks_the_cookie_again_when_another_node_moved_the_game_on(
        client: FlaskClient, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As the state read above, for the seat page (its token in the seat's cookie)."""
    from companion.web.helpers import token_cookie

    other = create_app({"DATABASE": client.application.config["DATABASE"], "SECRET_KEY": "k", "TESTING": True})
    try:
        body = _new_game(other.test_client(), game)
        game_id = body["id"]
        client.set_cookie(token_cookie(game_id, 1), body["seats"][1]["token"])
        store = client.application.extensions["store"]
        _released_once(monkeypatch, store, "info_and_seat",  # through the other node, once the token was read
                       lambda: other.extensions["store"].release_seat(game_id, 1), after=True)
        page = client.get(f"/g/{game_id}/seat/1")
        assert page.status_code == 403, page.status_code  # the page it would show is of a version the token lost
    finally:
        other.extensions["store"].close()
