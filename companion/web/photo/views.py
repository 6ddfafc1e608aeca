"""The routes of score by photo (see the package's docstring): three API routes and two pages."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Callable

from flask import Response, jsonify, make_response, render_template, request
from pydantic import Field

from cardgen.catalog import content
from companion.photo import (
    MAX_PHOTO_BYTES,
    MAX_PHOTO_PIXELS,
    MIME_TYPES,
    PhotoError,
    Reading,
    card_name,
    read_photo,
)
from companion.rules import SPECS, rules_for
from companion.store import NotFound
from companion.web.api_helpers import ApiError, acting_seat, api_blueprint, parse_body
from companion.web.helpers import holds_seat, page_blueprint, refuse_unserved, store
from companion.web.openapi import RequestBody
from companion.web.photo import (
    Laid,
    PhotoRefused,
    PhotoScoring,
    code_geometry,
    games_with_photo,
    hook,
    own_moves,
)

#: the API routes (the API's JSON errors, no CSRF: seat tokens) and the pages (HTML errors), each registered by
#: ``create_app``
api_bp = api_blueprint("photo_api", __name__)
bp = page_blueprint("photo", __name__)

#: more than any player lays in front of them; small enough that a list one too long still fits the 64 KB body
MAX_CARDS = 60


class PhotoCard(RequestBody):
    card: str = Field(min_length=1, max_length=60, description="the card's id (as a code or the page gives it)")
    corners: list[Annotated[list[float], Field(min_length=2, max_length=2)]] | None = Field(
        default=None, min_length=4, max_length=4,
        description="the four corners of its code in the photo, as the reading gave them; none for a card "
                    "added by hand")
    under: str | None = Field(default=None, min_length=1, max_length=60,
                              description="the card lying face down under it, as the player says (only in a "
                                          "game whose cards hide one: its answer's 'unseen' asks for it)")


class PhotoScoreRequest(RequestBody):
    cards: list[PhotoCard] = Field(max_length=MAX_CARDS, description="the cards as the player confirmed them")
    extras: dict[str, int] = Field(default_factory=dict, description="the game's extras by name (numbers; "
                                                                      "flags 0 or 1)")


class AuditRequest(RequestBody):
    cards: list[str] = Field(max_length=MAX_CARDS, description="card ids the photo shows in front of the player, "
                                                               "as the player confirmed them")
    seat: int | None = Field(default=None, ge=0, description="the seat the phone holds (with its seat cookie and "
                                                             "the page's CSRF token; or send the seat token)")


REQUEST_MODELS = (PhotoScoreRequest, PhotoCard, AuditRequest)


def _hook(game: str) -> PhotoScoring:
    found = hook(game)
    if found is None:
        raise ApiError(404, f"there is no game '{game}' that reads photos" if game not in SPECS
                       else f"{SPECS[game].title} has no score by photo")
    refuse_unserved(game)  # as its calculator page: 404 left out of the data folder, 503 broken (it read its cards)
    return found


def _card(game: str, ref: str) -> Any:
    card = content(game).find_card(ref)
    if card is None:
        raise ApiError(422, f"{SPECS[game].title} has no card '{ref}'")
    return card


#: photos a worker decodes at once (each in gevent's thread pool: the decoders release the GIL), and how long a
#: photo waits for its turn before the phone is told to try again (503)
DECODES_AT_ONCE = 2
DECODE_WAIT_SECONDS = 20.0
_decoding: Any = None


def _off_the_loop(function: Callable[..., Reading], *args: Any) -> Reading:
    """Under gunicorn's gevent worker (``companion serve``), run a photo's decoding in gevent's thread pool, so
    the worker's other connections (live updates, moves) go on meanwhile: the decoders release the GIL. Elsewhere
    (the test client, a thread worker) it runs here."""
    gevent = sys.modules.get("gevent")
    monkey = sys.modules.get("gevent.monkey")
    if gevent is None or monkey is None or not monkey.is_module_patched("threading"):
        return function(*args)
    # at most DECODES_AT_ONCE photos of a worker are decoded at a time (a 50 MP photo takes ~400 MB while it is):
    # the others wait their turn, up to DECODE_WAIT_SECONDS, then hear the server is busy
    global _decoding
    if _decoding is None:
        from gevent.lock import BoundedSemaphore

        _decoding = BoundedSemaphore(DECODES_AT_ONCE)
    if not _decoding.acquire(timeout=DECODE_WAIT_SECONDS):
        raise PhotoError(503, "the server is reading other photos: try again in a few seconds")
    try:
        # a refusal comes back as a value: gevent's pool would print every exception a task raises as a crash
        reading, refusal = gevent.get_hub().threadpool.apply(_caught, (function, *args))
    finally:
        _decoding.release()
    if refusal is not None:
        raise refusal
    return reading  # type: ignore[no-any-return]


def _caught(function: Callable[..., Reading], *args: Any) -> tuple[Reading | None, PhotoError | None]:
    try:
        return function(*args), None
    except PhotoError as refusal:
        return None, refusal


def read_photo_route(game: str) -> Response:
    """The cards a photo shows: the photo is the body; decoded in memory, never stored."""
    _hook(game)
    if request.mimetype not in MIME_TYPES:
        shown = f"'{request.mimetype}'" if request.mimetype else "none"
        raise ApiError(415, f"send the photo itself as the body with Content-Type {', '.join(MIME_TYPES)} "
                            f"(this one's: {shown})")
    request.max_content_length = MAX_PHOTO_BYTES
    try:
        reading = _off_the_loop(read_photo, request.get_data(cache=False), game)
    except PhotoError as error:
        raise ApiError(error.status, error.message) from None
    return jsonify(reading.to_json())


def score_photo(game: str) -> Response:
    scoring = _hook(game)
    body = parse_body(PhotoScoreRequest)
    extras = {extra.name: extra for extra in scoring.extras}
    for name, value in body.extras.items():
        extra = extras.get(name)
        if extra is None:
            known = ", ".join(extras) or "none"
            raise ApiError(400, f"'{name}' is not an extra of {SPECS[game].title} (its extras: {known})")
        if not extra.low <= value <= extra.high:
            raise ApiError(400, f"'{name}' ({extra.label}) must be {extra.low} to {extra.high}, got {value}")
    values = {extra.name: body.extras.get(extra.name, extra.default) for extra in scoring.extras}
    laid = []
    for item in body.cards:
        centre, side = code_geometry(item.corners)
        if item.under is not None and scoring.under is None:
            raise ApiError(400, f"no card of {SPECS[game].title} hides another: leave out 'under'")
        laid.append(Laid(_card(game, item.card), centre, side,
                         _card(game, item.under) if item.under is not None else None))
    try:
        scored = scoring.score(laid, values)
    except PhotoRefused as error:
        raise ApiError(422, error.message, error.rule) from None
    return jsonify(scored.to_json())


@api_bp.post("/games/<game_id>/audit")
def audit(game_id: str) -> Response:
    """A seat's photographed cards against where the companion believes they are (this seat's token)."""
    body = parse_body(AuditRequest)
    seat = acting_seat(game_id, body.seat)
    info = store().info(game_id)
    scoring = hook(info["game"])
    if scoring is None or scoring.audit is None:
        raise ApiError(404, f"{SPECS[info['game']].title} has no photo audit")
    ids = [_card(info["game"], ref).id for ref in body.cards]
    version, state = store().state_at(game_id, info["version"])
    view = rules_for(info["game"]).view(state, seat)
    moves = own_moves(store().live_moves(game_id), seat)  # this seat's own moves, as the game stands
    differences = scoring.audit(view, seat, ids, moves)
    return jsonify({"version": version, "agree": not differences,
                    "differences": [difference.to_json() for difference in differences]})


_POINTS = {"type": "array", "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
           "minItems": 4, "maxItems": 4}
_CARDS = {"type": "array", "items": {"type": "object", "properties": {
    "card": {"type": "string"}, "name": {"type": "string"}, "stale": {"type": "boolean"},
    "corners": {**_POINTS, "description": "the four corners of the card's code in the photo's pixels, clockwise "
                                          "from the code's top left"},
    "outline": {"oneOf": [_POINTS, {"type": "null"}], "description": "the whole card's four corners in the "
                "photo's pixels, clockwise from the card's top left: the print layout's place of the code on the "
                "card (the kit's default card size) mapped through the code's corners; null when not known"}}}}
_READING = {"type": "object", "properties": {
    "width": {"type": "integer"}, "height": {"type": "integer"}, "cards": _CARDS,
    "unread": {"type": "array", "items": {"type": "object", "properties": {
        "reason": {"type": "string"}, "corners": {**_POINTS, "description": "the code's four corners in the photo's pixels"}}}}}}
_SCORED = {"type": "object", "properties": {
    "calculator": {"type": "string"}, "request": {"type": "object"}, "total": {"type": ["integer", "null"]},
    "headline": {"type": "string"}, "notes": {"type": "array", "items": {"type": "string"}},
    "unseen": {"type": "array", "description": "what the photo cannot see (a card face down under another): "
               "send each as the card's 'under' to be scored; while any is asked, total is null",
               "items": {"type": "object", "properties": {
                   "card": {"type": "string"}, "question": {"type": "string"},
                   "choices": {"type": "array", "items": {"type": "object", "properties": {
                       "id": {"type": "string"}, "name": {"type": "string"}}}}}}},
    "breakdown": {"type": "array", "items": {"type": "object", "properties": {
        "cause": {"type": "string"}, "points": {"type": "integer"}}}}}}
_AUDIT = {"type": "object", "properties": {
    "version": {"type": "integer"}, "agree": {"type": "boolean"},
    "differences": {"type": "array", "items": {"type": "object", "properties": {
        "card": {"type": "string"}, "text": {"type": "string"},
        "fix": {"type": ["object", "null"], "description": "the body's seq, move (and also) for "
                "POST /api/games/{game_id}/correct; null when no single correction fixes it"},
        "fix_label": {"type": ["string", "null"], "description": "the correction in table words"},
        "no_fix": {"type": ["string", "null"], "description": "why no single correction fixes it"},
        "move": {"type": ["integer", "null"], "description": "the seat's move that caused it, to open on the "
                 "corrections page"}}}}}}


def openapi_paths() -> dict[str, Any]:
    from companion.web.openapi import errors, json_body, request_body

    paths: dict[str, Any] = {}
    for game in games_with_photo():
        title = SPECS[game].title
        paths[f"/api/photo/{game}"] = {"post": {
            "summary": f"{title}: the cards a photo shows (each with its code's corners) and the codes it could not "
                       "read; the photo is the body, decoded in memory and never stored",
            "requestBody": {"required": True, "content": {
                mime: {"schema": {"type": "string", "format": "binary"}} for mime in MIME_TYPES}},
            "responses": {"200": json_body(_READING, "the reading"),
                          "400": json_body("Error", "no photo, or one that could not be decoded"),
                          "413": json_body("Error", f"over {MAX_PHOTO_BYTES:,} bytes or {MAX_PHOTO_PIXELS:,} "
                                                    "pixels"),
                          "415": json_body("Error", "not a JPEG, PNG or WebP image"), **errors(429)}}}
        paths[f"/api/photo/{game}/score"] = {"post": {
            "summary": f"{title}: the cards a player confirmed filled into the game's calculator, with the total "
                       "and every point's cause",
            "requestBody": request_body(PhotoScoreRequest),
            "responses": {"200": json_body(_SCORED, "the filled calculator"), **errors(400, 422),
                          "413": json_body("Error", "the request body is over 64 KB")}}}
    paths["/api/games/{game_id}/audit"] = {"post": {
        "summary": "A seat's photographed cards against where the companion believes they are: each difference "
                   "in table words with the correction that fixes it (POST /api/games/{game_id}/correct)",
        "parameters": [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "security": [{"seatToken": []}],
        "requestBody": request_body(AuditRequest),
        "responses": {"200": json_body(_AUDIT, "the differences (none: the photo agrees)"),
                      **errors(400, 401, 403, 404, 422), "413": json_body("Error", "the request body is over 64 KB")}}}
    return paths


def request_models() -> tuple[Any, ...]:
    return REQUEST_MODELS


def _add_routes() -> None:
    for game in games_with_photo():
        endpoint = game.replace("-", "_")
        api_bp.add_url_rule(f"/photo/{game}", f"read_photo_{endpoint}", read_photo_route, methods=["POST"],
                            defaults={"game": game})
        api_bp.add_url_rule(f"/photo/{game}/score", f"score_photo_{endpoint}", score_photo, methods=["POST"],
                            defaults={"game": game})


_add_routes()


# -- pages ---------------------------------------------------------------------------------------

def _page(template: str, **context: Any) -> Response:
    catalog = content(context["game"])
    options = [{"id": card.id, "name": card_name(catalog, card)} for card in catalog.cards]
    response = make_response(render_template(template, card_options=options, **context))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_template_global()
def photo_games() -> list[tuple[str, str]]:
    """(game, title) of every game that scores by photo, for the home page."""
    return [(game, SPECS[game].title) for game in games_with_photo()]


@bp.app_template_global()
def photo_audit(game: str) -> bool:
    """Whether a seat of ``game`` may check its cards against a photo."""
    scoring = hook(game)
    return scoring is not None and scoring.audit is not None


@bp.get("/calc/<game>/photo")
def photo_calculator(game: str) -> Response:
    if game in SPECS:
        refuse_unserved(game)  # a game the data folder leaves out or breaks: as its rule list says it
    scoring = hook(game)
    if scoring is None:
        raise NotFound(f"There is no game called '{game}' that scores by photo.")
    return _page("pages/photo.html", game=game, title=SPECS[game].title, scoring=scoring, audit=None,
                 max_bytes=MAX_PHOTO_BYTES)


@bp.get("/g/<game_id>/seat/<int:seat>/photo")
def seat_photo(game_id: str, seat: int) -> Response:
    info = store().info(game_id)
    if not 0 <= seat < len(info["players"]):
        raise NotFound(f"This game has no seat {seat}.")
    if not holds_seat(game_id, seat):
        raise PermissionError(f"This phone does not hold {info['players'][seat]}'s seat.")
    scoring = hook(info["game"])
    if scoring is None:
        raise NotFound(f"{SPECS[info['game']].title} has no score by photo.")
    known: dict[str, str] = {}
    if scoring.known_under is not None:
        _, state = store().state_at(game_id, info["version"])
        known = scoring.known_under(rules_for(info["game"]).view(state, seat), seat)
    return _page("pages/photo.html", game=info["game"], title=SPECS[info["game"]].title, scoring=scoring,
                 audit={"game_id": game_id, "seat": seat, "name": info["players"][seat],
                        "version": info["version"]} if scoring.audit is not None else None,
                 game_id=game_id, seat_number=seat, max_bytes=MAX_PHOTO_BYTES, known_under=known)
