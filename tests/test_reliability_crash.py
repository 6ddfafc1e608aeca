"""Pull the plug mid-game: ``kill -9`` the gunicorn master and its workers while phones post moves.

A game of every registered game at once: a real ``companion serve`` takes moves from racing phones; the test kills
every server process with SIGKILL while requests are in flight, starts a new server on the same
database, lets the phones retry what they never got an answer to (same action id), plays on and
crashes again. At the end every move that was ever acknowledged is in the log once, nothing else is,
the cached state equals the log replayed (by the store and by the rules from scratch), the database
passes SQLite's integrity check, and the server takes new moves. WAL with ``synchronous=NORMAL``
keeps every committed transaction when a process dies (only a power cut could lose the last ones).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import requests
from game_traits import games_from_env, traits_for
from store_checks import replay_from_scratch, stored_state

from companion.rules import GAMES
from companion.served import RunningServer, process_children, running_server
from companion.store import Store
from companion.web.results import is_finished

pytestmark = pytest.mark.served

CRASHES = 3
PHONES_PER_SEAT = 2
#: acknowledged moves per round before the plug is pulled: each game declares how many fit (three rounds
#: must fit in one of its games), tests/game_traits.py (GameTraits.crash_acks_per_round, default 40)
ROUND_SECONDS = 180.0       # a safety stop for a round (normally well under a second; generous for a busy machine)
SERVE_ARGS = ("--workers", "2", "--threads", "4")
#: the games played through the crashes: ``CRASH_GAMES`` (comma-separated ids; the test game's shared run names its
#: own, whose crash is then not also every other game's again), unset every discovered game
CRASHED = games_from_env("CRASH_GAMES", GAMES)


@dataclass
class Attempt:
    seat: int
    action_id: str
    version: int
    move: dict[str, Any]
    status: int | None            # None: no answer (the connection failed or was cut)
    body: dict[str, Any] | None


def is_gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")  # a zombie runs no code and holds no lock


def kill_everything(server: RunningServer) -> list[int]:
    """SIGKILL the master first (so it cannot start new workers), then every worker; wait for all."""
    master = server.process.pid
    workers = process_children(master)
    os.kill(master, signal.SIGKILL)
    for pid in workers:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert server.process.wait(timeout=120) == -signal.SIGKILL  # ceilings: a killed process goes at once
    deadline = time.monotonic() + 120
    while not all(is_gone(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived SIGKILL"
        time.sleep(0.02)
    return workers


class Phones:
    """Two phones per seat of one game, posting legal moves until the server dies."""

    def __init__(self, game: str, game_id: str, tokens: list[str], db_path: Path, seed: int) -> None:
        self.rules: ModuleType = GAMES[game]
        self.game_id, self.tokens, self.db_path, self.seed = game_id, tokens, db_path, seed
        self.attempts: list[Attempt] = []
        self.lock = threading.Lock()
        self.sending = 0  # moves on their way to the server now
        self.failures: list[str] = []

    def acknowledged(self) -> int:
        with self.lock:
            return sum(1 for a in self.attempts if a.status == 200)

    def post(self, base: str, attempt: Attempt, timeout: float = 60) -> Attempt:
        try:
            response = requests.post(f"{base}/api/games/{self.game_id}/moves", timeout=timeout,
                                     headers={"Authorization": f"Bearer {self.tokens[attempt.seat]}"},
                                     json={"version": attempt.version, "action_id": attempt.action_id,
                                           "move": attempt.move})
        except requests.RequestException:
            return attempt  # no answer: the phone does not know whether the move was applied
        return Attempt(attempt.seat, attempt.action_id, attempt.version, attempt.move, response.status_code,
                       response.json())

    def finished(self, state: Any) -> bool:
        return is_finished(self.rules, state)

    def over(self) -> bool:
        """Whether the game has come to its end (a short game may, between two crashes): its phones stop."""
        table = Store(self.db_path)
        try:
            return self.finished(table.current(self.game_id)[1])
        finally:
            table.close()

    def posting(self) -> bool:
        """Whether any of this game's phones still runs (they stop at the game's end or the server's)."""
        return any(thread.is_alive() for thread in self.threads)

    def play(self, base: str, round_number: int, stop: threading.Event, hold_at: int | None = None,
             release: threading.Event | None = None) -> None:
        """Run every phone until each has seen the server go away (or the game end, or ``stop``); with
        ``hold_at``, the phones wait once that many moves are acknowledged until ``release`` is set (so that a
        short game does not come to its end while the other games of the round catch up)."""
        def phone(seat: int, number: int) -> None:
            rng = random.Random(f"{self.seed}-{round_number}-{seat}-{number}")
            table = Store(self.db_path)  # what the phone sees on the physical table
            deadline = time.monotonic() + ROUND_SECONDS
            try:
                while time.monotonic() < deadline and not stop.is_set():
                    if release is not None and not release.is_set() and self.acknowledged() >= (hold_at or 0):
                        time.sleep(0.002)
                        continue
                    version, state = table.current(self.game_id)
                    if self.finished(state):
                        return
                    move = self.rules.random_legal_move(state, seat, rng)
                    if move is None:
                        time.sleep(0.002)
                        continue
                    with self.lock:
                        self.sending += 1
                    try:
                        answer = self.post(base, Attempt(seat, uuid.uuid4().hex, version, move, None, None))
                    finally:
                        with self.lock:
                            self.sending -= 1
                    with self.lock:
                        self.attempts.append(answer)
                    if answer.status is None:
                        return  # the server is gone: this phone waits for it to come back
            except Exception as error:
                self.failures.append(f"seat {seat} phone {number}: {error!r}")
            finally:
                table.close()

        seats = range(len(self.tokens))
        threads = [threading.Thread(target=phone, args=(seat, number))
                   for seat in seats for number in range(PHONES_PER_SEAT)]
        for thread in threads:
            thread.start()
        self.threads = threads

    def join(self) -> None:
        for thread in self.threads:
            thread.join()

    def unanswered(self) -> list[Attempt]:
        with self.lock:
            return [a for a in self.attempts if a.status is None]

    def retry_unanswered(self, base: str) -> list[Attempt]:
        """Send every unanswered request again, unchanged, as a phone does once the server is back.

        A move that was committed just before the crash (its answer never left) gets its first
        answer, with the seq the log gave it; any other is applied now (200) or is stale (409).
        """
        logged_before = {row["action_id"]: row["seq"] for row in read_log(self.db_path, self.game_id)[0]}
        retried = [self.post(base, attempt) for attempt in self.unanswered()]
        for first, again in zip(self.unanswered(), retried, strict=True):
            assert again.status in (200, 409), (first, again)
            if first.action_id in logged_before:
                assert again.status == 200 and again.body is not None, again
                assert again.body["seq"] == logged_before[first.action_id], again
        with self.lock:
            self.attempts = [a for a in self.attempts if a.status is not None] + retried
        return retried


def read_log(db_path: Path, game_id: str) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        rows = [dict(r) for r in conn.execute("SELECT seq, seat, kind, move, undoes, action_id, result FROM moves"
                                               " WHERE game_id = ? ORDER BY seq", [game_id])]
        game = dict(conn.execute("SELECT version, initial_state, state FROM games WHERE id = ?", [game_id]).fetchone())
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        return rows, game, integrity
    finally:
        conn.close()



def check_the_log_kept_every_acknowledged_move(phones: Phones, db_path: Path, acknowledged: dict[str, int]) -> None:
    """``acknowledged``: every action id that ever got a 200, with the seq it was given."""
    rows, game, integrity = read_log(db_path, phones.game_id)
    assert integrity == "ok"
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1)), "the log has a gap or a repeat"
    logged = {r["action_id"]: r for r in rows}
    assert len(logged) == len(rows), "an action id is logged twice"
    missing = sorted(set(acknowledged) - set(logged))
    assert not missing, f"{len(missing)} acknowledged move(s) lost in the crash"
    assert all(logged[action]["seq"] == seq for action, seq in acknowledged.items())
    sent = {a.action_id: a for a in phones.attempts}
    assert set(logged) <= set(sent), "the log holds a move no phone sent"
    for action, row in logged.items():
        assert json.loads(row["move"]) == sent[action].move and row["seat"] == sent[action].seat
    cached = stored_state(phones.rules, game["state"])
    assert game["version"] == len(rows)
    assert replay_from_scratch(phones.rules, game["initial_state"], rows) == cached
    checker = Store(db_path)
    try:
        assert checker.replay(phones.game_id) == cached
        assert checker.current(phones.game_id) == (len(rows), cached)
    finally:
        checker.close()


def remember_answers(phones: Phones, acknowledged: dict[str, int]) -> None:
    for attempt in phones.attempts:
        if attempt.status == 200 and attempt.body is not None:
            seq = acknowledged.setdefault(attempt.action_id, attempt.body["seq"])
            assert seq == attempt.body["seq"], "a retried action got a different answer"
        elif attempt.status is not None:
            assert attempt.status == 409 and attempt.body is not None and attempt.body["ok"] is False, attempt


def players_for(game: str) -> list[str]:
    rules = GAMES[game]
    return [f"Player {seat + 1}" for seat in range(min(max(3, rules.MIN_PLAYERS), rules.MAX_PLAYERS))]


@pytest.mark.parametrize("games", [CRASHED], ids=" ".join)  # -k selects it by any game's id
def test_kill_9_mid_game_loses_no_acknowledged_move(tmp_path: Path, games: tuple[str, ...]) -> None:
    """A game of every registered game is played at once on the one server, so each crash hits them all (one
    server start a round for every game, not one per game and round)."""
    assert set(games) <= set(GAMES), f"CRASH_GAMES names a game not discovered: {games}"
    acknowledged: dict[str, dict[str, int]] = {game: {} for game in games}
    tables: dict[str, Phones] = {}
    for round_number in range(CRASHES):
        with running_server(tmp_path, SERVE_ARGS, secret_key="crash-test-key", workers=2) as server:
            if not tables:
                for game in games:
                    created = requests.post(server.base + "/api/games", timeout=60,
                                            json={"game": game, "players": players_for(game), "options": {}}).json()
                    tables[game] = Phones(game, created["id"], [s["token"] for s in created["seats"]],
                                          server.db_path, 7)
            else:
                for game, phones in tables.items():
                    phones.retry_unanswered(server.base)
                    remember_answers(phones, acknowledged[game])
                    check_the_log_kept_every_acknowledged_move(phones, server.db_path, acknowledged[game])
            # a game that came to its end is asked for no more moves (the_server_takes_a_new_move starts another)
            targets = {game: phones.acknowledged() + (0 if phones.over() else traits_for(game).crash_acks_per_round)
                       for game, phones in tables.items()}
            stop, release = threading.Event(), threading.Event()
            for game, phones in tables.items():  # each game's phones wait at its target for the others
                phones.play(server.base, round_number, stop, targets[game], release)
            deadline = time.monotonic() + ROUND_SECONDS
            # (a game that comes to its end meanwhile stops its phones: it does not hold the others either)
            while short := {game: phones.acknowledged() for game, phones in tables.items()
                            if phones.acknowledged() < targets[game] and phones.posting()}:
                assert time.monotonic() < deadline, f"only {short} moves in {ROUND_SECONDS} s"
                time.sleep(0.005)
            release.set()  # every game plays on, and once each has a move on its way, the plug is pulled
            # (a game whose phones stopped at its end has nothing more to send: it does not hold the others)
            while idle := [game for game, phones in tables.items() if phones.sending == 0 and phones.posting()]:
                assert time.monotonic() < deadline, f"{idle}: no move sent after the others caught up"
                time.sleep(0.001)
            workers = kill_everything(server)  # the phones are still posting
            assert len(workers) == 2
            deadline = time.monotonic() + ROUND_SECONDS  # the acting seats' phones post into the dead server
            while unnoticed := [game for game, phones in tables.items()
                                if len(phones.unanswered()) < PHONES_PER_SEAT and not phones.over()]:
                assert time.monotonic() < deadline, f"{unnoticed}: the phones never noticed the server die"
                time.sleep(0.005)
            stop.set()  # the waiting seats' phones would only have looked at the table
            for phones in tables.values():
                phones.join()
        for game, phones in tables.items():
            assert phones.failures == [], game
            assert len(phones.unanswered()) >= PHONES_PER_SEAT or phones.over(), \
                f"{game}: the phones never noticed the server die"
            remember_answers(phones, acknowledged[game])

    with running_server(tmp_path, SERVE_ARGS, secret_key="crash-test-key", workers=2) as server:
        for game, phones in tables.items():
            phones.retry_unanswered(server.base)
            remember_answers(phones, acknowledged[game])
            check_the_log_kept_every_acknowledged_move(phones, server.db_path, acknowledged[game])
            assert len(acknowledged[game]) >= CRASHES * traits_for(game).crash_acks_per_round, game
            the_server_takes_a_new_move(server, phones, game)
        assert "Traceback" not in server.log() and "malformed" not in server.log()


def the_server_takes_a_new_move(server: RunningServer, phones: Phones, game: str) -> None:
    """The next move of the game (of a new game of the same kind, if a short game came to its end) is taken
    with the next seq, and the public view reads its version."""
    rules = GAMES[game]
    table = Store(server.db_path)
    try:
        version, state = table.current(phones.game_id)
        if phones.finished(state):
            created = requests.post(server.base + "/api/games", timeout=60,
                                    json={"game": game, "players": players_for(game), "options": {}}).json()
            phones = Phones(game, created["id"], [s["token"] for s in created["seats"]], server.db_path, 7)
            version, state = table.current(phones.game_id)
        seat, move = next((s, m) for s in range(len(phones.tokens))
                          if (m := rules.random_legal_move(state, s, random.Random(1))) is not None)
    finally:
        table.close()
    answer = phones.post(server.base, Attempt(seat, uuid.uuid4().hex, version, move, None, None))
    assert answer.status == 200 and answer.body is not None and answer.body["seq"] == version + 1, (game, answer)
    public = requests.get(f"{server.base}/api/games/{phones.game_id}", timeout=60)
    assert public.status_code == 200 and public.json()["version"] == version + 1, game
