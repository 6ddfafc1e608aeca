"""Magicians of Fillory's end on the result page and in its exports: a dead end says why, as the table does."""

from __future__ import annotations

import html
import random
import re

from flask import Flask
from flask.testing import FlaskClient

from companion.rules import rules_for


def test_a_dead_end_says_why_on_the_result_page_and_in_both_exports(app: Flask, client: FlaskClient) -> None:
    """The table explained a dead end (nobody can reach 100 VP), but /result read only "The game is over.",
    result.json's reason was empty and BG Stats' comments began with " (Spellbook Table game…": the rules gave
    the dead end no reason, so nothing after the table had one to show."""
    rules = rules_for("fillory")
    players = ["Ann", "Ben"]
    for seed in range(300):  # the first seeded random game that ends at a dead end (most are won)
        rng = random.Random(seed)
        state = rules.setup(players, {}, random.Random(0))
        moves = []
        while not rules.outcome(state).over and not rules.stalled(state):
            seat, move = rng.choice([(s, m) for s in range(2) if (m := rules.random_legal_move(state, s, rng))])
            state = rules.apply(state, seat, move)
            moves.append((seat, move))
        if rules.stalled(state):
            break
    assert rules.stalled(state)
    store = app.extensions["store"]
    game = store.create_game("fillory", players, {})["id"]
    for n, (seat, move) in enumerate(moves):
        store.apply_move(game, seat, store.version(game), f"m-{n}", move)
    best = max(state.vp(s) for s in range(2))
    leads = " and ".join(p for s, p in enumerate(players) if state.vp(s) == best)
    data = client.get(f"/g/{game}/result.json").get_json()
    reason = data["outcome"]["reason"]
    assert reason.startswith("Dead end: no card is left to draw, play or score, so nobody can reach 100 VP; ")
    assert f"{leads} lead" in reason and f"with {best} VP" in reason
    assert reason.endswith("(our reading: the rulebook does not say what happens when nobody can reach 100 VP)")
    assert data["outcome"]["stalled"] is True and data["outcome"]["winners"] == []
    page = html.unescape(client.get(f"/g/{game}/result").get_data(as_text=True))
    verdict = re.search(r'<p class="verdict" id="verdict">([^<]*)</p>', page)
    assert verdict is not None and verdict.group(1) == reason
    assert client.get(f"/g/{game}/result.bgstats.json").get_json()["comments"].startswith(reason + " (Spellbook")
