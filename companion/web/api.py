"""The JSON API: games, moves, undo and correction, seats, joining, the log and search (score
calculators: :mod:`.calc`).

Phones authenticate with a seat token (``Authorization: Bearer <token>``), not cookies, so this
blueprint is exempt from CSRF. Every error answers in the shared shape from :mod:`errors`.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, abort, current_app, jsonify, request, url_for

from cardgen.catalog import catalogs
from companion import search as search_index
from companion.rules import finished, rules_for
from companion.rules.base import sentence
from companion.store import NotFound, SeatRefused, SeatTaken, TokenUsed

from . import live_updates
from .api_helpers import (
    ApiError,
    acting_seat,
    acting_seat_and_token,
    api_blueprint,
    bearer_token,
    known_writing_seat,
    parse_body,
    seat_rate,
    still_held,
    viewed_game,
    viewed_state,
    writing_seat,
)
from .errors import error_json
from .helpers import store
from .limits import CLOSE_CONNECTION
from .links import external_url
from .openapi import (
    CorrectRequest,
    HandoverRequest,
    JoinRequest,
    MoveRequest,
    NewGameRequest,
    RenameRequest,
    RevertRequest,
    UndoRequest,
)

bp = api_blueprint("api", __name__)

_WHOLE_NUMBER = re.compile(r"^[0-9]{1,9}$")
_MOST = 999_999_999  # (nine digits: no version, page or count comes near it)


# -- helpers -------------------------------------------------------------------------------

def _etag(version: int, claimed: list[bool], viewer: int | None) -> str:
    claims = "".join("1" if c else "0" for c in claimed)
    return f"v{version}-c{claims}-" + ("t" if viewer is None else f"s{viewer}")


def _game_payload(game_id: str, viewer: int | None, info: dict[str, Any], version: int,
                  state: Any) -> tuple[dict[str, Any], int]:
    rules = rules_for(info["game"])
    outcome = rules.outcome(state)
    return {"id": info["id"], "game": info["game"], "join_code": info["join_code"], "version": version,
            "state": rules.view(state, viewer), "scores": rules.score(state), "over": finished(rules, state),
            "winners": outcome.winning_seats,
            "winner": outcome.winner, "players": info["players"], "claimed": info["claimed"]}, version


def _whole_number_arg(name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    if len(request.args.getlist(name)) > 1:
        raise ApiError(400, f"'{name}' must be given once")
    raw = request.args.get(name)
    if raw is None:
        return default
    if not _WHOLE_NUMBER.match(raw) or int(raw) < minimum or (maximum is not None and int(raw) > maximum):
        upper = f" and at most {maximum if maximum is not None else _MOST}"
        raise ApiError(400, f"'{name}' must be a whole number of at least {minimum}{upper}")
    return int(raw)


# -- games ---------------------------------------------------------------------------------

@bp.post("/games")
def create_game() -> tuple[Response, int, dict[str, str]]:
    body = parse_body(NewGameRequest)
    unavailable = current_app.extensions["unavailable_games"].get(body.game)
    if unavailable is not None:  # (a game left out of the data folder is one this server does not know)
        raise ApiError(503 if unavailable.broken else 422, unavailable.public)
    created = store().create_game(body.game, body.players, body.options)
    payload = {"id": created["id"], "game": created["game"], "join_code": created["join_code"],
               "version": created["version"], "seats": created["seats"], "host_token": created["host_token"]}
    return jsonify(payload), 201, {"Location": f"/api/games/{created['id']}"}


@bp.get("/games/<game_id>")
def game(game_id: str) -> Response:
    info, viewer = viewed_game(game_id)
    seen = _etag(info["version"], info["claimed"], viewer)
    if request.if_none_match.contains_weak(seen):
        response = Response(status=304)
        response.set_etag(seen)
    else:
        info, viewer, version, state = viewed_state(game_id, info, viewer)  # (the token checked at its version)
        payload, version = _game_payload(game_id, viewer, info, version, state)
        response = jsonify(payload)
        response.set_etag(_etag(version, payload["claimed"], viewer))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Vary"] = "Authorization"
    return response


@bp.get("/games/<game_id>/version")
def game_version(game_id: str) -> Response:
    response = jsonify({"version": store().version(game_id)})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/events")
def game_events(game_id: str) -> Response:
    """Server-sent events: the game's version now and at every change (see :mod:`.live_updates`), to a
    client that accepts ``text/event-stream``."""
    version = store().version(game_id)
    if "text/event-stream" in request.accept_mimetypes.values():
        heartbeat = float(current_app.config.get("HEARTBEAT_SECONDS", live_updates.HEARTBEAT_SECONDS))
        events: Any = live_updates.stream(current_app.extensions["live"], game_id, version, heartbeat=heartbeat,
                                          client=request.environ.get("gunicorn.socket"))
        key = current_app.extensions["rate_limits"].address_counted()
        cap = int(current_app.config.get("MAX_STREAMS_PER_ADDRESS", live_updates.MAX_STREAMS_PER_ADDRESS))
        total_cap = int(current_app.config.get("MAX_STREAMS_PER_WORKER", live_updates.MAX_STREAMS_PER_WORKER))
        counts = current_app.extensions.setdefault("stream_counts", live_updates.StreamCounts())
        full = counts.take(key, cap, total_cap)  # every stream counts towards the worker's cap, any address's
        if full is not None:
            events.close()
            if full == "worker":  # the page asks for the version instead meanwhile, and tries a stream again later
                refused = error_json(503, sentence(f"this server process holds as many live-update streams as it may "
                                                   f"({total_cap:,}); ask for the game's version instead, and for a "
                                                   "stream again later"))
            else:
                refused = error_json(429, sentence(f"too many live-update streams open from your address (at most "
                                                   f"{cap:,} in each of the server's processes); close some pages and "
                                                   "try again"))
            refused.headers["Retry-After"] = str(live_updates.STREAM_RETRY_AFTER)
            # and the connection closed at once: a refused stream kept alive would hold one of the worker's
            # connections for the keep-alive time, and many of them the connections the cap leaves free
            request.environ[CLOSE_CONNECTION] = True
            return refused
        events = live_updates.CountedStream(events, counts, key)
    else:  # a client that does not ask for a stream (EventSource does) gets the first event, and the end
        events = [live_updates.event(version)]
    response = Response(events, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front (nginx) must pass each event on at once
    return response


@bp.get("/games/<game_id>/log")
def game_log(game_id: str) -> Response:
    since = _whole_number_arg("since", 0)
    # the game and the seat the token holds in one statement, and the log as it stood then: a release or
    # hand-over landing between the token's check and the log's read is not shown to the token it revoked
    info, viewer = viewed_game(game_id)
    return jsonify({"entries": store().log(game_id, viewer, since, until=info["version"])})


@bp.post("/games/<game_id>/moves")
def make_move(game_id: str) -> Response:
    body = parse_body(MoveRequest)
    known = known_writing_seat(game_id, body.seat, body.action_id)
    if known is not None:  # the token checked in the move's own write (PostgreSQL: its one statement)
        try:
            answer = store().apply_move(game_id, known[0], body.version, body.action_id, body.move, token=known[1])
            return _accepted(game_id, known[0], answer)
        except SeatRefused:  # no longer that seat's token: the answer found out the usual way (its 401)
            seat = acting_seat(game_id, body.seat)
            if seat != known[0]:
                seat_rate(game_id, seat, body.action_id)
    else:
        seat = writing_seat(game_id, body.seat, body.action_id)
    answer = store().apply_move(game_id, seat, body.version, body.action_id, body.move)
    return _accepted(game_id, seat, answer)


@bp.post("/games/<game_id>/undo")
def undo(game_id: str) -> Response:
    body = parse_body(UndoRequest)
    seat = writing_seat(game_id, body.seat, body.action_id)
    answer = store().undo(game_id, seat, body.version, body.action_id)
    return _accepted(game_id, seat, answer)


@bp.post("/games/<game_id>/correct")
def correct(game_id: str) -> Response:
    body = parse_body(CorrectRequest)
    seat = writing_seat(game_id, body.seat, body.action_id)
    answer = store().correct(game_id, seat, body.version, body.action_id, body.seq, body.move, body.drop,
                              also=[a.model_dump() for a in body.also], insert=[x.model_dump() for x in body.insert])
    return _accepted(game_id, seat, answer)


@bp.post("/games/<game_id>/revert")
def revert(game_id: str) -> Response:
    body = parse_body(RevertRequest)
    seat = writing_seat(game_id, body.seat, body.action_id)
    answer = store().revert(game_id, seat, body.version, body.action_id, body.entry, body.drop)
    return _accepted(game_id, seat, answer)


# -- seats ---------------------------------------------------------------------------------

def _host(game_id: str) -> None:
    """The request carries this game's host token, else 401 (none or unknown) or 403 (a seat's)."""
    token = bearer_token()
    store().version(game_id)
    if token is None:
        raise ApiError(401, "this needs the host token: send 'Authorization: Bearer <host token>'")
    if not store().is_host(game_id, token):
        if store().seat_for_token(game_id, token) is not None:
            raise ApiError(403, "only the phone that created the game (the host) can release a seat")
        raise ApiError(401, "that is not this game's host token")


def _seat_number(game_id: str, seat: int) -> None:
    players = store().info(game_id)["players"]
    if not 0 <= seat < len(players):
        raise NotFound(f"this game has no seat {seat}; its seats are 0 to {len(players) - 1}")


@bp.post("/games/<game_id>/seats/<int:seat>/release")
def release_seat(game_id: str, seat: int) -> Response:
    _host(game_id)
    _seat_number(game_id, seat)
    answer = store().release_seat(game_id, seat)
    return jsonify({"ok": True, "version": answer["version"], "seq": answer["seq"]})


@bp.post("/games/<game_id>/seats/<int:seat>/handover")
def handover_code(game_id: str, seat: int) -> Response:
    _seat_number(game_id, seat)
    _, token = acting_seat_and_token(game_id, seat)
    refusal = current_app.extensions["rate_limits"].seat_handovers(game_id, seat)
    if refusal is not None:
        abort(refusal)
    with still_held(game_id, token):
        code = store().handover_code(game_id, seat, token=token)
    link = external_url(url_for("seats.take_over", code=code["code"]))
    response = jsonify({"code": code["code"], "link": link, "expires": code["expires"]})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/handover")
def take_handover() -> Response:
    body = parse_body(HandoverRequest)
    try:
        taken = store().take_handover(body.code, token=body.token)
    except TokenUsed as exc:
        raise ApiError(409, exc.message) from None
    return jsonify({"id": taken["id"], "seat": taken["seat"], "token": taken["token"]})


@bp.post("/games/<game_id>/seats/<int:seat>/rename")
def rename_seat(game_id: str, seat: int) -> Response:
    body = parse_body(RenameRequest)
    _seat_number(game_id, seat)
    token = bearer_token()
    seat_token = None  # (the host's: no seat to hold)
    if token is None or not store().is_host(game_id, token):
        _, seat_token = acting_seat_and_token(game_id, seat)  # the seat's own token, else 401/403
    seat_rate(game_id, seat)  # a rename is a log entry: within the seat's move rate, or the log's cap is a weapon
    with still_held(game_id, seat_token):
        answer = store().rename_seat(game_id, seat, body.name, token=seat_token)
    return jsonify({"ok": True, "version": answer["version"], "seq": answer["seq"]})


def _accepted(game_id: str, seat: int, answer: dict[str, Any]) -> Response:
    """The seat's view of the game once the write was made (the state it wrote; a retried action id's: the
    game as it is now, others may have moved on since)."""
    game_name, version, state = store().answered(game_id, answer)
    rules = rules_for(game_name)
    return jsonify({"ok": True, "version": version, "seq": answer["seq"], "state": rules.view(state, seat),
                    "scores": rules.score(state)})


@bp.post("/join")
def join() -> Response:
    body = parse_body(JoinRequest)
    # one answer whether the code is unknown, its game over, or the seat taken or not there, so that
    # trying codes tells nothing about which exist (and tries are limited: .rate_limits)
    nothing = ApiError(404, f"no game with the join code '{body.code.strip().upper()}' has a free seat "
                            f"{body.seat}; check the code on the host's phone")
    game_id = store().game_id_for_code(body.code)
    if game_id is None:
        raise nothing
    try:
        token = store().claim_seat(game_id, body.seat, token=body.token)
    except (NotFound, SeatTaken):
        raise nothing from None
    except TokenUsed as exc:  # (only a phone that knows the token hears of it)
        raise ApiError(409, exc.message) from None
    return jsonify({"id": game_id, "seat": body.seat, "token": token})


# -- look-up -------------------------------------------------------------------------------

@bp.get("/search")
def search() -> Response:
    query = request.args.get("q", "")
    game_name = request.args.get("game") or None
    prefer = request.args.get("prefer") or None
    for name in (game_name, prefer):
        if name is not None and name not in catalogs():
            raise ApiError(400, f"unknown game '{name}' (known: {', '.join(catalogs())})")
    unavailable = current_app.extensions["unavailable_games"].get(game_name)
    if unavailable is not None:  # as its rule list answers: not found where left out, 503 where broken
        raise ApiError(503 if unavailable.broken else 404, unavailable.public)
    limit = _whole_number_arg("limit", 20, minimum=1, maximum=search_index.MAX_LIMIT)
    return jsonify({"results": search_index.search(query, game_name, limit, prefer=prefer)})
