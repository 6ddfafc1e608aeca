"""After the game: the result page, its JSON and BG Stats exports, the rematch, and the chart module."""

from __future__ import annotations

import html
import json
import random
import re
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES, rules_for
from companion.web.chart import (
    DASHES,
    MARKERS,
    Series,
    nice_step,
    score_chart,
    spread_labels,
    thinned,
)
from companion.web.helpers import host_cookie, token_cookie
from companion.web.results import is_finished


def play_to_the_end(app: Flask, game: str, players: list[str], seed: int, options: dict[str, Any] | None = None
                    ) -> dict[str, Any]:
    store = app.extensions["store"]
    created = store.create_game(game, players, options or {})
    rules = rules_for(game)
    rng = random.Random(seed)
    while True:
        version, state = store.current(created["id"])
        if is_finished(rules, state):
            return created
        offered = [(s, m) for s in range(len(players)) if (m := rules.random_legal_move(state, s, rng)) is not None]
        seat, move = rng.choice(offered)
        store.apply_move(created["id"], seat, version, f"r-{version}", move)


def csrf(client: FlaskClient, path: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)


@pytest.mark.parametrize("game", ["fillory", "mandragora", "barony-sorcery", "jsmn"])
def test_every_finished_game_has_a_result_page_and_exports(app: Flask, client: FlaskClient, game: str) -> None:
    created = play_to_the_end(app, game, ["Ann", "Ben", "Cat"], seed=7)
    store = app.extensions["store"]
    rules = rules_for(game)
    _, state = store.current(created["id"])
    page = html.unescape(client.get(f"/g/{created['id']}/result").get_data(as_text=True))
    data = client.get(f"/g/{created['id']}/result.json").get_json()
    scores = {row["seat"]: row for row in rules.score(state)}
    for p in data["players"]:  # totals and breakdowns are the rules' own
        assert (p["total"], p["breakdown"]) == (scores[p["seat"]]["total"], scores[p["seat"]]["breakdown"])
        assert f'id="total-{p["seat"]}"' in page
    assert data["outcome"]["reason"] == rules.outcome(state).reason and rules.outcome(state).reason in page
    assert {p["seat"] for p in data["players"] if p["winner"]} == set(data["outcome"]["winners"])
    assert data["score_over_time"][0]["totals"] == [0] * 3 or game == "barony-sorcery"
    assert data["score_over_time"][-1]["totals"] == [scores[s]["total"] for s in range(3)]
    public_log = store.log(created["id"], None)
    assert [m["text"] for m in data["moves"]] == [e["text"] for e in public_log]
    assert page.count('<svg class="score-chart"') == 1 and page.count('class="series series-') == 3
    for token in (seat["token"] for seat in created["seats"]):
        assert token not in page and token not in json.dumps(data)
    bgstats = client.get(f"/g/{created['id']}/result.bgstats.json")
    assert bgstats.headers["Content-Disposition"].endswith('.bgstats.json"')
    play = bgstats.get_json()  # its shape is checked against BG Stats' documented format in test_bgstats.py
    assert [p["score"] for p in play["players"]] == [scores[s]["total"] for s in range(3)]
    assert sum(1 for p in play["players"] if p["rank"] == 1) >= 1


def test_an_unfinished_game_has_no_result_yet(app: Flask, client: FlaskClient) -> None:
    created = app.extensions["store"].create_game("fillory", ["Ann", "Ben"], {})
    for path in ("result", "result.json", "result.bgstats.json"):
        answer = client.get(f"/g/{created['id']}/{path}")
        assert answer.status_code == 409
        assert "not over yet" in answer.get_data(as_text=True)
        if path.endswith(".json"):  # a JSON address answers its errors in JSON too, whatever the client accepts
            assert answer.is_json and "not over yet" in answer.get_json()["error"]
        else:  # headed as what it is (the stock heading of a 409 read "Already taken")
            assert '<h1 id="error-title">Not over yet</h1>' in answer.get_data(as_text=True)
    assert client.get("/g/nosuchgame/result").status_code == 404
    missing = client.get("/g/nosuchgame/result.json", headers={"Accept": "text/html"})
    assert missing.status_code == 404 and missing.is_json and "nosuchgame" in missing.get_json()["error"]
    assert 'id="see-result"' not in client.get(f"/g/{created['id']}").get_data(as_text=True)


def test_the_table_links_to_the_result_once_the_game_is_over(app: Flask, client: FlaskClient) -> None:
    created = play_to_the_end(app, "mandragora", ["Ann", "Ben"], seed=2)
    assert f'href="/g/{created["id"]}/result"' in client.get(f"/g/{created['id']}").get_data(as_text=True)
    assert f'href="/g/{created["id"]}/result"' in client.get(f"/g/{created['id']}/live").get_data(as_text=True)


def test_exporting_twice_gives_the_same_bgstats_play(app: Flask, client: FlaskClient) -> None:
    created = play_to_the_end(app, "barony-sorcery", ["Ann", "Ben"], seed=3)
    first = client.get(f"/g/{created['id']}/result.bgstats.json").get_json()
    assert client.get(f"/g/{created['id']}/result.bgstats.json").get_json() == first
    other = play_to_the_end(app, "barony-sorcery", ["Ann", "Ben"], seed=3)
    again = client.get(f"/g/{other['id']}/result.bgstats.json").get_json()
    assert again["sourcePlayId"] != first["sourcePlayId"]  # BG Stats tells two plays apart by it
    assert [p["sourcePlayerId"] for p in again["players"]] == [p["sourcePlayerId"] for p in first["players"]] \
        == ["ann", "ben"]  # the same people: BG Stats keeps its match of them


def test_rematch_starts_the_same_players_and_options_with_this_phone_in_its_seats(app: Flask,
                                                                                  client: FlaskClient) -> None:
    created = play_to_the_end(app, "fillory", ["Ann", "Ben", "Cat"], seed=5, options={"first_seat": 2})
    client.set_cookie(token_cookie(created["id"], 1), created["seats"][1]["token"])
    token = csrf(client, f"/g/{created['id']}/result")
    answer = client.post(f"/g/{created['id']}/rematch", data={"csrf_token": token})
    assert answer.status_code == 303
    new_id = re.search(r"/g/([0-9a-f]+)/seat/1", answer.headers["Location"]).group(1)
    store = app.extensions["store"]
    assert store.info(new_id)["players"] == ["Ann", "Ben", "Cat"] and store.info(new_id)["game"] == "fillory"
    assert store.options(new_id) == {"first_seat": 2} and store.version(new_id) == 0
    assert store.info(new_id)["claimed"] == [False, True, False]
    assert client.get(f"/g/{new_id}/seat/1").status_code == 200  # the cookie was given
    assert client.post(f"/g/{created['id']}/rematch").status_code == 400  # no CSRF token: refused


def test_a_rematch_from_the_host_without_a_seat_opens_the_new_table_and_a_stranger_starts_none(
        app: Flask, client: FlaskClient) -> None:
    """The laptop that hosts the table (no seat) may start the rematch; a stranger with the shared result link
    (it holds the game id only) is refused, and is not shown the Rematch button or the way into a rematch."""
    created = play_to_the_end(app, "mandragora", ["Ann", "Ben"], seed=4)
    stranger = app.test_client()
    page = stranger.get(f"/g/{created['id']}/result").get_data(as_text=True)
    assert 'id="rematch"' not in page
    refused = stranger.post(f"/g/{created['id']}/rematch", data={"csrf_token": csrf(stranger, "/")})
    assert refused.status_code == 403 and app.extensions["store"].rematch_of(created["id"]) is None
    client.set_cookie(host_cookie(created["id"]), created["host_token"])
    answer = client.post(f"/g/{created['id']}/rematch", data={"csrf_token": csrf(client, f"/g/{created['id']}/result")})
    assert re.fullmatch(r"/g/[0-9a-f]+", answer.headers["Location"])


def test_a_rematch_is_offered_live_to_the_old_games_phones_and_a_second_tap_joins_it(app: Flask) -> None:
    created = play_to_the_end(app, "fillory", ["Ann", "Ben", "Cat"], seed=5)
    store = app.extensions["store"]
    ben, ann, nobody = app.test_client(), app.test_client(), app.test_client()
    ben.set_cookie(token_cookie(created["id"], 1), created["seats"][1]["token"])
    ann.set_cookie(token_cookie(created["id"], 0), created["seats"][0]["token"])
    before = store.version(created["id"])
    assert "rematch-offer" not in ann.get(f"/g/{created['id']}/seat/0/live").get_data(as_text=True)
    ben.post(f"/g/{created['id']}/rematch", data={"csrf_token": csrf(ben, f"/g/{created['id']}/result")})
    new_id = store.rematch_of(created["id"])
    code = store.info(new_id)["join_code"]
    assert store.version(created["id"]) == before + 1  # a new version: every phone on the game hears of it
    assert store.log(created["id"], None)[-1]["text"] == "Ben started a rematch"
    part = ann.get(f"/g/{created['id']}/seat/0/live").get_data(as_text=True)
    assert f'href="/j/{code}"' in part and "Take your seat in the rematch" in part
    # anyone with the old game's id (the shared result link) reads its table, result and log: none of them
    # shows the rematch's id (its table shows its join code) or its code
    for path in (f"/g/{created['id']}/live", f"/g/{created['id']}", f"/g/{created['id']}/result",
                 f"/api/games/{created['id']}/log", f"/api/games/{created['id']}", f"/g/{created['id']}/log"):
        shown = nobody.get(path).get_data(as_text=True)
        assert new_id not in shown and code not in shown, path
    again = ann.post(f"/g/{created['id']}/rematch", data={"csrf_token": csrf(ann, "/")})  # a page open before
    assert again.status_code == 303 and again.headers["Location"] == f"/j/{code}"  # no second rematch
    assert store.rematch_of(created["id"]) == new_id
    other = nobody.post(f"/g/{created['id']}/rematch", data={"csrf_token": csrf(nobody, "/")})
    assert other.status_code == 403 and new_id not in other.get_data(as_text=True)


# -- the chart ----------------------------------------------------------------------------------

def test_nice_steps_and_label_spreading() -> None:
    assert [nice_step(s) for s in (0, 4, 9, 23, 104, 880)] == [1, 1, 2, 5, 50, 200]
    assert spread_labels([50, 52, 51], 12, 0, 200) == [50, 74, 62]
    placed = spread_labels([198, 199, 200], 12, 0, 200)
    assert max(placed) <= 200 and sorted(placed)[1] - sorted(placed)[0] >= 12


def test_thinning_keeps_changes_first_and_last() -> None:
    points = [(i, i // 3) for i in range(100)]
    kept = thinned(points, 5)
    assert len(kept) == 5 and kept[0] == (0, 0) and kept[-1] == (99, 33)
    assert thinned([(0, 0), (1, 0), (2, 5)], 8) == [(0, 0), (2, 5)]


def test_each_line_has_its_own_dash_marker_and_end_label() -> None:
    lines = [Series(name, ((0, 0), (3, 4 * k), (9, 9 * k))) for k, name in enumerate("ABCDEF", start=1)]
    svg = str(score_chart(lines, title="Test & chart"))
    groups = re.findall(r'<g class="series series-(\d)" data-label="(\w)" data-shape="(\w+)"><path class="line" d="[^"]+"'
                        r'(?: stroke-dasharray="([^"]+)")?', svg)
    assert [g[1] for g in groups] == list("ABCDEF")
    assert len({g[2] for g in groups}) == 6 == len({g[3] for g in groups})
    assert [g[2] for g in groups] == list(MARKERS) and [g[3] for g in groups] == list(DASHES)
    assert re.findall(r'class="end-label"[^>]*>(\w) (\d+)<', svg) == [(n, str(9 * k)) for k, n in enumerate("ABCDEF", 1)]
    assert "<title id=\"chart-title\">Test &amp; chart</title>" in svg and "A: 9 at the end" in svg


def test_a_long_name_is_cut_at_its_label_and_scores_below_zero_fit() -> None:
    svg = str(score_chart([Series("Bartholomew <b>", ((0, 0), (4, -3)))], title="t"))
    assert "Barthol… -3</text>" in svg and "<b>" not in svg and "&lt;b&gt;" in svg  # the whole name in data-label
    ticks = [int(v) for v in re.findall(r'text-anchor="end">(-?\d+)<', svg)]
    assert min(ticks) <= -3 and max(ticks) >= 0 and 0 in ticks


def test_a_result_is_kept_per_version_and_an_undo_is_seen(app: Flask, client: FlaskClient) -> None:
    created = play_to_the_end(app, "barony-sorcery", ["Ann", "Ben"], seed=6)
    store = app.extensions["store"]
    first = client.get(f"/g/{created['id']}/result.json").get_json()
    assert client.get(f"/g/{created['id']}/result.json").get_json() == first
    last = store.log(created["id"], None)[-1]
    version = store.version(created["id"])
    store.undo(created["id"], last["seat"], version, "take-back")  # the game is open again: no result
    assert client.get(f"/g/{created['id']}/result.json").status_code == 409


def test_a_total_sent_back_in_the_review_is_never_plotted(app: Flask, client: FlaskClient) -> None:
    """Barony: Ann typed 400 for 40, Ben sent it back, Ann typed 40. The chart plotted 406 for a 46-43 game (a
    phone audit): a total the table caught as a typo was never the game's. Its figures keep Control-token
    points until every seat confirmed, then the confirmed totals."""
    store = app.extensions["store"]
    created = store.create_game("barony-sorcery", ["Ann", "Ben"], {})
    gid = created["id"]
    moves = [(0, {"type": "end_game"}), (0, {"type": "base_points", "points": 400}),
             (1, {"type": "base_points", "points": 43}), (1, {"type": "send_back", "seat": 0}),
             (0, {"type": "base_points", "points": 40}), (0, {"type": "confirm_totals"}),
             (1, {"type": "confirm_totals"})]
    for i, (seat, move) in enumerate(moves):
        store.apply_move(gid, seat, store.version(gid), f"m{i}", move)
    data = client.get(f"/g/{gid}/result.json").get_json()
    plotted = [step["totals"] for step in data["score_over_time"]]
    assert plotted[-1] == [40, 43] == [p["total"] for p in data["players"]]
    assert all(total <= 43 for totals in plotted for total in totals), plotted
    assert plotted[:-1] == [[0, 0]] * (len(moves))  # no Control tokens: nothing counted before the confirmation
    page = client.get(f"/g/{gid}/result").get_data(as_text=True)
    assert "400" not in re.search(r'<svg class="score-chart".*?</svg>', page, re.S).group(0)
    from companion import (
        archive,  # the host's export reads the same history (it plotted 400 + 6 as well)
    )

    assert [step["totals"] for step in archive.export(store, gid)["timeline"]] == plotted


def test_the_result_ends_at_the_last_change_to_the_game_not_at_a_later_rename_or_rematch(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ended` (and BG Stats' `durationMin`) is the game's last move: a rename a day later moved it, and so did
    the note of a rematch started from the result page (an entry of the old game's log)."""
    import companion.store.seats

    store = app.extensions["store"]
    created = play_to_the_end(app, "barony-sorcery", ["Ann", "Ben"], seed=3)
    before = client.get(f"/g/{created['id']}/result.json").get_json()
    minutes = client.get(f"/g/{created['id']}/result.bgstats.json").get_json()["durationMin"]
    monkeypatch.setattr(companion.store.seats, "_now", lambda: "2099-01-02T00:00:00.000+00:00")  # a day later
    store.rename_seat(created["id"], 1, "Benedict")
    store.note_rematch(created["id"], 0, "another-game")
    after = client.get(f"/g/{created['id']}/result.json").get_json()
    assert after["players"][1]["name"] == "Benedict" and after["version"] == before["version"] + 2
    assert after["moves"][-1]["at"].startswith("2099") and after["ended"] == before["ended"]
    assert client.get(f"/g/{created['id']}/result.bgstats.json").get_json()["durationMin"] == minutes


def test_the_result_ends_at_the_last_live_move_not_at_a_take_back_put_back_the_next_day(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A history audit: the final move taken back and put back a day later left the play as it was, yet
    `ended` moved to the put-back and BG Stats' durationMin grew by a day (any log entry but a seat's counted)."""
    import companion.store.moves

    store = app.extensions["store"]
    created = play_to_the_end(app, "barony-sorcery", ["Ann", "Ben"], seed=3)
    before = client.get(f"/g/{created['id']}/result.json").get_json()
    minutes = client.get(f"/g/{created['id']}/result.bgstats.json").get_json()["durationMin"]
    monkeypatch.setattr(companion.store.moves, "_now", lambda: "2099-01-02T00:00:00.000+00:00")  # a day later
    last = store.log(created["id"], None)[-1]
    taken = store.undo(created["id"], last["seat"], store.version(created["id"]), "take-back")
    store.revert(created["id"], last["seat"], store.version(created["id"]), "put-back", taken["seq"])
    after = client.get(f"/g/{created['id']}/result.json").get_json()
    assert after["version"] == before["version"] + 2 and after["players"] == before["players"]
    assert after["ended"] == before["ended"]
    assert client.get(f"/g/{created['id']}/result.bgstats.json").get_json()["durationMin"] == minutes


def test_a_game_at_a_dead_end_is_finished_for_every_reader_and_takes_no_move(app: Flask, client: FlaskClient) -> None:
    """A Fillory game at a dead end (nothing left to draw, play or score): its pages and result called it over while
    the API, `companion export`, `companion games` and the purge said it was playing, and it went on taking
    `end_turn` moves (new versions, new entries) up to the log's cap. Every reader now asks the same question."""
    from companion import archive
    from companion.rules import finished

    store = app.extensions["store"]
    rules = rules_for("fillory")
    for seed in range(2, 60):  # the first seed whose six-player game ends at a dead end (most are won)
        created = play_to_the_end(app, "fillory", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], seed=seed)
        version, state = store.current(created["id"])
        if rules.stalled(state):
            break
    assert rules.stalled(state) and not rules.outcome(state).over and finished(rules, state)  # (the seed's dead end)
    game = client.get(f"/api/games/{created['id']}").get_json()
    assert game["over"] is True and game["winner"] is None and game["winners"] == []
    assert client.get(f"/g/{created['id']}/result.json").get_json()["outcome"]["stalled"] is True
    listed = next(g for g in archive.games(store) if g["id"] == created["id"])
    assert listed["over"] is True
    assert archive.export(store, created["id"])["over"] is True
    assert created["id"] in [g["id"] for g in archive.due(store, datetime.now(timezone.utc) + timedelta(days=31))]
    for seat in range(6):
        assert all(rules.random_legal_move(state, seat, random.Random(n)) is None for n in range(5))
        assert rules.choices(state, seat) == []
    refused = client.post(f"/api/games/{created['id']}/moves", json={"version": version, "action_id": "late",
                                                                      "move": {"type": "end_turn"}},
                          headers={"Authorization": f"Bearer {created['seats'][state.turn_seat]['token']}"})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "fillory.game.dead-end"
    assert store.version(created["id"]) == version


def test_every_seat_page_of_a_finished_game_names_who_won(app: Flask, client: FlaskClient) -> None:
    """Mandragora's seat pages said only "The game is over: see the final scores on the table" (even on the
    winner's own phone) while the table named the winner; each game's seat page names who won, as its table does."""
    import html
    import re

    checked = 0
    for game in sorted(GAMES):
        rules = rules_for(game)
        players = ["Ann", "Ben", "Cat"][:max(2, rules.MIN_PLAYERS)]
        created = play_to_the_end(app, game, players, seed=4)
        state = app.extensions["store"].current(created["id"])[1]
        outcome = rules.outcome(state)
        seats = outcome.winners or (() if outcome.winner is None else (outcome.winner,))
        if not outcome.over or not seats:
            continue  # (a dead end, or an end nobody wins)
        winners = [players[s] for s in seats]
        for seat, token in enumerate(s["token"] for s in created["seats"]):
            client.set_cookie(token_cookie(created["id"], seat), token)
            page = html.unescape(re.sub(r"<[^>]+>", " ", client.get(f"/g/{created['id']}/seat/{seat}").get_data(as_text=True)))
            assert any(re.search(rf"{name}\s+(wins|win|share)", page) for name in winners), (game, seat)
        checked += 1
    assert checked >= len(GAMES) // 2


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_reason_the_rules_give_reaches_the_result_page_and_both_exports(app: Flask, client: FlaskClient,
                                                                            game: str) -> None:
    """Whatever ending reason the rules give stands at the top of the result page, in result.json and at the start
    of BG Stats' comments (a Fillory dead end's was lost: tests/test_results_fillory.py); the chart says what its
    totals count (``GameSpec.points``, and ``final_points`` at its last point only: JS&MN)."""
    rules = rules_for(game)
    players = ["Ann", "Ben", "Cat"][:max(2, rules.MIN_PLAYERS)]
    created = play_to_the_end(app, game, players, seed=11)
    _, state = app.extensions["store"].current(created["id"])
    reason = rules.outcome(state).reason
    assert reason
    data = client.get(f"/g/{created['id']}/result.json").get_json()
    assert data["outcome"]["reason"] == reason
    page = html.unescape(client.get(f"/g/{created['id']}/result").get_data(as_text=True))
    assert f'<p class="verdict" id="verdict">{reason}</p>' in page
    assert client.get(f"/g/{created['id']}/result.bgstats.json").get_json()["comments"].startswith(f"{reason} (")
    spec = rules.SPEC
    title = re.search(r'<title id="chart-title">([^<]*)</title>', page).group(1)
    if spec.final_points is None or not rules.outcome(state).over:
        assert title == f"{rules.TITLE}: {spec.points} after each move" and 'id="chart-note"' not in page
        counted = spec.points
    else:
        assert title == f"{rules.TITLE}: {spec.points} after each move, {spec.final_points} at the end"
        assert 'id="chart-note"' in page
        counted = spec.final_points
    for player in data["players"]:  # each total says what it counts (JS&MN's said "15 points" of magicianship)
        word = {"points": "point"}.get(counted, counted) if abs(player["total"]) == 1 else counted  # "1 point"
        assert f'<span class="vp"><strong>{player["total"]}</strong> {word}</span>' in page, player


@pytest.mark.parametrize("game", sorted(GAMES))
def test_taking_back_the_ending_move_reads_as_one_sentence_in_the_log(app: Flask, game: str) -> None:
    """"Ben took back their move 75: Ben revealed the colours left in their hand.; the game is no longer over…":
    the move's own full stop stood before the semicolon."""
    rules = rules_for(game)
    store = app.extensions["store"]
    created = play_to_the_end(app, game, ["Ann", "Ben", "Cat"][:max(2, rules.MIN_PLAYERS)], seed=5)
    last = store.log(created["id"], None)[-1]
    store.undo(created["id"], last["seat"], store.version(created["id"]), "take-back")
    text = store.log(created["id"], None)[-1]["text"]
    assert text.startswith(f"{last['text'].split(' ', 1)[0]} took back their move {last['seq']}: ")
    assert text.endswith("; the game is no longer over: it goes on from here") and ".;" not in text
