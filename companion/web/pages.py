"""The phone pages: home, join, table view, my seat, card pages and rules search.

Pages read the store and the rules module directly (same process as the JSON API) and render Jinja
templates. Pages that show a game also serve a ``/live`` HTML part of themselves: the page's script
polls ``/api/games/<id>/version`` and swaps in the new part when the version changes, so one set of
templates renders both the first load and every live update. Moves are POSTed by the script to the
JSON API with the seat's bearer token, which the seat page reads from this browser's cookie.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Container, Sequence

import qrcode
import qrcode.constants
from flask import Blueprint, Response, current_app, make_response, redirect, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse  # what redirect() answers (flask's Response is one)

from cardgen.catalog import GAMES, DataError, available_games, content
from cardgen.catalog.versions import VERSION_LENGTH, card_version
from companion.rules import GAMES as RULES
from companion.rules import IllegalMove, SetupError, rules_for
from companion.rules import choices as choices_module
from companion.search import corrections, search
from companion.store import HANDOVER_MINUTES, NotFound, SeatTaken, Store
from companion.web.games import GamePages, NewGameFormError, pages_for
from companion.web.errors import error_response
from companion.web.links import external_url

bp = Blueprint("pages", __name__)

TOKEN_COOKIE_DAYS = 30
LOG_LINES_TABLE = 40
LOG_LINES_SEAT = 8
_SAFE_ID = re.compile(r"[^A-Za-z0-9_-]")


def store() -> Store:
    return current_app.extensions["store"]


def cards_by_id(game: str) -> dict[str, Any]:
    return {card.id: card for card in content(game).cards}


def token_cookie(game_id: str, seat: int) -> str:
    return f"seat_{_SAFE_ID.sub('', game_id)}_{seat}"


def host_cookie(game_id: str) -> str:
    return f"host_{_SAFE_ID.sub('', game_id)}"


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
    return external_url(url_for("pages.join_code", code=join_code))


#: A line break and the indentation after it (ASCII white space only: a no-break space is text).
_INDENT = re.compile(rb"\n[ \t\r\n]+")


@bp.after_request
def page_headers(response: Response) -> Response:
    """The templates' indentation taken out of every page's HTML (no page holds a ``pre`` or
    ``textarea``): a seat page listing the whole deck is a quarter lighter. (Security headers are set
    on every answer by the app, :mod:`.headers`.)"""
    if response.mimetype == "text/html" and not response.direct_passthrough and not response.is_streamed:
        response.set_data(_INDENT.sub(b"\n", response.get_data()))
    return response


# -- home, new game, join ----------------------------------------------------------------------

@dataclass(frozen=True)
class NewGameForm:
    """One game's new-game form on the home page (a game's ``GamePages.form_prefix`` may drop the prefix)."""

    game: str
    title: str
    pages: GamePages
    min_players: int
    max_players: int
    names: list[str]
    first: int
    error: str | None
    open: bool

    @property
    def prefix(self) -> str:
        return f"{self.game}-" if self.pages.form_prefix is None else self.pages.form_prefix

    @property
    def form_id(self) -> str:
        return f"new-{self.prefix.rstrip('-')}" if self.prefix else "new-game"


def playable_games(unavailable: Container[str] = ()) -> list[str]:
    """Games with rules and phone forms, in the specs' order, leaving out ``unavailable`` ones (broken data):
    the ones the home page can start."""
    return [game for game in RULES if game not in unavailable and pages_for(game).playable]


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


def _held_status(info: dict[str, Any], seat: int) -> str:
    """Whether a held seat's game is over, or waits for a move from this seat now (what its seat page calls
    "Your move": :func:`companion.rules.choices.awaits` over the rules' choices for the seat), for "Your games"."""
    rules = rules_for(info["game"])
    try:
        _, state = store().current(info["id"])
    except NotFound:
        return "waiting"
    if rules.outcome(state).over or (rules.SPEC.can_stall and rules.stalled(state)):
        return "over"
    return "yours" if hasattr(rules, "choices") and choices_module.awaits(rules.choices(state, seat)) else "waiting"


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
                              created=datetime.fromisoformat(info["created"]), status=_held_status(info, seat)))
    found.sort(key=lambda held: (held.created, held.seat), reverse=True)
    return found[:YOUR_GAMES_SHOWN]


def render_home(status: int = 200, error: str | None = None, names: list[str] | None = None,
                first: int = 0, code: str = "", game: str | None = None, join_first: bool = False,
                join_error: str | None = None) -> Response:
    forms = []
    for name in playable_games(current_app.extensions["unavailable_games"]):
        rules = rules_for(name)
        mine = name == game
        typed = ((names or []) if mine else []) + [""] * rules.MAX_PLAYERS
        forms.append(NewGameForm(game=name, title=rules.TITLE, pages=pages_for(name), min_players=rules.MIN_PLAYERS,
                                 max_players=rules.MAX_PLAYERS, names=typed[:rules.MAX_PLAYERS],
                                 first=first if mine else 0, error=error if mine else None,
                                 open=mine))
    held = your_games()
    page = render_template("pages/home.html", forms=forms, error=error, code=code, form_values=request.form,
                           held=held, join_first=join_first, join_error=join_error,
                           unavailable=list(current_app.extensions["unavailable_games"].values()))
    response = make_response(page, status)
    response.headers["Cache-Control"] = "private, no-store"  # "Your games" is this phone's alone
    response.vary.add("Cookie")
    return response


@bp.get("/")
def home() -> Response:
    return render_home()


@bp.post("/new")
def new_game() -> BaseResponse:
    playable = playable_games(current_app.extensions["unavailable_games"])
    game = request.form.get("game", playable[0] if playable else "")  # no game named: the first in the specs' order
    if game not in playable:
        return render_home(400, f"There is no game '{game}' to start here. Pick one from the list.")
    rules = rules_for(game)
    game_pages = pages_for(game)
    typed = [name.strip() for name in request.form.getlist("player")][:rules.MAX_PLAYERS]
    names = [name for name in typed if name]
    first_position = 0
    options: dict[str, Any] = {}
    if game_pages.asks_first_seat:
        try:
            first_position = int(request.form.get("first", "0"))
        except ValueError:
            return render_home(400, "Pick who goes first from the list.", typed, game=game)
        if not 0 <= first_position < len(typed) or not typed[first_position]:
            return render_home(400, f"Player {first_position + 1} goes first but has no name.", typed,
                               first_position, game=game)
        options["first_seat"] = sum(1 for name in typed[:first_position] if name)
    try:
        options.update(game_pages.parse_options(request.form, names))
        # this phone is Player 1 and holds that seat; the others are free for the phones that join
        created = store().create_game(game, names, options, held=[0])
    except NewGameFormError as exc:
        return render_home(400, str(exc), typed, first_position, game=game)
    except SetupError as exc:
        return render_home(400, f"Cannot start this game: {exc}", typed, first_position, game=game)
    response = redirect(url_for("pages.seat", game_id=created["id"], seat=0, created=1), 303)
    remember_host(response, created["id"], created["host_token"])  # this phone may release seats
    return remember_seat(response, created["id"], 0, created["seats"][0]["token"])


@bp.get("/join")
def join() -> BaseResponse:
    code = request.args.get("code", "").strip().upper()
    if not code:  # the "Join" link: the code field has the focus
        return render_home(join_first=True)
    if store().game_id_for_code(code) is None:  # a mistyped code: the form again, the code kept, the reason beside it
        return render_home(404, code=code, join_first=True,
                           join_error=f"No game has the join code {code}. Check the code on the host's phone.")
    return redirect(url_for("pages.join_code", code=code), 303)


def find_code(code: str) -> tuple[str, dict[str, Any]]:
    game_id = store().game_id_for_code(code)
    if game_id is None:
        raise NotFound(f"No game has the join code {code.upper()}. Check the code on the host's phone.")
    return game_id, store().info(game_id)


@bp.get("/j/<code>")
def join_code(code: str, status: int = 200, error: str | None = None) -> Response:
    game_id, info = find_code(code)
    mine = seats_held(game_id, len(info["players"]))
    others = [seat for seat in range(len(info["players"])) if seat not in mine]
    page = render_template("pages/join.html", info=info, mine=mine, error=error, title=rules_for(info["game"]).TITLE,
                           free=[seat for seat in others if not info["claimed"][seat]],
                           taken=[seat for seat in others if info["claimed"][seat]])
    return make_response(page, status)


@bp.post("/j/<code>")
def claim(code: str) -> BaseResponse:
    game_id, info = find_code(code)
    try:
        seat = int(request.form.get("seat", ""))
    except ValueError:
        return join_code(code, 400, "Pick a seat from the list.")
    if not 0 <= seat < len(info["players"]):
        return join_code(code, 400, f"This game has no seat {seat + 1}.")
    try:
        token = store().claim_seat(game_id, seat)
    except SeatTaken:
        return join_code(code, 409, f"{info['players'][seat]}'s seat was just taken by another phone. "
                                    "Pick a free seat.")
    response = redirect(url_for("pages.seat", game_id=game_id, seat=seat), 303)
    return remember_seat(response, game_id, seat, token)


# -- table and seat ----------------------------------------------------------------------------

def game_context(game_id: str, viewer: int | None, log_lines: int) -> dict[str, Any]:
    """Everything the table and seat templates show, read from one consistent state (``state`` itself is
    for the seat's choices and advice: the callers take it out before rendering). ``log`` holds the newest
    ``log_lines`` entries, newest first; ``undo_text`` names the move an undo would take back."""
    info = store().info(game_id)
    version, state = store().state_at(game_id, info["version"])
    rules = rules_for(info["game"])
    view = rules.view(state, viewer)
    log, undo_text, undo_seat = store().recent_log(game_id, viewer, log_lines)
    scores = {row["seat"]: row for row in rules.score(state)}
    # a game that can never change again (only games whose spec says it can: the rules' stalled())
    stalled = bool(rules.SPEC.can_stall and rules.stalled(state))
    finished = stalled or rules.outcome(state).over
    return dict(game_id=game_id, info=info, version=version, view=view, scores=scores, rules=rules, stalled=stalled,
                finished=finished, rematch=rematch_of(game_id) if finished else None,
                game_pages=pages_for(info["game"]), state=state,
                log=list(reversed(log)), undo_text=undo_text, undo_seat=undo_seat, cards=cards_by_id(info["game"]), catalog=content(info["game"]), viewer=viewer,
                names={p["seat"]: p["name"] for p in view["players"]}, title=rules.TITLE,
                join_url=join_link(info["join_code"]),
                setup=pages_for(info["game"]).setup_steps(content(info["game"]), len(info["players"])))


def rematch_of(game_id: str) -> dict[str, str] | None:
    """The rematch started from this finished game: its id and join code (the code only goes to its seats'
    phones), or None (none yet, or it is gone)."""
    rematch = store().rematch_of(game_id)
    try:
        return {"id": rematch, "code": store().info(rematch)["join_code"]} if rematch else None
    except NotFound:
        return None


def live_part(template: str, context: dict[str, Any]) -> Response:
    response = make_response(render_template(template, **context))
    response.headers["X-Game-Version"] = str(context["version"])
    response.headers["Cache-Control"] = "no-store"
    return response


def table_context(game_id: str) -> dict[str, Any]:
    context = game_context(game_id, None, LOG_LINES_TABLE)
    del context["state"]  # templates get only what view() and score() give
    context["held"] = seats_held(game_id, len(context["info"]["players"]))
    context["host"] = hosting(game_id)
    if not context["finished"]:  # nobody joins a game that is over
        context["qr"] = join_qr_svg(context["info"]["join_code"])
    return context


@bp.get("/g/<game_id>")
def table(game_id: str) -> Response:
    """The table page; ``?seats=1`` opens the host's seat panel (the link at the top of the page leads there),
    ``?released=<seat>`` opens it too and says, in that seat's row, that its release went through."""
    context = table_context(game_id)
    released = request.args.get("released", "")
    context["released"] = int(released) if released.isdigit() and int(released) < len(context["info"]["players"]) \
        and not context["info"]["claimed"][int(released)] else None
    context["seats_open"] = request.args.get("seats") == "1" or context["released"] is not None
    return make_response(render_template("pages/table.html", **context))


@bp.get("/g/<game_id>/live")
def table_live(game_id: str) -> Response:
    return live_part("pages/_table_live.html", table_context(game_id))


def seat_gone_sentence(name: str, join_code: str) -> str:
    """What a phone whose seat was released or handed on reads (issue 12: not "reconnecting" until a reload)."""
    return (f"This phone no longer holds {name}'s seat: the host released it, or it was handed to another phone. "
            f"To rejoin, join the game again with its code {join_code} (a released seat is free to take), "
            "or ask the phone that holds it now to hand it over.")


def seat_context(game_id: str, seat: int) -> tuple[dict[str, Any], str]:
    info = store().info(game_id)
    if not 0 <= seat < len(info["players"]):
        raise NotFound(f"This game has no seat {seat}.")
    token = request.cookies.get(token_cookie(game_id, seat), "")
    if not token or store().seat_for_token(game_id, token) != seat:
        if token and store().token_gone(game_id, token) == seat:
            raise PermissionError(seat_gone_sentence(info["players"][seat], info["join_code"]))
        raise PermissionError(f"This phone does not hold {info['players'][seat]}'s seat. Join the game with "
                              f"its code {info['join_code']} to claim a free seat.")
    context = game_context(game_id, seat, LOG_LINES_SEAT)
    rules, state = context["rules"], context.pop("state")  # templates get only what view() and score() give
    context.update(me=context["view"]["players"][seat], seat=seat,
                   choices=rules.choices(state, seat),
                   advice=rules.advice(state, seat))
    context.update(context["game_pages"].seat_extras(context))
    from companion.web.fix_pages import told_changes  # (that module adds its routes to this blueprint)
    context["told"] = told_changes(context["log"], seat, info["players"])
    context.update(show_invite=not context["finished"] and context["game_pages"].show_invite(context))
    if context["show_invite"]:
        context["qr"] = join_qr_svg(info["join_code"])
    return context, token


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
        return redirect(url_for("pages.seat", game_id=game_id, seat=seat), 303)
    return redirect(url_for("pages.table", game_id=game_id), 303)


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
    return redirect(url_for("pages.table", game_id=game_id, released=seat, _anchor=f"seat-{seat}"), 303)


@bp.post("/g/<game_id>/seats/<int:seat>/rename")
def rename_seat(game_id: str, seat: int) -> BaseResponse:
    info = store().info(game_id)
    if not 0 <= seat < len(info["players"]):
        raise NotFound(f"This game has no seat {seat + 1}.")
    if not (holds_seat(game_id, seat) or hosting(game_id)):
        raise PermissionError(f"Only {info['players'][seat]}'s phone or the host can rename {info['players'][seat]}.")
    try:
        store().rename_seat(game_id, seat, request.form.get("name", ""))
    except IllegalMove as exc:
        return error_response(422, exc.message)  # the error helper makes it a sentence
    return back_to(game_id, seat)


@bp.post("/g/<game_id>/seat/<int:seat>/handover")
def handover(game_id: str, seat: int) -> Response:
    info = store().info(game_id)
    if not 0 <= seat < len(info["players"]) or not holds_seat(game_id, seat):
        raise PermissionError("This phone does not hold that seat, so it cannot hand it over.")
    offer = store().handover_code(game_id, seat)
    link = external_url(url_for("pages.take_over", code=offer["code"]))
    return _unstored_page("pages/handover.html", info=info, seat=seat, name=info["players"][seat], code=offer["code"],
                          link=link, qr=qr_svg(link), minutes=HANDOVER_MINUTES, game_id=game_id,
                          title=rules_for(info["game"]).TITLE)


def _unstored_page(template: str, **context: Any) -> Response:
    """A page a browser must not keep (a hand-over code opens a seat)."""
    response = make_response(render_template(template, **context))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/h/<code>")
def take_over(code: str) -> Response:
    offer = store().handover_offer(code)
    if offer is None:
        raise NotFound(f"The hand-over code {code.strip().upper()} is unknown, used or expired. Ask the seat's "
                       "phone for a new one.")
    info = store().info(offer["id"])
    return _unstored_page("pages/take_over.html", offer=offer, code=code.strip().upper(), info=info,
                          title=rules_for(info["game"]).TITLE)


@bp.post("/h/<code>")
def take_over_now(code: str) -> BaseResponse:
    taken = store().take_handover(code)
    response = redirect(url_for("pages.seat", game_id=taken["id"], seat=taken["seat"]), 303)
    return remember_seat(response, taken["id"], taken["seat"], taken["token"])


# -- card pages and rules search ----------------------------------------------------------------

def catalog_and_card(game: str, card_id: str) -> tuple[Any, Any]:
    """A card page's game content and card, or a 404 that says which is unknown."""
    try:
        catalog = content(game)
    except DataError:
        raise NotFound(f"There is no game called '{game}'.") from None
    card = catalog.find_card(card_id)
    if card is None:
        raise NotFound(f"{catalog.title} has no card '{card_id}'.")
    return catalog, card


@bp.get("/c/<game>/<card_id>")
def card_page(game: str, card_id: str) -> Response:
    catalog, card = catalog_and_card(game, card_id)
    stale = _stale_print(request.args.get("v"), card_version(card))
    describe = pages_for(game).card_context
    if describe is not None:  # the game's own card page (its pages module describes the card)
        return make_response(render_template("pages/card.html", card=card, catalog=catalog, stale=stale,
                                             **describe(catalog, card)))
    facts = catalog.card_facts(card)
    if facts is not None:  # a catalog that describes its own cards (facts and rule entries)
        return make_response(render_template(
            "pages/card_facts.html", card=card, catalog=catalog, facts=facts,
            rules=catalog.card_rules(card), title=catalog.label(card), stale=stale))
    raise NotFound(f"{catalog.title} has no card pages.")


_VERSION = re.compile(rf"[0-9a-f]{{{VERSION_LENGTH}}}")


def _stale_print(printed: str | None, current: str) -> dict[str, str] | None:
    """The printed and current versions when a card's QR code (``?v=``, from the print kit) names another
    version of the card than the data's today; None for a current print or a link without a version."""
    if printed is None or not _VERSION.fullmatch(printed) or printed == current:
        return None
    return {"printed": printed, "current": current}


def _rule_games() -> dict[str, str]:
    """Every rule id -> the game whose rule book holds it (of the games whose data loads)."""
    return _rule_games_of(available_games())


@lru_cache(maxsize=2)
def _rule_games_of(games: tuple[str, ...]) -> dict[str, str]:
    return {rule.id: game for game in games for rule in content(game).rules}


# the choice forms' long lists, sent once per page (templates/pages/_choices.html)
bp.add_app_template_global(choices_module.shared_lists, "shared_choice_lists")
bp.add_app_template_global(choices_module.list_rows, "choice_list_rows")
bp.add_app_template_global(choices_module.plain, "plain_choice_field")


def _slug(label: str) -> str:
    """As choices.js makes it: lower case, apostrophes dropped, every other run of characters but a-z 0-9 a dash."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower().replace("'", "")).strip("-")


@bp.app_template_global()
def choice_list_json(options: Sequence[Any]) -> Markup:
    """A shared list as the page sends it: [value, label, detail, tags, {when, unless, needs, caps, also, copies}] per
    option (trailing blanks left out; value "" when it is the label's slug), as
    compact JSON safe inside <script> (UTF-8 kept: a glyph is 3 bytes, not a 6-byte escape)."""
    rows = []
    for o in options:
        deps = {name: dict(getattr(o, name)) for name in ("when", "unless", "needs", "caps", "also") if getattr(o, name)}
        if o.copies:  # the value picked in another field (companion.rules.choices.Option.copies)
            deps["copies"] = o.copies
        # "" for a value that is its label's slug (most card ids: "Sitting of Parliament", sitting-of-parliament)
        value = "" if isinstance(o.value, str) and o.value and o.value == _slug(o.label) else o.value
        row = [value, o.label, o.detail, " ".join(o.tags), deps]
        while len(row) > 2 and not row[-1]:
            row.pop()
        rows.append(row)
    text = json.dumps(rows, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


@bp.app_template_global()
def rule_url(rule_id: str) -> str:
    """Where a rule entry is shown: its game's rule list, at the entry's anchor."""
    game = _rule_games().get(rule_id) or rule_id.partition(".")[0]
    return url_for("pages.game_rules", game=game) + "#" + rule_id


@bp.get("/rules")
def rules_page() -> BaseResponse:
    """The search form and results; without a query, one link per game to its whole rule list."""
    query = request.args.get("q", "").strip()[:200]
    game = request.args.get("game", "").strip() or None
    prefer = request.args.get("prefer", "").strip() or None
    for name in (game, prefer):
        if name is not None and name not in GAMES:
            return error_response(400, f"Unknown game '{name}'. Pick one of: {', '.join(GAMES)}.")
    if game is not None and not query:
        return redirect(url_for("pages.game_rules", game=game), 303)
    results = search(query, game, prefer=prefer) if query else []
    fixed = corrections(query, game) if query else {}
    shown = available_games()  # a game whose data is broken is left out
    books = [(g, content(g).title, len(content(g).rules)) for g in shown]
    return make_response(render_template("pages/rules.html", query=query, game=game, games=shown, results=results,
                                         books=books, titles={g: content(g).title for g in shown}, fixed=fixed))


@bp.get("/rules/<game>")
def game_rules(game: str) -> Response:
    """Every rule entry of one game, each at an anchor named by its rule id."""
    if game not in GAMES:
        raise NotFound(f"There is no game called '{game}'. Pick one of: {', '.join(GAMES)}.")
    catalog = content(game)
    return make_response(render_template("pages/game_rules.html", game=game, catalog=catalog, title=catalog.title,
                                         games=available_games(), titles={g: content(g).title for g in available_games()},
                                         query=""))


@bp.errorhandler(NotFound)
def not_found(exc: NotFound) -> Response:
    return error_response(404, exc.message)


@bp.errorhandler(PermissionError)
def forbidden(exc: PermissionError) -> Response:
    return error_response(403, str(exc))
