"""Mandragora by photo: the spells cast (each with the spellbook or mandrake beside it), the colours left
in hand (spellbooks, ingredients and mandrakes not under a spell) and the cursed scrolls, filled into the
score pad; a seat's spells and scrolls audited against the photo."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardgen.catalog import content
from companion.rules.mandragora.game import PlayerTally, final_scores
from companion.web.photo import (Difference, Extra, Laid, PhotoRefused, PhotoScoring, Scored, SeatMove, front_audit,
                                 nearest_pairs)

GAME = content("mandragora")


def score(cards: Sequence[Laid], extras: Mapping[str, int]) -> Scored:
    seen: set[str] = set()
    for laid in cards:
        if laid.card.id in seen:
            raise PhotoRefused(f"{GAME.label(laid.card)} is listed twice; each card of the game is one copy")
        seen.add(laid.card.id)
    spells = [laid for laid in cards if laid.card.kind == "spell"]
    books = [laid for laid in cards if laid.card.kind in ("spellbook", "mandrake")]
    scrolls = [laid.card for laid in cards if laid.card.kind == "cursed_scroll"]
    pairs = nearest_pairs(spells, books)
    lonely = [GAME.label(spell.card) for spell, book in pairs if book is None]
    if lonely:
        raise PhotoRefused(f"{lonely[0]} has no spellbook beside it: add the spellbook it was cast with by hand "
                           "(a mandrake counts 0)", "mandragora.cast.prepare")
    used = {id(book) for _, book in pairs}
    hand = [laid.card for laid in cards if laid.card.kind in ("spellbook", "mandrake", "ingredient")
            and id(laid) not in used]
    colours = list(dict.fromkeys(colour for card in hand if (colour := GAME.hand_colour(card))))
    cast = [(spell.card, book.card) for spell, book in pairs if book is not None]
    values = tuple((spell.value, book.value if book.kind == "spellbook" else 0) for spell, book in cast)
    labels = tuple(f"{GAME.label(spell)} + {GAME.label(book)}" for spell, book in cast)
    disappearance = sum(1 for spell, _ in cast if spell.spell == "disappearance")
    purification = any(spell.spell == "purification" for spell, _ in cast)
    marker = bool(extras.get("curse_marker", 0))
    tally = PlayerTally(name="You", spells=values, hand_colours=len(colours), disappearance=disappearance,
                        purification=purification, curse_marker=marker, spell_labels=labels,
                        colour_names=tuple(colours))
    result = final_scores([tally]).players[0]
    curses = sum(card.curses for card in scrolls)
    notes = [f"Cursed scrolls: {curses} curse{'s' if curses != 1 else ''}. Whoever has the most curses holds the "
             "Curse marker (−2)."] if scrolls else []
    request = {"name": "You", "spells": [{"spell_value": s, "book_value": b} for s, b in values],
               "hand_colours": colours, "disappearance": disappearance, "purification": purification,
               "curse_marker": marker}
    return Scored("/api/calc/mandragora", request, result.total,
                  f"{result.total} points from {len(cast)} spell{'s' if len(cast) != 1 else ''} cast",
                  [{"cause": cause, "points": points} for cause, points in result.breakdown], notes)


def audit(view: Mapping[str, Any], seat: int, found: Sequence[str], moves: Sequence[SeatMove]) -> list[Difference]:
    places: dict[str, str] = {}
    front: list[str] = []
    for player in view["players"]:
        here = "in front of you" if player["seat"] == seat else f"in front of {player['name']}"
        for spell in player["spells"]:
            places[spell["spell"]] = here
            if spell.get("book"):
                places[spell["book"]] = f"under a spell {here}"
        for scroll in player["scrolls"]:
            places[scroll] = here
        if player["seat"] == seat:
            front = [spell["spell"] for spell in player["spells"]] + list(player["scrolls"])
        if player["seat"] == seat:
            for card in player.get("hand") or ():
                places[card] = "in your hand"
    # spellbooks under a spell and the cards in hand are not what the audit compares: spells and scrolls are
    shown = [card for card in found if GAME.card(card).kind in ("spell", "cursed_scroll")]
    return front_audit(front=front, found=shown, where=places.get, name=lambda card: GAME.label(GAME.card(card)),
                       moves=moves, swappable=lambda move: False)


PHOTO = PhotoScoring(
    what="Lay out your spells, each on or beside the spellbook it was cast with, the cards left in your hand and "
         "your cursed scrolls, codes up, and take one photo.",
    score=score,
    extras=(Extra("curse_marker", "I hold the Curse marker", "flag", 0, 1, 0, "mandragora.curse.most"),),
    audit=audit, audit_what="your spells and cursed scrolls")
