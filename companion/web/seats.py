"""A seat's page (``/g/<id>/seat/<n>``: its hand, its moves now) and what happens to seats: the host releases
one, a player renames a seat or hands it to another phone (``/h/<code>``).

Moves are POSTed by the seat page's script to the JSON API with the seat's HttpOnly cookie and the page's
CSRF token (:mod:`.api`)."""

from __future__ import annotations

from flask import (
    Response,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import (
    Response as BaseResponse,  # what redirect() answers (flask's Response is one)
)

from companion.rules import IllegalMove, rules_for
from companion.store import (
    HANDOVER_MINUTES,
    NotFound,
    SeatRefused,
    SeatTaken,
    TokenUsed,
)
from companion.web.api_helpers import seat_rate
from companion.web.errors import error_response
from companion.web.helpers import (
    Forbidden,
    holds_seat,
    hosting,
    live_part,
    page_blueprint,
    proposed_token,
    qr_svg,
    remember_host,
    remember_seat,
    store,
    token_cookie,
    unstored_page,
)
from companion.web.links import external_url
from companion.web.seat_context import seat_context

bp = page_blueprint("seats", __name__)


@bp.get("/g/<game_id>/seat/<int:seat>")
def seat(game_id: str, seat: int) -> Response:
    context, token = seat_context(game_id, seat)
    page = render_template("pages/seat.html", token=token, just_created=request.args.get("created") == "1",
                           **context)
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"  # the page carries this seat's secret hand
    return response


@bp.get("/g/<game_id>/seat/<int:seat>/live")
def seat_live(game_id: str, seat: int) -> Response:
    context, _ = seat_context(game_id, seat)
    return live_part("pages/_seat_live.html", context)


# -- seats: release (the host), hand-over, rename ----------------------------------------------

def back_to(game_id: str, seat: int | None) -> BaseResponse:
    if seat is not None and holds_seat(game_id, seat):
        return redirect(url_for("seats.seat", game_id=game_id, seat=seat), 303)
    return redirect(url_for("table.table", game_id=game_id), 303)


@bp.post("/g/<game_id>/seats/<int:seat>/release")
def release_seat(game_id: str, seat: int) -> BaseResponse:
    info = store().info(game_id)
    if not 0 <= seat < len(info["players"]):
        raise NotFound(f"This game has no seat {seat + 1}.")
    if not hosting(game_id):
        raise PermissionError("Only the phone that created this game (the host) can release a seat.")
    try:
        store().release_seat(game_id, seat)
    except SeatTaken as exc:
        return error_response(409, exc.message)  # the error helper makes it a sentence
    # back to the host's panel, open, at the row of the seat released: the confirmation where the finger was
    return redirect(url_for("table.table", game_id=game_id, released=seat, _anchor=f"seat-{seat}"), 303)


@bp.post("/g/<game_id>/seats/<int:seat>/rename")
def rename_seat(game_id: str, seat: int) -> BaseResponse:
    info = store().info(game_id)
    if not 0 <= seat < len(info["players"]):
        raise NotFound(f"This game has no seat {seat + 1}.")
    refused = PermissionError(f"Only {info['players'][seat]}'s phone or the host can rename {info['players'][seat]}.")
    if not (holds_seat(game_id, seat) or hosting(game_id)):
        raise refused
    # the seat's token checked again in the write (None: the host's), as the API's rename does
    token = None if hosting(game_id) else request.cookies.get(token_cookie(game_id, seat))
    seat_rate(game_id, seat)  # as in the API: a rename is a log entry each
    try:
        store().rename_seat(game_id, seat, request.form.get("name", ""), token=token)
    except IllegalMove as exc:
        return error_response(422, exc.message)  # the error helper makes it a sentence
    except SeatRefused:  # handed on or released, through another node, since the check above
        raise refused from None
    return back_to(game_id, seat)


@bp.post("/g/<game_id>/seat/<int:seat>/handover")
def handover(game_id: str, seat: int) -> Response:
    info = store().info(game_id)
    refused = PermissionError("This phone does not hold that seat, so it cannot hand it over.")
    if not 0 <= seat < len(info["players"]) or not holds_seat(game_id, seat):
        raise refused
    refusal = current_app.extensions["rate_limits"].seat_handovers(game_id, seat)
    if refusal is not None:
        return refusal
    try:  # the seat's token checked again in the write: handed on or released through another node meanwhile
        offer = store().handover_code(game_id, seat, token=request.cookies.get(token_cookie(game_id, seat)))
    except SeatRefused:
        raise refused from None
    link = external_url(url_for("seats.take_over", code=offer["code"]))
    return unstored_page("pages/handover.html", info=info, seat=seat, name=info["players"][seat], code=offer["code"],
                         link=link, qr=qr_svg(link), minutes=HANDOVER_MINUTES, game_id=game_id,
                         title=rules_for(info["game"]).TITLE)


@bp.get("/h/<code>")
def take_over(code: str) -> Response:
    offer = store().handover_offer(code)
    if offer is None:
        raise NotFound(f"The hand-over code {code.strip().upper()} is unknown, used or expired. Ask the seat's "
                       "phone for a new one.")
    info = store().info(offer["id"])
    return unstored_page("pages/take_over.html", offer=offer, code=code.strip().upper(), info=info,
                         title=rules_for(info["game"]).TITLE)


@bp.post("/h/<code>")
def take_over_now(code: str) -> BaseResponse:
    proposed, refused = proposed_token()
    if refused is not None:
        return error_response(400, refused)
    try:  # (the code sent again with the token it gave the seat to: a lost answer, answered again)
        taken = store().take_handover(code, token=proposed)
    except TokenUsed:
        return error_response(409, "This phone's seat key was used before. Open the hand-over link again and "
                                   "take the seat.")
    response = redirect(url_for("seats.seat", game_id=taken["id"], seat=taken["seat"]), 303)
    return remember_seat(response, taken["id"], taken["seat"], taken["token"])


@bp.get("/g/<game_id>/host")
def become_host(game_id: str) -> Response:
    """The page a new host key opens (``companion host``: a table whose host's phone is lost). The key travels in
    the link's fragment, which no server or log sees; the page's form sends it in the request's body."""
    info = store().info(game_id)
    return unstored_page("pages/become_host.html", info=info, game_id=game_id, title=rules_for(info["game"]).TITLE)


@bp.post("/g/<game_id>/host")
def become_host_now(game_id: str) -> BaseResponse:
    store().version(game_id)  # (no such game: 404)
    key = request.form.get("key", "").strip()
    if not key or not store().is_host(game_id, key):
        raise Forbidden("That host key is not this game's, or a newer one has replaced it: ask whoever runs "
                        f"the companion for a new one (companion host {game_id}).", "Not this game's host key")
    response = redirect(url_for("table.table", game_id=game_id, seats=1, _anchor="host-seats"), 303)
    return remember_host(response, game_id, key)
