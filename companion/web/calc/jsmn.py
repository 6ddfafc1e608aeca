"""``POST /api/calc/jsmn``: Jonathan Strange & Mr Norrell's end of game from the players' private tallies.

Each player's magicianship (completed feats, books of magic, pupil, spells that grant magicianship) with
its breakdown, whether anyone reaches the fairy's strength, and the winner with the tie-break used
(magicianship, then prestige, then the disc on top of the stack: rules jsmn.end.total, jsmn.end.tie).
When nobody reaches the fairy nobody is the greatest magician of the age: no winner, the comparison
still given as ``best`` (rule jsmn.end.reign); with advanced difficulty everyone loses. The
sums are :func:`companion.rules.jsmn.game.calculate`, the ranking the tracked game's own.
Shape problems answer 400; a tally no game could reach (a feat worth other than 2-5, more feats, books or
magicianship spells than the game has, more feats of one value than the game has of it (six worth 5), a stack that is not one disc per place) answers 422 with the rule.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from flask import Response, jsonify
from pydantic import Field

from companion.rules.jsmn.game import BOOK_VALUE, GAME, PUPIL, SPELLS, Pad, calculate
from companion.web.api_helpers import ApiError, api_blueprint, parse_body
from companion.web.openapi import RequestBody, errors, json_body, request_body

bp = api_blueprint("calc_jsmn", __name__)

FEAT_VALUES: tuple[int, ...] = GAME.magicianship.feat_values
MAGICIANSHIP_SPELLS: int = sum(1 for spell in SPELLS.values() if spell.magicianship)
#: Feats of magic of each magicianship value in the game (data/jsmn/feats.toml: 33 feats, 9 each worth 2, 3
#: and 4, 6 worth 5): completed feats of a value, all players together, are at most this many.
FEATS_WORTH: Counter[int] = Counter(feat.magicianship for feat in GAME.feats)


class JsmnPlayerTally(RequestBody):
    name: str = Field(min_length=1, max_length=40)
    feats: list[int] = Field(default_factory=list, max_length=GAME.contents.feats,
                             description="the magicianship of each completed feat of magic (2 to 5)")
    books: int = Field(default=0, ge=0, le=GAME.contents.books, description="books of magic in front of the player")
    pupil: bool = Field(default=False, description="whether the player has the pupil connexion")
    spell_magicianship: int = Field(default=0, ge=0, le=MAGICIANSHIP_SPELLS,
                                    description="magicianship from played spells that grant it")
    prestige: int = Field(default=0, ge=0, le=GAME.tracks.prestige_length, description="space on the prestige track")
    stack: int = Field(default=0, ge=0, le=GAME.max_players - 1,
                       description="the disc's place in its prestige space's stack, from the top (0: on top)")


class JsmnEndRequest(RequestBody):
    fairy_strength: int = Field(ge=0, le=GAME.tracks.fairy_length, description="the fairy track now")
    difficulty: int = Field(default=0, description="where the fairy started: 0, or 4 or 8 for advanced difficulty "
                                                   "(undefeated, everyone loses)")
    players: list[JsmnPlayerTally] = Field(min_length=GAME.min_players, max_length=GAME.max_players,
                                           description="every player at the table")


#: The nested model too: the OpenAPI document lists each under components/schemas.
REQUEST_MODELS = (JsmnEndRequest, JsmnPlayerTally)

_BREAKDOWN = {"type": "array", "items": {"type": "object", "properties": {
    "cause": {"type": "string"}, "points": {"type": "integer"}, "rule": {"type": "string"}}}}
_ANSWER = {"type": "object", "properties": {
    "fairy_strength": {"type": "integer"}, "defeated": {"type": "boolean"}, "fairy": {"type": "string"},
    "players": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "magicianship": {"type": "integer"}, "breakdown": _BREAKDOWN,
        "reaches_fairy": {"type": "boolean"}, "prestige": {"type": "integer"}, "stack": {"type": "integer"}}}},
    "winners": {"type": "array", "items": {"type": "integer"},
                "description": "empty when nobody reaches the fairy: nobody is the greatest magician of the age"},
    "winner_names": {"type": "array", "items": {"type": "string"}},
    "best": {"type": "array", "items": {"type": "integer"},
             "description": "who compares best (magicianship, prestige, stack), defeated or not"},
    "best_names": {"type": "array", "items": {"type": "string"}},
    "compared": {"type": "string"}, "difficulty": {"type": "integer"},
    "decided_by": {"type": "string", "enum": ["magicianship", "prestige", "stack", "shared"]},
    "reason": {"type": "string"}, "rule": {"type": "string"}}}

OPENAPI_PATHS: dict[str, Any] = {
    "/api/calc/jsmn": {"post": {
        "summary": "Jonathan Strange & Mr Norrell: each magicianship, whether the fairy is defeated, the winner",
        "requestBody": request_body(JsmnEndRequest),
        "responses": {"200": json_body(_ANSWER, "magicianship with breakdowns and the winner"), **errors(400, 422)}}},
}


def _check(body: JsmnEndRequest, names: list[str]) -> None:
    if body.difficulty not in GAME.tracks.difficulties:
        raise ApiError(422, f"difficulty is where the fairy started: one of "
                            f"{', '.join(map(str, GAME.tracks.difficulties))}", "jsmn.difficulty.advanced")
    if any(not name for name in names):
        raise ApiError(422, "every player needs a name")
    if len({name.casefold() for name in names}) != len(names):
        raise ApiError(422, "player names must be different")
    for player, name in zip(body.players, names, strict=True):
        wrong = [v for v in player.feats if v not in FEAT_VALUES]
        if wrong:
            raise ApiError(422, f"Magician {name}: a feat of magic is worth 2, 3, 4 or 5 magicianship, not {wrong[0]}",
                           "jsmn.magicianship.total")
    totals = {"feats": (sum(len(p.feats) for p in body.players), GAME.contents.feats, "feats of magic"),
              "books": (sum(p.books for p in body.players), GAME.contents.books, "books of magic"),
              "spells": (sum(p.spell_magicianship for p in body.players), MAGICIANSHIP_SPELLS,
                         "spells that grant magicianship")}
    for count, most, what in totals.values():
        if count > most:
            raise ApiError(422, f"{count} {what} in all, but the game has {most}", "jsmn.components")
    worth = Counter(v for p in body.players for v in p.feats)
    for value, count in sorted(worth.items()):
        if count > FEATS_WORTH[value]:
            raise ApiError(422, f"{count} feats of magic worth {value} in all, but the game has "
                                f"{FEATS_WORTH[value]}", "jsmn.components")
    spaces: dict[int, list[int]] = defaultdict(list)
    for player in body.players:
        spaces[player.prestige].append(player.stack)
    for prestige, stack in spaces.items():
        if sorted(stack) != list(range(len(stack))):
            raise ApiError(422, f"the {len(stack)} disc(s) on prestige {prestige} must have stack places "
                                f"{', '.join(map(str, range(len(stack))))} (0 on top), one each", "jsmn.prestige.stack")


@bp.post("/calc/jsmn")
def jsmn_end() -> Response:
    body = parse_body(JsmnEndRequest)
    names = [player.name.strip() for player in body.players]
    _check(body, names)
    pads = [Pad(name, tuple(p.feats), p.books, p.pupil, p.spell_magicianship, p.prestige, p.stack)
            for name, p in zip(names, body.players, strict=True)]
    return jsonify(calculate(body.fairy_strength, pads, BOOK_VALUE, PUPIL, body.difficulty, GAME.tracks.last_year))
