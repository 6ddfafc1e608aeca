"""After the game: a result page for every finished game, its exports, and a rematch.

``/g/<id>/result`` shows the totals with their breakdown, who won and why, a score-over-time chart and
the whole public move log; ``result.json`` is the same as data, ``result.bgstats.json`` the play in BG
Stats' documented import format (see docs/results.md for the fields and their limits). Everything comes from
``view(state, None)``, ``score``, ``outcome`` and the public log: ``score`` is what the table page showed
to everyone at each version, so the chart (the score after each live move of the one resolved timeline,
``Store.timeline``: undo, corrections and removals applied as in the state) tells nothing the table
did not. ``POST /g/<id>/rematch`` starts a new game of the same kind with the same players and options;
this phone gets the seats it held in the old one.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

from flask import Response, jsonify, make_response, redirect, render_template, url_for
from werkzeug.wrappers import (
    Response as BaseResponse,  # what redirect() answers (flask's Response is one)
)

from companion.rules import SetupError, finished, rules_for, spec_for
from companion.rules.base import places_by
from companion.web.chart import Series, score_chart
from companion.web.errors import error_response
from companion.web.helpers import (
    hosting,
    page_blueprint,
    remember_host,
    remember_seat,
    seats_held,
    store,
)
from companion.web.links import external_url
from companion.web.seat_context import rematch_of

bp = page_blueprint("results", __name__)

RESULT_FORMAT = "spellbook-table-result"
RESULT_FORMAT_VERSION = 1
#: Finished games' results by (game id, version): a result is a replay of the whole log (0.1-0.4 s for
#: a 300-move game on a busy machine), and a version never changes.
RESULTS_KEPT = 32
_results: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_results_lock = threading.Lock()


class NotOver(Exception):
    """The game has no result yet."""


is_finished = finished  # (the name the result pages and their tests know it by)


def result_data(game_id: str) -> dict[str, Any]:
    """The finished game as plain data (the page, the JSON export and BG Stats' are made from it).
    Raises NotOver for a game that is not over yet."""
    info = store().info(game_id)
    rules = rules_for(info["game"])
    version, state = store().current(game_id)
    if not is_finished(rules, state):
        raise NotOver("The game is not over yet: its result page opens when it ends.")
    with _results_lock:
        if (game_id, version) in _results:
            _results.move_to_end((game_id, version))
            return _results[(game_id, version)]
    data = _result_of(game_id, info, rules, version, state)
    if store().version(game_id) != version:  # taken back while it was read: answered, not kept
        return data
    with _results_lock:
        _results[(game_id, version)] = data
        while len(_results) > RESULTS_KEPT:
            _results.popitem(last=False)
    return data


def _result_of(game_id: str, info: dict[str, Any], rules: Any, version: int, state: Any) -> dict[str, Any]:
    view = rules.view(state, None)
    outcome = rules.outcome(state)
    names = [p["name"] for p in view["players"]]
    scores = {row["seat"]: row for row in rules.score(state)}
    winners = set(outcome.winning_seats)
    players = [{"seat": seat, "name": name, "total": scores.get(seat, {}).get("total", 0),
                "breakdown": list(scores.get(seat, {}).get("breakdown", [])), "winner": seat in winners}
               for seat, name in enumerate(names)]
    teams = [{"seats": list(team.seats), "names": [names[s] for s in team.seats], "total": team.total,
              "winner": any(s in winners for s in team.seats)} for team in outcome.teams]
    team_of = {s: team for team in teams for s in team["seats"]}

    def standing(p: dict[str, Any]) -> tuple[bool, int]:  # a team game ranks teams: partners share their team's
        team = team_of.get(p["seat"])
        return (not p["winner"], -(team["total"] if team is not None else p["total"]))

    def side(p: dict[str, Any]) -> int:  # whom a place counts: the team (by its first seat), or the seat
        team = team_of.get(p["seat"])
        return team["seats"][0] if team is not None else p["seat"]

    # the game's own places where its tie-breaks set them, else the winners first, then by total (equal totals
    # share a place; in a team game the team's); within a place by the player's own total
    places = outcome.places if sorted(s for place in outcome.places for s in place) == list(range(len(players))) \
        else places_by([standing(p) for p in players])
    order = [players[s] for place in places for s in sorted(place, key=lambda s: -players[s]["total"])]
    before: set[int] = set()  # a place's rank counts the sides (seats, or teams) placed before it
    for place in places:
        for s in place:
            players[s]["rank"] = 1 + len(before)
        before |= {side(players[s]) for s in place}
    for team in teams:
        team["rank"] = players[team["seats"][0]]["rank"]
    steps = store().timeline(game_id)
    over_time = [{"move": index, "seq": seq, "seat": seat,
                  "totals": rules.charted_totals(after, rules.score(after))}
                 for index, (seq, seat, after) in enumerate(steps)]
    log = store().log(game_id, None)
    return {"format": RESULT_FORMAT, "format_version": RESULT_FORMAT_VERSION, "id": game_id, "game": info["game"],
            "title": rules.TITLE, "version": version, "started": info["created"],
            # the last live move of the resolved timeline: a rename, a hand-over or a rematch started later is no
            # play time, nor is a take-back, correction or put-back made the next morning that left the play as it was
            "ended": next((e["at"] for e in log if e["seq"] == steps[-1][0]), info["created"]),
            "players": players, "ranking": [p["seat"] for p in order],
            "start_seat": _start_seat(rules, steps),
            "outcome": {"winners": sorted(winners), "reason": outcome.reason,
                        "stalled": not outcome.over, "rule": outcome.rule},
            "teams": teams or None,
            "options": store().options(game_id), "score_over_time": over_time,
            "moves": [{"seq": e["seq"], "seat": e["seat"], "kind": e["kind"], "text": e["text"], "undone": e["undone"],
                       "at": e["at"], "move": e["move"]} for e in log]}


def _start_seat(rules: Any, steps: list[tuple[int, int | None, Any]]) -> int | None:
    """The seat that took the game's first turn: the first seat the public view names as the one whose turn
    it is (``view["turn"]["seat"]``), along the resolved timeline from the start (a deal or a setup phase
    names none). None for a game whose companion keeps no turn order, or that ended first."""
    for _, _, state in steps:
        turn = rules.view(state, None).get("turn")
        seat = turn.get("seat") if isinstance(turn, dict) else None
        if isinstance(seat, int) and not isinstance(seat, bool):
            return seat
        if turn is None:  # no turn in this game's view at all
            return None
    return None


#: the word after a total of 1 or -1, for a measure counted in units ("1 point", not "1 points"); a measure not
#: listed (prestige, magicianship) reads the same after any total
ONE = {"points": "point"}


def chart_words(data: dict[str, Any]) -> dict[str, str | None]:
    """What the totals count, in words: ``{"title", "axis", "note", "caption"}`` of the chart (caption: the
    figures' table) and ``total``, the word after each final total ("15 magicianship", "40 points"), and ``one``, the word after a total of 1
    or -1 ("1 point"). A game whose
    end shows another measure than its play (``GameSpec.final_points``: JS&MN's magicianship, secret until the
    end, after prestige) says so in the title, on the axis and in a note; ``note`` is None for a game counting
    one thing throughout."""
    spec = spec_for(data["game"])
    during, final = spec.points, spec.final_points
    if final is None or final == during or data["outcome"]["stalled"]:
        return {"title": f"{data['title']}: {during} after each move", "axis": during.capitalize(), "note": None,
                "caption": f"{during.capitalize()} after each move that changed a total", "total": during,
                "one": ONE.get(during, during)}
    last = data["score_over_time"][-1]["move"]
    return {"title": f"{data['title']}: {during} after each move, {final} at the end",
            "axis": f"{during.capitalize()}, then {final}",
            "note": f"Each point is {during} after that move, except the last (move {last}): that one is {final}, "
                    f"shown only once the game is over.",
            "caption": f"{during.capitalize()} after each move that changed a total; the last row (move {last}) is "
                       f"{final}, at the end", "total": final, "one": ONE.get(final, final)}


def chart_of(data: dict[str, Any]) -> Any:
    series = []
    for p in data["players"]:
        points: list[tuple[int, int]] = []
        for step in data["score_over_time"]:
            total = step["totals"][p["seat"]] if p["seat"] < len(step["totals"]) else 0
            if not points or points[-1][1] != total or step is data["score_over_time"][-1]:
                points.append((step["move"], total))
        series.append(Series(p["name"], tuple(points)))
    words = chart_words(data)
    return score_chart(series, title=str(words["title"]), y_label=str(words["axis"]))


def _minutes(started: str, ended: str) -> int:
    try:
        return max(0, round((datetime.fromisoformat(ended) - datetime.fromisoformat(started)).total_seconds() / 60))
    except ValueError:
        return 0


#: Where BG Stats takes a play to import (its "push plays" link: bgstatsapp.com/support, "Push plays to BG
#: Stats from other apps or websites"); ``data`` is the play as :func:`bgstats_data` writes it, URL-encoded.
BGSTATS_IMPORT_URL = "https://app.bgstatsapp.com/createPlay.html?data="
BGSTATS_SOURCE = "Spellbook Table"


def _table_time(moment: datetime) -> datetime:
    """``moment`` in the serving machine's own time zone: the companion is served at the table (a laptop or a
    phone on the table's Wi-Fi), so its clock's zone is the table's; BG Stats reads playDate as local time."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)  # the store writes UTC
    return moment.astimezone()


def bgstats_data(data: dict[str, Any]) -> dict[str, Any]:
    """The play in BG Stats' documented import format (the JSON its "push plays" link carries): the game by
    name (no BoardGameGeek id: BG Stats asks once which game it is), one entry per player with score, rank,
    winner and who started. ``sourcePlayId`` is the game's id (importing twice is one play); a player's
    ``sourcePlayerId`` is their name as typed, folded (no accounts here), so BG Stats keeps its match of a
    name to one of its players from one game to the next. ``startPlayer`` is the seat that took the first
    turn (the result's ``start_seat``), whatever named it: the options, a stack, or the default seat."""
    started = datetime.fromisoformat(data["started"])
    first = data.get("start_seat")
    return {
        "sourceName": BGSTATS_SOURCE,
        "sourcePlayId": data["id"],
        "game": {"name": data["title"], "sourceGameId": data["game"], "highestWins": True, "noPoints": False},
        "playDate": _table_time(started).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": _minutes(data["started"], data["ended"]),
        "board": "",
        "comments": f"{data['outcome']['reason']}{_team_totals(data)} (Spellbook Table game {data['id']}, "
                    f"{len(data['score_over_time']) - 1} moves)",
        "players": [{"name": p["name"], "sourcePlayerId": " ".join(p["name"].casefold().split()), "score": p["total"],
                     "winner": p["winner"], "rank": p["rank"], "role": "", "startPlayer": p["seat"] == first}
                    for p in data["players"]],
    }


def _team_totals(data: dict[str, Any]) -> str:
    """A team game's team totals for BG Stats' comments (its players have no team; each scores their own)."""
    teams = data.get("teams") or []
    if not teams:
        return ""
    return "; team totals: " + ", ".join(f"{' & '.join(t['names'])} {t['total']}" for t in teams)


def bgstats_link(data: dict[str, Any]) -> str:
    """The link that opens BG Stats' import dialog with this play (on a phone where BG Stats is installed)."""
    return BGSTATS_IMPORT_URL + quote(json.dumps(bgstats_data(data), separators=(",", ":")), safe="")


def _finished_or_page(game_id: str) -> dict[str, Any] | Response:
    try:
        return result_data(game_id)
    except NotOver as exc:
        return error_response(409, str(exc), title="Not over yet")


@bp.get("/g/<game_id>/result")
def result(game_id: str) -> Response:
    version = store().version(game_id)  # read first: a change after it is heard from the live stream
    data = _finished_or_page(game_id)
    if isinstance(data, Response):
        return data
    held = seats_held(game_id, len(data["players"]))
    player = bool(held) or hosting(game_id)  # the share link is public: only the table's phones see the rematch
    share_url = external_url(url_for("results.result", game_id=game_id))
    page = render_template("pages/result.html", result=data, chart=chart_of(data), chart_words=chart_words(data),
                           held=held, share_url=share_url,
                           title=f"{data['title']} result", game_id=game_id, bgstats_link=bgstats_link(data),
                           rematch=rematch_of(game_id) if player else None, may_rematch=player, version=version)
    return make_response(page)


def _download(body: dict[str, Any], filename: str) -> Response:
    response = jsonify(body)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/g/<game_id>/result.json")
def result_json(game_id: str) -> Response:
    data = _finished_or_page(game_id)
    if isinstance(data, Response):
        return data
    return _download(data, f"spellbook-{data['game']}-{game_id}.json")


@bp.get("/g/<game_id>/result.bgstats.json")
def result_bgstats(game_id: str) -> Response:
    data = _finished_or_page(game_id)
    if isinstance(data, Response):
        return data
    return _download(bgstats_data(data), f"spellbook-{data['game']}-{game_id}.bgstats.json")


@bp.post("/g/<game_id>/rematch")
def rematch(game_id: str) -> BaseResponse:
    """A new game of the same kind, same players in the same seats, same options; this phone keeps its seats."""
    data = _finished_or_page(game_id)
    if isinstance(data, Response):
        return data
    held = seats_held(game_id, len(data["players"]))
    if not held and not hosting(game_id):  # the result's link is shared in public: a stranger starts nothing
        return error_response(403, "Only a phone that played this game, or its host, can start its rematch.")
    started = rematch_of(game_id)
    if started:  # another phone was first: this one joins that rematch (its seats' phones only get the code)
        return redirect(url_for("home.join_code", code=started["code"]) if held
                        else url_for("table.table", game_id=started["id"]), 303)
    try:
        # this phone holds the seats it held before; the others are free for the phones that join
        created = store().create_game(data["game"], [p["name"] for p in data["players"]], data["options"],
                                      held=held)
    except SetupError as exc:
        return error_response(400, f"Cannot start the rematch: {exc}")
    store().note_rematch(game_id, held[0] if held else None, created["id"])  # the other phones hear of it live
    if not held:
        response = redirect(url_for("table.table", game_id=created["id"]), 303)
    else:
        response = redirect(url_for("seats.seat", game_id=created["id"], seat=held[0], created=1), 303)
    remember_host(response, created["id"], created["host_token"])  # the phone that started it may release seats
    for seat in held:
        remember_seat(response, created["id"], seat, created["seats"][seat]["token"])
    return response
