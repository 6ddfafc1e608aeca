"""A game outside the tree (tests/toygame) is found by discovery and works through the API, with no edit to
any shared module: created, moved, refused (by the base's shared checks), viewed with its secret kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import rules
from companion.web import create_app


@pytest.fixture
def toy_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "toy.sqlite3"), "SECRET_KEY": "toy",
                      "EXTRA_GAMES": ["toygame"]})
    yield app
    app.extensions["store"].close()
    rules.SPECS.pop("toygame", None)  # the other tests see the four games only


def _join(client: FlaskClient, code: str, seat: int) -> str:
    answer = client.post("/api/join", json={"code": code, "seat": seat})
    assert answer.status_code == 200, answer.get_json()
    return str(answer.get_json()["token"])


def _move(client: FlaskClient, game: str, token: str, version: int, move: dict[str, Any], action: str) -> Any:
    return client.post(f"/api/games/{game}/moves", json={"version": version, "action_id": action, "move": move},
                       headers={"Authorization": f"Bearer {token}"})


def test_the_toy_game_is_discovered_without_being_listed_anywhere(toy_app: Flask) -> None:
    assert "toygame" in rules.SPECS and rules.rules_for("toygame").TITLE == "Count to Ten"
    shared = [Path(rules.__file__), Path(rules.__file__).parent.parent / "web" / "games" / "__init__.py",
              Path(rules.__file__).parent.parent / "web" / "calc" / "__init__.py"]
    assert all("toygame" not in path.read_text(encoding="utf-8") for path in shared)


def test_the_toy_game_is_created_moved_refused_and_viewed_through_the_api(toy_app: Flask) -> None:
    client = toy_app.test_client()
    created = client.post("/api/games", json={"game": "toygame", "players": ["Ann", "Ben"]})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()["id"]
    ann, ben = (seat["token"] for seat in created.get_json()["seats"])  # the creator holds every seat

    moved = _move(client, game, ann, 0, {"type": "add", "amount": 2}, "a1")
    assert moved.status_code == 200 and moved.get_json()["state"]["count"] == 2

    out_of_turn = _move(client, game, ann, 1, {"type": "add", "amount": 1}, "a2")
    assert out_of_turn.status_code == 422
    assert out_of_turn.get_json() == {"ok": False, "error": "It is Ben's turn, not Ann's.",
                                      "rule": "toygame.turn.order", "status": 422}
    stray_field = _move(client, game, ben, 1, {"type": "add", "amount": 1, "colour": "red"}, "b1")
    assert stray_field.status_code == 422
    assert stray_field.get_json()["error"] == "The 'add' move has no field 'colour'; it takes 'amount'."

    secret = _move(client, game, ben, 1, {"type": "note", "text": "Ann always adds two"}, "b2")
    assert secret.status_code == 200 and secret.get_json()["state"]["note"] == "Ann always adds two"
    table = client.get(f"/api/games/{game}").get_json()
    seen_by_ann = client.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {ann}"}).get_json()
    assert table["state"]["note"] is None and seen_by_ann["state"]["note"] == ""
    log = client.get(f"/api/games/{game}/log", headers={"Authorization": f"Bearer {ann}"}).get_json()["entries"]
    assert "Ann always adds two" not in str(log)

    version = seen_by_ann["version"]
    for step, (token, action) in enumerate([(ben, "b3"), (ann, "a3"), (ben, "b4"), (ann, "a4")]):
        answer = _move(client, game, token, version + step, {"type": "add", "amount": 2}, action)
        assert answer.status_code == 200, answer.get_json()
    final = client.get(f"/api/games/{game}").get_json()
    assert final["over"] and final["winner"] == 0 and final["state"]["count"] == 10
    over = _move(client, game, ben, version + 4, {"type": "add", "amount": 1}, "b5")
    assert over.status_code == 422 and over.get_json()["error"] == ("The game is over: Ann reached 10, so no more "
                                                                    "moves are taken.")


def test_the_toy_game_passes_the_shared_rules_tests_with_no_shared_file_naming_it() -> None:
    """The proof the shared tests follow the games: registered as an extra game, the test game is iterated by
    the shared rules tests (tests/test_rules_shared.py) and passes them, its test traits declared in its own
    module; no shared test file names it."""
    import os
    import subprocess
    import sys

    here = Path(__file__).parent
    shared = [here / "test_rules_shared.py", here / "test_rules_choices.py", here / "game_traits.py"]
    assert not any("toygame" in path.read_text(encoding="utf-8") for path in shared)
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "-k", "toygame", *map(str, shared[:2])],
                         env={**os.environ, "COMPANION_EXTRA_GAMES": "toygame"}, cwd=here.parent,
                         capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, ran.stdout[-3000:]
    summary = ran.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
    assert int(summary.split(" passed")[0].split()[-1]) >= 5, summary  # every shared rules test, not a few
