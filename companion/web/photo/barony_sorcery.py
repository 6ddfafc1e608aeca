"""Barony: Sorcery by photo: the spells shown checked as one cast (its cost and whether the rules allow it),
and the final total from the base game's points and the Control tokens asked beside the photo."""

from __future__ import annotations

from typing import Mapping, Sequence

from companion.rules.barony_sorcery.game import (
    GAME,
    MAX_BASE_POINTS,
    check_cast,
    final_totals,
)
from companion.web.photo import Extra, Laid, PhotoRefused, PhotoScoring, Scored


def score(cards: Sequence[Laid], extras: Mapping[str, int]) -> Scored:
    spells = [laid.card for laid in cards]
    ids = [spell.id for spell in spells]
    if len(set(ids)) != len(ids):
        twice = next(spell for spell in spells if ids.count(spell.id) > 1)
        raise PhotoRefused(f"{twice.name} is listed twice; there is one card of each spell")
    base, controls = int(extras.get("base_points", 0)), int(extras.get("control_tokens", 0))
    totals = final_totals([("You", base, controls)])
    player = totals["players"][0]
    notes = []
    if spells:
        cast = check_cast(ids, None, None).to_json()
        names = " + ".join(spell.name for spell in spells)
        notes.append(f"Cast together, {names} cost {cast['cost']} Magic" if cast["legal"]
                     else f"{names} cannot be cast in one action: {cast['reason']}")
    return Scored("/api/calc/barony-sorcery", {"players": [{"name": "You", "base_points": base,
                                                            "control_tokens": controls}]},
                  int(player["total"]), f"{player['total']} points", list(player["breakdown"]), notes)


PHOTO = PhotoScoring(
    what="Lay out the spell cards you want to cast (or have in front of you), codes up, and take one photo.",
    score=score,
    extras=(Extra("base_points", "Your points from the base game", "number", 0, MAX_BASE_POINTS, 0,
                  "barony-sorcery.score.base"),
            Extra("control_tokens", "Your Control tokens on Mysterious locations", "number", 0,
                  GAME.control_tokens_per_player, 0, "barony-sorcery.score.control")))
