"""Seat and start pages say what is true for this phone and lead with what comes next (issue 25): a mistyped
join code keeps the form with the reason beside the field, the result leads a finished seat page, the seat
page carries the script that brings the next step into view, a released seat is not shown in green."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES
from companion.web.games import pages_for
from companion.web.helpers import token_cookie
from companion.web.results import is_finished
from tests.test_pages import shown

STATIC = Path(__file__).resolve().parents[1] / "companion" / "static"


def test_a_wrong_join_code_keeps_the_form_and_says_why(client: FlaskClient) -> None:
    response = client.get("/join?code=zzzz22")
    page = shown(response)
    assert response.status_code == 404
    assert 'id="code" name="code" value="ZZZZ22"' in page and 'aria-invalid="true"' in page
    assert re.search(r'<p class="field-error" id="code-error" role="alert">No game has the join code ZZZZ22\. '
                     r"Check the code on the host's phone\.</p>", page)
    assert "<h1 id=\"error-title\">Not found</h1>" not in page


def test_a_right_join_code_still_goes_to_the_join_page(app: Flask, client: FlaskClient) -> None:
    game = app.extensions["store"].create_game("fillory", ["Ann", "Ben"], {}, held=[0])
    response = client.get(f"/join?code={game['join_code'].lower()}")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/j/{game['join_code']}")


def test_the_seat_page_loads_the_next_step_script(app: Flask, client: FlaskClient) -> None:
    game = app.extensions["store"].create_game("mandragora", ["Ann", "Ben"], {})
    client.set_cookie(token_cookie(game["id"], 0), game["seats"][0]["token"])
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    assert "/static/js/next-step.js" in page
    script = (STATIC / "js" / "next-step.js").read_text()
    assert 'addEventListener("live:moved"' in script and 'searchParams.delete("created")' in script
    assert 'document.dispatchEvent(new CustomEvent("live:moved"))' in (STATIC / "js" / "live.js").read_text()


def test_a_released_seat_is_not_green_in_the_status_bar() -> None:
    css = (STATIC / "css" / "app.css").read_text()
    rule = re.search(r'\.live-status\[data-state="gone"\] \{([^}]*)\}', css)
    assert rule and "var(--bad)" in rule.group(1)


def test_a_seat_with_no_move_now_has_no_your_move_heading_over_the_take_back(app: Flask) -> None:
    from tests.test_pages import STANDARD_HANDS, deal, new_game, seat_page

    game = new_game(app)
    deal(app, game, STANDARD_HANDS)  # Ann (seat 0) is first: Ben has nothing to report now
    client = app.test_client()
    waiting = seat_page(client, game, 1)
    assert '<h2 id="moves-title">The last move</h2>' in waiting and "data-your-move" not in waiting
    assert "Take back the last move" in waiting
    acting = seat_page(app.test_client(), game, 0)
    assert '<h2 id="moves-title">Your move</h2>' in acting and "data-your-move" in acting


def test_your_games_mark_a_move_to_make_and_a_game_that_is_over(app: Flask) -> None:
    from tests.test_pages import STANDARD_HANDS, deal, new_game
    from tests.test_results import play_to_the_end

    playing = new_game(app)
    deal(app, playing, STANDARD_HANDS)  # Ann (seat 0) is to draw; Ben waits
    over = play_to_the_end(app, "mandragora", ["Ann", "Ben"], seed=5)
    client = app.test_client()
    for game, seat in ((playing, 0), (playing, 1), (over, 0)):
        client.set_cookie(token_cookie(game["id"], seat), game["seats"][seat]["token"])
    page = shown(client.get("/"))
    items = re.findall(r'<li><a class="my-game" href="/g/(\w+)/seat/(\d)">(.*?)</a></li>', page, re.S)
    marks = {(g, int(s)): ("Your move" in body, "Game over" in body) for g, s, body in items}
    assert marks == {(playing["id"], 0): (True, False), (playing["id"], 1): (False, False),
                     (over["id"], 0): (False, True)}


def test_a_finished_jsmn_game_gives_the_status_bar_its_verdict_not_the_year(app: Flask) -> None:
    from tests.test_results import play_to_the_end

    over = play_to_the_end(app, "jsmn", ["Ann", "Ben"], seed=2)
    client = app.test_client()
    client.set_cookie(token_cookie(over["id"], 0), over["seats"][0]["token"])
    for page in (shown(client.get(f"/g/{over['id']}")), shown(client.get(f"/g/{over['id']}/seat/0"))):
        banner = page.split('id="j-banner"', 1)[1].split("</section>", 1)[0]
        turn = re.findall(r"<p[^>]*data-turn[^>]*>(.*?)</p>", banner, re.S)  # the line signals.js copies to the bar
        assert len(turn) == 1 and 'id="verdict"' in turn[0], turn


YOUR_MOVE_CHECKS = 40  # seat pages rendered per game (every few moves of a seeded random game, every seat)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_only_a_seat_the_game_waits_for_says_your_move(app: Flask, game: str) -> None:
    """Through a seeded random game of every discovered title: a seat page says "Your move" (heading and the
    data-your-move the status bar, tab dot, buzz and sound read) exactly when the rules' choices for it hold a
    move the game waits for; such a heading always stands over a move form, never over the take-back alone;
    a seat whose forms hold only moves it may report at any time gets "Report a move"; "Your games" agrees."""
    from companion.rules import rules_for
    from companion.rules.choices import awaits

    rules, store = rules_for(game), app.extensions["store"]
    pages = pages_for(game)
    if not (pages.choice_forms):
        pytest.skip(f"{game} has no choice forms of its own (the generic pages send moves through the API)")
    players = ["Ann", "Ben", "Cat"][:max(rules.MIN_PLAYERS, min(3, rules.MAX_PLAYERS))]
    created = store.create_game(game, players, {})
    rng = random.Random(f"your-move-{game}")
    seen = {"yours": 0, "report": 0, "waiting": 0}
    checked = moves = 0
    while checked < YOUR_MOVE_CHECKS * len(players):
        version, state = store.current(created["id"])
        if is_finished(rules, state):
            break
        if moves % 3 == 0:
            for seat in range(len(players)):
                client = app.test_client()
                client.set_cookie(token_cookie(created["id"], seat), created["seats"][seat]["token"])
                page = shown(client.get(f"/g/{created['id']}/seat/{seat}"))
                offered = rules.choices(state, seat)
                waited = awaits(offered)
                section = re.search(r'<section class="panel moves"[^>]*>.*?</section>', page, re.S)
                says = section is not None and '<h2 id="moves-title">Your move</h2>' in section.group(0)
                context = f"{game} version {version} seat {seat}: {[c.move for c in offered]}"
                assert says == waited == ("data-your-move" in page), context
                if says:
                    assert section is not None and re.search(r'<form class="move(?! undo-form)[^"]*"', section.group(0)), \
                        f"{context}: 'Your move' over no move form"
                    seen["yours"] += 1
                elif section is not None and "data-moves" in section.group(0):  # forms, none waited for
                    assert '<h2 id="moves-title">Report a move</h2>' in section.group(0), context
                    seen["report"] += 1
                else:
                    seen["waiting"] += 1
                home = shown(client.get("/"))
                mark = re.search(rf'href="/g/{created["id"]}/seat/{seat}">(.*?)</a>', home, re.S)
                assert mark and ("Your move" in mark.group(1)) == waited, context
                checked += 1
        candidates = [(s, m) for s in range(len(players)) if (m := rules.random_legal_move(state, s, rng)) is not None]
        seat, move = rng.choice(candidates)
        store.apply_move(created["id"], seat, version, f"y-{version}", move)
        moves += 1
    assert seen["yours"] and checked >= len(players) * 3, (game, seen)
