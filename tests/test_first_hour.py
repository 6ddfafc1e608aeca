"""A newcomer's first hour (issue 22): what a fresh clone meets first answers clearly.

Serving a data folder with one broken game serves the others on every page; the command lines say what
they do (``-h``, ``--version``, a mistyped ``--db``, game ids in any case); the serve banner sends phones to
an address they can reach, with a QR code any terminal shows; the scripts check what they can before the
slow steps.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest
from flask import Flask

from cardgen.catalog.base import DEFAULT_DATA_DIR
from companion.web import create_app

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def served_broken_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Flask, str]]:
    """The app as ``companion serve --data DIR`` runs it (``$SPELLBOOK_DATA`` and ``DATA_DIR`` both DIR),
    with one game's data broken: which game is the first discovered one (no game named here)."""
    from companion.rules import SPECS

    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, root)
    broken = next(game for game, spec in SPECS.items() if spec.print_kit and (root / game).is_dir())
    (root / broken / "rules.toml").write_text("[[rule]]\nid = 'no closing quote\n", encoding="utf-8")
    monkeypatch.setenv("SPELLBOOK_DATA", str(root))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "companion.sqlite3"), "SECRET_KEY": "k",
                      "DATA_DIR": str(root)})
    yield app, broken
    app.extensions["store"].close()


def test_serving_a_folder_with_one_broken_game_serves_the_others_on_every_page(
        served_broken_data: tuple[Flask, str]) -> None:
    app, broken = served_broken_data
    assert list(app.extensions["unavailable_games"]) == [broken]
    client = app.test_client()
    home = client.get("/")
    assert home.status_code == 200, home.get_data(as_text=True)[:300]
    assert "is unavailable" in home.get_data(as_text=True)
    assert client.get("/rules").status_code == 200
    assert client.get("/rules", query_string={"q": "turn"}).status_code == 200
    others = [g for g in app.extensions["unavailable_games"].keys() ^ set(_served_games(app)) if g != broken]
    assert others
    for game in others:
        assert client.get(f"/rules/{game}").status_code == 200, game
        created = client.post("/api/games", json={"game": game, "players": _players(game)})
        assert created.status_code == 201, (game, created.get_json())
        assert client.get(f"/g/{created.get_json()['id']}").status_code == 200, game
    refused = client.post("/api/games", json={"game": broken, "players": _players(broken)})
    assert refused.status_code == 503


def _served_games(app: Flask) -> list[str]:
    from companion.rules import SPECS

    return [game for game, spec in SPECS.items() if spec.print_kit]


def _players(game: str) -> list[str]:
    from companion.rules import SPECS

    return ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:max(2, SPECS[game].min_players)]
