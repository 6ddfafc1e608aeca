"""A printed card's QR code reports the move: the moves this phone's seat may make with that card now.

The card page (``/c/<game>/<card>``) stays the same for every phone (cached, and kept offline by the
service worker); its script ``js/card-moves.js`` asks ``/c/<game>/<card>/moves`` — this phone's cookies,
never stored — for the part above the card's facts:

- no seat of this phone in a game of this kind that is still going: one line saying so;
- several such seats: which one (newest game first), each a link back to the card page with ``g``/``s``;
- one seat (or the one picked): every choice the rules module offers that seat now
  (``rules.choices(state, seat)``) with a field whose options include this card (``Option.card``), the
  card already picked in it, the rest of the form asked on the spot; or one line saying that none of
  the seat's moves now uses the card. Choices come only from what the seat may know, so a card in
  another seat's hand looks exactly like any card this seat cannot use now.

The forms are the seat page's own (``templates/pages/_choices.html``) inside a ``[data-live]`` part:
``js/live.js`` sends them to the same API with the version shown and an action id (409 on a stale page,
a retry never counts twice), swaps in ``/moves/live`` when another phone moves, and after an accepted
move goes to the seat page (``data-after-move``). Nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from flask import Response, make_response, render_template, request

from cardgen.catalog.versions import card_version
from companion.rules import finished, rules_for
from companion.rules.choices import Choice
from companion.store import NotFound
from companion.web.helpers import (
    catalog_and_card,
    page_blueprint,
    stale_print,
    store,
    token_cookie,
)
from companion.web.seat_context import your_games

bp = page_blueprint("card_moves", __name__)


@dataclass(frozen=True)
class CardMove:
    """One choice offered with this card: ``choice`` narrowed so that field ``pinned`` holds only the card
    (a one-value field), or with the card ticked among the rest (a list field). On an irreversible choice,
    which preselects nothing, the card is ticked by the page as ``scanned`` (the option's value): scanning
    the card was the player's own pick (JS&MN's three dealt feats, one of them scanned)."""

    choice: Choice
    pinned: str
    scanned: str = ""


def moves_with(choices: Sequence[Choice], game: str, card_id: str) -> list[CardMove]:
    """Every choice with a field whose options include card ``card_id`` of ``game``, narrowed to it."""
    found = []
    for choice in choices:
        for index, field in enumerate(choice.fields):
            option = next((o for o in field.options if o.card == (game, card_id)), None)
            if option is None:
                continue
            scanned = ""
            if field.kind == "one":  # the card alone, as a plain pick (not one pill of a row of short buttons)
                narrowed = replace(field, options=(replace(option, group="", short=""),), required=True, default=None)
            elif choice.irreversible:  # no answer filled in beforehand but the player's own: the card scanned
                narrowed, scanned = field, str(option.value)
            else:
                ticked = list(field.default or [])
                narrowed = replace(field, default=ticked if option.value in ticked else ticked + [option.value])
            fields = choice.fields[:index] + (narrowed,) + choice.fields[index + 1:]
            found.append(CardMove(replace(choice, fields=fields, folded=False, primary=True), field.name, scanned))
            break
    return found


@dataclass(frozen=True)
class LiveSeat:
    game_id: str
    seat: int
    name: str
    others: list[str]
    started: str


def live_seats(game: str) -> list[LiveSeat]:
    """The seats this phone holds in games of ``game`` that are not over, newest game first."""
    found = []
    for held in your_games():
        try:
            info = store().info(held.game_id)
            _, state = store().current(held.game_id)
        except NotFound:
            continue
        if info["game"] != game:
            continue
        rules = rules_for(game)
        if finished(rules, state):
            continue
        found.append(LiveSeat(held.game_id, held.seat, held.name, held.others, held.started))
    return found


def _picked(seats: list[LiveSeat]) -> LiveSeat | None:
    if len(seats) == 1:
        return seats[0]
    wanted = (request.args.get("g", ""), request.args.get("s", ""))
    return next((s for s in seats if (s.game_id, str(s.seat)) == wanted), None)


def moves_context(game: str, card_id: str) -> dict[str, Any]:
    catalog, card = catalog_and_card(game, card_id)
    seats = live_seats(catalog.game)
    context: dict[str, Any] = dict(catalog=catalog, card=card, seats=seats, picked=_picked(seats),
                                   stale=stale_print(request.args.get("v"), card_version(card)),
                                   card_name=catalog.label(card),
                                   version=None)
    picked = context["picked"]
    if picked is not None:
        rules = rules_for(catalog.game)
        version, state = store().current(picked.game_id)
        choices = rules.choices(state, picked.seat)
        context.update(version=version, game_id=picked.game_id, seat=picked.seat,
                       moves=moves_with(choices, catalog.game, card.id),
                       token=request.cookies.get(token_cookie(picked.game_id, picked.seat), ""),
                       query={k: request.args[k] for k in ("g", "s", "v") if k in request.args})
    return context


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, no-store"  # this phone's seats and token
    response.vary.add("Cookie")
    return response


@bp.get("/c/<game>/<card_id>/moves")
def card_moves(game: str, card_id: str) -> Response:
    context = moves_context(game, card_id)
    response = make_response(render_template("pages/_card_moves.html", **context))
    if context["version"] is not None:
        response.headers["X-Game-Version"] = str(context["version"])
    return _private(response)


@bp.get("/c/<game>/<card_id>/moves/live")
def card_moves_live(game: str, card_id: str) -> Response:
    context = moves_context(game, card_id)
    if context["picked"] is None:  # the seat was released, handed on or its game ended: say so in the part
        response = make_response(render_template("pages/_card_moves.html", **context))
    else:
        response = make_response(render_template("pages/_card_moves_live.html", **context))
        response.headers["X-Game-Version"] = str(context["version"])
    return _private(response)


__all__ = ["CardMove", "LiveSeat", "live_seats", "moves_with"]
