"""Issue 21, property: in every discovered game, random sequences of moves, undos, corrections and removals
(and put-backs of those; often, play to the end and changes after it) leave every reader of the game's
history answering 2xx and agreeing with the final state: the game API, the log API, the table page, the store's timeline (the chart's
data), and, once the game is finished, the result page, result.json (its score over time) and BG Stats' export.
A change that moves the end (over or not, who wins) says so in its log line, and a game whose end needs
confirmations is over only on totals every confirmation saw, and after the end no change rewrites, removes or
puts in a move the end was settled on (final_once_over)."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import GAMES, rules_for
from companion.web import create_app
from tests.store_checks import replay_from_scratch

EXAMPLES = 20
ACTIONS = st.sampled_from(["move", "move", "move", "undo", "correct", "remove", "put_back"])
#: what the examples did, per game (printed with -s: the figures of the report)
SEEN: dict[str, Counter[str]] = {}
ENDING_WORDS = ("the game is no longer over", "the end changes", "with it the game is over")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("props") / "c.sqlite3"),
                      "SECRET_KEY": "test-secret-key"})
    yield app
    app.extensions["store"].close()


class Game:
    """One game driven through the JSON API, the way phones drive it."""

    def __init__(self, client: FlaskClient, name: str, seats: int) -> None:
        self.client, self.rules = client, rules_for(name)
        self.store = client.application.extensions["store"]
        created = client.post("/api/games", json={"game": name, "players": [f"P{s}" for s in range(seats)]})
        assert created.status_code == 201
        body = created.get_json()
        self.id, self.tokens = body["id"], [s["token"] for s in body["seats"]]
        self.actions = 0
        self.seen = SEEN.setdefault(name, Counter())

    def post(self, seat: int, path: str, body: dict[str, Any]) -> Any:
        self.actions += 1
        version = self.store.version(self.id)
        response = self.client.post(f"/api/games/{self.id}/{path}",
                                    json={"version": version, "action_id": f"p{self.actions}", **body},
                                    headers={"Authorization": f"Bearer {self.tokens[seat]}"})
        assert response.status_code < 500, response.get_data(as_text=True)
        return response

    def state(self) -> Any:
        return self.store.current(self.id)[1]

    def ending(self) -> tuple[bool, tuple[int, ...]]:
        outcome = self.rules.outcome(self.state())
        return outcome.over, tuple(sorted(outcome.winners or (() if outcome.winner is None else (outcome.winner,))))

    def finished(self) -> bool:
        return self.rules.outcome(self.state()).over or bool(self.rules.SPEC.can_stall and
                                                              self.rules.stalled(self.state()))

    def random_move(self, state: Any, rng: random.Random, seat: int | None = None) -> tuple[int, Any] | None:
        seats = [seat] if seat is not None else rng.sample(range(len(self.tokens)), len(self.tokens))
        for s in seats:
            move = self.rules.random_legal_move(state, s, rng)
            if move is not None:
                return s, move
        return None

    def live_steps(self) -> list[tuple[int, int | None, Any]]:
        return self.store.timeline(self.id)

    def settled(self) -> dict[int, Any]:
        """The live moves the end was settled on (the spec's final_once_over), by seq."""
        final = self.rules.SPEC.final_once_over
        return {m.seq: m.move for m in self.store.live_moves(self.id) if m.move.get("type") in final}

    def act(self, action: str, rng: random.Random) -> None:
        before = self.ending()
        settled = self.settled() if before[0] else None
        if action == "move":
            found = self.random_move(self.state(), rng)
            if found is None:
                return
            response = self.post(found[0], "moves", {"move": found[1]})
            assert response.status_code == 200, response.get_json()
            return
        seat = rng.randrange(len(self.tokens))
        if action == "undo":
            response = self.post(seat, "undo", {})
        elif action == "put_back":   # a take-back or correction put back by the seat that made it or suffered it
            entries = self.client.get(f"/api/games/{self.id}/log").get_json()["entries"]
            changes = [e for e in entries if e["kind"] in ("undo", "correct") and not e.get("put_back")]
            if not changes:
                return
            change = rng.choice(changes)
            seat = rng.choice([change["seat"], change.get("author", change["seat"])])
            response = self.post(seat, "revert", {"entry": change["seq"]})
        else:
            steps = self.live_steps()
            if len(steps) < 2:
                return
            index = rng.randrange(1, len(steps))
            seq, author, _ = steps[index]
            move = None
            if action == "correct":
                found = self.random_move(steps[index - 1][2], rng, author)
                move = None if found is None else found[1]
                seat = author if author is not None else seat   # a move with hidden parts: only its author
            response = self.post(seat, "correct", {"seq": seq, "move": move})
        self.seen[f"{action} {response.status_code}" + (" after the end" if before[0] else "")] += 1
        if settled is not None:   # after the end, what the end was settled on stands, whatever the change
            assert self.settled() == settled, (action, response.get_json())
        if response.status_code == 200 and self.ending() != before:
            self.seen["a change moved the end (and said so)"] += 1
            line = self.client.get(f"/api/games/{self.id}/log").get_json()["entries"][-1]["text"]
            assert any(words in line for words in ENDING_WORDS), (before, self.ending(), line)

    def play_to_the_end(self, rng: random.Random, most: int = 600) -> None:
        for _ in range(most):
            if self.finished():
                return
            found = self.random_move(self.state(), rng)
            if found is None:
                return
            version = self.store.version(self.id)
            self.store.apply_move(self.id, found[0], version, f"e{version}", found[1])


def scores_of(rules: Any, state: Any) -> list[int]:
    return [row["total"] for row in sorted(rules.score(state), key=lambda r: r["seat"])]


def check_readers(game: Game) -> None:
    client, rules, gid = game.client, game.rules, game.id
    api = client.get(f"/api/games/{gid}")
    assert api.status_code == 200
    totals = [row["total"] for row in sorted(api.get_json()["scores"], key=lambda r: r["seat"])]
    state = game.state()
    assert scores_of(rules, state) == totals
    # the one timeline: the chart's data ends on the state, and an independent replay of the rows agrees
    steps = game.live_steps()
    assert scores_of(rules, steps[-1][2]) == totals
    db = game.store.backend._db()
    initial = db.execute("SELECT initial_state FROM games WHERE id = ?", [gid]).fetchone()[0]
    cursor = db.execute("SELECT seq, seat, kind, move, undoes FROM moves WHERE game_id = ? ORDER BY seq", [gid])
    rows = [dict(zip([d[0] for d in cursor.description], row, strict=True)) for row in cursor.fetchall()]
    assert rules.state_to_json(replay_from_scratch(rules, initial, rows)) == rules.state_to_json(state)
    for seat in (None, *range(len(game.tokens))):
        headers = {} if seat is None else {"Authorization": f"Bearer {game.tokens[seat]}"}
        assert client.get(f"/api/games/{gid}/log", headers=headers).status_code == 200
    assert client.get(f"/g/{gid}").status_code == 200
    # a confirmation of the end confirmed the totals the game ended on
    confirming = rules.SPEC.end_confirmations
    if confirming and rules.outcome(state).over:
        log = {e["seq"]: e for e in client.get(f"/api/games/{gid}/log").get_json()["entries"]}
        for seq, _, after in steps[1:]:
            if log[seq]["move"].get("type") in confirming:
                assert scores_of(rules, after) == totals, (seq, totals)
    if not game.finished():
        assert client.get(f"/g/{gid}/result.json").status_code == 409
        return
    game.seen["finished games' readers checked"] += 1
    for path in ("result", "result.json", "result.bgstats.json"):
        assert client.get(f"/g/{gid}/{path}").status_code == 200, path
    result = client.get(f"/g/{gid}/result.json").get_json()
    assert [p["total"] for p in result["players"]] == totals
    assert result["score_over_time"][-1]["totals"] == totals
    assert [s["seq"] for s in result["score_over_time"]] == [seq for seq, _, _ in steps]
    assert [p["score"] for p in client.get(f"/g/{gid}/result.bgstats.json").get_json()["players"]] == totals
    page = client.get(f"/g/{gid}/result").get_data(as_text=True)
    described = re.search(r'<desc id="chart-desc">([^<]*)</desc>', page)
    assert described is not None
    assert [int(n) for n in re.findall(r": (-?\d+) at the end", described.group(1))] == totals


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_reader_of_a_game_history_agrees_with_its_state(app: Flask, name: str) -> None:
    rules = GAMES[name]

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(seed=st.integers(0, 2**32), seats=st.integers(rules.MIN_PLAYERS, min(rules.MAX_PLAYERS, 4)),
           before=st.lists(ACTIONS, min_size=3, max_size=25), finish=st.booleans(),
           after=st.lists(ACTIONS.filter(lambda a: a != "move"), max_size=4))
    def run(seed: int, seats: int, before: list[str], finish: bool, after: list[str]) -> None:
        rng = random.Random(seed)
        game = Game(app.test_client(), name, seats)
        for action in before:
            game.act(action, rng)
        check_readers(game)
        game.seen["examples"] += 1
        if finish:
            game.play_to_the_end(rng)
            check_readers(game)
            for action in after:     # changes to a finished game: reopened visibly, or refused with the reason
                game.act(action, rng)
            check_readers(game)

    run()
    print(name, dict(sorted(SEEN.get(name, Counter()).items())))
