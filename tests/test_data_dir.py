"""A game whose data is broken is left out with a clear message (file, record, field); the others are served.

The app checks every game's content in its ``DATA_DIR`` when it starts (``companion serve --data DIR`` sets it
for the workers through ``SPELLBOOK_DATA``).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask

from cardgen.catalog.base import DEFAULT_DATA_DIR
from companion.rules import unavailable_games
from companion.web import create_app


@pytest.fixture
def broken_data(tmp_path: Path) -> Path:
    """A copy of data/ whose Mandragora spells file lacks a spell's name."""
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)
    spells = root / "mandragora" / "spells.toml"
    text = spells.read_text(encoding="utf-8")
    first_name = next(line for line in text.splitlines() if line.startswith("name = "))
    spells.write_text(text.replace(first_name, "", 1), encoding="utf-8")
    return root


@pytest.fixture
def broken_app(tmp_path: Path, broken_data: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite3"), "SECRET_KEY": "k",
                      "DATA_DIR": str(broken_data)})
    yield app
    app.extensions["store"].close()


def test_only_the_broken_game_is_unavailable_and_the_message_names_file_and_field(broken_data: Path) -> None:
    problems = unavailable_games(broken_data)
    assert list(problems) == ["mandragora"]
    detail = problems["mandragora"].detail
    assert "Mandragora is unavailable" in detail and "spells.toml" in detail and "name" in detail
    assert str(broken_data) in detail  # the operator's warning says where; the phones' sentence does not:
    public = problems["mandragora"].public
    assert "spells.toml" in public and "name" in public and str(broken_data) not in public
    assert unavailable_games(DEFAULT_DATA_DIR) == {}


def test_the_home_page_says_why_and_offers_the_other_games(broken_app: Flask) -> None:
    page = broken_app.test_client().get("/").get_data(as_text=True)
    assert "Mandragora is unavailable" in page and "spells.toml" in page
    assert str(broken_app.config["DATA_DIR"]) not in page
    assert 'value="fillory"' in page and 'value="mandragora"' not in page


def test_the_api_refuses_the_broken_game_with_its_reason_and_serves_the_others(broken_app: Flask) -> None:
    client = broken_app.test_client()
    refused = client.post("/api/games", json={"game": "mandragora", "players": ["Ann", "Ben"]})
    assert refused.status_code == 503
    body = refused.get_json()
    assert body["ok"] is False and body["status"] == 503 and "spells.toml" in body["error"]
    created = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]})
    assert created.status_code == 201, created.get_json()


def test_score_by_photo_refuses_a_game_the_data_folder_leaves_out(tmp_path: Path) -> None:
    """``POST /api/photo/<game>`` and ``/score`` answered 200 for a game ``--data`` left out, scoring it from the
    project's own cards, while its calculator page said 404 (the docs audit). Each game that scores by photo,
    left out in turn: both routes answer 404, as its page does; the other games' routes are still served."""
    from companion.web.photo import games_with_photo

    photo_games = sorted(games_with_photo())
    assert photo_games
    for game in photo_games:
        root = tmp_path / game / "data"
        shutil.copytree(DEFAULT_DATA_DIR, root)
        shutil.rmtree(root / game)
        app = create_app({"TESTING": True, "DATABASE": str(tmp_path / game / "c.sqlite3"), "SECRET_KEY": "k",
                          "DATA_DIR": str(root)})
        client = app.test_client()
        assert client.get(f"/calc/{game}/photo").status_code == 404
        read = client.post(f"/api/photo/{game}", data=b"\xff\xd8\xff", content_type="image/jpeg")
        scored = client.post(f"/api/photo/{game}/score", json={"cards": []})
        assert (read.status_code, scored.status_code) == (404, 404), (game, read.get_json(), scored.get_json())
        assert scored.get_json()["ok"] is False
        other = next((g for g in photo_games if g != game), None)
        if other is not None:
            assert client.post(f"/api/photo/{other}/score", json={"cards": []}).status_code == 200
        app.extensions["store"].close()


def test_score_by_photo_answers_503_for_a_game_whose_data_is_broken(broken_app: Flask) -> None:
    from companion.web.photo import games_with_photo

    broken = [g for g in sorted(unavailable_games(Path(broken_app.config["DATA_DIR"]))) if g in games_with_photo()]
    assert broken  # (the fixture breaks a game that scores by photo)
    for game in broken:
        answer = broken_app.test_client().post(f"/api/photo/{game}/score", json={"cards": []})
        assert answer.status_code == 503 and "spells.toml" in answer.get_json()["error"]
