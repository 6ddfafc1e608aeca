"""Magicians of Fillory by photo: the cards in a control zone and what each trait would score; a seat's
control zone audited against the photo (a mis-tapped play or summon corrected in one tap)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from cardgen.catalog import content
from companion.rules.fillory.game import trait_points
from companion.web.photo import (
    Difference,
    Laid,
    PhotoRefused,
    PhotoScoring,
    Placed,
    Scored,
    SeatMove,
    front_audit,
    swapped,
)

GAME = content("fillory")


def score(cards: Sequence[Laid], extras: Mapping[str, int]) -> Scored:
    twice = [card_id for card_id, count in Counter(laid.card.id for laid in cards).items() if count > 1]
    if twice:
        raise PhotoRefused(f"{GAME.card(twice[0]).name} is listed twice; there is one copy of each card")
    zone = [laid.card.id for laid in cards]
    traits = trait_points(zone, [])
    breakdown = []
    for entry in traits:
        having = [GAME.card(card).name for card in zone if entry["trait"] in GAME.card(card).traits]
        breakdown.append({"cause": f"{entry['trait']} ×{entry['cards']} ({', '.join(having)})",
                          "points": entry["points"], "rule": "fillory.score.square"})
    if traits:
        best = traits[0]
        headline = (f"Scoring {best['trait']} now gives {best['points']} points "
                    f"({best['cards']} card{'s' if best['cards'] != 1 else ''} × {best['cards']})")
    else:
        headline = "No trait to score with these cards"
    return Scored("/api/calc/fillory", {"zone": zone, "scored": []}, traits[0]["points"] if traits else 0,
                  headline, breakdown, ["Each trait scores once a game: the square of your control-zone cards "
                                        "that have it."])


def _where(view: Mapping[str, Any], seat: int) -> dict[str, str]:
    places: dict[str, str] = {}
    for player in view["players"]:
        for card in player["zone"]:
            places[card] = "in front of you" if player["seat"] == seat else f"in front of {player['name']}"
        if player["seat"] == seat:
            for card in player["hand"] or ():
                places[card] = "in your hand"
    for card in view["neutral"]:
        places[card] = "in the neutral zone"
    for card in view["discard"]:
        places[card] = "in the discard pile"
    return places


def _name(card: str) -> str:
    return str(GAME.card(card).name)


def _placed(moves: Sequence[SeatMove]) -> list[Placed]:
    """The cards the seat's own plays and summons put in its control zone."""
    out = []
    for made in moves:
        move = made.move
        card = move.get("card")
        if not isinstance(card, str) or not (move.get("type") == "play" or
                                             (move.get("type") == "summon" and move.get("to") == "zone")):
            continue
        verb = "played" if move.get("type") == "play" else "summoned"

        def swap(other: str, made: SeatMove = made, card: str = card) -> tuple[dict[str, Any] | None, str]:
            return swapped(made.seq, {**made.move, "card": other}, f"Move {made.seq} was {_name(other)}, not "
                                                                    f"{_name(card)}")

        def remove(made: SeatMove = made, card: str = card, verb: str = verb) -> tuple[dict[str, Any] | None, str]:
            return {"seq": made.seq, "move": None}, f"You never {verb} {_name(card)}: take back move {made.seq}"

        out.append(Placed(GAME.card(card).id, made.seq, swap, remove))
    return out


def audit(view: Mapping[str, Any], seat: int, found: Sequence[str], moves: Sequence[SeatMove]) -> list[Difference]:
    places = _where(view, seat)
    mine = next(player for player in view["players"] if player["seat"] == seat)
    return front_audit(front=mine["zone"], found=found, where=places.get, name=_name, placed=_placed(moves))


PHOTO = PhotoScoring(
    what="Lay the cards of your control zone side by side, codes up, and take one photo.",
    score=score, audit=audit, audit_what="the cards of your control zone")
