"""Templates get only view output: no table or seat page, nor their live parts, is rendered with the raw
state in its context, for every game (Flask's ``template_rendered`` signal records each context)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from flask import template_rendered

from companion.rules import GAMES
from companion.web import create_app
from companion.web.helpers import token_cookie

PLAYERS = {game: module.MIN_PLAYERS for game, module in GAMES.items()}


@pytest.fixture()
def rendered(tmp_path: Any) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    app = create_app({"DATABASE": str(tmp_path / "c.sqlite3"), "TESTING": True})
    seen: list[dict[str, Any]] = []

    def record(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
        seen.append(context)

    template_rendered.connect(record, app)
    try:
        yield app, seen
    finally:
        template_rendered.disconnect(record, app)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_table_and_seat_templates_never_see_the_raw_state(game: str, rendered: tuple[Any, list[dict[str, Any]]]) -> None:
    app, seen = rendered
    client = app.test_client()
    names = [f"P{i}" for i in range(PLAYERS[game])]
    created = client.post("/api/games", json={"game": game, "players": names})
    assert created.status_code == 201, created.get_data(as_text=True)
    body = created.get_json()
    game_id, token = body["id"], body["seats"][0]["token"]
    client.set_cookie(token_cookie(game_id, 0), token)
    for path in (f"/g/{game_id}", f"/g/{game_id}/live", f"/g/{game_id}/seat/0", f"/g/{game_id}/seat/0/live"):
        seen.clear()
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.get_data(as_text=True)[:300])
        assert seen and all("view" in c for c in seen[:1]), path
        assert not any("state" in c for c in seen), f"{path} rendered a template with the raw state"
