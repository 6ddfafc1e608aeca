"""Issue 21, as a reviewer tries it: what a phone (or an older version's store) can put in a correction or a
stored move, read back through the corrections pages and the API. Every answer is a documented 4xx or a page,
never a 5xx; every game is iterated (found, never named)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES
from companion.web.helpers import token_cookie


def new_game(client: FlaskClient, name: str, moves: int = 6, seed: int = 21) -> tuple[str, list[str]]:
    """A two-seat game (this phone holds both seats) with ``moves`` random legal moves played."""
    rules = GAMES[name]
    store = client.application.extensions["store"]
    body = client.post("/api/games", json={"game": name, "players": ["Ann", "Ben"]}).get_json()
    game_id, tokens = body["id"], [seat["token"] for seat in body["seats"]]
    for seat, token in enumerate(tokens):
        client.set_cookie(token_cookie(game_id, seat), token)
    rng = random.Random(seed)
    for n in range(moves):
        state = store.current(game_id)[1]
        found = next(((s, m) for s in (0, 1) if (m := rules.random_legal_move(state, s, rng)) is not None), None)
        assert found is not None
        store.apply_move(game_id, found[0], store.version(game_id), f"m{n}", found[1])
    return game_id, tokens


def post(client: FlaskClient, game_id: str, token: str, path: str, body: dict[str, Any]) -> Any:
    store = client.application.extensions["store"]
    return client.post(f"/api/games/{game_id}/{path}",
                       json={"version": store.version(game_id), "action_id": f"r{random.random()}", **body},
                       headers={"Authorization": f"Bearer {token}"})


def log_length(client: FlaskClient, game_id: str) -> int:
    return len(client.get(f"/api/games/{game_id}/log").get_json()["entries"])


def store_row(client: FlaskClient, game_id: str, kind: str, seat: int, body: Any) -> int:
    """Write a log entry straight into the SQLite store, as an older version might have: its seq."""
    store = client.application.extensions["store"]
    with store.backend.write() as db:
        version = int(db.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()[0])
        db.execute("INSERT INTO moves (game_id, seq, seat, kind, move, undoes, action_id, result, created)"
                   " VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)",
                   [game_id, version + 1, seat, kind, json.dumps(body), f"old{version}",
                    json.dumps({"version": version + 1, "seq": version + 1}), "2026-01-01T00:00:00+00:00"])
        db.execute("UPDATE games SET version = ? WHERE id = ?", [version + 1, game_id])
    return version + 1


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("kind", [{"a": 1}, ["explore"], 7, None])
def test_a_correction_whose_move_type_is_not_text_is_refused_and_changes_nothing(
        client: FlaskClient, name: str, kind: Any) -> None:
    """{"type": {"a": 1}} in a correction (or in one of its later moves) answered 500 before: the replay looked
    the type up among the private notes."""
    game_id, tokens = new_game(client, name)
    before = log_length(client, game_id)
    for body in ({"seq": 1, "move": {"type": kind}},
                 {"seq": 1, "move": None, "also": [{"seq": 2, "move": {"type": kind}}]},
                 {"seq": 1, "move": None, "insert": [{"before": 2, "seat": 0, "move": {"type": kind}}]}):
        answer = post(client, game_id, tokens[0], "correct", body)
        assert answer.status_code in (409, 422), (body, answer.status_code, answer.get_data(as_text=True)[:300])
        assert "error" in answer.get_json()
    assert log_length(client, game_id) == before
    assert client.get(f"/g/{game_id}/seat/0/fix/1/misfit",
                      query_string={"change": json.dumps({"move": {"type": kind}})}).status_code == 200


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_stored_move_of_an_unreadable_type_leaves_every_corrections_page_answering(
        client: FlaskClient, name: str) -> None:
    """A move an older version stored with a type this one cannot read: the history page of the other seat
    (which asks whether it may change that move) answered 500 before."""
    game_id, _ = new_game(client, name)
    for junk in ({"type": {"a": 1}}, {"type": ["a"]}):
        seq = store_row(client, game_id, "move", 0, junk)
        for seat in (0, 1):
            page = client.get(f"/g/{game_id}/seat/{seat}/fix")
            assert page.status_code == 200, (junk, seat)
            assert "cannot read" in page.get_data(as_text=True)
            assert client.get(f"/g/{game_id}/seat/{seat}/fix/{seq}").status_code == 200


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_stored_entry_that_is_no_object_or_no_seat_entry_we_write_leaves_every_page_answering(
        client: FlaskClient, name: str) -> None:
    """A damaged row (or another version's, on a database two versions share): a stored move that is a list, a
    text or null made the log, the corrections pages, undo and correct answer 500; a seat entry of a type or shape
    this version does not write made almost every page of the game answer 500. Each reads as an entry this version
    cannot read, and undo still answers."""
    game_id, tokens = new_game(client, name)
    pages = [f"/g/{game_id}", f"/g/{game_id}/live", f"/api/games/{game_id}", f"/api/games/{game_id}/log",
             *(f"/g/{game_id}/seat/{seat}{tail}" for seat in (0, 1) for tail in ("", "/live", "/fix", "/fix?page=2"))]
    for kind, junk in (("move", ["a"]), ("move", "text"), ("move", None), ("seat", {"type": "joined", "seat": 1}),
                       ("seat", {"type": "rename", "seat": 1, "name": "Bo"}), ("seat", {"type": "release"}),
                       ("seat", {"type": "rematch", "seat": 0}), ("seat", {"seat": 1}), ("seat", [1])):
        seq = store_row(client, game_id, kind, 0, junk)
        for path in [*pages, f"/g/{game_id}/seat/0/fix/{seq}"]:
            assert client.get(path).status_code < 500, (junk, path)
        log = client.get(f"/api/games/{game_id}/log").get_json()["entries"]
        if junk != {"type": "rematch", "seat": 0}:  # (a rematch that names no game still says who started one)
            assert "cannot read" in log[-1]["text"], (junk, log[-1])
    answer = post(client, game_id, tokens[0], "undo", {})
    assert answer.status_code in (200, 422), answer.get_json()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_stored_correction_these_rules_no_longer_take_leaves_the_later_forms_open(
        client: FlaskClient, name: str) -> None:
    """A correction stored by an older version whose move these rules refuse (a rule that changed since):
    the choice form of every later move answered 500 before (its replay raised); now that move is passed
    over, as the state's own timeline passes it over, and the later moves open on their forms."""
    game_id, _ = new_game(client, name)
    store = client.application.extensions["store"]
    store_row(client, game_id, "correct", 0, {"type": "correct", "seq": 1, "move": {"type": "no-such-move"}})
    live = [m.seq for m in store.live_moves(game_id)]
    assert live[0] == 1 and len(live) >= 4
    for seq in live:
        assert client.get(f"/g/{game_id}/seat/0/fix/{seq}").status_code == 200, seq
    for path in (f"/g/{game_id}/seat/0/fix", f"/g/{game_id}", f"/api/games/{game_id}/log"):
        assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_stored_correction_carrying_a_move_that_is_no_object_leaves_every_page_answering(
        client: FlaskClient, name: str) -> None:
    """A history audit: a stored correction whose move (or an ``also`` move) is a list or a text (a damaged
    row, another program's) made the author's corrections page answer 500; it reads as a move this version
    cannot read, as such a move row does."""
    game_id, _ = new_game(client, name)
    store = client.application.extensions["store"]
    first, second = [m.seq for m in store.live_moves(game_id)][:2]
    for body in ({"type": "correct", "seq": first, "move": ["x"]}, {"type": "correct", "seq": first, "move": "draw"},
                 {"type": "correct", "seq": first, "move": None, "also": [{"seq": second, "move": [1]}]}):
        store_row(client, game_id, "correct", 0, body)
        for path in (f"/g/{game_id}", f"/api/games/{game_id}/log",
                     *(f"/g/{game_id}/seat/{seat}{tail}" for seat in (0, 1) for tail in ("", "/fix", "/fix?page=2"))):
            assert client.get(path).status_code < 500, (body, path)


def test_the_every_page_fuzz_finds_the_routes_that_take_a_move(app: Flask) -> None:
    """The corrections pages of one move (its form, what a correction would break) are among the pages the
    in-process fuzz reads (tests/test_reliability_fuzz_moves.py)."""
    from tests.test_reliability_fuzz_moves import game_pages

    rng = random.Random(3)
    seen = [game_pages(app, "G", 2, rng, version=5) for _ in range(600)]
    assert any(re.search(r"/fix/\d+$", path) for path in seen)
    assert any(re.search(r"/fix/\d+/misfit\?change=", path) for path in seen)


def barony_reviewed(client: FlaskClient, confirmers: list[int]) -> Any:
    """Three seats: Ann explores one location, removes it, explores another; the end; points; confirmations."""
    from tests.test_timeline import Table

    table = Table(client, "barony-sorcery", ["Ann", "Ben", "Cid"])
    places = [place["id"] for place in table.game()["state"]["locations"]]
    table.move(0, {"type": "explore", "location": places[0]})     # 1
    table.correct(0, 1, None)                                      # 2: removed
    table.move(0, {"type": "explore", "location": places[1]})     # 3
    table.move(1, {"type": "end_game"})                            # 4
    for seat in range(3):                                          # 5, 6, 7
        table.move(seat, {"type": "base_points", "points": 30 + seat})
    for seat in confirmers:                                        # 8...
        table.move(seat, {"type": "confirm_totals"})
    return table


@pytest.mark.parametrize("confirmers", [[2], [2, 0, 1]], ids=["in the review", "after the end"])
def test_barony_a_put_back_that_changes_a_total_clears_every_confirmation_and_says_so(
        client: FlaskClient, confirmers: list[int]) -> None:
    """Putting back a removed exploration changes Ann's total (33 -> 36): Cid's confirmation (and, after the
    end, everyone's) is cleared; before, the log line said nothing of it, so Cid's phone was never told."""
    table = barony_reviewed(client, confirmers)
    assert table._post(0, "revert", {"entry": 2}).status_code == 200
    game = table.game()
    assert [p["total"] for p in game["state"]["players"]] == [36, 31, 32]
    assert not game["over"] and [p["confirmed"] for p in game["state"]["players"]] == [False, False, False]
    line = table.log()[-1]["text"]
    cleared = ", ".join(str(8 + n) for n in range(len(confirmers)))
    assert line.startswith("Ann put back their move 1")
    assert f"every confirmation of the totals is cleared (move {cleared}): the table confirms them again" in line
    assert ("the game is no longer over" in line) == (len(confirmers) == 3)


def test_a_correction_that_opens_a_choice_is_refused_naming_that_choice_not_only_the_later_move(
        app: Flask, client: FlaskClient) -> None:
    """Mandragora's team game: Ann's first seek took a cursed scroll she forgot to report. With it the rules need
    her help for her partner before Ben's move 2. The refusal said only "Ben's move 2 would no longer fit; correct
    or remove that move too", which no correction of move 2 can mend; it now names the choice (public: the
    table sees it asked for) and carries it as `pending`, as a move refused for the same reason does."""
    store = app.extensions["store"]
    game = store.create_game("mandragora", ["Ann", "Ben", "Cat", "Dan"], {"teams": True})
    tokens = [seat["token"] for seat in game["seats"]]
    for seat, steps in ((0, 3), (1, 1)):
        store.apply_move(game["id"], seat, store.version(game["id"]), f"s{seat}",
                         {"type": "seek", "steps": steps, "scrolls": []})
    answer = post(client, game["id"], tokens[0], "correct",
                  {"seq": 1, "move": {"type": "seek", "steps": 3, "scrolls": [2]}})
    body = answer.get_json()
    assert answer.status_code == 422 and body["seq"] == 2, body
    assert body["pending"] == {"seat": 0, "move": "team_help", "choice": "m-team", "rule": "mandragora.team.exchange",
                               "title": "Ann chooses how to help Cat"}
    assert body["error"] == ("The rules now need a choice before Ben's move 2: Ann chooses how to help Cat; make that "
                             "choice with this correction (or correct or remove move 2).")
    assert len(store.live_moves(game["id"])) == 2
    # the same correction with that choice put in before move 2 is taken
    assert post(client, game["id"], tokens[0], "correct", {
        "seq": 1, "move": {"type": "seek", "steps": 3, "scrolls": [2]},
        "insert": [{"before": 2, "seat": 0, "move": {"type": "team_help", "kind": "none"}}]}).status_code == 200

    # a move refused because the rules wait for that choice carries it too, as docs/games/mandragora.md says
    game = store.create_game("mandragora", ["Ann", "Ben", "Cat", "Dan"], {"teams": True})
    tokens = [seat["token"] for seat in game["seats"]]
    store.apply_move(game["id"], 0, 0, "s0", {"type": "seek", "steps": 3, "scrolls": [2]})
    refused = post(client, game["id"], tokens[1], "moves", {"move": {"type": "seek", "steps": 1, "scrolls": []}})
    assert refused.status_code == 422 and refused.get_json()["pending"]["title"] == "Ann chooses how to help Cat"


def barony_over(client: FlaskClient) -> Any:
    from tests.test_timeline import barony_to_the_review

    table, _ = barony_to_the_review(client)     # 1 explore, 2 removed, 3 explore, 4 end, 5-6 points
    table.move(0, {"type": "confirm_totals"})  # 7
    table.move(1, {"type": "confirm_totals"})  # 8: over, Ann wins 33 to 31
    return table


@pytest.mark.parametrize("way", ["also", "drop", "insert", "drop the end"])
def test_barony_after_the_end_no_way_around_rewrites_the_confirmed_points(client: FlaskClient, way: str) -> None:
    """`correct` of a confirmed base_points after the end is refused (as base_points itself is); the same
    correction made through another move's correction ('also'), a removal with it ('drop') or a move put in
    ('insert') rewrote Ann's 30 as 5, removed it, or reopened the game: now each is refused the same way."""
    from companion.rules import rules_for

    table = barony_over(client)
    place = table.log()[2]["move"]["location"]
    explore = {"type": "explore", "location": place}
    body = {"also": {"seq": 3, "move": explore, "also": [{"seq": 5, "move": {"type": "base_points", "points": 5}}]},
            "drop": {"seq": 3, "move": explore, "drop": [5]},
            "insert": {"seq": 3, "move": explore,
                       "insert": [{"before": 5, "seat": 0, "move": {"type": "base_points", "points": 5}}]},
            "drop the end": {"seq": 3, "move": None, "drop": [4]}}[way]
    answer = table._post(1, "correct", body)
    assert answer.status_code == 422, answer.get_json()
    refused = answer.get_json()
    assert refused["rule"] == rules_for("barony-sorcery").SPEC.over_rule
    assert refused["error"].startswith("The game is over: Ann has the most points: 33")
    game = table.game()
    assert game["over"] and game["winner"] == 0 and len(table.log()) == 8
    assert [p["base_points"] for p in game["state"]["players"]] == [30, 31]


def test_barony_after_the_end_a_put_back_cannot_rewrite_the_confirmed_points(client: FlaskClient) -> None:
    """Ann's points were corrected from 30 to 20 during the review and then confirmed; after the end, undoing that
    correction rewrote the confirmed 20 as 30 (and reopened the game): it is refused as a correction would be."""
    from tests.test_timeline import barony_to_the_review

    table, _ = barony_to_the_review(client)
    table.correct(0, 5, {"type": "base_points", "points": 20})         # 7
    table.move(0, {"type": "confirm_totals"})                          # 8
    table.move(1, {"type": "confirm_totals"})                          # 9: over, Ben wins 31 to 23
    answer = table._post(0, "revert", {"entry": 7})
    assert answer.status_code == 422 and "so move 5 stands as the table confirmed it" in answer.get_json()["error"]
    game = table.game()
    assert game["over"] and game["winner"] == 1 and [p["base_points"] for p in game["state"]["players"]] == [20, 31]


# -- the end a table confirmed stands: no seat alone may end it on other totals (an audit's findings) ------------

def _confirmed(table: Any) -> list[bool]:
    return [p["confirmed"] for p in table.game()["state"]["players"]]


def test_barony_confirmations_taken_back_cannot_be_put_back_after_a_total_changed(client: FlaskClient) -> None:
    """Everyone confirmed; Ben alone took back the three confirmations (any seat may), corrected his own points
    to 90, then put his three take-backs back: the old confirmations came back with them and the game was over
    at once with Ben the winner on totals Ann and Cid never saw. A confirmation stands only for the totals it was
    made for: each put-back is refused, and the table confirms the new totals itself."""
    table = barony_reviewed(client, [2, 0, 1])                      # 8, 9, 10: over, Ann wins 33 / 31 / 32
    assert table.game()["over"] and table.game()["winner"] == 0
    undos = [table._post(1, "undo", {}).get_json()["seq"] for _ in range(3)]   # 11, 12, 13
    assert _confirmed(table) == [False, False, False] and not table.game()["over"]
    table.correct(1, 6, {"type": "base_points", "points": 90})     # 14
    for undo in reversed(undos):
        refused = table._post(1, "revert", {"entry": undo})
        assert refused.status_code == 422, refused.get_json()
        assert "confirm" in refused.get_json()["error"] and "again" in refused.get_json()["error"]
    game = table.game()
    assert not game["over"] and _confirmed(table) == [False, False, False]
    assert [p["total"] for p in game["state"]["players"]] == [33, 90, 32]
    for seat in (0, 1, 2):                                          # the table confirms the new totals: Ben wins
        table.move(seat, {"type": "confirm_totals"})
    assert table.game()["over"] and table.game()["winner"] == 1


def test_barony_a_put_back_never_revives_confirmations_made_before_a_later_change(client: FlaskClient) -> None:
    """The second way to the same wrong end: remove a move after the end (the confirmations are cleared with it),
    correct a total, put the removal back: it brought back the cleared confirmations, made for the old totals.
    Now it clears them, as its log line says, whether or not a total changed meanwhile."""
    for change_points in (True, False):
        table = barony_reviewed(client, [2, 0, 1])
        table.correct(1, 3, None)                                   # 11: Ben removes Ann's explore
        if change_points:
            table.correct(1, 6, {"type": "base_points", "points": 90})
        answer = table._post(1, "revert", {"entry": 11})
        assert answer.status_code == 200, answer.get_json()
        game = table.game()
        assert not game["over"] and _confirmed(table) == [False, False, False]
        assert game["state"]["players"][1]["total"] == (90 if change_points else 31)
        assert "the table confirms them again" in table.log()[-1]["text"]


def test_barony_a_confirmation_taken_back_and_put_back_stands_again(client: FlaskClient) -> None:
    """The documented exception holds: Cid takes back the last confirmation, Ben's (the review reopens, the other
    two standing), and puts it back with nothing else changed: the game is over again on the same totals."""
    table = barony_reviewed(client, [2, 0, 1])
    undo = table._post(2, "undo", {}).get_json()["seq"]
    assert _confirmed(table) == [True, False, True] and not table.game()["over"]
    assert table._post(2, "revert", {"entry": undo}).status_code == 200
    game = table.game()
    assert game["over"] and game["winner"] == 0 and game["winners"] == [0] and _confirmed(table) == [True, True, True]


def test_barony_no_seat_confirms_for_another_by_a_correction(client: FlaskClient) -> None:
    """A confirmation is its seat's own word: Ann turned Ben's and Cid's moves into their confirmations (a
    correction and its 'also', or a move put in) and ended the game alone. Each way is refused and nothing
    changes; Ann may still remove another seat's confirmation, and correct her own."""
    table = barony_reviewed(client, [1])                            # 8: Ben confirmed
    confirm = {"type": "confirm_totals"}
    before = len(table.log())
    for body in ({"seq": 7, "move": confirm},                                              # Cid's points
                 {"seq": 5, "move": {"type": "base_points", "points": 30}, "also": [{"seq": 7, "move": confirm}]},
                 {"seq": 5, "move": {"type": "base_points", "points": 30},
                  "insert": [{"before": 7, "seat": 2, "move": confirm}]},
                 {"seq": 8, "move": {"type": "send_back", "seat": 1}}):                    # Ben's confirmation
        refused = table._post(0, "correct", body)
        assert refused.status_code == 422, (body, refused.get_json())
        assert "own word" in refused.get_json()["error"], refused.get_json()
    assert len(table.log()) == before and _confirmed(table) == [False, True, False]
    table.correct(0, 8, None)                                       # removing it is any seat's right
    assert _confirmed(table) == [False, False, False]


def test_barony_after_the_end_a_confirmation_is_not_turned_into_a_send_back(client: FlaskClient) -> None:
    """Ben corrected his own confirmation into a send-back of his points after the end, which reopened his
    "final" points; a move corrected into a kind the end was settled on is refused as one put in would be."""
    from companion.rules import rules_for

    table = barony_reviewed(client, [2, 0, 1])
    refused = table._post(1, "correct", {"seq": 10, "move": {"type": "send_back", "seat": 1}})
    assert refused.status_code == 422 and refused.get_json()["rule"] == rules_for("barony-sorcery").SPEC.over_rule
    assert table.game()["over"] and _confirmed(table) == [True, True, True]


@pytest.mark.parametrize("way", ["also", "drop"])
def test_a_move_changed_with_another_is_told_to_its_seat_which_may_put_it_back(client: FlaskClient, way: str) -> None:
    """Ann corrected her move 1 and, with it, corrected or removed Cid's move 3: Cid was neither told nor allowed
    to put it back ("Only Ann or Ann can put back this change"). Every seat whose move a change touched is told
    on its seat page and may put it back; a seat it did not touch may not."""
    from companion.web.fix_pages import changes_to_put_back
    from tests.test_timeline import Table

    table = Table(client, "barony-sorcery", ["Ann", "Ben", "Cid"])
    places = [place["id"] for place in table.game()["state"]["locations"]]
    table.move(0, {"type": "explore", "location": places[0]})     # 1
    table.move(1, {"type": "explore", "location": places[1]})     # 2
    table.move(2, {"type": "explore", "location": places[2]})     # 3
    body: dict[str, Any] = {"seq": 1, "move": {"type": "explore", "location": places[1]}}
    body.update({"also": [{"seq": 3, "move": {"type": "explore", "location": places[0]}}]} if way == "also"
                else {"drop": [3]})
    assert table._post(0, "correct", body).status_code == 200     # 4
    log = table.log()
    assert log[-1]["touched"] == [0, 2]
    assert [c["entry"] for c in changes_to_put_back(log, 2, ["Ann", "Ben", "Cid"])] == [4]
    assert changes_to_put_back(log, 1, ["Ann", "Ben", "Cid"]) == []
    refused = table._post(1, "revert", {"entry": 4})
    assert refused.status_code == 422 and refused.get_json()["error"] == "Only Ann or Cid can put back this change."
    assert table._post(2, "revert", {"entry": 4}).status_code == 200
    assert [m["move"]["location"] for m in table.log() if m["kind"] == "move"] == places[:3]


def test_a_refusal_to_put_back_names_each_seat_once(client: FlaskClient) -> None:
    """"Only Ben or Ben can put back this change": a seat that changed its own move is named once."""
    from tests.test_timeline import Table

    table = Table(client, "barony-sorcery", ["Ann", "Ben", "Cid"])
    places = [place["id"] for place in table.game()["state"]["locations"]]
    table.move(1, {"type": "explore", "location": places[0]})     # 1
    table.correct(1, 1, {"type": "explore", "location": places[1]})  # 2
    refused = table._post(0, "revert", {"entry": 2})
    assert refused.status_code == 422 and refused.get_json()["error"] == "Only Ben can put back this change."


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_undo_blocked_by_a_move_an_older_version_stored_names_that_move_and_why(
        client: FlaskClient, name: str, tmp_path: Any) -> None:
    """A move an older version stored in a shape these rules cannot read (a field they do not know) lies in the
    middle of the game: taking back the last move replays from the set-up in a fresh process and meets it. The
    refusal said "Ann's move 7 would no longer fit; correct or remove that move too", naming a move nobody had
    touched; it now says that move was stored by an older version and who may mend it."""
    from companion.store import Store

    game_id, tokens = new_game(client, name)
    store = client.application.extensions["store"]
    live = store.live_moves(game_id)
    model = next(m for m in live if m.move["type"] not in GAMES[name].SPEC.private_moves)
    # a field these rules do not know (every game's referee refuses one): an older version's move
    odd = store_row(client, game_id, "move", model.seat, {**model.move, "older_field": [["older", "shape"]]})
    rules = GAMES[name]
    rng = random.Random(5)
    public_after = 0
    for n in range(40):  # later moves, made on the state the table saw, until two a take-back would see
        state = store.current(game_id)[1]
        offered = [(s, m) for s in (0, 1) if (m := rules.random_legal_move(state, s, rng)) is not None]
        if not offered or public_after >= 2:
            break
        seat, move = rng.choice(offered)
        store.apply_move(game_id, seat, store.version(game_id), f"later{n}", move)
        public_after += move["type"] not in rules.SPEC.private_moves
    assert public_after, "no later move a take-back would take"
    fresh = Store(client.application.config["DATABASE"])  # a new process: no state kept in memory
    try:
        version = fresh.version(game_id)
        with pytest.raises(Exception) as refused:
            fresh.undo(game_id, 1, version, "undo-after-upgrade")
        assert f"move {odd} was stored by an older version of the companion" in str(refused.value), refused.value
        assert fresh.version(game_id) == version
    finally:
        fresh.close()
