"""``POST /api/calc/barony-sorcery`` (final totals) and ``POST /api/calc/barony-sorcery/cast`` (is a cast legal?).

Both answer from the rules' front: totals from :func:`companion.rules.barony_sorcery.game.final_totals`
(base-game points + 3 VP per Control token, the winner or a shared win), casts from
:func:`companion.rules.barony_sorcery.game.check_cast` (the same check the referee uses).
Shape problems (a missing field, a wrong type, a number out of range) answer 400. A name that is no
spell, two players of the same name, or Control tokens the board cannot hold answer 422 with a
sentence. An illegal combination is an answer, not an error: 200 with ``legal`` false, the reason
and the rule it breaks.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from pydantic import Field

from companion.rules.barony_sorcery.game import (
    GAME,
    MAX_BASE_POINTS,
    MAX_CONTROLS,
    MYSTERIOUS_BY_PLAYERS,
    UnknownSpell,
    check_cast,
    final_totals,
    spell_of,
)
from companion.web.api_helpers import ApiError, api_blueprint, parse_body
from companion.web.openapi import RequestBody, errors, json_body, request_body

bp = api_blueprint("calc_barony_sorcery", __name__)

SPELL_COUNT = len(GAME.spells)


class BaronyPlayerPad(RequestBody):
    name: str = Field(min_length=1, max_length=40)
    base_points: int = Field(ge=0, le=MAX_BASE_POINTS, description="the player's points from the base game")
    control_tokens: int = Field(ge=0, le=GAME.control_tokens_per_player,
                                description="the player's Control tokens on Mysterious locations at the end")


class BaronyScoreRequest(RequestBody):
    players: list[BaronyPlayerPad] = Field(min_length=GAME.min_players, max_length=GAME.max_players,
                                           description="every player at the table")


class BaronyCastRequest(RequestBody):
    spells: list[str] = Field(min_length=1, max_length=SPELL_COUNT,
                              description="the spells cast in one action, by name or id, "
                                          "e.g. [\"Velocity\", \"Teleport\"]")
    magic: int | None = Field(default=None, ge=0, le=GAME.magic_tokens,
                              description="the caster's Magic tokens (leave out to check only the combination)")
    in_play: list[str] | None = Field(default=None, min_length=GAME.spells_in_play, max_length=GAME.spells_in_play,
                                      description="the spells drawn at setup (leave out to allow all nine)")


#: The nested model too: the OpenAPI document lists each under components/schemas.
REQUEST_MODELS = (BaronyScoreRequest, BaronyPlayerPad, BaronyCastRequest)

_BREAKDOWN = {"type": "array", "items": {"type": "object", "properties": {
    "cause": {"type": "string"}, "points": {"type": "integer"}, "rule": {"type": "string"}}}}
_TOTALS = {"type": "object", "properties": {
    "players": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "base_points": {"type": "integer"}, "control_tokens": {"type": "integer"},
        "control_points": {"type": "integer"}, "total": {"type": "integer"}, "breakdown": _BREAKDOWN}}},
    "winners": {"type": "array", "items": {"type": "integer"}},
    "winner_names": {"type": "array", "items": {"type": "string"}},
    "shared": {"type": "boolean"}, "reason": {"type": "string"}, "rule": {"type": "string"}}}
_CAST = {"type": "object", "properties": {
    "legal": {"type": "boolean"}, "cost": {"type": "integer"}, "category": {"type": ["string", "null"]},
    "category_name": {"type": ["string", "null"]}, "reason": {"type": "string"}, "rule": {"type": "string"},
    "spells": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "category": {"type": "string"},
        "cost": {"type": "integer"}, "text": {"type": "string"}, "rule": {"type": "string"}}}}}}

OPENAPI_PATHS: dict[str, Any] = {
    "/api/calc/barony-sorcery": {"post": {
        "summary": "Barony: Sorcery final totals: base-game points + 3 per Control token, and the winner(s)",
        "requestBody": request_body(BaronyScoreRequest),
        "responses": {"200": json_body(_TOTALS, "totals with breakdowns"), **errors(400, 422)}}},
    "/api/calc/barony-sorcery/cast": {"post": {
        "summary": "Barony: Sorcery: whether one action may cast these spells, and its cost",
        "requestBody": request_body(BaronyCastRequest),
        "responses": {"200": json_body(_CAST, "the answer (an illegal combination is legal: false with the rule)"),
                      **errors(400, 422)}}},
}


@bp.post("/calc/barony-sorcery")
def barony_sorcery_totals() -> Response:
    body = parse_body(BaronyScoreRequest)
    names = [player.name.strip() for player in body.players]
    if any(not name for name in names):
        raise ApiError(422, "every player needs a name")
    if len({name.casefold() for name in names}) != len(names):
        raise ApiError(422, "player names must be different")
    locations = MYSTERIOUS_BY_PLAYERS[len(names)]
    for player, name in zip(body.players, names, strict=True):
        if player.control_tokens > locations:
            raise ApiError(422, f"Player {name} cannot have {player.control_tokens} Control tokens on Mysterious locations: "
                                f"with {len(names)} players the board has {locations}, and each takes one token "
                                "per player", "barony-sorcery.explore.once")
    placed = sum(player.control_tokens for player in body.players)
    room = locations * MAX_CONTROLS
    if placed > room:
        raise ApiError(422, f"{placed} Control tokens do not fit: {locations} Mysterious locations hold at most "
                            f"{MAX_CONTROLS} each ({room} in all)", "barony-sorcery.explore.full")
    return jsonify(final_totals([(name, p.base_points, p.control_tokens) for name, p in zip(names, body.players, strict=True)]))


@bp.post("/calc/barony-sorcery/cast")
def barony_sorcery_cast() -> Response:
    body = parse_body(BaronyCastRequest)
    try:
        in_play = None if body.in_play is None else [spell_of(ref).id for ref in body.in_play]
        if in_play is not None and len(set(in_play)) != len(in_play):
            raise ApiError(422, f"'in_play' must name {GAME.spells_in_play} different spells")
        result = check_cast(body.spells, body.magic, in_play)
    except UnknownSpell as error:
        raise ApiError(422, error.message) from None
    return jsonify(result.to_json())
