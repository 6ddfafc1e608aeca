"""What the page blueprints share: the store, the seat and host cookies, QR codes, card look-up, and
:func:`page_blueprint`, which gives every page area the same HTML error answers and the same trimmed HTML.

Pages read the store and the rules module directly (same process as the JSON API) and render Jinja
templates. Pages that show a game also serve a ``/live`` HTML part of themselves (:func:`live_part`): the
page's script polls ``/api/games/<id>/version`` and swaps in the new part when the version changes, so one
set of templates renders both the first load and every live update.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import qrcode
import qrcode.constants
from flask import (
    Blueprint,
    Response,
    current_app,
    make_response,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup, escape
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.wrappers import (
    Response as BaseResponse,  # what redirect() answers (flask's Response is one)
)

from cardgen.catalog import DataError, content
from cardgen.catalog.versions import VERSION_LENGTH
from companion.store import NotFound, Store
from companion.web.errors import error_response
from companion.web.links import external_url
from companion.web.openapi import SEAT_TOKEN

TOKEN_COOKIE_DAYS = 30
_SAFE_ID = re.compile(r"[^A-Za-z0-9_-]")


def store() -> Store:
    found: Store = current_app.extensions["store"]
    return found


def cards_by_id(game: str) -> dict[str, Any]:
    return {card.id: card for card in content(game).cards}


# -- seat and host cookies ----------------------------------------------------------------------

def token_cookie(game_id: str, seat: int) -> str:
    return f"seat_{_SAFE_ID.sub('', game_id)}_{seat}"


def host_cookie(game_id: str) -> str:
    return f"host_{_SAFE_ID.sub('', game_id)}"


def proposed_token() -> tuple[str | None, str | None]:
    """The seat token a join or take-over form proposes (its ``token`` field, filled by ``js/seat-key.js`` and
    kept for the retries of one tap; absent or empty: None, the server makes one), and the reason it is refused
    (None: it is not)."""
    token = request.form.get("token", "") or None
    if token is not None and not re.fullmatch(SEAT_TOKEN, token):
        return None, ("This phone sent a seat key the server cannot use (it must be 32 to 128 letters, digits, "
                      "“-” or “_”). Reload the page and try again.")
    return token, None


def remember_seat(response: BaseResponse, game_id: str, seat: int, token: str) -> BaseResponse:
    response.set_cookie(token_cookie(game_id, seat), token, max_age=TOKEN_COOKIE_DAYS * 86400,
                        httponly=True, samesite="Lax", secure=request.is_secure, path="/")
    return response


def remember_host(response: BaseResponse, game_id: str, token: str) -> BaseResponse:
    response.set_cookie(host_cookie(game_id), token, max_age=TOKEN_COOKIE_DAYS * 86400,
                        httponly=True, samesite="Lax", secure=request.is_secure, path="/")
    return response


def hosting(game_id: str) -> bool:
    """Whether this browser is the host of the game (it created it: its cookie holds the host token)."""
    token = request.cookies.get(host_cookie(game_id))
    return token is not None and bool(token) and store().is_host(game_id, token)


def holds_seat(game_id: str, seat: int) -> bool:
    token = request.cookies.get(token_cookie(game_id, seat))
    return token is not None and bool(token) and store().seat_for_token(game_id, token) == seat


def seats_held(game_id: str, seat_count: int) -> list[int]:
    """The seats of this game whose token this browser holds (checked against the store)."""
    held = []
    for seat in range(seat_count):
        token = request.cookies.get(token_cookie(game_id, seat))
        if token and store().seat_for_token(game_id, token) == seat:
            held.append(seat)
    return held


# -- QR codes -------------------------------------------------------------------------------------

def join_qr_svg(join_code: str) -> Markup:
    """An inline SVG QR code of this server's join link for the code."""
    return qr_svg(join_link(join_code))


_DARK_RUN = re.compile("1+")


@lru_cache(maxsize=256)
def qr_svg(link: str) -> Markup:
    """A QR code as one SVG path (sized by CSS), labelled with what it encodes; cached per link.

    ``qrcode`` lays the code out (level M, its best mask, a 2-module quiet zone inside the light
    box); each row's run of dark modules is one rectangle, a quarter of the bytes of one square a
    module (the join code's QR was 5.6 of a table page's ~23 KB of HTML)."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    code.add_data(link)
    code.make(fit=True)
    matrix = code.get_matrix()
    runs = [f"M{run.start()} {y}h{len(run[0])}v1h-{len(run[0])}z" for y, row in enumerate(matrix)
            for run in _DARK_RUN.finditer("".join("1" if dark else "0" for dark in row))]
    size = len(matrix)
    return Markup(f'<svg class="qr" role="img" aria-label="QR code for {escape(link)}" viewBox="0 0 {size} {size}" '
                  f'xmlns="http://www.w3.org/2000/svg" shape-rendering="crispEdges"><path d="{"".join(runs)}"/></svg>')


def join_link(join_code: str) -> str:
    return external_url(url_for("home.join_code", code=join_code))


# -- cards ----------------------------------------------------------------------------------------

def refuse_unserved(game: str) -> None:
    """Refuse a page of a game the served data leaves out: 404 where the data folder holds no folder for it
    (the operator left it out), 503 where its data is broken (saying which file, record and field, within the
    data folder: never the server's own paths)."""
    unserved = current_app.extensions.get("unavailable_games", {}).get(game)
    if unserved is not None:
        raise (ServiceUnavailable if unserved.broken else NotFound)(unserved.public)


def catalog_and_card(game: str, card_id: str) -> tuple[Any, Any]:
    """A card page's game content and card, or a 404 that says which is unknown; a game whose data is broken
    answers 503 with why, as the API and the rules pages do (a printed QR code leads here: the game exists)."""
    refuse_unserved(game)
    try:
        catalog = content(game)
    except DataError:
        raise NotFound(f"There is no game called '{game}'.") from None
    card = catalog.find_card(card_id)
    if card is None:
        raise NotFound(f"{catalog.title} has no card '{card_id}'.")
    return catalog, card


_VERSION = re.compile(rf"[0-9a-f]{{{VERSION_LENGTH}}}")


def stale_print(printed: str | None, current: str) -> dict[str, str] | None:
    """The printed and current versions when a card's QR code (``?v=``, from the print kit) names another
    version of the card than the data's today; None for a current print or a link without a version."""
    if printed is None or not _VERSION.fullmatch(printed) or printed == current:
        return None
    return {"printed": printed, "current": current}


# -- answers --------------------------------------------------------------------------------------

def live_part(template: str, context: dict[str, Any]) -> Response:
    """A page's live part (what its script swaps in), with the version it shows."""
    response = make_response(render_template(template, **context))
    response.headers["X-Game-Version"] = str(context["version"])
    response.headers["Cache-Control"] = "no-store"
    return response


def unstored_page(template: str, **context: Any) -> Response:
    """A page a browser must not keep (it shows a seat's own moves, or a hand-over code opens a seat)."""
    response = make_response(render_template(template, **context))
    response.headers["Cache-Control"] = "no-store"
    return response


#: A line break and the indentation after it (ASCII white space only: a no-break space is text).
_INDENT = re.compile(rb"\n[ \t\r\n]+")


def without_indentation(response: Response) -> Response:
    """The templates' indentation taken out of every page's HTML (no page holds a ``pre`` or
    ``textarea``): a seat page listing the whole deck is a quarter lighter. (Security headers are set
    on every answer by the app, :mod:`.headers`.)"""
    if response.mimetype == "text/html" and not response.direct_passthrough and not response.is_streamed:
        response.set_data(_INDENT.sub(b"\n", response.get_data()))
    return response


def not_found(exc: NotFound) -> Response:
    return error_response(404, exc.message)


class Forbidden(PermissionError):
    """A 403 whose page has a heading of its own (a plain ``PermissionError`` reads "Not your seat")."""

    def __init__(self, message: str, title: str) -> None:
        super().__init__(message)
        self.title = title


def forbidden(exc: PermissionError) -> Response:
    return error_response(403, str(exc), title=exc.title if isinstance(exc, Forbidden) else None)


def page_blueprint(name: str, import_name: str) -> Blueprint:
    """A blueprint of pages: its HTML has the templates' indentation taken out, and an unknown game, seat or
    card (:class:`~companion.store.NotFound`) or a seat this phone does not hold (``PermissionError``) is
    answered with the error page (404, 403). Each page module makes its own; ``create_app`` registers it."""
    bp = Blueprint(name, import_name)
    bp.after_request(without_indentation)
    bp.register_error_handler(NotFound, not_found)
    bp.register_error_handler(PermissionError, forbidden)
    return bp
