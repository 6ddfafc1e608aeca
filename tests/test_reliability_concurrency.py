"""Racing phones on one game, over a real server, for every registered game.

tests/test_served.py races single versions during the deal. Here several phones per seat play a
whole game at once with the rules module's own ``random_legal_move``: two phones for each seat act on
whatever version they last read, resend some requests with the same action id (a lost answer),
send some on purpose with an old version, and sometimes take a move back. Afterwards every answer
is checked against the move log in the database and the final state against a replay of that log.

What a phone would see on the physical table (which card it drew) comes from the database the
server writes, read by a :class:`Store` of the test's own; the server is never told anything else.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest
import requests
from game_traits import traits_for
from store_checks import replay_from_scratch, stored_state

from companion.rules import GAMES
from companion.served import RunningServer, running_server
from companion.store import Store
from companion.web.results import is_finished

pytestmark = pytest.mark.served

PHONES_PER_SEAT = 2
MOVE_BUDGET = 2500       # acknowledged moves, a safety cap: a six-player Fillory game takes about 800
DEADLINE_SECONDS = 300.0  # a safety stop: a whole game normally takes 2 to 5 s (generous for a busy machine)
RETRY_CHANCE = 0.25      # resend the very same request, as a phone does when an answer is lost
STALE_CHANCE = 0.05      # send a new action with the version before the one just read
UNDO_CHANCE = 0.04
FORCE_KINDS_AFTER = 5    # acknowledged moves after which a kind of request never sent yet is sent next
ERROR_KEYS = {"ok", "error", "rule", "status"}
#: The fewest acknowledged moves and stale-version refusals a raced game must give, each game declares
#: (a short game gives fewer): tests/game_traits.py (race_min_acknowledged, race_min_stale_refusals).


@dataclass
class Attempt:
    """One request a phone sent and the answer it got."""

    phone: str
    seat: int
    kind: str              # "move", "retry" (the same request again), "stale" or "undo"
    action_id: str
    version: int
    move: dict[str, Any] | None
    status: int
    body: dict[str, Any]


def table_sizes(rules: ModuleType) -> list[int]:
    """A small table and the largest one."""
    return sorted({min(max(3, rules.MIN_PLAYERS), rules.MAX_PLAYERS), rules.MAX_PLAYERS})


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("race"), ("--workers", "2", "--threads", "4"),
                        secret_key="race-test-key") as running:
        yield running


class Race:
    """Phones for every seat of one game, sharing a record of what they sent and got."""

    def __init__(self, server: RunningServer, game: str, players: int, seed: int) -> None:
        self.server, self.game, self.rules = server, game, GAMES[game]
        names = [f"Player {seat + 1}" for seat in range(players)]
        created = requests.post(server.base + "/api/games", timeout=60,
                                json={"game": game, "players": names, "options": {}})
        assert created.status_code == 201, created.text
        self.created = created.json()
        self.game_id: str = self.created["id"]
        self.table = Store(server.db_path)  # the physical table: what the phones can see with their eyes
        self.seed = seed
        self.attempts: list[Attempt] = []
        self.acknowledged = 0
        self.lock = threading.Lock()
        #: notified when an answer moves the game on (or the race stops): a phone whose seat has no move waits
        #: for it instead of reading the table every 2 ms (12 phones polling cost the test more CPU than the race)
        self.changed = threading.Condition(self.lock)
        self.newest_version = 0
        self.stop = threading.Event()
        self.failures: list[str] = []

    def token(self, seat: int) -> str:
        return str(self.created["seats"][seat]["token"])

    def post(self, session: requests.Session, path: str, seat: int, body: dict[str, Any]) -> requests.Response:
        return session.post(f"{self.server.base}/api/games/{self.game_id}/{path}", json=body, timeout=60,
                            headers={"Authorization": f"Bearer {self.token(seat)}"})

    def record(self, attempt: Attempt) -> None:
        with self.lock:
            self.attempts.append(attempt)
            if attempt.status == 200 and attempt.kind in ("move", "undo"):
                self.acknowledged += 1
                if self.acknowledged >= MOVE_BUDGET:
                    self.stop.set()
            if attempt.status == 200 and isinstance(attempt.body.get("version"), int):
                self.newest_version = max(self.newest_version, attempt.body["version"])
            self.changed.notify_all()

    def halt(self) -> None:
        with self.lock:
            self.stop.set()
            self.changed.notify_all()

    def wait_for_a_newer_version(self, version: int) -> None:
        """Until an answer says the game is past ``version`` or the race stops; the table is read again at least
        every 0.2 s whatever happens (a move this record missed would only slow the race, never stall it)."""
        with self.changed:
            self.changed.wait_for(lambda: self.stop.is_set() or self.newest_version > version, timeout=0.2)

    def kind_still_missing(self) -> str | None:
        """A short game (Barony: Sorcery's is 31 to 40 moves) may end before chance sends an undo or a stale
        version; once a few moves are in, the next phone to act sends whichever was never sent."""
        with self.lock:
            if self.acknowledged < FORCE_KINDS_AFTER:
                return None
            sent = {attempt.kind for attempt in self.attempts}
        return next((kind for kind in ("undo", "stale") if kind not in sent), None)

    def send(self, session: requests.Session, phone: str, seat: int, kind: str, version: int,
             move: dict[str, Any] | None, action_id: str | None = None) -> Attempt:
        action_id = action_id or uuid.uuid4().hex
        body: dict[str, Any] = {"version": version, "action_id": action_id}
        if move is not None:
            body["move"] = move
        response = self.post(session, "undo" if kind == "undo" else "moves", seat, body)
        attempt = Attempt(phone, seat, kind, action_id, version, move, response.status_code, response.json())
        self.record(attempt)
        return attempt

    def phone(self, seat: int, number: int) -> None:
        name = f"seat {seat} phone {number}"
        rng = random.Random(f"{self.seed}-{seat}-{number}")
        session = requests.Session()
        deadline = time.monotonic() + DEADLINE_SECONDS
        try:
            while not self.stop.is_set() and time.monotonic() < deadline:
                version, state = self.table.current(self.game_id)
                if is_finished(self.rules, state):
                    self.halt()
                    break
                move = self.rules.random_legal_move(state, seat, rng)
                if move is None:
                    self.wait_for_a_newer_version(version)  # not this seat's turn: look again once it moves on
                    continue
                roll = rng.random()
                missing = self.kind_still_missing()
                if missing == "undo" or (missing is None and roll < UNDO_CHANCE):
                    self.send(session, name, seat, "undo", version, None)
                elif (missing == "stale" or (missing is None and roll < UNDO_CHANCE + STALE_CHANCE)) and version > 0:
                    self.send(session, name, seat, "stale", version - 1, move)
                else:
                    first = self.send(session, name, seat, "move", version, move)
                    if rng.random() < RETRY_CHANCE:
                        self.send(session, name, seat, "retry", version, move, first.action_id)
        except Exception as error:  # a thread's failure must fail the test, not vanish
            self.failures.append(f"{name}: {error!r}")
            self.halt()
        finally:
            session.close()

    def run(self) -> None:
        seats = range(len(self.created["seats"]))
        threads = [threading.Thread(target=self.phone, args=(seat, number), name=f"phone-{seat}-{number}")
                   for seat in seats for number in range(PHONES_PER_SEAT)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.table.close()


def logged_moves(db_path: Path, game_id: str) -> list[dict[str, Any]]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute("SELECT seq, seat, kind, move, undoes, action_id, result FROM moves"
                            " WHERE game_id = ? ORDER BY seq", [game_id]).fetchall()
        return [dict(row) for row in rows]
    finally:
        conn.close()


def stored_game(db_path: Path, game_id: str) -> dict[str, Any]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        return dict(conn.execute("SELECT game, version, initial_state, state FROM games WHERE id = ?",
                                 [game_id]).fetchone())
    finally:
        conn.close()



def check_error_shape(attempt: Attempt) -> None:
    assert set(attempt.body) >= ERROR_KEYS, attempt
    assert attempt.body["ok"] is False and attempt.body["status"] == attempt.status
    assert isinstance(attempt.body["error"], str) and attempt.body["error"]


def check_answers_against_the_log(race: Race, rows: list[dict[str, Any]]) -> None:
    assert [row["seq"] for row in rows] == list(range(1, len(rows) + 1)), "the log has a gap or a repeat"
    by_action = {row["action_id"]: row for row in rows}
    assert len(by_action) == len(rows), "an action id appears twice in the log"
    firsts = {a.action_id: a for a in race.attempts if a.kind in ("move", "undo", "stale")}
    acknowledged = {action: a for action, a in firsts.items() if a.status == 200}
    assert set(by_action) == set(acknowledged), "the log and the acknowledged moves differ"
    for action_id, attempt in acknowledged.items():
        row = by_action[action_id]
        assert row["seq"] == attempt.body["seq"] and row["seat"] == attempt.seat, (row, attempt)
        assert row["kind"] == ("undo" if attempt.kind == "undo" else "move")
        if attempt.move is not None:  # as sent, less any field the rules did not use (the store drops those)
            stored = json.loads(row["move"])
            assert stored["type"] == attempt.move["type"], (stored, attempt.move)
            assert stored == {key: value for key, value in attempt.move.items() if key in stored}, (stored, attempt)
    for attempt in race.attempts:
        assert attempt.status < 500, attempt
        if attempt.status != 200:
            check_error_shape(attempt)
        if attempt.kind == "stale":
            assert attempt.status == 409 and attempt.body["version"] > attempt.version, attempt
        elif attempt.kind == "move":
            assert attempt.status in (200, 409), attempt  # a move legal at its version is never refused
            if attempt.status == 409:
                assert attempt.body["version"] > attempt.version, attempt
        elif attempt.kind == "undo":
            assert attempt.status in (200, 409, 422), attempt
            if attempt.status == 422:
                assert attempt.body["rule"] is None, attempt
        else:  # a retry gets the first answer: the same seq after a 200, the same refusal after a 409
            first = firsts[attempt.action_id]
            assert attempt.status == first.status, (first, attempt)
            if first.status == 200:
                assert attempt.body["seq"] == first.body["seq"], (first, attempt)


@pytest.mark.parametrize("game, players", [(game, size) for game in sorted(GAMES)
                                           for size in table_sizes(GAMES[game])])
def test_racing_phones_play_a_whole_game_with_one_true_log(server: RunningServer, game: str, players: int) -> None:
    race = Race(server, game, players, seed=players)
    started = time.monotonic()
    race.run()
    elapsed = time.monotonic() - started
    assert race.failures == []
    rows = logged_moves(server.db_path, race.game_id)
    check_answers_against_the_log(race, rows)

    statuses = [a.status for a in race.attempts]
    kinds = {a.kind for a in race.attempts}
    declared = traits_for(game)  # how much a whole game of this kind gives (tests/game_traits.py)
    assert statuses.count(200) >= declared.race_min_acknowledged, statuses.count(200)
    assert statuses.count(409) >= declared.race_min_stale_refusals, statuses.count(409)
    assert kinds == {"move", "retry", "stale", "undo"}, f"not every kind of request was sent in {elapsed:.1f} s"

    stored = stored_game(server.db_path, race.game_id)
    rules = race.rules
    cached = stored_state(rules, stored["state"])
    assert is_finished(rules, cached), f"the game did not end within {elapsed:.1f} s"
    assert stored["version"] == len(rows)
    assert replay_from_scratch(rules, stored["initial_state"], rows) == cached
    checker = Store(server.db_path)
    try:
        assert checker.replay(race.game_id) == cached
    finally:
        checker.close()

    public = requests.get(f"{server.base}/api/games/{race.game_id}", timeout=60).json()
    assert public["version"] == len(rows)
    assert public["state"] == json.loads(json.dumps(rules.view(cached, None)))
    for seat in range(len(race.created["seats"])):
        mine = requests.get(f"{server.base}/api/games/{race.game_id}", timeout=60,
                            headers={"Authorization": f"Bearer {race.token(seat)}"}).json()
        assert mine["state"] == json.loads(json.dumps(rules.view(cached, seat)))
    entries = requests.get(f"{server.base}/api/games/{race.game_id}/log", timeout=60).json()["entries"]
    assert [(e["seq"], e["seat"], e["kind"]) for e in entries] == [(r["seq"], r["seat"], r["kind"]) for r in rows]


def test_the_server_never_failed_or_waited_on_a_lock(server: RunningServer) -> None:
    log = server.log()
    assert "Traceback" not in log and "database is locked" not in log and "[ERROR]" not in log
