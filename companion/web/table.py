"""The table view of a game (``/g/<id>``): the board, the scores, the log, the join code; what every phone may see."""

from __future__ import annotations

from flask import Response, make_response, render_template, request

from companion.web.helpers import live_part, page_blueprint
from companion.web.seat_context import table_context

bp = page_blueprint("table", __name__)


@bp.get("/g/<game_id>")
def table(game_id: str) -> Response:
    """The table page; ``?seats=1`` opens the host's seat panel (the link at the top of the page leads there),
    ``?released=<seat>`` opens it too and says, in that seat's row, that its release went through."""
    context = table_context(game_id)
    released = request.args.get("released", "")
    context["released"] = int(released) if released.isdecimal() and int(released) < len(context["info"]["players"]) \
        and not context["info"]["claimed"][int(released)] else None
    context["seats_open"] = request.args.get("seats") == "1" or context["released"] is not None
    return make_response(render_template("pages/table.html", **context))


@bp.get("/g/<game_id>/live")
def table_live(game_id: str) -> Response:
    return live_part("pages/_table_live.html", table_context(game_id))
