"""``POST /api/calc/mandragora``: final scores from a score pad — totals, breakdowns, teams, the winner.

The scoring itself is :func:`companion.rules.mandragora.game.final_scores` (the rules' front: the same function the
rules module scores a tracked game with); this module only checks that the pad could come from one
game of Mandragora and turns the result into JSON. Shape problems (a missing field, a value out of
range, a wrong type) answer 400; a pad the rules rule out (two Curse marker holders, a colour that
is not in a game of this size, teams that are not two pairs of four sorcerers) answers 422.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Sequence

from flask import Response, jsonify
from pydantic import Field

from cardgen.catalog import content
from cardgen.catalog.mandragora import WHITE, MandragoraContent
from companion.rules.base import as_read
from companion.rules.mandragora.game import (
    DecidedBy,
    PlayerTally,
    Result,
    final_scores,
    settled_by,
)
from companion.web.api_helpers import ApiError, api_blueprint, parse_body
from companion.web.openapi import RequestBody, errors, json_body, request_body

bp = api_blueprint("calc_mandragora", __name__)

GAME: MandragoraContent = content("mandragora")
LOW_SPELL, HIGH_SPELL = GAME.spell_values
LOW_BOOK, HIGH_BOOK = GAME.spellbook_values
#: The colours a hand can show at the end: the six card colours, and white for mandrakes.
HAND_COLOURS: tuple[str, ...] = (*(colour.id for colour in GAME.colours), WHITE)
MAX_DISAPPEARANCE = GAME.spell("disappearance").count
MAX_PURIFICATION = GAME.spell("purification").count


def deciding_rule(teams: bool, decided_by: DecidedBy) -> str:
    """The rule entry behind the verdict, as a tracked game's end names it: the most points (solo or team), else
    the rule that settled the tie (the spells tie-break, or a shared win or team tie: our reading)."""
    settled = settled_by(teams, decided_by)
    if settled is not None:
        return settled
    return "mandragora.team.score" if teams else "mandragora.score.winner"


class SpellScored(RequestBody):
    spell_value: int = Field(ge=LOW_SPELL, le=HIGH_SPELL, description="the value printed on the spell card")
    book_value: int = Field(ge=LOW_BOOK, le=HIGH_BOOK, description="the spellbook's value (a mandrake counts 0)")


class SorcererPad(RequestBody):
    name: str = Field(min_length=1, max_length=40)
    spells: list[SpellScored] = Field(default_factory=list, max_length=GAME.components.spells,
                                      description="one entry per spell cast")
    hand_colours: list[str] = Field(
        default_factory=list, max_length=len(HAND_COLOURS),
        json_schema_extra={"items": {"type": "string", "enum": list(HAND_COLOURS)}},
        description="the different colours left in hand at the end, before end-of-game spells "
                    "(mandrakes are white)")
    disappearance: int = Field(default=0, ge=0, le=MAX_DISAPPEARANCE,
                               description="Disappearance spells among this sorcerer's spells")
    purification: bool = Field(default=False, description="cast the Purification spell")
    curse_marker: bool = Field(default=False, description="holds the Curse marker at the end")


#: One team: two sorcerers, by their index in ``players``.
Pair = Annotated[list[Annotated[int, Field(ge=0, le=GAME.max_players - 1)]], Field(min_length=2, max_length=2)]


class MandragoraScoreRequest(RequestBody):
    players: list[SorcererPad] = Field(min_length=GAME.min_players, max_length=GAME.max_players,
                                       description="the sorcerers in seat order")
    teams: list[Pair] | None = Field(
        default=None, min_length=2, max_length=2,
        description="team variant (4 sorcerers): the two pairs of partners, e.g. [[0, 2], [1, 3]]")


#: The nested models too: the OpenAPI document lists each under components/schemas, where the request's
#: references point.
REQUEST_MODELS = (MandragoraScoreRequest, SorcererPad, SpellScored)

_BREAKDOWN = {"type": "array", "items": {"type": "object", "properties": {
    "cause": {"type": "string"}, "points": {"type": "integer"}}}}
_RESULT = {"type": "object", "properties": {
    "players": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "total": {"type": "integer"}, "spells_cast": {"type": "integer"},
        "breakdown": _BREAKDOWN}}},
    "teams": {"type": ["array", "null"], "items": {"type": "object", "properties": {
        "members": {"type": "array", "items": {"type": "integer"}}, "names": {"type": "array", "items": {
            "type": "string"}}, "total": {"type": "integer"}, "spells_cast": {"type": "integer"}}}},
    "winners": {"type": "array", "items": {"type": "integer"},
                "description": "player indexes, or team indexes in the team game"},
    "winner_names": {"type": "array", "items": {"type": "string"}},
    "decided_by": {"enum": ["score", "spells cast", "shared"]},
    "rule": {"type": "string", "description": "the rule that decided the winner"},
    "verdict": {"type": "string", "description": "who won and why, as a sentence"}}}

OPENAPI_PATHS: dict[str, Any] = {
    "/api/calc/mandragora": {"post": {
        "summary": "Final scores from a Mandragora score pad: totals with breakdowns, team totals, the winner",
        "requestBody": request_body(MandragoraScoreRequest),
        "responses": {"200": json_body(_RESULT, "every total with its breakdown and the winner"),
                      **errors(400, 422)}}},
}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def colour_cards(players: int) -> Counter[str]:
    """Cards of each hand colour in a game of ``players`` sorcerers (no blue with two; one black card, the
    black spellbook): at most this many hands can show the colour at the end."""
    removed = set(GAME.removed_for(players))
    return Counter(colour for card in GAME.items if card not in removed and (colour := GAME.hand_colour(card)))


def colours_in_play(players: int) -> frozenset[str]:
    """The hand colours some card still has in a game of ``players`` sorcerers (no blue with two)."""
    return frozenset(colour_cards(players))


def _check_pad(body: MandragoraScoreRequest) -> None:
    """Refuse (422) a pad no game of Mandragora could end with; the shape is already checked."""
    players = len(body.players)
    present = colours_in_play(players)
    for pad in body.players:
        name = pad.name.strip()
        if not name:
            raise ApiError(422, "every sorcerer needs a name that is not only spaces")
        for colour in pad.hand_colours:
            if colour not in HAND_COLOURS:
                raise ApiError(422, f"Sorcerer {name}: there is no colour '{colour}' in {GAME.title}; hand colours are "
                                    f"{', '.join(HAND_COLOURS)} (white for mandrakes)")
            if colour not in present:
                raise ApiError(422, f"Sorcerer {name}: no {colour} card is played with {players} sorcerers",
                               rule="mandragora.setup.players")
        twice = [colour for colour, count in Counter(pad.hand_colours).items() if count > 1]
        if twice:
            raise ApiError(422, f"Sorcerer {name}: {twice[0]} is listed twice; list each colour left in hand once")
        end_spells = pad.disappearance + pad.purification
        if end_spells > len(pad.spells):
            raise ApiError(422, f"Sorcerer {name} cast {_plural(len(pad.spells), 'spell')} but is scored for "
                                f"{_plural(end_spells, 'end-of-game spell')} (Disappearance, Purification)",
                           rule="mandragora.effect.kinds")
    cards = colour_cards(players)
    for colour, shown in sorted(Counter(c for pad in body.players for c in set(pad.hand_colours)).items()):
        if shown > cards[colour]:
            named = [pad.name.strip() for pad in body.players if colour in pad.hand_colours]
            names = f"{', '.join(named[:-1])} and {named[-1]} {'both' if len(named) == 2 else 'all'}"
            raise ApiError(422, f"{names} show {colour} in hand, but a game of {players} sorcerers has only "
                                f"{_plural(cards[colour], colour + ' card')}", rule="mandragora.end.colour-count")
    if sum(len(pad.spells) for pad in body.players) > GAME.components.spells:
        raise ApiError(422, f"the sorcerers cast more than the {GAME.components.spells} spell cards of the game",
                       rule="mandragora.components")
    if sum(pad.disappearance for pad in body.players) > MAX_DISAPPEARANCE:
        raise ApiError(422, f"there are only {MAX_DISAPPEARANCE} Disappearance spells in the game",
                       rule="mandragora.effect.disappearance")
    if sum(pad.purification for pad in body.players) > MAX_PURIFICATION:
        raise ApiError(422, f"there is only {MAX_PURIFICATION} Purification spell in the game",
                       rule="mandragora.effect.purification")
    holders = [pad.name.strip() for pad in body.players if pad.curse_marker]
    if len(holders) > 1:
        raise ApiError(422, f"only one sorcerer can hold the Curse marker, not {' and '.join(holders)}",
                       rule="mandragora.curse.most")
    if body.teams is not None:
        if players != GAME.team_players:
            raise ApiError(422, f"the team variant is for {GAME.team_players} sorcerers, not {players}",
                           rule="mandragora.team.seating")
        seats = sorted(seat for team in body.teams for seat in team)
        if seats != list(range(players)):
            raise ApiError(422, "the teams must be two pairs that together name each sorcerer 0 to "
                                f"{players - 1} once, e.g. [[0, 2], [1, 3]]", rule="mandragora.team.seating")


def _team_name(names: Sequence[str], members: Sequence[int]) -> str:
    return " & ".join(names[seat] for seat in members)


def verdict(result: Result, names: Sequence[str]) -> tuple[list[str], str]:
    """The winners' names and one sentence saying who won and what decided it."""
    if result.teams is not None:
        sides = [(_team_name(names, t.members), t.total, t.spells_cast) for t in result.teams]
    else:
        sides = [(p.name, p.total, p.spells_cast) for p in result.players]
    winners = [sides[index] for index in result.winners]
    winner_names = [name for name, _, _ in winners]
    # in the sentence a team is "team Ann & Cy" (one side, so it "wins"), as the game's own result says, and a
    # sentence that starts with one starts with a capital (a player's name stays as it was typed)
    teams = result.teams is not None
    said = (lambda name: f"team {name}") if teams else (lambda name: name)
    capital = (lambda text: text[:1].upper() + text[1:]) if teams else (lambda text: text)
    decided: DecidedBy = result.decided_by
    best = max(total for _, total, _ in sides)
    points = _plural(best, "point")
    if decided == "score":
        return winner_names, capital(f"{said(winner_names[0])} wins with {points}")
    tied = [said(name) for name, total, _ in sides if total == best]
    if decided == "spells cast":
        beaten = max(spells for _, total, spells in sides if total == best and spells < winners[0][2])
        return winner_names, capital(f"{' and '.join(tied)} tie on {points}; {said(winner_names[0])} cast more "
                                     f"spells ({winners[0][2]} to {beaten}) and wins")
    return winner_names, capital(f"{' and '.join(map(said, winner_names))} share the win: {points} and "
                                 f"{_plural(winners[0][2], 'spell')} cast each")


@bp.post("/calc/mandragora")
def mandragora_calculator() -> Response:
    body = parse_body(MandragoraScoreRequest)
    _check_pad(body)
    tallies = [PlayerTally(name=pad.name.strip(), spells=tuple((s.spell_value, s.book_value) for s in pad.spells),
                           hand_colours=len(pad.hand_colours), disappearance=pad.disappearance,
                           purification=pad.purification, curse_marker=pad.curse_marker) for pad in body.players]
    result = final_scores(tallies, body.teams)
    names = [tally.name for tally in tallies]
    answer = result.to_json()
    if answer["teams"] is not None:
        for team in answer["teams"]:
            team["names"] = [names[seat] for seat in team["members"]]
    winner_names, sentence = verdict(result, names)
    rule = deciding_rule(result.teams is not None, result.decided_by)
    answer.update(winner_names=winner_names, rule=rule, verdict=as_read(sentence, GAME.rule(rule)))
    return jsonify(answer)
