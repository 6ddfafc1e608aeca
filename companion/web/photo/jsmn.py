"""Jonathan Strange & Mr Norrell by photo: completed feats of magic, books of magic, the pupil and spells that
grant magicianship, filled into the end-of-game tally (prestige and the fairy asked beside the photo)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.rules.jsmn.game import BOOK_VALUE, GAME, PUPIL, Pad, calculate
from companion.web.photo import (
    Difference,
    Extra,
    Fixed,
    Laid,
    PhotoRefused,
    PhotoScoring,
    Placed,
    Scored,
    SeatMove,
    front_audit,
    swapped,
)


def score(cards: Sequence[Laid], extras: Mapping[str, int]) -> Scored:
    seen: set[str] = set()
    feats, books, pupil, spell_magicianship = [], [], False, 0
    idle: list[str] = []  # cards in the photo that count no magicianship at the end
    for laid in cards:
        card = laid.card
        if card.id in seen:
            raise PhotoRefused(f"{GAME.label(card)} is listed twice; there is one copy of each card")
        seen.add(card.id)
        if card.kind == "feat":
            feats.append(card)
        elif card.kind == "book":
            books.append(card)
        elif getattr(card, "connexion_type", None) == "pupil":
            pupil = True
        elif card.kind == "spell":
            spell_magicianship += getattr(card, "magicianship", 0)
        else:
            idle.append(str(GAME.label(card)))
    pupil = pupil or bool(extras.get("pupil", 0))  # (a pupil taken on the prestige track is a disc: asked)
    fairy = int(extras.get("fairy_strength", 0))
    pad = Pad("You", tuple(feat.magicianship for feat in feats), len(books), pupil, spell_magicianship,
              int(extras.get("prestige", 0)), 0)
    answer = calculate(fairy, [pad], BOOK_VALUE, PUPIL, 0, GAME.tracks.last_year)
    player = answer["players"][0]  # type: ignore[index]
    total = int(player["magicianship"])
    reaches = "reaches" if player["reaches_fairy"] else "does not reach"
    breakdown = list(player["breakdown"])
    if feats:
        breakdown[0] = {**breakdown[0], "cause": "Completed feats of magic: " + ", ".join(
            f"{feat.name} {feat.magicianship}" for feat in feats)}
    if books:
        index = 1 if feats else 0
        breakdown[index] = {**breakdown[index], "cause": f"Books of magic ({', '.join(b.name for b in books)}): "
                                                          f"{len(books)} × {BOOK_VALUE}"}
    request = {"name": "You", "feats": [feat.magicianship for feat in feats], "books": len(books), "pupil": pupil,
               "spell_magicianship": spell_magicianship, "prestige": pad.prestige, "stack": 0}
    return Scored("/api/calc/jsmn", request, total,
                  f"Magicianship {total}: {reaches} the fairy's strength of {fairy}", breakdown,
                  [*(["Read but not scored (no magicianship at the end: only completed feats, books of magic, the "
                      "pupil and magicianship spells count): " + ", ".join(idle) + "."] if idle else []),
                   "Ties are broken by prestige, then by the disc on top of the stack."])


def _label(card: str) -> str:
    return str(GAME.label(GAME.card(card)))


def _names(move: Mapping[str, Any], card: str) -> bool:
    """Whether a move names ``card`` as a feat or a book it works on."""
    feats = move.get("feats")
    return move.get("feat") == card or move.get("book") == card or (isinstance(feats, list) and card in feats)


def _renamed(move: Mapping[str, Any], card: str, other: str) -> dict[str, Any]:
    """The move with ``other`` wherever it names ``card`` (a feat, a feat among several, a book)."""
    out = dict(move)
    for key in ("feat", "book"):
        if out.get(key) == card:
            out[key] = other
    if isinstance(out.get("feats"), list):
        out["feats"] = [other if feat == card else feat for feat in out["feats"]]
    return out


def _takes(move: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(card, its kind) for each card the move put in front of the seat."""
    kind = move.get("type")
    if kind in ("starting_feats", "engage") and isinstance(move.get("feats"), list):
        return [(str(feat), "feat") for feat in move["feats"]]
    if kind == "choose_action" and move.get("action") == "acquire-book" and isinstance(move.get("book"), str):
        return [(move["book"], "book")]
    if kind == "connexion" and isinstance(move.get("named"), str):
        taken = [(move["named"], "connexion")]
        return taken + ([(move["book"], "book")] if isinstance(move.get("book"), str) else [])
    return []


WHAT = {"feat": "feat of magic", "book": "book of magic", "connexion": "named connexion"}


def _placement(made: SeatMove, card: str, kind: str, later: Sequence[SeatMove]) -> Placed:
    field = {"feat": "feats", "book": "book", "connexion": "named"}[kind]
    using = [after for after in later if _names(after.move, card)]

    def swap(other: str) -> Fixed | None:
        if GAME.card(other).kind != kind:
            return None
        value = made.move[field]
        move = {**made.move, field: [other if v == card else v for v in value] if isinstance(value, list) else other}
        return swapped(made.seq, move, f"Move {made.seq} took {_label(other)}, not {_label(card)}",
                       [{"seq": after.seq, "move": _renamed(after.move, card, other)} for after in using])

    def remove() -> Fixed:
        if made.move.get("type") != "engage":
            return None, (f"Move {made.seq} took {_label(card)} as part of a move that must name a "
                          f"{WHAT[kind]}, so removing it alone cannot fix this: correct it on the corrections page")
        if using:
            return None, (f"Your later move {using[0].seq} works on {_label(card)}, so removing it from move "
                          f"{made.seq} alone cannot fix this: correct both on the corrections page")
        return swapped(made.seq, {**made.move, "feats": [f for f in made.move["feats"] if f != card]},
                       f"Move {made.seq} did not take {_label(card)}")

    return Placed(card, made.seq, swap, remove)


def _placed(moves: Sequence[SeatMove]) -> list[Placed]:
    return [_placement(made, card, kind, moves[index + 1:])
            for index, made in enumerate(moves) for card, kind in _takes(made.move)]


def audit(view: Mapping[str, Any], seat: int, found: Sequence[str], moves: Sequence[SeatMove]) -> list[Difference]:
    """Feats of magic (in progress or completed), books of magic and named connexions in front of the seat; the
    feats in front of the others are theirs to know, so they are never named as such. A mis-tapped feat, book
    or named connexion is fixed by the seat's own move that took it (with its later moves that name it)."""
    places: dict[str, str] = {}
    for book in view.get("book_row") or ():
        places[book["id"]] = "among the books of magic on offer"
    for named in view.get("named_row") or ():
        places[named["id"]] = "among the named connexions on offer"
    front: list[str] = []
    for player in view["players"]:
        here = "in front of you" if player["seat"] == seat else f"in front of {player['name']}"
        for card in (*player["books"], *player["named"]):
            places[card] = here
        if player["seat"] == seat and player.get("ledger"):
            ledger = player["ledger"]
            feats = [feat["id"] for feat in (*ledger.get("feats", ()), *ledger.get("completed", ()))]
            for feat in feats:
                places[feat] = here
            front = [*feats, *player["books"], *player["named"]]
    return front_audit(front=front, found=found, where=places.get, name=_label, placed=_placed(moves))


PHOTO = PhotoScoring(
    what="Lay out your completed feats of magic, your books of magic, your connexions and the spells you "
         "played that grant magicianship, codes up, and take one photo.",
    score=score,
    extras=(Extra("fairy_strength", "The fairy's strength now", "number", 0, GAME.tracks.fairy_length, 0,
                  "jsmn.end.total"),
            Extra("prestige", "Your prestige", "number", 0, GAME.tracks.prestige_length, 0, "jsmn.end.tie"),
            # a pupil taken on the prestige track is a disc on the board, which no photo shows (the Levy card does)
            Extra("pupil", "I have a pupil (a disc on my board's pupil space)", "flag", 0, 1, 0,
                  "jsmn.connexion.pupil")),
    audit=audit, audit_what="your feats of magic, books of magic and named connexions")
