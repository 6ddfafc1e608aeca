"""Docs stay true (issue 12): "a retried action_id returns the original seq but the current version" is said
in the README and the API docs, and it is what the server does when others have moved since."""

from __future__ import annotations

import random
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.rules import rules_for

ROOT = Path(__file__).resolve().parents[1]
SAYS = re.compile(r"retried `action_id`.*?original `seq` but the current `version`|"
                  r"original\s+`seq`.*?current\s+`version`", re.S)


def test_the_readme_and_the_api_docs_say_original_seq_current_version() -> None:
    for doc in ("README.md", "docs/seats-and-corrections.md", "docs/companion.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert SAYS.search(text), doc
        assert "action_id" in text, doc


def test_a_retried_action_id_answers_the_original_seq_and_the_current_version(app: Flask, client: FlaskClient) -> None:
    game = client.post("/api/games", json={"game": "mandragora", "players": ["Ann", "Ben"]}).get_json()
    store = app.extensions["store"]
    rules = rules_for("mandragora")
    rng = random.Random(3)
    sent = []
    for action in ("first", "second", "third"):
        version, state = store.current(game["id"])
        seat = rules.acting_seats(state)[0]
        move = rules.random_legal_move(state, seat, rng)
        body = {"version": version, "action_id": action, "move": move}
        answer = client.post(f"/api/games/{game['id']}/moves", json=body,
                             headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"})
        assert answer.status_code == 200, answer.get_json()
        sent.append((seat, body, answer.get_json()))
    seat, body, first = sent[0]
    again = client.post(f"/api/games/{game['id']}/moves", json=body,
                        headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"}).get_json()
    assert again["seq"] == first["seq"] == 1
    assert again["version"] == store.version(game["id"]) == 3          # the current version, not the original
    assert len(store.log(game["id"], None)) == 3                       # nothing applied twice
