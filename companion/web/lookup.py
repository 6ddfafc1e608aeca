"""Rules look-up: ``/rules`` (search every rule book) and ``/rules/<game>`` (one game's whole rule list)."""

from __future__ import annotations

from functools import lru_cache

from flask import Response, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import (
    Response as BaseResponse,  # what redirect() answers (flask's Response is one)
)

from cardgen.catalog import available_games, catalogs, content
from companion.search import corrections, search
from companion.store import NotFound
from companion.web.errors import error_response
from companion.web.helpers import page_blueprint, refuse_unserved

bp = page_blueprint("lookup", __name__)


def rule_games() -> dict[str, str]:
    """Every rule id -> the game whose rule book holds it (of the games whose data loads)."""
    return _rule_games_of(available_games())


@lru_cache(maxsize=2)
def _rule_games_of(games: tuple[str, ...]) -> dict[str, str]:
    return {rule.id: game for game in games for rule in content(game).rules}


@bp.app_template_global()
def rule_url(rule_id: str) -> str:
    """Where a rule entry is shown: its game's rule list, at the entry's anchor."""
    game = rule_games().get(rule_id) or rule_id.partition(".")[0]
    return url_for("lookup.game_rules", game=game) + "#" + rule_id


@bp.get("/rules")
def rules_page() -> BaseResponse:
    """The search form and results; without a query, one link per game to its whole rule list."""
    query = request.args.get("q", "").strip()[:200]
    game = request.args.get("game", "").strip() or None
    prefer = request.args.get("prefer", "").strip() or None
    for name in (game, prefer):
        if name is not None and name not in catalogs():
            return error_response(400, f"Unknown game '{name}'. Pick one of: {', '.join(catalogs())}.")
    if game is not None and not query:
        return redirect(url_for("lookup.game_rules", game=game), 303)
    if game is not None:
        refuse_unserved(game)  # as its rule list: 404 left out of the data folder, 503 broken (not "0 results")
    results = search(query, game, prefer=prefer) if query else []
    fixed = corrections(query, game) if query else {}
    shown = available_games()  # a game whose data is broken is left out
    books = [(g, content(g).title, len(content(g).rules)) for g in shown]
    return make_response(render_template("pages/rules.html", query=query, game=game, games=shown, results=results,
                                         books=books, titles={g: content(g).title for g in shown}, fixed=fixed))


@bp.get("/rules/<game>")
def game_rules(game: str) -> Response:
    """Every rule entry of one game, each at an anchor named by its rule id."""
    if game not in catalogs():
        raise NotFound(f"There is no game called '{game}'. Pick one of: {', '.join(catalogs())}.")
    refuse_unserved(game)
    catalog = content(game)
    return make_response(render_template("pages/game_rules.html", game=game, catalog=catalog, title=catalog.title,
                                         games=available_games(), titles={g: content(g).title for g in available_games()},
                                         query=""))
