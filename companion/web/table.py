"""The table view of a game (``/g/<id>``): the board, the scores, the log, the join code; what every phone may see."""

from __future__ import annotations

from flask import Response, make_response, render_template

from companion.web.helpers import live_part, page_blueprint
from companion.web.seat_context import table_context

bp = page_blueprint("table", __name__)


@bp.get("/g/<game_id>")
def table(game_id: str) -> Response:
    return make_response(render_template("pages/table.html", **table_context(game_id)))


@bp.get("/g/<game_id>/live")
def table_live(game_id: str) -> Response:
    return live_part("pages/_table_live.html", table_context(game_id))
