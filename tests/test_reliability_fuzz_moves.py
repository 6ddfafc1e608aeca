"""In-process fuzz (Flask test client) of what a table does to a game's history — moves, junk in their fields,
undo, corrections and removals (of live moves and of anything else), put-backs of those — with every page and
API read of the game in between: no answer may be a 5xx. (tests/test_reliability_fuzz.py fuzzes the published API contract through
a real server; this one drives real games of every discovered game deep into play, to the end and past it.)

The pages are every GET route of the app that takes only a game id (and a seat): found in the app's URL map,
never listed. The figures (requests, 5xx, statuses) are printed with ``-s``.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.rules import GAMES
from companion.web import create_app
from companion.web.helpers import host_cookie, token_cookie

REQUESTS_PER_GAME = int(os.environ.get("FUZZ_REQUESTS", "600"))
#: what a broken or hostile phone may put in a field
JUNK: tuple[Any, ...] = ({"x": "y"}, [{"x": 1}], ["a", ["b"]], 10**30, -(10**30), 2**53 + 1, 1.5, True, None, "",
                         "x" * 5000, "quentin", 0, -1, 3, [], [0, 1], ["quentin", "quentin"], {"invitations": "1"},
                         {"": -5}, "💥", "\x00")


def game_pages(app: Flask, game_id: str, seats: int, rng: random.Random, version: int = 0) -> str:
    """One GET route of the app that takes a game id (and perhaps a seat, and a move's seq), filled in; a
    route of one move (its correction form, what a correction of it would break) gets a seq of the log, or
    just past it, and a correction to look at (a removal, or a move of junk)."""
    rules = [r for r in app.url_map.iter_rules() if "GET" in (r.methods or ()) and "game_id" in r.arguments
             and r.arguments <= {"game_id", "seat", "seq"}]
    rule = rng.choice(sorted(rules, key=lambda r: r.rule))
    seat = rng.choice([*range(seats), seats, 99])
    path = rule.rule.replace("<game_id>", game_id).replace("<int:seat>", str(seat))
    path = path.replace("<int:seq>", str(rng.randint(0, version + 1)))
    if path.endswith("/misfit"):
        change = {"move": rng.choice([None, {"type": rng.choice(JUNK)}, {"type": "x", "y": rng.choice(JUNK)}]),
                  "drop": rng.choice([[], [version], [rng.choice(JUNK)]])}
        path += "?change=" + json.dumps(change)
    return path


def mutated(move: dict[str, Any], declared: tuple[str, ...], rng: random.Random) -> dict[str, Any]:
    """A move with one field set to junk: one it has, or another its type declares, now and then its type."""
    if rng.random() < 0.1:
        return {**move, "type": rng.choice(JUNK)}
    names = [name for name in move if name != "type"] + list(declared)
    if not names:
        return {**move, "junk": rng.choice(JUNK)}
    return {**move, rng.choice(names): rng.choice(JUNK)}


class Fuzz:
    def __init__(self, app: Flask, game: str, rng: random.Random, statuses: Counter[int], failures: list[str]) -> None:
        self.app, self.rng, self.rules = app, rng, GAMES[game]
        self.client = app.test_client()
        self.store = app.extensions["store"]
        seats = rng.randint(self.rules.MIN_PLAYERS, self.rules.MAX_PLAYERS)
        created = self.client.post("/api/games", json={"game": game, "players": [f"P{s}" for s in range(seats)]})
        body = created.get_json()
        self.id, self.tokens = body["id"], [s["token"] for s in body["seats"]]
        for seat, token in enumerate(self.tokens):   # this phone holds every seat, and is the host
            self.client.set_cookie(token_cookie(self.id, seat), token)
        self.client.set_cookie(host_cookie(self.id), body["host_token"])
        self.statuses, self.failures = statuses, failures   # shared by every game of one run
        self.actions = 0

    def record(self, what: str, response: Any) -> None:
        self.statuses[response.status_code] += 1
        if response.status_code >= 500:
            self.failures.append(f"{what} -> {response.status_code}")

    def post(self, seat: int, path: str, body: dict[str, Any]) -> None:
        self.actions += 1
        version = self.store.version(self.id) if self.rng.random() < 0.95 else self.rng.randint(0, 3)
        payload = {"version": version, "action_id": f"f{self.actions}", **body}
        token = self.tokens[seat % len(self.tokens)]
        response = self.client.post(f"/api/games/{self.id}/{path}", json=payload,
                                    headers={"Authorization": f"Bearer {token}"})
        self.record(f"POST {path} {payload!r}"[:400], response)

    def legal(self, state: Any) -> tuple[int, dict[str, Any]] | None:
        for seat in self.rng.sample(range(len(self.tokens)), len(self.tokens)):
            move = self.rules.random_legal_move(state, seat, self.rng)
            if move is not None:
                return seat, move
        return None

    def step(self) -> None:
        rng, state = self.rng, self.store.current(self.id)[1]
        roll = rng.random()
        if roll < 0.35 or roll < 0.50:
            found = self.legal(state)
            if found is None:
                return self.page()
            seat, move = found
            if roll >= 0.35:
                move = mutated(move, self.rules.SPEC.move(move["type"]).fields, rng)
            return self.post(seat, "moves", {"move": move})
        if roll < 0.58:
            return self.post(rng.randrange(len(self.tokens)), "undo", {})
        if roll < 0.67:
            return self.correction()
        if roll < 0.70:
            return self.put_back()
        if roll < 0.71:
            return self.fast_forward()
        return self.page()

    def correction(self) -> None:
        rng = self.rng
        steps = self.store.timeline(self.id)
        version = self.store.version(self.id)
        if len(steps) > 1 and rng.random() < 0.8:
            index = rng.randrange(1, len(steps))
            seq, author, _ = steps[index]
            found = self.legal(steps[index - 1][2])
            move = None if found is None or rng.random() < 0.3 else found[1]
            if move is not None and rng.random() < 0.3:
                move = mutated(move, self.rules.SPEC.move(move["type"]).fields, rng)
            seat = author if author is not None and rng.random() < 0.7 else rng.randrange(len(self.tokens))
        else:
            seq, move, seat = rng.choice([0, 1, version, version + 1, 10**6]), rng.choice([None, {"type": "x"}]), 0
        drop = rng.sample(range(seq + 1, version + 2), min(2, max(0, version + 1 - seq))) if rng.random() < 0.1 else []
        self.post(seat, "correct", {"seq": max(seq, 1), "move": move, "drop": drop})

    def put_back(self) -> None:
        """Put back a take-back or correction (by its maker, the seat it touched, or another), or junk."""
        rng = self.rng
        changes = [e for e in self.store.log(self.id, None) if e["kind"] in ("undo", "correct")]
        if changes and rng.random() < 0.8:
            change = rng.choice(changes)
            entry, seat = change["seq"], rng.choice([change["seat"], change.get("author", 0), rng.randrange(99)])
        else:
            entry, seat = rng.choice([1, self.store.version(self.id), 10**6]), 0
        drop = [rng.randint(1, self.store.version(self.id) + 1)] if rng.random() < 0.1 else []
        self.post(seat, "revert", {"entry": entry, "drop": drop})

    def fast_forward(self) -> None:
        """Play on to the end (the store takes the moves): the finished game's pages are read too."""
        for _ in range(600):
            state = self.store.current(self.id)[1]
            if self.rules.outcome(state).over:
                return
            found = self.legal(state)
            if found is None:
                return
            version = self.store.version(self.id)
            self.store.apply_move(self.id, found[0], version, f"ff{version}", found[1])

    def page(self) -> None:
        path = game_pages(self.app, self.id, len(self.tokens), self.rng, self.store.version(self.id))
        headers = {} if self.rng.random() < 0.5 else {"Authorization": f"Bearer {self.rng.choice(self.tokens)}"}
        self.record(f"GET {path}", self.client.get(path, headers=headers))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_moves_undo_corrections_and_every_page_never_answer_5xx(tmp_path: Path, name: str) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "fuzz.sqlite3"), "SECRET_KEY": "fuzz"})
    rng = random.Random(f"issue-21-{name}")
    try:
        statuses: Counter[int] = Counter()
        failures: list[str] = []
        fuzz = Fuzz(app, name, rng, statuses, failures)
        while sum(statuses.values()) < REQUESTS_PER_GAME:
            if rng.random() < 0.01:   # a new game now and then: the fuzz sees starts as well as long games
                fuzz = Fuzz(app, name, rng, statuses, failures)
            before = sum(statuses.values())
            fuzz.step()
            if sum(statuses.values()) == before:
                fuzz.page()
        print(f"{name}: {sum(statuses.values())} requests, {len(failures)} 5xx, statuses {dict(sorted(statuses.items()))}")
        assert failures == []
    finally:
        app.extensions["store"].close()
