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
