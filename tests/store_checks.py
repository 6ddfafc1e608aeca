"""Checks shared by the reliability tests: the stored log replayed without the store's help."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from companion.rules import spec_for


def stored_state(rules: ModuleType, stored: str) -> Any:
    """A state as the store keeps it (the rules' JSON with its format version), read without the store."""
    return rules.state_from_json(spec_for(rules.GAME_ID).upgraded_state(json.loads(stored)))


def replay_from_scratch(rules: ModuleType, initial_state: str, rows: list[dict[str, Any]]) -> Any:
    """The rules applied to the logged moves from the stored set-up, independently of the store."""
    undone = {row["undoes"] for row in rows if row["kind"] == "undo"}
    state = stored_state(rules, initial_state)
    for row in rows:
        if row["kind"] == "move" and row["seq"] not in undone:
            state = rules.apply(state, row["seat"], json.loads(row["move"]))
    return state
