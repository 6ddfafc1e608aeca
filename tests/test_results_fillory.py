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


def test_a_total_of_one_reads_one_point_on_the_result_page(app: Flask, client: FlaskClient) -> None:
    """The phone audit's three-player game: Ann reaches 104 VP with ten Students while Ben and Cid scored one
    trait of one card each (1 VP). The result page read "1 points" under both of them."""
    def draw(card: str) -> dict[str, str]:
        return {"type": "draw", "card": card}

    def play(card: str, summon: str | None = None, to: str = "zone") -> list[dict[str, str]]:
        follow = {"type": "summon", "card": summon, "to": to} if summon else {"type": "decline"}
        return [{"type": "play", "card": card}, follow]

    end = {"type": "end_turn"}
    deal = [(seat, draw(card)) for seat, cards in enumerate((("Physical Kids", "The Trials", "Hammer Spell"),
                                                              ("Golem", "Astral Projection", "Time Magic"),
                                                              ("Guardian", "Mike", "Insanity"))) for card in cards]
    first = [(0, m) for m in [draw("Game of Welters"), *play("Physical Kids", "Quentin"),
                              {"type": "trick", "card": "Hammer Spell", "trait": "Spell", "draw": "Todd",
                               "place": "Todd"}, {"type": "score", "trait": "Telekinetics"}, end]]
    first += [(1, m) for m in [draw("Convalescence"), *play("Golem", "Margo"),
                               {"type": "trick", "card": "Astral Projection", "trait": "Psychic", "target_seat": 2},
                               {"type": "score", "trait": "Sex"}, end]]
    first += [(2, m) for m in [draw("Josh Hoberman"), *play("Mike", "Elliot"),
                               {"type": "trick", "card": "Guardian", "trait": "Religion", "target_seat": 0}]]
    first += [(0, {"type": "lose_card", "card": "The Trials"}), (2, {"type": "score", "trait": "Student"}), (2, end)]
    rounds = [(("Sex Magic", "Game of Welters", "Alice"), ("Ember", "Time Magic"), ("Mentors", "Insanity")),
              (("Victoria", "Sex Magic", "Penny"), ("Djinn", "Ember"), ("Death", "Mentors")),
              (("Romance", "Victoria", "Josh Hoberman"), ("Hospital", "Djinn"), ("Pete", "Death")),
              (("Professor Mayakovsky", "Romance", "Kady"), ("Ibriza", "Hospital"), ("Cocaine", "Pete"))]
    middle = []
    for (a_draw, a_play, a_summon), (b_draw, b_play), (c_draw, c_play) in rounds:
        middle += [(0, m) for m in [draw(a_draw), *play(a_play, a_summon), end]]
        middle += [(1, m) for m in [draw(b_draw), *play(b_play), end]]
        middle += [(2, m) for m in [draw(c_draw), *play(c_play), end]]
    last = [(0, m) for m in [draw("The Sixth Book"), *play("Professor Mayakovsky", "Brakebills"),
                             {"type": "score", "trait": "Student"}]]
    store = app.extensions["store"]
    game = store.create_game("fillory", ["Ann", "Ben", "Cid"], {})["id"]
    for n, (seat, move) in enumerate(deal + first + middle + last):
        store.apply_move(game, seat, store.version(game), f"m-{n}", move)
    totals = [p["total"] for p in client.get(f"/g/{game}/result.json").get_json()["players"]]
    assert totals == [104, 1, 1]   # Telekinetics 2² + Student 10²; Sex 1²; Student 1²
    page = client.get(f"/g/{game}/result").get_data(as_text=True)
    assert "<strong>104</strong> points</span>" in page
    assert page.count("<strong>1</strong> point</span>") == 2 and "<strong>1</strong> points" not in page
