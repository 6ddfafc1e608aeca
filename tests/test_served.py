"""A real ``companion serve`` (gunicorn, two worker processes) on loopback, driven over HTTP.

Plays a short game, then races phones against each other: for every version exactly one move wins,
the rest get 409; retries of one action id apply once; nothing answers 500 or hits "database is locked".
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from pathlib import Path
from typing import Any, Iterator

import click
import pytest
import requests
import zxingcpp
from click.testing import CliRunner
from PIL import Image

from cardgen.catalog import content
from companion.cli import main, phone_urls, serve, terminal_qr
from companion.served import RunningServer, running_server
from companion.web import instance_secret_key

pytestmark = pytest.mark.served

REPO = Path(__file__).resolve().parents[1]
ALL_CARDS = [card.id for card in content("fillory").cards]
HAND_LIMIT = content("fillory").hand_limit


class Server:
    """A running ``companion serve`` plus an HTTP helper that records every status it saw."""

    def __init__(self, running: RunningServer) -> None:
        self.base, self.process, self.running = running.base, running.process, running
        self.statuses: list[int] = []
        self._lock = threading.Lock()

    def call(self, method: str, path: str, token: str | None = None, session: requests.Session | None = None,
             **kwargs: Any) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = (session or requests).request(method, self.base + path, headers=headers, timeout=60, **kwargs)  # a ceiling
        with self._lock:
            self.statuses.append(response.status_code)
        return response

    def log(self) -> str:
        return self.running.log()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # its own secret key and database keep it off the repo's instance/ folder
    with running_server(tmp_path_factory.mktemp("served"), ("--workers", "2", "--threads", "4"),
                        secret_key="served-test-key") as running:
        yield Server(running)


def new_game(server: Server, players: list[str]) -> dict[str, Any]:
    response = server.call("POST", "/api/games", json={"game": "fillory", "players": players, "options": {}})
    assert response.status_code == 201, response.text
    return dict(response.json())


def views(server: Server, game: dict[str, Any]) -> list[dict[str, Any]]:
    return [server.call("GET", f"/api/games/{game['id']}", seat["token"]).json() for seat in game["seats"]]


def deck(server: Server, game: dict[str, Any]) -> list[str]:
    seen: set[str] = set()
    for i, whole in enumerate(views(server, game)):
        state = whole["state"]
        seen |= set(state["neutral"]) | set(state["discard"]) | set(state["players"][i]["hand"])
        for player in state["players"]:
            seen |= set(player["zone"])
    return [card for card in ALL_CARDS if card not in seen]


def move(server: Server, game: dict[str, Any], seat: int, body: dict[str, Any], version: int | None = None,
         action_id: str | None = None) -> requests.Response:
    if version is None:
        version = server.call("GET", f"/api/games/{game['id']}/version").json()["version"]
    return server.call("POST", f"/api/games/{game['id']}/moves", game["seats"][seat]["token"],
                       json={"version": version, "action_id": action_id or uuid.uuid4().hex, "move": body})


def test_serve_prints_the_address(server: Server) -> None:
    assert f"On this computer: {server.base}/ (--host 127.0.0.1 listens on this computer only" in server.log()
    assert "Using worker: companion.serving.CompanionWorker" in server.log()
    host_port = server.base.removeprefix("http://")
    assert f"Listening at: http://{host_port} (each worker on its own socket, SO_REUSEPORT)" in server.log()


def test_a_short_game_over_http(server: Server) -> None:
    game = new_game(server, ["Ann", "Ben"])
    for seat in (0, 1):
        for _ in range(content("fillory").starting_hand):
            assert move(server, game, seat, {"type": "draw", "card": deck(server, game)[0]}).status_code == 200
    table = server.call("GET", f"/api/games/{game['id']}").json()
    assert table["state"]["phase"] == "play" and table["state"]["turn"] == {
        "seat": 0, "step": "draw", "number": 1, "extra_action": False, "loss": None}
    for turn in range(4):
        seat = turn % 2
        assert move(server, game, seat, {"type": "draw", "card": deck(server, game)[0]}).status_code == 200
        mine = server.call("GET", f"/api/games/{game['id']}", game["seats"][seat]["token"]).json()["state"]
        played = move(server, game, seat, {"type": "play", "card": mine["players"][seat]["hand"][0]})
        assert played.status_code == 200, played.text
        if played.json()["state"]["turn"]["step"] == "ability":
            assert move(server, game, seat, {"type": "decline"}).status_code == 200
        wrong_seat = move(server, game, 1 - seat, {"type": "end_turn", "discard": []})
        assert wrong_seat.status_code == 422 and wrong_seat.json()["rule"] == "fillory.turn.not-your-turn"
        player = server.call("GET", f"/api/games/{game['id']}").json()["state"]["players"][seat]
        options = server.call("POST", "/api/calc/fillory",
                              json={"zone": player["zone"], "scored": list(player["scored"])}).json()["traits"]
        if options:
            scored = move(server, game, seat, {"type": "score", "trait": options[0]["trait"]})
            assert scored.status_code == 200, scored.text
            assert scored.json()["state"]["players"][seat]["vp"] >= options[0]["points"]
        hand = server.call("GET", f"/api/games/{game['id']}", game["seats"][seat]["token"]).json()["state"]
        excess = hand["players"][seat]["hand"][HAND_LIMIT:]
        assert move(server, game, seat, {"type": "end_turn", "discard": excess}).status_code == 200
    final = server.call("GET", f"/api/games/{game['id']}").json()
    assert final["state"]["turn"]["number"] == 5 and final["state"]["turn"]["seat"] == 0
    entries = server.call("GET", f"/api/games/{game['id']}/log").json()["entries"]
    assert len(entries) == final["version"] and all(e["kind"] == "move" for e in entries)
    etag = server.call("GET", f"/api/games/{game['id']}").headers["ETag"]
    assert server.call("GET", f"/api/games/{game['id']}", headers={"If-None-Match": etag}).status_code == 304


def race(server: Server, attempts: list[tuple[dict[str, Any], int, dict[str, Any], int, str]]) -> list[requests.Response]:
    """Send every attempt at once from its own thread (its own connection)."""
    results: list[requests.Response | None] = [None] * len(attempts)
    barrier = threading.Barrier(len(attempts))

    def send(i: int) -> None:
        game, seat, body, version, action_id = attempts[i]
        barrier.wait()
        results[i] = move(server, game, seat, body, version, action_id)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(attempts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r is not None for r in results)
    return [r for r in results if r is not None]


def test_concurrent_moves_one_wins_each_version(server: Server) -> None:
    game = new_game(server, ["Ann", "Ben", "Cat", "Dan"])
    for version in range(6):
        cards = deck(server, game)
        players = server.call("GET", f"/api/games/{game['id']}").json()["state"]["players"]
        dealing = [p["seat"] for p in players if p["hand_count"] < content("fillory").starting_hand]
        attempts = [(game, dealing[i % len(dealing)], {"type": "draw", "card": cards[i]}, version, uuid.uuid4().hex)
                    for i in range(8)]
        answers = race(server, attempts)
        codes = sorted(r.status_code for r in answers)
        assert codes == [200] + [409] * 7, [r.text for r in answers]
        assert all(r.json()["version"] == version + 1 for r in answers)
    assert server.call("GET", f"/api/games/{game['id']}/version").json() == {"version": 6}


def test_concurrent_retries_of_one_action_apply_once(server: Server) -> None:
    game = new_game(server, ["Ann", "Ben"])
    card = deck(server, game)[0]
    answers = race(server, [(game, 0, {"type": "draw", "card": card}, 0, "the-same-id")] * 6)
    assert [r.status_code for r in answers] == [200] * 6
    assert {r.json()["seq"] for r in answers} == {1}
    assert len(server.call("GET", f"/api/games/{game['id']}/log").json()["entries"]) == 1


def test_many_games_written_at_once(server: Server) -> None:
    games = [new_game(server, ["Ann", "Ben"]) for _ in range(6)]
    failures: list[str] = []

    def deal(game: dict[str, Any]) -> None:
        session = requests.Session()
        for version in range(6):
            seat = version % 2
            state = server.call("GET", f"/api/games/{game['id']}", game["seats"][seat]["token"], session).json()
            seen = set(state["state"]["neutral"]) | set(state["state"]["players"][seat]["hand"])
            pick = next(c for c in ALL_CARDS if c not in seen and c not in taken[game["id"]])
            taken[game["id"]].add(pick)
            answer = server.call("POST", f"/api/games/{game['id']}/moves", game["seats"][seat]["token"], session,
                                 json={"version": version, "action_id": uuid.uuid4().hex,
                                       "move": {"type": "draw", "card": pick}})
            if answer.status_code != 200:
                failures.append(answer.text)

    taken: dict[str, set[str]] = {g["id"]: set() for g in games}
    threads = [threading.Thread(target=deal, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    for g in games:
        assert server.call("GET", f"/api/games/{g['id']}").json()["state"]["phase"] == "play"


def test_no_server_errors_and_no_locked_database(server: Server) -> None:
    assert server.statuses and all(code < 500 for code in server.statuses)
    log = server.log()
    assert "database is locked" not in log and "Traceback" not in log


# -- the command line ------------------------------------------------------------------------

def test_serve_help_documents_every_option() -> None:
    text = CliRunner().invoke(main, ["serve", "--help"], terminal_width=200).output
    for param in serve.params:
        assert isinstance(param, click.Option) and param.help, f"{param.name} has no help"
        for flag in param.opts + param.secondary_opts:
            assert flag in text, f"{flag} is missing from serve --help"


def test_init_db_creates_a_wal_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATABASE", "restored-after-the-test")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "cli-test-key")
    path = tmp_path / "fresh" / "games.sqlite3"
    result = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert result.exit_code == 0
    assert result.output == f"Created a new, empty database at {path} (no file was there)\nDatabase ready: {path}\n"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} >= {
        "games", "seats", "seat_tokens", "moves", "migrations"}
    conn.close()


def test_init_db_reports_a_bad_path_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATABASE", "restored-after-the-test")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "cli-test-key")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(main, ["init-db", "--db", str(blocker / "games.sqlite3")])
    assert result.exit_code == 1
    assert result.output.startswith("Error: cannot open the database: ") and "Traceback" not in result.output


def test_phone_urls() -> None:
    assert phone_urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]
    assert phone_urls("::1", 9000) == ["http://[::1]:9000/"]
    every = phone_urls("0.0.0.0", 8000)
    assert every[-1] == "http://127.0.0.1:8000/" and all(u.startswith("http://") and u.endswith(":8000/") for u in every)


def test_terminal_qr_scans_back_to_the_address_on_any_terminal() -> None:
    """Every line sets its own colours (black on bright white, then a reset), so a dark or a light terminal
    shows the same code; draw the block characters as those colours (each is two modules tall) and let zxing
    read them, with no inverted-code fallback."""
    drawn = terminal_qr("http://192.0.2.1:8000/").splitlines()
    colours, reset = "\x1b[30;107m", "\x1b[0m"
    assert all(line.startswith(colours) and line.endswith(reset) for line in drawn)
    lines = [line[len(colours):-len(reset)] for line in drawn]
    halves = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    assert len({len(line) for line in lines}) == 1 and set("".join(lines)) <= set(halves)
    scale = 6
    image = Image.new("L", (len(lines[0]) * scale, len(lines) * 2 * scale), 255)  # the code's own white
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            for half, dark in enumerate(halves[char]):
                if dark:  # the foreground: black
                    top = (2 * row + half) * scale
                    image.paste(0, (column * scale, top, (column + 1) * scale, top + scale))
    assert [code.text for code in zxingcpp.read_barcodes(image, try_invert=False)] == ["http://192.0.2.1:8000/"]


def test_the_secret_key_is_made_once_and_kept(tmp_path: Path) -> None:
    first = instance_secret_key(str(tmp_path))
    assert len(first) == 64 and instance_secret_key(str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
