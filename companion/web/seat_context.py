"""What the table, seat and card pages show of a game, read from one consistent state, and the seats this
browser holds ("Your games" on the home page, the card pages' moves)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, NoReturn

from flask import request

from cardgen.catalog import content
from companion.rules import GAMES as RULES
from companion.rules import Outcome, finished, rules_for
from companion.rules.base import our_reading
from companion.rules.choices import awaits
from companion.store import NotFound
from companion.web.fix_pages import told_changes
from companion.web.games import pages_for
from companion.web.helpers import (
    Forbidden,
    cards_by_id,
    hosting,
    join_link,
    join_qr_svg,
    seats_held,
    store,
    token_cookie,
)
from companion.web.seat_forms import seat_forms

LOG_LINES_TABLE = 40
LOG_LINES_SEAT = 8


def game_context(game_id: str, viewer: int | None, log_lines: int,
                 info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the table and seat templates show, read from one consistent state (``state`` itself is
    for the seat's choices and advice: the callers take it out before rendering). ``log`` holds the newest
    ``log_lines`` entries, newest first, as they stood at the state's version; ``undo_text`` names the move
    an undo would take back. ``info``: the game's :meth:`~companion.store.Store.info` as the caller read it
    (with the viewer's token: the page is of that version)."""
    info = info or store().info(game_id)
    version, state = store().state_at(game_id, info["version"])
    rules = rules_for(info["game"])
    view = rules.view(state, viewer)
    log, undo_text, undo_seat = store().recent_log(game_id, viewer, log_lines, until=version)
    scores = {row["seat"]: row for row in rules.score(state)}
    # a game that can never change again (only games whose spec says it can: the rules' stalled())
    stalled = bool(rules.SPEC.can_stall and rules.stalled(state))
    outcome = rules.outcome(state)
    ended = stalled or outcome.over  # (what finished() asks, with the dead end kept apart)
    return dict(game_id=game_id, info=info, version=version, view=view, scores=scores, rules=rules, stalled=stalled,
                reading=ending_reading(info["game"], outcome),
                finished=ended, rematch=rematch_of(game_id) if ended else None,
                game_pages=pages_for(info["game"]), state=state,
                log=list(reversed(log)), undo_text=undo_text, undo_seat=undo_seat, cards=cards_by_id(info["game"]), catalog=content(info["game"]), viewer=viewer,
                names={p["seat"]: p["name"] for p in view["players"]}, title=rules.TITLE,
                join_url=join_link(info["join_code"]),
                setup=pages_for(info["game"]).setup_steps(content(info["game"]), len(info["players"])))


def ending_reading(game: str, outcome: Outcome) -> dict[str, str] | None:
    """When the project's own reading settled the end (the outcome's rule has provenance ``authored``): that rule's
    id and what the rulebook leaves open, which the game's winner banner says under its verdict; else None."""
    if not outcome.over or outcome.rule is None:
        return None
    entry = content(game).rule(outcome.rule)
    reading = our_reading(entry)
    return None if reading is None else {"rule": entry.id, "text": reading}


def rematch_of(game_id: str) -> dict[str, str] | None:
    """The rematch started from this finished game: its id and join code (the code only goes to its seats'
    phones), or None (none yet, or it is gone)."""
    rematch = store().rematch_of(game_id)
    try:
        return {"id": rematch, "code": store().info(rematch)["join_code"]} if rematch else None
    except NotFound:
        return None


def table_context(game_id: str) -> dict[str, Any]:
    context = game_context(game_id, None, LOG_LINES_TABLE)
    del context["state"]  # templates get only what view() and score() give
    context["held"] = seats_held(game_id, len(context["info"]["players"]))
    context["host"] = hosting(game_id)
    if not (context["held"] or context["host"]):  # anyone with this game's id reads its table: only the table's
        context["rematch"] = None                  # own phones are shown the way into the rematch
    if not context["finished"] or not all(context["info"]["claimed"]):  # nobody joins a game that is over,
        context["qr"] = join_qr_svg(context["info"]["join_code"])           # unless the host freed a seat of it
    return context


def seat_gone_sentence(name: str, join_code: str) -> str:
    """What a phone whose seat was released or handed on reads (issue 12: not "reconnecting" until a reload)."""
    return (f"This phone no longer holds {name}'s seat: the host released it, or it was handed to another phone. "
            f"To rejoin, join the game again with its code {join_code} (a released seat is free to take), "
            "or ask the phone that holds it now to hand it over.")


def _not_held(game_id: str, seat: int, token: str, info: dict[str, Any]) -> NoReturn:
    """The refusal of a seat page whose cookie's token does not hold the seat (403)."""
    if token and store().token_gone(game_id, token) == seat:
        # (the phone that just handed its seat on reads this after "Back to my seat": not "Not your seat")
        raise Forbidden(seat_gone_sentence(info["players"][seat], info["join_code"]),
                        f"{info['players'][seat]}'s seat is on another phone now, or free")
    raise PermissionError(f"This phone does not hold {info['players'][seat]}'s seat. Join the game with "
                          f"its code {info['join_code']} to claim a free seat.")


def seat_context(game_id: str, seat: int) -> tuple[dict[str, Any], str]:
    """The seat page's context and the seat's token, or ``NotFound``/``PermissionError`` (404, 403)."""
    token = request.cookies.get(token_cookie(game_id, seat), "")
    # the game and the seat the token holds in one statement, and the page of that version: a release or
    # hand-over landing between the token's check and the page's reads is not shown to the token it revoked
    info, held = store().info_and_seat(game_id, token or None)
    if not 0 <= seat < len(info["players"]):
        raise NotFound(f"This game has no seat {seat}.")
    if not token or held != seat:
        _not_held(game_id, seat, token, info)
    context = game_context(game_id, seat, LOG_LINES_SEAT, info)
    if context["version"] != info["version"]:
        # the state came newer than the version the token was checked at (not in this process's cache: another
        # node's write): the token is checked again, so a seat released meanwhile is not shown to it
        info, held = store().info_and_seat(game_id, token)
        if held != seat:
            _not_held(game_id, seat, token, info)
    rules, state = context["rules"], context.pop("state")  # templates get only what view() and score() give
    context.update(me=context["view"]["players"][seat], seat=seat,
                   choices=rules.choices(state, seat),
                   advice=rules.advice(state, seat))
    context["forms"] = seat_forms(context, context["game_pages"])  # every game's forms: the rules' choices
    context.update(context["game_pages"].seat_extras(context))
    context["told"] = told_changes(context["log"], seat, info["players"])
    context.update(show_invite=not context["finished"] and context["game_pages"].show_invite(context))
    if context["show_invite"]:
        context["qr"] = join_qr_svg(info["join_code"])
    return context, token


# -- the seats this browser holds -----------------------------------------------------------------

@dataclass(frozen=True)
class HeldSeat:
    """A seat whose token this browser's cookie holds, for "Your games" on the home page."""

    game_id: str
    seat: int
    title: str
    name: str
    others: list[str]
    created: datetime
    #: "over" (the game ended), "yours" (this seat has a move to report now) or "waiting"
    status: str = "waiting"

    @property
    def started(self) -> str:
        """How long ago the game was created, in words that need no time zone."""
        minutes = int((datetime.now(timezone.utc) - self.created).total_seconds() // 60)
        if minutes < 1:
            return "just now"
        if minutes < 60:
            return f"{minutes} min ago"
        if minutes < 24 * 60:
            return f"{minutes // 60} h ago"
        days = minutes // (24 * 60)
        return "yesterday" if days == 1 else f"{days} days ago"


_SEAT_COOKIE = re.compile(r"seat_([A-Za-z0-9_-]+)_(\d{1,2})")
YOUR_GAMES_SHOWN = 12


def held_status(info: dict[str, Any], seat: int) -> str:
    """Whether a held seat's game is over, or waits for a move from this seat now (what its seat page calls
    "Your move": :func:`companion.rules.choices.awaits` over the rules' choices for the seat), for "Your games"."""
    rules = rules_for(info["game"])
    try:
        _, state = store().current(info["id"])
    except NotFound:
        return "waiting"
    if finished(rules, state):
        return "over"
    return "yours" if awaits(rules.choices(state, seat)) else "waiting"


def your_games() -> list[HeldSeat]:
    """The seats this browser holds (its own seat cookies, each checked against the store), newest game
    first: only the phone that holds a seat's token sees it listed."""
    found = []
    for cookie, token in request.cookies.items():
        match = _SEAT_COOKIE.fullmatch(cookie)
        if not match or not token:
            continue
        game_id, seat = match.group(1), int(match.group(2))
        try:
            if store().seat_for_token(game_id, token) != seat:
                continue
            info = store().info(game_id)
        except NotFound:
            continue  # a game that is gone (expired or purged)
        if not 0 <= seat < len(info["players"]) or info["game"] not in RULES:
            continue
        players = info["players"]
        found.append(HeldSeat(game_id=game_id, seat=seat, title=rules_for(info["game"]).TITLE, name=players[seat],
                              others=[n for i, n in enumerate(players) if i != seat],
                              created=datetime.fromisoformat(info["created"]), status=held_status(info, seat)))
    found.sort(key=lambda held: (held.created, held.seat), reverse=True)
    return found[:YOUR_GAMES_SHOWN]
