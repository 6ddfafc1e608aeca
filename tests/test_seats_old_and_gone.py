"""Seats (issue 12): a phone whose seat was released or handed on is told so, with how to rejoin; a seat of a
database written before held seats is held once its token is used, and joining never takes it then."""

from __future__ import annotations

import shutil
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.store import SeatTaken, Store, hash_token
from companion.web.helpers import token_cookie

GOLDEN = Path(__file__).parent / "golden"


def _game(client: FlaskClient) -> dict:
    answer = client.post("/api/games", json={"game": "mandragora", "players": ["Ann", "Ben"]})
    assert answer.status_code == 201
    return answer.get_json()


def test_a_released_phone_is_told_its_seat_was_released_and_how_to_rejoin(app: Flask, client: FlaskClient) -> None:
    game = _game(client)
    old = game["seats"][1]["token"]
    client.set_cookie(token_cookie(game["id"], 1), old)
    assert client.get(f"/g/{game['id']}/seat/1/live").status_code == 200
    released = client.post(f"/api/games/{game['id']}/seats/1/release",
                           headers={"Authorization": f"Bearer {game['host_token']}"})
    assert released.status_code == 200
    for path in (f"/g/{game['id']}/seat/1", f"/g/{game['id']}/seat/1/live"):
        page = client.get(path)
        assert page.status_code == 403
        text = page.get_data(as_text=True)
        assert "no longer holds Ben&#39;s seat" in text or "no longer holds Ben's seat" in text
        assert game["join_code"] in text
        # its heading says what happened (a phone that handed its seat on read "Not your seat")
        assert "Not your seat" not in text and ("Ben's seat is on another phone now, or free" in text
                                                or "Ben&#39;s seat is on another phone now, or free" in text)
    as_json = client.get(f"/g/{game['id']}/seat/1/live", headers={"Accept": "application/json"}).get_json()
    assert "released it" in as_json["error"] and game["join_code"] in as_json["error"]
    move = client.post(f"/api/games/{game['id']}/moves", headers={"Authorization": f"Bearer {old}"},
                       json={"version": 0, "action_id": "late", "move": {"type": "drop_out"}})
    assert move.status_code == 401 and "no longer holds Ben's seat" in move.get_json()["error"]
    # reads with the old token say the same (they said "does not belong to this game", though it did)
    for path in (f"/api/games/{game['id']}", f"/api/games/{game['id']}/log"):
        read = client.get(path, headers={"Authorization": f"Bearer {old}"})
        assert read.status_code == 401 and "no longer holds Ben's seat: it was released" in read.get_json()["error"], path
    stranger = client.get(f"/api/games/{game['id']}", headers={"Authorization": "Bearer not-a-token-of-this-game"})
    assert stranger.status_code == 401 and stranger.get_json()["error"] == "That seat token does not belong to this game."
    # a token that never belonged to the game still gets the plain answer
    other = client.get(f"/g/{game['id']}/seat/0/live")
    assert other.status_code == 403 and "no longer holds" not in other.get_data(as_text=True)


def test_the_seat_page_script_stops_and_says_so_instead_of_reconnecting() -> None:
    script = (Path(__file__).parents[1] / "companion/static/js/live.js").read_text(encoding="utf-8")
    assert "async function seatGone()" in script and '"Seat released"' in script
    assert "response.status === 403)) return seatGone();" in script


def test_an_old_databases_seat_is_held_once_its_token_is_used(tmp_path: Path) -> None:
    shutil.copy(GOLDEN / "companion-format0.sqlite3", tmp_path / "companion.sqlite3")
    store = Store(tmp_path / "companion.sqlite3")
    game_id = store.backend._db().execute("SELECT id FROM games ORDER BY id LIMIT 1").fetchone()[0]
    assert store.info(game_id)["claimed"] == [False, False, False]      # as the old store left them
    # the token handed out by the old store: not recoverable from the file (only hashes), so make one the same way
    token = "old-phone-token"
    with store.backend.write() as db:
        db.execute("UPDATE seat_tokens SET token_hash = ? WHERE game_id = ? AND seat = 0", [hash_token(token), game_id])
    assert store.seat_for_token(game_id, token) == 0
    assert store.info(game_id)["claimed"][0] is True
    try:
        store.claim_seat(game_id, 0)
        raise AssertionError("a stranger took an old game's held seat")
    except SeatTaken:
        pass
    # a seat whose old token was never used can still be joined; the old token then stops working
    fresh = store.claim_seat(game_id, 1)
    assert store.seat_for_token(game_id, fresh) == 1
    stale = store.backend._db().execute("SELECT count(*) FROM seat_tokens WHERE game_id = ? AND seat = 1 AND revoked IS NULL",
                                [game_id]).fetchone()[0]
    assert stale == 1
    store.close()


def test_a_table_whose_hosts_phone_is_lost_gets_a_new_host_from_whoever_runs_the_companion(
        app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    """Ann created the game and holds seat 0; her phone is lost. No other phone could release her seat (only the
    host can), and the join page's advice needed the lost phone; in a turn-based game the table was stuck at her
    turn. ``companion host <game>`` prints a link with a new host key: the phone that opens it becomes the host
    (the key travels in the link's fragment, never in a request's address), and the old host key stops."""
    import re

    from click.testing import CliRunner

    from companion.cli import main

    game = _game(client)
    db = app.config["DATABASE"]
    printed = CliRunner().invoke(main, ["host", game["id"], "--db", db, "--base-url", "https://club.example"])
    assert printed.exit_code == 0, printed.output
    link = re.search(rf"Open on the new host's phone: (https://club\.example/g/{game['id']}/host#(\S+))",
                     printed.output)
    assert link is not None, printed.output
    key = link.group(2)
    assert f"or open /g/{game['id']}/host there and enter the key {key}" in printed.output
    phone = app.test_client()
    page = phone.get(f"/g/{game['id']}/host")
    assert page.status_code == 200 and "Make this phone the host" in page.get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    wrong = phone.post(f"/g/{game['id']}/host", data={"csrf_token": csrf, "key": game["host_token"]})
    assert wrong.status_code == 403 and "a newer one has replaced it" in wrong.get_data(as_text=True)
    assert "Not this game&#39;s host key" in wrong.get_data(as_text=True)
    became = phone.post(f"/g/{game['id']}/host", data={"csrf_token": csrf, "key": key})
    assert became.status_code == 303 and became.headers["Location"].endswith(f"/g/{game['id']}?seats=1#host-seats")
    released = phone.post(f"/g/{game['id']}/seats/0/release", data={"csrf_token": csrf})  # Ann's lost seat
    assert released.status_code == 303
    assert app.extensions["store"].info(game["id"])["claimed"][0] is False
    old = client.post(f"/api/games/{game['id']}/seats/1/release", headers={"Authorization": f"Bearer {game['host_token']}"})
    assert old.status_code == 401  # the lost phone's host key releases nothing now
    unknown = CliRunner().invoke(main, ["host", "nosuchgame", "--db", db])
    assert unknown.exit_code == 1 and "there is no game 'nosuchgame'" in unknown.output
