"""Jonathan Strange & Mr Norrell's result chart: prestige after every move, magicianship (secret until the end) at
its last point only, and the chart says so."""

from __future__ import annotations

import html

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
