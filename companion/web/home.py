"""The home page (start a game, join one, "Your games") and joining by code: ``/``, ``/new``, ``/join``, ``/j/<code>``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Container

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

from companion.rules import GAMES as RULES
from companion.rules import SetupError, rules_for
from companion.store import NotFound, SeatTaken, TokenUsed
from companion.web.games import GamePages, NewGameFormError, pages_for
from companion.web.helpers import (
    page_blueprint,
    proposed_token,
    remember_host,
    remember_seat,
    seats_held,
    store,
)
from companion.web.seat_context import your_games

bp = page_blueprint("home", __name__)


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
                           unavailable=[u for u in current_app.extensions["unavailable_games"].values() if u.broken])
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
    response = redirect(url_for("seats.seat", game_id=created["id"], seat=0, created=1), 303)
    remember_host(response, created["id"], created["host_token"])  # this phone may release seats
    return remember_seat(response, created["id"], 0, created["seats"][0]["token"])


@bp.get("/join")
def join() -> BaseResponse:
    code = request.args.get("code", "").strip().upper()
    if not code:  # the "Join" link: the code field has the focus
        return render_home(join_first=True)
    if store().game_id_for_code(code) is None:  # a mistyped code: the form again, the code kept, the reason beside it
        current_app.extensions["rate_limits"].join_miss()  # (a right one is counted where it is sent: /j/<code>)
        return render_home(404, code=code, join_first=True,
                           join_error=f"No game has the join code {code}. Check the code on the host's phone.")
    return redirect(url_for("home.join_code", code=code), 303)


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
    proposed, refused = proposed_token()
    if refused is not None:
        return join_code(code, 400, refused)
    try:  # (the seat already held by the token proposed: a tap sent again after its answer was lost, answered again)
        token = store().claim_seat(game_id, seat, token=proposed)
    except SeatTaken:
        return join_code(code, 409, f"{info['players'][seat]}'s seat was just taken by another phone. "
                                    "Pick a free seat.")
    except TokenUsed:
        return join_code(code, 409, "This phone's seat key was used before. Reload the page and pick your seat "
                                    "again.")
    response = redirect(url_for("seats.seat", game_id=game_id, seat=seat), 303)
    return remember_seat(response, game_id, seat, token)
