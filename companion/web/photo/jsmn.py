"""Jonathan Strange & Mr Norrell by photo: completed feats of magic, books of magic, the pupil and spells that
grant magicianship, filled into the end-of-game tally (prestige and the fairy asked beside the photo)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.rules.jsmn.game import BOOK_VALUE, GAME, PUPIL, Pad, calculate
from companion.web.photo import (Difference, Extra, Laid, PhotoRefused, PhotoScoring, Scored, SeatMove,
                                 front_audit)


def score(cards: Sequence[Laid], extras: Mapping[str, int]) -> Scored:
    seen: set[str] = set()
    feats, books, pupil, spell_magicianship = [], [], False, 0
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
                  ["Ties are broken by prestige, then by the disc on top of the stack."])


def audit(view: Mapping[str, Any], seat: int, found: Sequence[str], moves: Sequence[SeatMove]) -> list[Difference]:
    """Feats of magic (in progress or completed), books of magic and named connexions in front of the seat; the
    feats in front of the others are theirs to know, so they are never named as such."""
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
    return front_audit(front=front, found=found, where=places.get, name=lambda card: GAME.label(GAME.card(card)),
                       moves=moves, swappable=lambda move: False)


PHOTO = PhotoScoring(
    what="Lay out your completed feats of magic, your books of magic, your connexions and the spells you "
         "played that grant magicianship, codes up, and take one photo.",
    score=score,
    extras=(Extra("fairy_strength", "The fairy's strength now", "number", 0, GAME.tracks.fairy_length, 0,
                  "jsmn.end.total"),
            Extra("prestige", "Your prestige", "number", 0, GAME.tracks.prestige_length, 0, "jsmn.end.tie")),
    audit=audit, audit_what="your feats of magic, books of magic and named connexions")
