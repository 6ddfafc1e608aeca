"""Mandragora's ends on the result page and in its exports: the team game (team totals, partners sharing their
team's place) and the ties the rulebook does not settle (said to be the project's own reading)."""

from __future__ import annotations

import html
import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.rules import rules_for

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def _found(players: list[str], options: dict[str, Any], wanted: Any) -> list[tuple[int, dict[str, Any]]]:
    """The moves of the first seeded random game whose final result ``wanted(result)`` accepts."""
    rules = rules_for("mandragora")
    for seed in range(400):
        rng = random.Random(seed)
        state = rules.setup(players, options, random.Random(0))
        moves = []
        while not rules.outcome(state).over:
            offered = [(s, m) for s in range(len(players)) if (m := rules.random_legal_move(state, s, rng)) is not None]
            seat, move = rng.choice(offered)
            state = rules.apply(state, seat, move)
            moves.append((seat, move))
        if wanted(rules.final_result(state)):  # type: ignore[attr-defined]  # (Mandragora's own)
            return moves
    raise AssertionError("no seed gives that end")


def _stored(app: Flask, players: list[str], options: dict[str, Any], moves: list[tuple[int, dict[str, Any]]]) -> str:
    store = app.extensions["store"]
    created = store.create_game("mandragora", players, options)
    for n, (seat, move) in enumerate(moves):
        store.apply_move(created["id"], seat, store.version(created["id"]), f"m-{n}", move)
    return str(created["id"])


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_a_team_games_partners_share_their_teams_place_and_the_team_totals_are_shown(app: Flask,
                                                                                     client: FlaskClient) -> None:
    """The winning team's partners were ranked 1 and 2 by their own totals (and the losers 3 and 4) in
    result.json and BG Stats, and the result page showed no team total: the losing team's appeared nowhere."""
    moves = _found(PLAYERS, {"teams": True}, lambda r: r.teams[0].total != r.teams[1].total
                   and len({p.total for p in r.players}) == 4)
    game = _stored(app, PLAYERS, {"teams": True}, moves)
    data = client.get(f"/g/{game}/result.json").get_json()
    won = set(data["outcome"]["winners"])
    assert len(won) == 2 and {p["rank"] for p in data["players"] if p["seat"] in won} == {1}
    assert {p["rank"] for p in data["players"] if p["seat"] not in won} == {2}
    totals = {p["seat"]: p["total"] for p in data["players"]}
    assert sorted((t["seats"], t["total"], t["winner"], t["rank"]) for t in data["teams"]) == sorted(
        (seats, totals[seats[0]] + totals[seats[1]], seats[0] in won, 1 if seats[0] in won else 2)
        for seats in ([0, 2], [1, 3]))
    assert data["ranking"][:2] == sorted(sorted(won), key=lambda s: -totals[s])
    play = client.get(f"/g/{game}/result.bgstats.json").get_json()
    assert [(p["winner"], p["rank"]) for p in play["players"]] == [(p["winner"], p["rank"]) for p in data["players"]]
    for team in data["teams"]:
        assert f"{' & '.join(team['names'])} {team['total']}" in play["comments"]
    page = _text(client.get(f"/g/{game}/result").get_data(as_text=True))
    for team in data["teams"]:  # the losing team's total too
        assert f"{team['rank']}. {' & '.join(team['names'])}" in page and f"{team['total']} points together" in page


def test_a_team_tie_settled_by_our_own_tie_break_says_so_everywhere(app: Flask, client: FlaskClient) -> None:
    """Team totals equal: the project's tie-break (mandragora.team.tie, authored) gave the win with no sign that
    it is the project's reading, on the table, the result page, result.json and BG Stats."""
    moves = _found(PLAYERS, {"teams": True}, lambda r: r.teams[0].total == r.teams[1].total)
    game = _stored(app, PLAYERS, {"teams": True}, moves)
    note = "(our reading: the rulebook gives no team tie-break)"
    data = client.get(f"/g/{game}/result.json").get_json()
    assert data["outcome"]["reason"].endswith(note) and data["outcome"]["rule"] == "mandragora.team.tie"
    assert client.get(f"/g/{game}/result.bgstats.json").get_json()["comments"].startswith(data["outcome"]["reason"])
    assert note in _text(client.get(f"/g/{game}/result").get_data(as_text=True))
    table = client.get(f"/g/{game}").get_data(as_text=True)
    assert 'id="ending-reading"' in table and "/rules/mandragora#mandragora.team.tie" in table
    assert "Our reading: the rulebook gives no team tie-break" in _text(table)


def test_a_shared_win_on_equal_points_and_spells_says_the_rulebook_stops_there(app: Flask,
                                                                                client: FlaskClient) -> None:
    players = PLAYERS[:3]
    moves = _found(players, {}, lambda r: r.decided_by == "shared")
    game = _stored(app, players, {}, moves)
    reason = client.get(f"/g/{game}/result.json").get_json()["outcome"]["reason"]
    assert "share the win" in reason and reason.endswith("(our reading: the rulebook's tie-break stops at the spells)")
    assert reason in _text(client.get(f"/g/{game}/result").get_data(as_text=True))
    assert "Our reading: the rulebook's tie-break stops at the spells" in _text(
        client.get(f"/g/{game}").get_data(as_text=True))


def test_equal_points_below_the_winner_are_placed_by_spells_cast_as_the_win_is(app: Flask,
                                                                              client: FlaskClient) -> None:
    """Two sorcerers level on points behind the winner shared 2nd place in result.json and BG Stats, though the
    rulebook's tie-break (more spells cast) separates them as it separates a tie for the win."""
    players = PLAYERS[:3]

    def level_behind(result: Any) -> bool:
        key = [(-p.total, -p.spells_cast) for p in result.players]
        best = min(key)
        below = [k for k in key if k != best]
        return len(below) == 2 and below[0][0] == below[1][0] and below[0] != below[1]

    moves = _found(players, {}, level_behind)
    game = _stored(app, players, {}, moves)
    _, state = app.extensions["store"].current(game)
    key = [(-p.total, -p.spells_cast) for p in rules_for("mandragora").final_result(state).players]  # type: ignore[attr-defined]
    data = client.get(f"/g/{game}/result.json").get_json()
    ranks = [p["rank"] for p in data["players"]]
    assert ranks == [1 + sum(other < mine for other in key) for mine in key] and sorted(ranks) == [1, 2, 3]
    assert [p["rank"] for p in client.get(f"/g/{game}/result.bgstats.json").get_json()["players"]] == ranks
