"""A card's page (``/c/<game>/<card>``): where every printed QR code leads. The moves this phone's seat may make
with the card are the card-moves part (:mod:`.card_moves`)."""

from __future__ import annotations

from flask import Response, make_response, render_template, request

from cardgen.catalog.versions import card_version
from companion.web.games import pages_for
from companion.web.helpers import catalog_and_card, page_blueprint, stale_print

bp = page_blueprint("cards", __name__)


@bp.get("/c/<game>/<card_id>")
def card_page(game: str, card_id: str) -> Response:
    catalog, card = catalog_and_card(game, card_id)
    stale = stale_print(request.args.get("v"), card_version(card))
    describe = pages_for(game).card_context
    if describe is not None:  # the game's own card page (its pages module describes the card)
        return make_response(render_template("pages/card.html", card=card, catalog=catalog, stale=stale,
                                             **describe(catalog, card)))
    # every other game: the catalog's own description of its cards (typed defaults: its label, no facts, no rules)
    return make_response(render_template(
        "pages/card_facts.html", card=card, catalog=catalog, facts=catalog.card_facts(card),
        rules=catalog.card_rules(card), title=catalog.label(card), stale=stale))
