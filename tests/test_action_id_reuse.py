"""An action id reused with another body is refused (422, nothing written), on both backends and for every game,
while a genuine retry (the same body, whatever the store kept of it) still gets its first answer.

A phone on bad Wi-Fi retries with the same action id and body: one effect, the first answer. A phone (or a buggy
client) that sends a *different* move, take-back, correction or put-back under an id already used would otherwise
be told it succeeded while nothing was applied: a silent loss (docs/seats-and-corrections.md, Retries)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES

PHONE = {"REMOTE_ADDR": "192.0.2.31"}
REUSED = "already used for a different request"


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    from companion.web import create_app

    database = str(tmp_path / "companion.sqlite3") if request.param == "sqlite" \
        else str(request.getfixturevalue("postgres_dsn"))
    made = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k", "MOVE_LIMIT": "100000 per minute"})
    yield made
    made.extensions["store"].close()


def _new(client: FlaskClient, game: str) -> dict[str, Any]:
    rules = GAMES[game]
    players = [f"P{i}" for i in range(max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS)))]
    created = client.post("/api/games", json={"game": game, "players": players}, environ_overrides=PHONE)
    assert created.status_code == 201, created.get_data(as_text=True)
    table: dict[str, Any] = created.get_json()
    return table


def _table(app: Flask, game: str, seed: int) -> tuple[FlaskClient, Any, dict[str, Any], random.Random]:
    """A test client, the store, a new table of ``game`` and a seeded random source for its moves."""
    client = app.test_client()
    return client, app.extensions["store"], _new(client, game), random.Random(seed)


def _post(client: FlaskClient, table: dict[str, Any], route: str, seat: int, body: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{table['id']}/{route}", environ_overrides=PHONE, json=body,
                       headers={"Authorization": f"Bearer {table['seats'][seat]['token']}"})


def _some_move(app: Flask, table: dict[str, Any], rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    rules = GAMES[table["game"]]
    _, state = app.extensions["store"].current(table["id"])
    for _ in range(20):
        for seat in range(len(table["seats"])):
            move = rules.random_legal_move(state, seat, rng)
            if move is not None:
                return seat, move
    return None


def _a_move(app: Flask, table: dict[str, Any], rng: random.Random) -> tuple[int, dict[str, Any]]:
    """:func:`_some_move`, which the game must have."""
    found = _some_move(app, table, rng)
    assert found is not None, table["game"]
    return found


def _reordered(move: dict[str, Any]) -> dict[str, Any]:
    """The same move with its fields in another order (as another JSON encoder may send them)."""
    return dict(reversed(list(move.items())))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_type_retried_with_its_body_gets_its_first_answer_and_another_body_is_refused(
        app: Flask, game: str) -> None:
    client, store, table, rng = _table(app, game, 11)
    retried: set[str] = set()
    trimmed = 0
    for n in range(60):
        found = _some_move(app, table, rng)
        if found is None:
            break
        seat, move = found
        version = store.version(table["id"])
        body = {"version": version, "action_id": f"m{n}", "move": move}
        first = _post(client, table, "moves", seat, body)
        assert first.status_code == 200, first.get_json()
        kept = store.log(table["id"], seat)[-1].get("move")
        trimmed += kept != move
        # a retry, with the fields in another order too: the first answer, nothing written twice
        for again in (body, {**body, "move": _reordered(move)}):
            answer = _post(client, table, "moves", seat, again)
            assert answer.status_code == 200, (move, answer.get_json())
            assert answer.get_json()["seq"] == first.get_json()["seq"]
            assert store.version(table["id"]) == version + 1
        retried.add(str(move.get("type")))
        # the same id with another move: refused, and nothing is written
        other = {**move, "type": f"{move.get('type')}-other"} if n % 2 else {**move, "extra": [n]}
        refused = _post(client, table, "moves", seat, {**body, "version": version + 1, "move": other})
        assert refused.status_code == 422, refused.get_json()
        assert REUSED in refused.get_json()["error"]
        assert store.version(table["id"]) == version + 1
    assert retried, f"{game}: no move played"
    assert all(name in GAMES[game].MOVE_TYPES for name in retried)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_reused_id_for_another_take_back_correction_or_put_back_is_refused(app: Flask, game: str) -> None:
    client, store, table, rng = _table(app, game, 5)
    for n in range(6):
        seat, move = _a_move(app, table, rng)
        played = _post(client, table, "moves", seat, {"version": store.version(table["id"]), "action_id": f"m{n}",
                                                     "move": move})
        assert played.status_code == 200, played.get_json()
    gid = table["id"]

    def written() -> int:
        return len(store.log(gid, None))

    # undo: retried, the first answer; the same id for a move is refused
    version = store.version(gid)
    undo = _post(client, table, "undo", 0, {"version": version, "action_id": "u"})
    assert undo.status_code == 200, undo.get_json()
    again = _post(client, table, "undo", 0, {"version": version, "action_id": "u"})
    assert again.status_code == 200 and again.get_json()["seq"] == undo.get_json()["seq"]
    # put back: retried, the first answer; the same id for another entry is refused
    back = _post(client, table, "revert", 0, {"version": store.version(gid), "action_id": "r",
                                              "entry": undo.get_json()["seq"]})
    assert back.status_code == 200, back.get_json()
    again = _post(client, table, "revert", 0, {"version": store.version(gid) - 1, "action_id": "r",
                                               "entry": undo.get_json()["seq"]})
    assert again.status_code == 200 and again.get_json()["seq"] == back.get_json()["seq"]
    second = _post(client, table, "undo", 0, {"version": store.version(gid), "action_id": "u2"})
    assert second.status_code == 200, second.get_json()
    before = written()
    refused = _post(client, table, "revert", 0, {"version": store.version(gid), "action_id": "r",
                                                 "entry": second.get_json()["seq"]})
    assert refused.status_code == 422 and REUSED in refused.get_json()["error"], refused.get_json()
    assert written() == before
    # correction: retried (with its lists in the body), the first answer; the same id for another move is refused
    live = store.live_moves(gid)
    target = live[-1]
    body = {"version": store.version(gid), "action_id": "k", "seq": target.seq, "move": None, "drop": []}
    fixed = _post(client, table, "correct", target.seat, body)
    assert fixed.status_code == 200, fixed.get_json()
    again = _post(client, table, "correct", target.seat, body)
    assert again.status_code == 200 and again.get_json()["seq"] == fixed.get_json()["seq"]
    before = written()
    others = [m for m in store.live_moves(gid) if m.seat == target.seat]
    assert others, f"{game}: the seat has no other live move"
    refused = _post(client, table, "correct", target.seat, {**body, "version": store.version(gid),
                                                            "seq": others[-1].seq})
    assert refused.status_code == 422 and REUSED in refused.get_json()["error"], refused.get_json()
    assert written() == before
    # the same take-back id reused for a correction's or a move's body is refused, as before (another kind)
    refused = _post(client, table, "correct", 0, {**body, "action_id": "u", "version": store.version(gid)})
    assert refused.status_code == 422 and REUSED in refused.get_json()["error"]
    assert written() == before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_another_seats_id_is_refused_in_words_that_tell_nothing_of_its_move(app: Flask, game: str) -> None:
    client, store, table, rng = _table(app, game, 2)
    seat, move = _a_move(app, table, rng)
    assert _post(client, table, "moves", seat, {"version": 0, "action_id": "x", "move": move}).status_code == 200
    other = (seat + 1) % len(table["seats"])
    answers = set()
    for body in (move, {"type": "anything"}):  # the other seat's move sent as is, or another: the same refusal
        refused = _post(client, table, "moves", other, {"version": 1, "action_id": "x", "move": body})
        assert refused.status_code == 422
        answers.add(json.dumps(refused.get_json(), sort_keys=True))
    assert len(answers) == 1
    assert store.version(table["id"]) == 1


def test_a_move_stored_less_a_field_nothing_read_retried_as_sent_gets_its_first_answer(app: Flask) -> None:
    """The store keeps a move less the declared fields the rules did not read (``_applied``): a retry of the body
    that was sent (with that field) is still that move's retry, in every game where random play meets one."""
    from companion.store.states import _applied
    from tests.test_move_fields_generated import FITTING

    client = app.test_client()
    store = app.extensions["store"]
    retried: dict[str, int] = {}
    for name, rules in sorted(GAMES.items()):
        table = _new(client, name)
        rng = random.Random(f"kept-{name}")
        retried[name] = 0
        for n in range(60):
            found = _some_move(app, table, rng)
            if found is None:
                break
            seat, move = found
            version, before = store.current(table["id"])
            spec = rules.SPEC.move(move["type"])
            for field in [f for f in spec.kinds if f not in move]:
                sent = {**move, field: FITTING[spec.kinds[field]]}
                expected = _applied(rules, before, seat, sent, name)
                if not isinstance(expected, Exception) and field not in expected[2]:
                    move = sent  # a field the rules do not read here: the store drops it
                    break
            body = {"version": version, "action_id": f"m{n}", "move": move}
            first = _post(client, table, "moves", seat, body)
            assert first.status_code == 200, first.get_json()
            stored = store.log(table["id"], seat)[-1]["move"]
            if stored == move:
                continue
            again = _post(client, table, "moves", seat, body)
            assert again.status_code == 200, again.get_json()
            assert again.get_json()["seq"] == first.get_json()["seq"] and store.version(table["id"]) == version + 1
            retried[name] += 1
    print(retried)
    assert sum(retried.values()) > 0, retried


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_move_logged_before_requests_were_kept_is_compared_by_the_fields_the_log_kept(
        request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> None:
    """The log of a game written by an older store keeps no trace of the request: a retry there is told apart by
    the move as the log kept it (every field of it, equal, in the move sent again); another move is refused."""
    import shutil

    from companion.rules import IllegalMove
    from companion.store import Store
    from companion.store.copy import copy_games

    shutil.copy(Path(__file__).parent / "golden" / "companion-format0.sqlite3", tmp_path / "old.sqlite3")
    store = Store(tmp_path / "old.sqlite3")
    if backend == "postgresql":
        source, store = store, Store(request.getfixturevalue("postgres_dsn"))
        copy_games(source, store)
        source.close()
    try:
        rows = store.backend.rows("SELECT game_id, seq, seat, move, action_id, result FROM moves WHERE kind = 'move'"
                                  " ORDER BY game_id, seq")
        assert rows and all("asked" not in json.loads(row["result"]) for row in rows)
        checked = 0
        for row in rows:
            gid, seat, kept = row["game_id"], row["seat"], json.loads(row["move"])
            version = store.version(gid)
            first = json.loads(row["result"])
            assert store.apply_move(gid, seat, version, row["action_id"], dict(reversed(kept.items()))) == first
            with pytest.raises(IllegalMove, match=REUSED):
                store.apply_move(gid, seat, version, row["action_id"], {**kept, "type": f"{kept['type']}-other"})
            assert store.version(gid) == version
            checked += 1
        assert checked == len(rows)
    finally:
        store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_retry_of_a_write_already_made_gets_its_answer_even_past_the_seats_move_rate(
        request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> None:
    """A seat past its move rate (429) that retries a move or take-back already written is answered as a retry (its
    first answer: it writes nothing), not told 'too many moves' as if it had not been recorded; a new action is
    still refused with the 429."""
    from companion.web import create_app

    database = str(tmp_path / "c.sqlite3") if backend == "sqlite" else str(request.getfixturevalue("postgres_dsn"))
    for game in sorted(GAMES):
        app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "k", "MOVE_LIMIT": "3 per minute"})
        try:
            client, store = app.test_client(), app.extensions["store"]
            table = _new(client, game)
            rng = random.Random(4)
            sent: list[tuple[str, int, dict[str, Any], Any]] = []
            while len(sent) < 3:
                seat, move = _a_move(app, table, rng)
                version = store.version(table["id"])
                if sent and seat != sent[0][1]:  # another seat's move, past the API: only one seat is counted
                    store.apply_move(table["id"], seat, version, f"o{version}", move)
                    continue
                route, body = ("undo", {"version": version, "action_id": f"u{version}"}) if len(sent) == 2 \
                    else ("moves", {"version": version, "action_id": f"m{version}", "move": move})
                answer = _post(client, table, route, seat, body)
                assert answer.status_code == 200, answer.get_json()
                sent.append((route, seat, body, answer.get_json()["seq"]))
            version = store.version(table["id"])
            for route, seat, body, seq in sent:
                again = _post(client, table, route, seat, body)
                assert again.status_code == 200, (game, route, again.get_json())
                assert again.get_json()["seq"] == seq
            assert store.version(table["id"]) == version
            seat = sent[0][1]
            new = _post(client, table, "undo", seat, {"version": version, "action_id": "new"})
            assert new.status_code == 429, new.get_json()
            assert store.version(table["id"]) == version
        finally:
            app.extensions["store"].close()


@pytest.mark.parametrize("route", ["moves", "undo", "correct", "revert"])
@pytest.mark.parametrize("action_id", ["a\tb", "a\nb", "a\x00b", "\x7f"])
def test_an_action_id_with_a_control_character_is_refused_in_words(tmp_path: Path, route: str, action_id: str) -> None:
    """A 400 that says what is wrong with the id, not the server's pattern for it."""
    from companion.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "k"})
    try:
        client = app.test_client()
        table = _new(client, sorted(GAMES)[0])
        body = {"version": 0, "action_id": action_id, "move": {"type": "x"}, "seq": 1, "entry": 1}
        body = {k: v for k, v in body.items() if k in {"moves": ("version", "action_id", "move"),
                                                        "undo": ("version", "action_id"),
                                                        "correct": ("version", "action_id", "seq", "move"),
                                                        "revert": ("version", "action_id", "entry")}[route]}
        refused = _post(client, table, route, 0, body)
        assert refused.status_code == 400
        assert refused.get_json()["error"] == "'action_id' must not hold control characters (a tab, a line break, a NUL…)."
    finally:
        app.extensions["store"].close()
