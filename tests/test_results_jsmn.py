"""Jonathan Strange & Mr Norrell's result chart: prestige after every move, magicianship (secret until the end) at
its last point only, and the chart says so."""

from __future__ import annotations

import html
import random

from flask import Flask
from flask.testing import FlaskClient
from test_results import play_to_the_end

from companion.rules import rules_for


def test_the_chart_says_its_last_point_is_magicianship_and_the_others_prestige(app: Flask,
                                                                                client: FlaskClient) -> None:
    """The chart drew prestige after every move and magicianship at the end on one line titled "points after each
    move", with nothing saying the measure changes at its last point."""
    created = play_to_the_end(app, "jsmn", ["Ann", "Ben", "Cat"], seed=2)
    store = app.extensions["store"]
    _, state = store.current(created["id"])
    data = client.get(f"/g/{created['id']}/result.json").get_json()
    steps = data["score_over_time"]
    before, last = steps[-2], steps[-1]
    assert before["totals"] == [s.prestige for s in state.seats]  # prestige up to the last move...
    assert last["totals"] == [row["total"] for row in rules_for("jsmn").score(state)]  # ...then magicianship
    page = html.unescape(client.get(f"/g/{created['id']}/result").get_data(as_text=True))
    title = "Jonathan Strange & Mr Norrell: prestige after each move, magicianship at the end"
    assert f'<title id="chart-title">{title}</title>' in page
    assert ">Prestige, then magicianship</text>" in page  # the axis
    assert (f'id="chart-note">Each point is prestige after that move, except the last (move {last["move"]}): that '
            "one is magicianship, shown only once the game is over.</p>") in page
    assert (f"<caption>Prestige after each move that changed a total; the last row (move {last['move']}) is "
            "magicianship, at the end</caption>") in page
    # the totals above the chart are magicianship too: "1. Ann winner 15 magicianship", not "15 points"
    for player in data["players"]:
        assert f'<span class="vp"><strong>{player["total"]}</strong> magicianship</span>' in page
    assert "</strong> points</span>" not in page


def test_every_place_follows_the_rulebooks_tie_break_not_only_the_first(app: Flask, client: FlaskClient) -> None:
    """Equal magicianship below the winner (or after a reign) shared a place in result.json, BG Stats and on the
    result page ("2. Ann, 2. Cat"), though the reason already broke such ties as the rulebook does: the higher on
    the prestige track, then the disc on top."""
    rules = rules_for("jsmn")
    store = app.extensions["store"]
    for seed in range(40):
        created = store.create_game("jsmn", ["Ann", "Ben", "Cat"], {})
        start = store.current(created["id"])[1]
        state, rng, moves = start, random.Random(seed), []
        while not rules.outcome(state).over:
            seat, move = next((s, m) for s in range(3) if (m := rules.random_legal_move(state, s, rng)))
            state = rules.apply(state, seat, move)
            moves.append((seat, move))
        standing = rules.standings(state)  # type: ignore[attr-defined]  # (JS&MN's own)
        key = [(-p.magicianship, -p.prestige, p.stack) for p in standing]
        if len({p.magicianship for p in standing}) < 3 and len(set(key)) == 3:
            break
    else:
        raise AssertionError("no game in 40 ends with equal magicianship that the tie-break separates")
    for n, (seat, move) in enumerate(moves):
        store.apply_move(created["id"], seat, store.version(created["id"]), f"m-{n}", move)
    data = client.get(f"/g/{created['id']}/result.json").get_json()
    ranks = [p["rank"] for p in data["players"]]
    assert ranks == [1 + sum(other < mine for other in key) for mine in key] and sorted(ranks) == [1, 2, 3]
    assert data["ranking"] == sorted(range(3), key=lambda s: key[s])
    play = client.get(f"/g/{created['id']}/result.bgstats.json").get_json()
    assert [p["rank"] for p in play["players"]] == ranks
    page = html.unescape(client.get(f"/g/{created['id']}/result").get_data(as_text=True))
    for p in data["players"]:
        assert f"{p['rank']}. {p['name']}" in page
