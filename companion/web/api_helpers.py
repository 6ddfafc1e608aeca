"""What the JSON API blueprints share: :class:`ApiError` and :func:`api_blueprint` (every error in the one JSON
shape of :mod:`.errors`), the request body checked by its pydantic model (:func:`parse_body`), and which
seat a request speaks for (:func:`acting_seat`: a bearer token, or a seat page's cookie with its CSRF token).

Phones authenticate with a seat token (``Authorization: Bearer <token>``), not cookies, so every API
blueprint is exempt from CSRF (``create_app``)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, NoReturn, TypeVar

from flask import Blueprint, Response, abort, current_app, request
from pydantic import ValidationError

from companion.rules import IllegalMove, SetupError, rules_for
from companion.rules.base import sentence
from companion.store import CorrectionRefused, NotFound, SeatRefused, SeatTaken, Stale

from .errors import error_json
from .helpers import holds_seat, store, token_cookie
from .limits import BadJson, parse_json
from .openapi import RequestBody, validation_sentence
from .table_words import field_names, labels_for, table_words

Body = TypeVar("Body", bound=RequestBody)


class ApiError(Exception):
    def __init__(self, status: int, message: str, rule: str | None = None, **extra: Any) -> None:
        message = sentence(message)
        super().__init__(message)
        self.status, self.message, self.rule, self.extra = status, message, rule, extra


def api_error(error: ApiError) -> Response:
    response = error_json(error.status, error.message, error.rule, error.extra)
    if error.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="seat"'
    return response


def not_found(error: NotFound) -> Response:
    return error_json(404, error.message)


def stale(error: Stale) -> Response:
    return error_json(409, error.message, None, {"version": error.version})


def seat_taken(error: SeatTaken) -> Response:
    return error_json(409, error.message)


def _said(error: IllegalMove) -> dict[str, str]:
    """The refusal in table words (``said``, what a page shows; :mod:`.table_words`), when it differs: a field
    is named by the label of the form the asking seat has for that move (only its own form: no other seat's
    words), else in plain words."""
    labels: dict[str, str] = {}
    fields: frozenset[str] = frozenset()
    game_id = (request.view_args or {}).get("game_id")
    try:
        if game_id is not None:
            rules = rules_for(store().info(game_id)["game"])
            fields = field_names(rules)
            if error.seat is not None and error.move is not None and \
                    (holds_seat(game_id, error.seat) or viewing_seat(game_id) == error.seat):
                labels = labels_for(rules, store().current(game_id)[1], error.seat, error.move.get("type"))
    except Exception:   # the words of a refusal never turn it into another error: plain words then
        labels = {}
    said = table_words(error.message, labels, fields)
    return {"said": said} if said != sentence(error.message) else {}


def correction_refused(error: CorrectionRefused) -> Response:
    ending = {"after_end": list(error.after_end), "others": error.others} if error.after_end else {}
    return error_json(422, error.message, error.rule,
                      {**({"seq": error.seq} if error.seq is not None else {}), **({"pending": error.pending} if error.pending is not None else {}),
                       **ending, **_said(error)})


def illegal(error: IllegalMove) -> Response:
    """A move the rules refuse; one refused because the rules wait for a choice first carries ``pending``."""
    return error_json(422, error.message, error.rule,
                      {**({"pending": error.pending} if error.pending is not None else {}), **_said(error)})


def setup_error(error: SetupError) -> Response:
    return error_json(422, str(error), error.rule)


#: the errors every API blueprint answers in the one JSON shape, and how
ERROR_HANDLERS: tuple[tuple[type[Exception], Any], ...] = (
    (ApiError, api_error), (NotFound, not_found), (Stale, stale), (SeatTaken, seat_taken),
    (CorrectionRefused, correction_refused), (IllegalMove, illegal), (SetupError, setup_error))


def api_blueprint(name: str, import_name: str, url_prefix: str = "/api") -> Blueprint:
    """A blueprint of JSON API routes (under ``/api``) answering every error in the one JSON shape. Each API
    area makes its own; ``create_app`` registers it and exempts it from CSRF (phones send a bearer token)."""
    bp = Blueprint(name, import_name, url_prefix=url_prefix)
    for error, handler in ERROR_HANDLERS:
        bp.register_error_handler(error, handler)
    return bp


# -- requests --------------------------------------------------------------------------------

def parse_body(model: type[Body]) -> Body:
    """The JSON body validated by ``model``, or a 4xx saying what is wrong (:mod:`.limits`, the field)."""
    try:
        data = parse_json(request.mimetype, request.get_data(cache=True))
    except BadJson as error:
        raise ApiError(error.status, error.message) from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ApiError(400, validation_sentence(error)) from None


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "the Authorization header must read 'Bearer <seat token>'")
    return token.strip()


def seat_cookie(game_id: str, seat: int) -> str | None:
    """The seat's token from its HttpOnly cookie (a seat page's scripts hold no copy of it), for a request
    that also carries the page's CSRF token (``X-CSRFToken``): a page elsewhere makes the browser send
    the cookie, but cannot read the CSRF token. None when there is no such cookie."""
    from flask_wtf.csrf import CSRFError, validate_csrf
    from wtforms import ValidationError as CsrfInvalid

    token = request.cookies.get(token_cookie(game_id, seat))
    if not token:
        return None
    try:
        validate_csrf(request.headers.get("X-CSRFToken"))
    except (CsrfInvalid, CSRFError) as error:
        raise ApiError(400, f"a seat held by its cookie also needs the page's CSRF token in X-CSRFToken "
                            f"({str(error).rstrip('.').lower()}); reload the page") from None
    return token


def viewing_seat(game_id: str) -> int | None:
    """The seat whose token was sent, None for the public view; a wrong token is an error."""
    token = bearer_token()
    if token is None:
        return None
    seat = store().seat_for_token(game_id, token)
    if seat is None:
        token_refused(game_id, token)
    return seat


def viewed_game(game_id: str) -> tuple[dict[str, Any], int | None]:
    """The game's :meth:`~companion.store.Store.info` and :func:`viewing_seat`'s seat, in one look-up."""
    token = bearer_token()
    info, seat = store().info_and_seat(game_id, token)
    if token is not None and seat is None:
        token_refused(game_id, token)
    return info, seat


#: how often a state read looks again when the game moved on between its token check and its state read
STATE_READ_TRIES = 3


def viewed_state(game_id: str, info: dict[str, Any], seat: int | None) -> tuple[dict[str, Any], int | None, int, Any]:
    """:func:`viewed_game`'s ``info`` and ``seat``, with the game's (version, state) of that same version. The
    state comes from this process's cache when it holds that version, else from the database as it stands,
    which may be newer (another node's write): then the token is checked again at the newer version, so a
    seat released or handed on meanwhile is never shown to the token it revoked."""
    for _ in range(STATE_READ_TRIES):
        version, state = store().state_at(game_id, info["version"])
        if version == info["version"]:
            break
        info, seat = viewed_game(game_id)
    return info, seat, version, state


def token_refused(game_id: str, token: str) -> NoReturn:
    """Why ``token`` opens no seat of this game, as a 401: a token whose seat was handed on or released says so
    (the phone that held it learns nothing it did not know), any other that it does not belong here."""
    gone = store().token_gone(game_id, token)
    if gone is not None:
        info = store().info(game_id)
        if info["claimed"][gone]:  # handed on, or released and taken again: another phone holds it now
            raise ApiError(401, f"this token no longer holds {info['players'][gone]}'s seat: another phone "
                                "holds it now; ask at the table for it to be handed back to you")
        raise ApiError(401, f"this token no longer holds {info['players'][gone]}'s seat: it was released; "
                            f"join again with the code {info['join_code']}")
    raise ApiError(401, "that seat token does not belong to this game")


def acting_seat(game_id: str, claimed_seat: int | None) -> int:
    """The seat the request's token (a bearer token, or the seat page's cookie) holds: 401 or 403 otherwise."""
    return acting_seat_and_token(game_id, claimed_seat)[0]


def acting_seat_and_token(game_id: str, claimed_seat: int | None) -> tuple[int, str]:
    """:func:`acting_seat`'s seat and the token it holds it by (for a write that checks it again: :func:`still_held`)."""
    # An unknown game is a 404, not a bad token. A token that opens a seat of this game proves the game
    # is there (games are never deleted), so the existence query runs only on the way to an error.
    try:
        token = bearer_token()
    except ApiError:
        store().version(game_id)
        raise
    if token is None and claimed_seat is not None:
        token = seat_cookie(game_id, claimed_seat)
    seat = None if token is None else store().seat_for_token(game_id, token)
    if seat is None:
        store().version(game_id)
        if token is None:
            raise ApiError(401, "this needs your seat token: send 'Authorization: Bearer <seat token>'")
        token_refused(game_id, token)
    if claimed_seat is not None and claimed_seat != seat:
        names = store().info(game_id)["players"]
        raise ApiError(403, f"your token is for seat {seat} ({names[seat]}), not seat {claimed_seat}")
    return seat, str(token)


@contextmanager
def still_held(game_id: str, token: str | None) -> Iterator[None]:
    """Around a seat's write that checks its token again inside (``token=``): a seat handed on or released through
    another node since the request's own check is answered as the token is answered now, with its 401."""
    try:
        yield
    except SeatRefused:
        if token is None:
            raise
        store().forget_token(game_id, token)
        token_refused(game_id, token)


def writing_seat(game_id: str, claimed_seat: int | None, action_id: str | None = None) -> int:
    """The seat a move, undo, correction or put-back is sent for (:func:`acting_seat`), within its move rate
    (``action_id``: see :func:`seat_rate`)."""
    seat = acting_seat(game_id, claimed_seat)
    seat_rate(game_id, seat, action_id)
    return seat


def known_writing_seat(game_id: str, claimed_seat: int | None,
                       action_id: str | None = None) -> tuple[int, str] | None:
    """The seat and bearer token of a move whose token this process found before (no query), within the seat's
    move rate; None when it is not known here (then :func:`writing_seat`). The seat is a guess until the move's
    write checks the token again (``Store.apply_move``'s ``token``: :class:`~companion.store.SeatRefused` if
    it no longer holds the seat). A seat past its rate is answered 429 only once its token is checked, so a
    released or handed-on token still gets its 401."""
    try:
        token = bearer_token()
    except ApiError:
        return None  # (answered the usual way: acting_seat)
    if token is None:
        return None
    seat = store().known_seat(game_id, token)
    if seat is None or (claimed_seat is not None and claimed_seat != seat):
        return None
    refusal = current_app.extensions["rate_limits"].seat_moves(game_id, seat)
    if refusal is not None:
        if store().seat_for_token(game_id, token) != seat:
            store().forget_token(game_id, token)
            return None  # acting_seat answers (401) without counting again
        if not _already_logged(game_id, action_id):
            abort(refusal)
    return seat, token


def seat_rate(game_id: str, seat: int, action_id: str | None = None) -> None:
    """A seat past its move rate (:mod:`.rate_limits`) is answered 429 with ``Retry-After``; but not a write whose
    ``action_id`` the game's log already holds: it writes nothing, and the store answers it (a retry: its first
    answer, so a phone is never told "not recorded" of a move that was; another request: the 422 of a reused id)."""
    refusal = current_app.extensions["rate_limits"].seat_moves(game_id, seat)
    if refusal is not None and not _already_logged(game_id, action_id):
        abort(refusal)


def _already_logged(game_id: str, action_id: str | None) -> bool:
    """Whether the game's log holds an entry written with ``action_id`` (asked only on the way to a 429)."""
    return action_id is not None and store().action_logged(game_id, action_id)
