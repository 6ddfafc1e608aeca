"""``POST /api/calc/fillory``: the points each unscored trait would give for a control zone."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from pydantic import Field

from cardgen.catalog import content
from companion.rules import IllegalMove
from companion.rules.fillory.game import lookup_card, trait_of, trait_points
from companion.web.api_helpers import ApiError, api_blueprint, parse_body
from companion.web.openapi import RequestBody, errors, json_body, request_body

bp = api_blueprint("calc_fillory", __name__)


class CalcRequest(RequestBody):
    zone: list[str] = Field(max_length=110, description="card names or ids in a control zone")
    scored: list[str] = Field(default_factory=list, max_length=40, description="traits already scored")


REQUEST_MODELS = (CalcRequest,)

OPENAPI_PATHS: dict[str, Any] = {
    "/api/calc/fillory": {"post": {
        "summary": "Points each unscored trait would give for a control zone, best first",
        "requestBody": request_body(CalcRequest),
        "responses": {"200": json_body({"type": "object", "properties": {"traits": {"type": "array", "items": {
            "type": "object", "properties": {"trait": {"type": "string"}, "cards": {"type": "integer"},
                                             "points": {"type": "integer"}}}}}}, "scorable traits"),
            **errors(400, 422)}}},
}


@bp.post("/calc/fillory")
def fillory_calculator() -> Response:
    body = parse_body(CalcRequest)
    fillory = content("fillory")
    zone: list[str] = []
    for ref in body.zone:          # the moves' own name resolution: curly apostrophes, the rulebook's spellings
        card = lookup_card(ref) if ref.strip() else None
        if card is None:
            raise ApiError(422, f"there is no card '{ref}' in {fillory.title}")
        if card in zone:
            raise ApiError(422, f"{fillory.card(card).name} is listed twice; there is one copy of each card")
        zone.append(card)
    scored: list[str] = []
    for name in body.scored:
        try:
            scored.append(trait_of(name).name)
        except IllegalMove:
            raise ApiError(422, f"there is no trait '{name}' in {fillory.title}") from None
    return jsonify({"traits": trait_points(zone, scored)})
