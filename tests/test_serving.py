"""The serving stack outside the happy path: slow and silent clients, hostile bodies, gunicorn's own
refusals, live updates pushed to the phones, security headers, and a restart right after a crash.

The app-level checks use Flask's test client; the rest run against a real ``companion serve``
(gunicorn's gevent worker, two processes) on loopback.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import click
import pytest
import requests
from flask.testing import FlaskClient

from companion.cli import _check_port_free
from companion.served import RunningServer, free_port, running_server
from companion.store import Store
from companion.store.watch import SqliteChanges
from companion.web import create_app
from companion.web.headers import SECURITY_HEADERS
from companion.web.limits import MAX_DEPTH, MAX_ITEMS, MAX_NUMBER, MAX_TEXT
from companion.web.live_updates import (
    STREAM_SECONDS,
    VersionWatch,
    stream,
    stream_lifetime,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    app = create_app({"DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "k", "TESTING": True})
    yield app.test_client()
    app.extensions["store"].close()


def new_game(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]})
    assert response.status_code == 201
    return dict(response.get_json())


def game_count(client: FlaskClient) -> int:
    store: Store = client.application.extensions["store"]
    return int(store.backend._db().execute("SELECT count(*) FROM games").fetchone()[0])


# -- headers and bodies (app level) ---------------------------------------------------------------

@pytest.mark.parametrize("method, path", [
    ("GET", "/"), ("GET", "/rules"), ("GET", "/static/js/live.js"), ("GET", "/static/favicon.svg"),
    ("GET", "/api/games/nope/version"), ("GET", "/api/openapi.json"), ("DELETE", "/api/games"),
    ("GET", "/no/such/page"), ("POST", "/api/games"),
])
def test_security_headers_on_every_answer(client: FlaskClient, method: str, path: str) -> None:
    with client.open(path, method=method) as response:
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (path, name)


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          None])
@pytest.mark.parametrize("path", ["/api/games", "/api/join"])
def test_json_only_with_application_json(client: FlaskClient, path: str, content_type: str | None) -> None:
    body = json.dumps({"game": "fillory", "players": ["Ann", "Ben"]} if path == "/api/games" else
                      {"code": "ABCDEF", "seat": 0})
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = client.post(path, data=body, headers=headers)
    assert response.status_code == 415
    assert response.get_json()["error"].startswith("The request body must be JSON sent with 'Content-Type: "
                                                   "application/json'")
    assert game_count(client) == 0


@pytest.mark.parametrize("raw, reason", [
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": NaN}}', "standard JSON"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": Infinity}}', "standard JSON"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": -Infinity}}', "standard JSON"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": 1e999}}', "standard JSON"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": "\\ud800"}}', "standard JSON"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": ' + "[" * 3000 + "]" * 3000 + "}}",
     f"nested more than {MAX_DEPTH} deep"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}}",
     f"nested more than {MAX_DEPTH} deep"),
    ('{"game": "fillory", "players": ["Ann", "' + "x" * (MAX_TEXT + 1) + '"]}', f"at most {MAX_TEXT}"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": [' + ",".join(["1"] * (MAX_ITEMS + 1)) + "]}}",
     f"at most {MAX_ITEMS}"),
    # a whole number beyond 64 bits is read as an inexact float: refused as a number, not as "a float"
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": 99999999999999999999}}', f"±{MAX_NUMBER:,}"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": -9007199254740992}}', f"±{MAX_NUMBER:,}"),
    ('{"game": "fillory", "players": ["Ann", "Ben"], "options": {"x": 1e300}}', f"±{MAX_NUMBER:,}"),
])
def test_bodies_beyond_the_limits_are_400_and_store_nothing(client: FlaskClient, raw: str, reason: str) -> None:
    response = client.post("/api/games", data=raw, content_type="application/json")
    assert response.status_code == 400, response.get_json()
    body = response.get_json()
    assert set(body) == {"ok", "error", "rule", "status"} and body["status"] == 400
    assert reason in body["error"]
    assert game_count(client) == 0


@pytest.mark.parametrize("raw, hinted", [
    ('{"game": "fillory"', False), ('{"game": ', False), ("{not json", False), ('["NaN", x]', False),
    ('{"x": NaN}', True), ('{"x": -Infinity}', True), ("[Infinity]", True), ('{"x": 1e999}', True),
])
def test_only_a_nan_or_infinity_is_told_json_has_no_such_numbers(client: FlaskClient, raw: str, hinted: bool) -> None:
    """A body cut short was told "NaN and Infinity are not numbers JSON has" too: every syntax error was."""
    response = client.post("/api/games", data=raw, content_type="application/json")
    error = response.get_json()["error"]
    assert response.status_code == 400 and error.startswith("The request body must be standard JSON (")
    assert ("NaN and Infinity are not numbers JSON has" in error) == hinted, error


def test_a_move_with_a_non_finite_number_is_refused_and_the_log_stays_standard_json(client: FlaskClient) -> None:
    game = new_game(client)
    raw = '{"version": 0, "action_id": "a", "move": {"type": "draw", "card": "golem", "extra": -Infinity}}'
    response = client.post(f"/api/games/{game['id']}/moves", data=raw, content_type="application/json",
                           headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})
    assert response.status_code == 400
    store: Store = client.application.extensions["store"]
    rows = store.backend._db().execute("SELECT count(*) FROM moves WHERE json_valid(move) = 0").fetchone()[0]
    assert rows == 0 and store.version(game["id"]) == 0


def test_the_event_stream_opens_with_the_current_version(client: FlaskClient) -> None:
    game = new_game(client)
    response = client.get(f"/api/games/{game['id']}/events", headers={"Accept": "text/event-stream"})
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    first = next(response.response)
    response.close()
    assert b"retry: " in first and b'event: version\ndata: {"version": 0}\n\n' in first
    assert client.get("/api/games/nope/events").status_code == 404
    once = client.get(f"/api/games/{game['id']}/events")  # no stream asked for: the first event and the end
    assert once.get_data() == b'event: version\ndata: {"version": 0}\n\n'


def test_the_live_page_script_asks_for_a_stream() -> None:
    """EventSource sends Accept: text/event-stream by itself: the script needs no header of its own."""
    from companion.web import STATIC

    assert "new EventSource(eventsUrl)" in (STATIC / "js" / "live.js").read_text(encoding="utf-8")


def test_the_watch_hears_a_move_stored_by_another_connection(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    writer = Store(path)  # another process's store, as far as the watch can tell: its own connection
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "k", "TESTING": True})
    game = app.test_client().post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).get_json()
    watch = VersionWatch(path, check_seconds=0.01)
    events = stream(watch, game["id"], 0, heartbeat=60, lifetime=120)
    assert b'"version": 0' in next(events)
    started = time.monotonic()
    writer.apply_move(game["id"], 0, 0, "a1", {"type": "draw", "card": "golem"})
    assert next(events) == b'event: version\ndata: {"version": 1}\n\n'
    # heard from the change, not at the 60 s heartbeat (a ceiling a busy machine meets: normally milliseconds)
    assert time.monotonic() - started < 30
    events.close()
    assert watch._games == {}  # the phone left: nothing watched any more
    watch.stop()
    writer.close()
    app.extensions["store"].close()


def test_a_watch_that_finds_the_database_away_looks_again_and_the_stream_catches_up(tmp_path: Path) -> None:
    # PostgreSQL restarting, a network cut, a file that cannot be read: the watch used to end there, and the
    # open streams sent the old version at every heartbeat until they ended minutes later
    real = Store(tmp_path / "real.sqlite3")
    game = real.create_game("fillory", ["Ann", "Ben"], {})
    watched = tmp_path / "watched.sqlite3"
    watched.write_bytes(b"not a database yet " * 256)
    watch = VersionWatch(watched, check_seconds=0.01)
    events = stream(watch, game["id"], 0, heartbeat=0.1, lifetime=120)
    assert b'"version": 0' in next(events)
    real.apply_move(game["id"], 0, 0, "a1", {"type": "draw", "card": "golem"})
    copy = tmp_path / "copy.sqlite3"
    with sqlite3.connect(real.path) as source, sqlite3.connect(copy) as target:  # type: ignore[arg-type]
        source.backup(target)
    os.replace(copy, watched)  # the database is back, one move on
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if next(events) == b'event: version\ndata: {"version": 1}\n\n':
            break
    else:
        raise AssertionError("the stream never caught up once the database was back")
    events.close()
    watch.stop()
    real.close()


def test_the_stream_beats_while_nothing_happens_and_ends_by_itself(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite3"
    store = Store(path)
    game = store.create_game("fillory", ["Ann", "Ben"], {})
    watch = VersionWatch(path, check_seconds=0.01)
    chunks = list(stream(watch, game["id"], 0, heartbeat=0.05, lifetime=0.3))
    assert 3 <= len(chunks) <= 9 and all(c.endswith(b'data: {"version": 0}\n\n') for c in chunks)
    watch.stop()
    store.close()


def test_a_change_reads_the_new_log_entries_not_every_watched_game(tmp_path: Path) -> None:
    """The work per change follows the moves made, not the phones or games watched."""
    path = tmp_path / "r.sqlite3"
    store = Store(path)
    games = [store.create_game("fillory", ["Ann", "Ben"], {}) for _ in range(30)]
    feed = SqliteChanges(path)  # what the watch's loop asks (companion.store.watch)
    store.apply_move(games[7]["id"], 0, 0, "a1", {"type": "draw", "card": "golem"})
    statements: list[str] = []
    feed._db.set_trace_callback(statements.append)
    assert feed.changed() == [(games[7]["id"], 1)]
    assert not any("FROM games WHERE id IN" in sql for sql in statements)
    statements.clear()
    assert feed.changed() == []  # nothing new: nothing told, and only the counter asked
    assert statements == ["PRAGMA data_version"]
    feed.close()
    store.close()


def test_after_the_newest_log_entries_are_purged_every_watched_game_is_read_again(tmp_path: Path) -> None:
    from companion import archive

    path = tmp_path / "p.sqlite3"
    store = Store(path)
    kept, gone = (store.create_game("fillory", ["Ann", "Ben"], {}) for _ in range(2))
    store.apply_move(kept["id"], 0, 0, "a1", {"type": "draw", "card": "golem"})
    store.apply_move(gone["id"], 0, 0, "b1", {"type": "draw", "card": "golem"})
    feed = SqliteChanges(path)
    archive.purge(store, [gone["id"]])  # the newest row goes: the next move may take its rowid again
    assert feed.changed() is None  # so the watch reads every watched game at once rather than trusting rowids
    assert feed.versions([kept["id"], gone["id"]]) == [(kept["id"], 1)]
    store.apply_move(kept["id"], 0, 1, "a2", {"type": "draw", "card": "ember"})
    assert feed.changed() == [(kept["id"], 2)]  # (from the rowids as they are now)
    feed.close()
    store.close()


def test_streams_that_opened_together_end_at_different_times() -> None:
    """A room of phones connected at once must not all reconnect at once every few minutes."""
    lifetimes = [stream_lifetime() for _ in range(50)]
    assert all(0.75 * STREAM_SECONDS <= t <= STREAM_SECONDS for t in lifetimes)
    assert max(lifetimes) - min(lifetimes) > 0.1 * STREAM_SECONDS


# -- a real server ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    old = os.environ.get("COMPANION_BODY_SECONDS")
    os.environ["COMPANION_BODY_SECONDS"] = "1"
    try:
        with running_server(tmp_path_factory.mktemp("serving"), ("--workers", "2"), secret_key="k", workers=2) as run:
            yield run
    finally:
        if old is None:
            os.environ.pop("COMPANION_BODY_SECONDS", None)
        else:
            os.environ["COMPANION_BODY_SECONDS"] = old


def address(server: RunningServer) -> tuple[str, int]:
    host, port = server.base.removeprefix("http://").split(":")
    return host, int(port)


def raw_answer(server: RunningServer, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(address(server), timeout=10) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
            if b"\r\n\r\n" in data:
                head, _, body = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), None)
                if length is not None and len(body) >= length:
                    break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.served
@pytest.mark.parametrize("raw, status", [
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(200)) + b"\r\n", 431),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n", 431),
    (b"GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    (b"NOT A REQUEST\r\n\r\n", 400),
    (b"GET /api/games HTTP/9.9\r\nHost: x\r\n\r\n", 400),
])
def test_the_servers_own_refusals_are_in_the_one_json_shape(served: RunningServer, raw: bytes, status: int) -> None:
    got, headers, body = raw_answer(served, raw)
    assert got == status
    assert headers["content-type"] == "application/json"
    answer = json.loads(body)
    assert set(answer) == {"ok", "error", "rule", "status"} and answer["status"] == status and not answer["ok"]
    assert answer["error"][:1].isupper()
    for name, value in SECURITY_HEADERS.items():
        assert headers[name.lower()] == value


@pytest.mark.served
def test_stalled_clients_hold_nobody_up_and_are_dropped(served: RunningServer) -> None:
    stalled = []
    for i in range(300):
        sock = socket.create_connection(address(served), timeout=10)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" if i % 2 else
                     b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500\r\n\r\n{\"game\":")
        stalled.append(sock)
    try:
        with requests.Session() as session:
            for _ in range(20):
                started = time.monotonic()
                response = session.get(served.base + "/api/games/none/version", timeout=5)
                assert response.status_code == 404 and time.monotonic() - started < 2
        # a half-sent body is answered 408 after the body deadline (1 s here); half-sent headers are
        # dropped after the keep-alive time (5 s)
        answers = []
        deadline = time.monotonic() + 15
        for sock in stalled:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                answers.append(sock.recv(65536))
            except TimeoutError:
                answers.append(None)
        posts, gets = answers[0::2], answers[1::2]
        assert all(a is not None and a.startswith(b"HTTP/1.1 408 ") for a in posts), posts[:3]
        assert all(a == b"" for a in gets)  # closed by the server without a word
    finally:
        for sock in stalled:
            sock.close()


@pytest.mark.served
def test_a_phone_hears_a_move_made_on_the_other_worker(served: RunningServer) -> None:
    game = requests.post(served.base + "/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]},
                         timeout=60).json()
    listeners = [requests.get(served.base + f"/api/games/{game['id']}/events", stream=True, timeout=60,
                              headers={"Accept": "text/event-stream"})
                 for _ in range(6)]  # spread over both workers by the kernel
    lines = [listener.iter_lines() for listener in listeners]
    for each in lines:
        assert next(line for line in each if line.startswith(b"data:")) == b'data: {"version": 0}'
    answer = requests.post(served.base + f"/api/games/{game['id']}/moves", timeout=60,
                           headers={"Authorization": f"Bearer {game['seats'][0]['token']}"},
                           json={"version": 0, "action_id": "a1", "move": {"type": "draw", "card": "golem"}})
    assert answer.status_code == 200
    for each in lines:
        assert next(line for line in each if line.startswith(b"data:")) == b'data: {"version": 1}'
    for listener in listeners:
        listener.close()


def test_a_port_still_held_by_a_stopping_server_is_waited_for(capsys: pytest.CaptureFixture[str]) -> None:
    """Right after a crash the old workers hold the port for a moment: the new server waits for it."""
    port = free_port()
    holder = socket.socket()
    holder.bind(("127.0.0.1", port))
    holder.listen()
    threading.Timer(1.0, holder.close).start()
    started = time.monotonic()
    _check_port_free("127.0.0.1", port, wait=8)
    assert 0.9 < time.monotonic() - started < 5
    assert "still in use" in capsys.readouterr().err


def test_a_port_another_server_keeps_is_a_clear_error() -> None:
    port = free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        with pytest.raises(click.ClickException) as refused:
            _check_port_free("127.0.0.1", port, wait=0.5)
    assert refused.value.message == (f"cannot listen on 127.0.0.1:{port}: Address already in use (another server "
                                     "is still listening there: stop it, or choose another --port)")


# -- join codes and new games: limited per address ---------------------------------------------------

def from_address(client: FlaskClient, address: str) -> FlaskClient:
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_join_codes_are_limited_per_address_with_retry_after(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "j.sqlite3"), "SECRET_KEY": "k", "TESTING": True,
                      "JOIN_LIMIT": "5 per minute"})
    phone = from_address(app.test_client(), "192.0.2.7")
    game = new_game(phone)
    released = phone.post(f"/api/games/{game['id']}/seats/1/release",  # API seats are held: free one to join
                          headers={"Authorization": f"Bearer {game['host_token']}"})
    assert released.status_code == 200
    codes = [phone.post("/api/join", json={"code": "ZZZZZ" + str(i), "seat": 0}) for i in range(5)]
    assert [c.status_code for c in codes] == [404] * 5
    limited = phone.post("/api/join", json={"code": game["join_code"], "seat": 1})  # even the right one now
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    body = limited.get_json()
    assert body["status"] == 429 and body["error"].startswith("Too many join codes tried from your address "
                                                              "(at most 5 per 1 minute); try again in ")
    assert phone.get(f"/j/{game['join_code']}").status_code == 429  # the join page counts too
    other = from_address(app.test_client(), "192.0.2.8")  # another phone is not held up
    assert other.post("/api/join", json={"code": game["join_code"], "seat": 1}).status_code == 200
    host = from_address(app.test_client(), "127.0.0.1")  # the server's own machine is never limited
    assert all(host.post("/api/join", json={"code": "ZZZZZZ", "seat": 0}).status_code == 404 for _ in range(8))
    app.extensions["store"].close()


def test_the_home_pages_join_form_counts_as_a_join_code_tried(tmp_path: Path) -> None:
    """``GET /join?code=`` answers 303 for a live code and 404 for a wrong one: it is limited with the other join
    code look-ups, or it would find codes by trying past the limit. The bare "Join" link tries no code."""
    app = create_app({"DATABASE": str(tmp_path / "jf.sqlite3"), "SECRET_KEY": "k", "TESTING": True,
                      "JOIN_LIMIT": "3 per minute"})
    phone = from_address(app.test_client(), "192.0.2.17")
    game = new_game(phone)
    assert [phone.get("/join").status_code for _ in range(5)] == [200] * 5           # no code: not counted
    assert [phone.get("/join?code=ZZZZZ" + str(i)).status_code for i in range(3)] == [404] * 3
    limited = phone.get(f"/join?code={game['join_code']}")                           # even the right one now
    assert limited.status_code == 429 and 1 <= int(limited.headers["Retry-After"]) <= 60
    assert "Too many join codes tried from your address (at most 3 per 1 minute)" in limited.get_data(as_text=True)
    assert phone.post("/api/join", json={"code": game["join_code"], "seat": 1}).status_code == 429  # one count
    other = from_address(app.test_client(), "192.0.2.18")
    # a right code through the form is counted once, where it is sent on (/j/<code>): a join by the form costs
    # two tries with its seat form, as one by a QR code does
    assert other.get(f"/join?code={game['join_code']}").status_code == 303
    assert other.get(f"/j/{game['join_code']}").status_code == 200
    assert other.post("/api/join", json={"code": game["join_code"], "seat": 1}).status_code == 404  # (held)
    assert other.get("/join?code=ZZZZZ8").status_code == 404          # the third try, counted
    assert other.get("/join?code=ZZZZZ9").status_code == 429          # past the limit of 3
    assert other.get(f"/join?code={game['join_code']}").status_code == 429  # and the right code with it
    app.extensions["store"].close()


def test_hand_over_codes_tried_are_limited_per_address_apart_from_join_codes(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "h.sqlite3"), "SECRET_KEY": "k", "TESTING": True,
                      "JOIN_LIMIT": "3 per minute", "WTF_CSRF_ENABLED": False})  # (the page's form: no token)
    phone = from_address(app.test_client(), "192.0.2.19")
    game = new_game(phone)
    offer = phone.post(f"/api/games/{game['id']}/seats/1/handover",
                       headers={"Authorization": f"Bearer {game['seats'][1]['token']}"})
    assert offer.status_code == 200
    code = offer.get_json()["code"]
    assert [phone.post("/api/join", json={"code": "ZZZZZZ", "seat": 1}).status_code for _ in range(4)] == \
        [404, 404, 404, 429]                                                         # join codes: used up
    tries = [phone.get("/h/ZZZZZZZ" + str(i)).status_code for i in range(2)]
    tries.append(phone.post("/api/handover", json={"code": "ZZZZZZZZ"}).status_code)
    assert tries == [404] * 3                                                        # counted apart
    for limited in (phone.get(f"/h/{code}"), phone.post(f"/h/{code}"),
                    phone.post("/api/handover", json={"code": code})):
        assert limited.status_code == 429 and 1 <= int(limited.headers["Retry-After"]) <= 60
        assert "Too many hand-over codes tried from your address (at most 3 per 1 minute)" in \
            limited.get_data(as_text=True)
    assert app.extensions["store"].handover_offer(code) is not None                  # nothing was taken
    other = from_address(app.test_client(), "192.0.2.20")
    assert other.get(f"/h/{code}").status_code == 200
    assert other.post("/api/handover", json={"code": code}).status_code == 200
    app.extensions["store"].close()


def test_only_joining_and_new_games_count_towards_the_limits(tmp_path: Path) -> None:
    """Reads, moves and pages from a phone on the Wi-Fi are never limited, and never counted: only the join
    and new-game endpoints are (the counters' file gets no row from anything else)."""
    app = create_app({"DATABASE": str(tmp_path / "o.sqlite3"), "SECRET_KEY": "k", "TESTING": True,
                      "JOIN_LIMIT": "2 per minute", "NEW_GAME_LIMIT": "1 per minute"})
    phone = from_address(app.test_client(), "192.0.2.9")
    game = new_game(phone)
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    answers = [phone.get(f"/api/games/{game['id']}", headers=token).status_code for _ in range(30)]
    answers += [phone.get(f"/api/games/{game['id']}/version").status_code for _ in range(30)]
    answers += [phone.get(f"/g/{game['id']}").status_code for _ in range(5)]
    assert answers == [200] * 65
    limits = sqlite3.connect(str(tmp_path / "o.sqlite3") + ".limits")
    assert [key for (key,) in limits.execute("SELECT key FROM counters")] == [
        "LIMITER/new-games/192.0.2.9/1/1/minute"]
    limits.close()
    assert phone.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).status_code == 429
    app.extensions["store"].close()


def test_the_limit_is_shared_by_every_worker_process(tmp_path: Path) -> None:
    config = {"DATABASE": str(tmp_path / "s.sqlite3"), "SECRET_KEY": "k", "TESTING": True, "NEW_GAME_LIMIT": "4 per minute"}
    workers = [create_app(config), create_app(config)]  # two apps, as two gunicorn workers hold
    phones = [from_address(app.test_client(), "198.51.100.3") for app in workers]
    statuses = [phones[i % 2].post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]}).status_code
                for i in range(6)]
    assert statuses == [201, 201, 201, 201, 429, 429]
    for app in workers:
        app.extensions["store"].close()


def test_a_finished_games_code_expires(tmp_path: Path) -> None:
    store = Store(tmp_path / "f.sqlite3")
    game = store.create_game("barony-sorcery", ["Ann", "Ben"], {})
    assert store.game_id_for_code(game["join_code"]) == game["id"]
    for version, (seat, move) in enumerate([(0, {"type": "end_game"}), (0, {"type": "base_points", "points": 3}),
                                            (1, {"type": "base_points", "points": 4}), (0, {"type": "confirm_totals"}),
                                            (1, {"type": "confirm_totals"})]):
        store.apply_move(game["id"], seat, version, f"a{version}", move)
    assert store.game_id_for_code(game["join_code"]) is None
    store.close()


def test_ctrl_c_stops_the_server_without_a_traceback(tmp_path: Path) -> None:
    # Ctrl-C reaches every process of the terminal's group: the master and each worker get SIGINT, then the
    # master tells each worker to quit too. That second quit printed a SystemExit traceback per worker, and
    # logging's clean-up at the interpreter's end an "Exception ignored" one: the last thing a user saw
    import signal

    from companion.served import process_children

    with running_server(tmp_path, ("--workers", "2"), secret_key="k", workers=2) as server:
        assert requests.get(server.base + "/", timeout=10).status_code == 200
        workers = process_children(server.process.pid)
        assert len(workers) == 2
        for pid in (server.process.pid, *workers):
            os.kill(pid, signal.SIGINT)
        server.process.wait(timeout=30)
        log = server.log()
    assert "Shutting down: Master" in log
    assert "Traceback" not in log and "Exception ignored" not in log, log[log.find("Handling signal"):]
