"""Mandragora by photo: the spells cast (each with the spellbook or mandrake beside it), the colours left
in hand (spellbooks, ingredients and mandrakes not under a spell) and the cursed scrolls, filled into the
score pad; a seat's spells and scrolls audited against the photo."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardgen.catalog import content
from companion.rules.mandragora.game import (
    ALL_EFFECT_FIELDS,
    EFFECT_FIELDS,
    PlayerTally,
    final_scores,
)
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
    Unseen,
    front_audit,
    nearest_pairs,
    swapped,
)

GAME = content("mandragora")


#: what a spell may lie on: every spellbook, or a mandrake (worth 0 as a spellbook)
UNDER_CHOICES: tuple[tuple[str, str], ...] = (
    *((card.id, GAME.label(card)) for card in GAME.cards if card.kind == "spellbook"),
    (next(card.id for card in GAME.cards if card.kind == "mandrake"), "A mandrake (counts 0)"))


def score(cards: Sequence[Laid], extras: Mapping[str, int]) -> Scored:
    # a spellbook named as the one under a spell that the photo also shows (laid beside it, too far to be paired)
    # is that one card: it is the spell's, not one of the hand (each card of the game is one copy)
    named = {laid.under.id for laid in cards if laid.under is not None}
    cards = [laid for laid in cards
             if not (laid.under is None and laid.card.id in named and laid.card.kind in ("spellbook", "mandrake"))]
    seen: set[str] = set()
    for laid in cards:
        for card in (laid.card, laid.under):
            if card is None:
                continue
            if card.id in seen:
                raise PhotoRefused(f"{GAME.label(card)} is listed twice; each card of the game is one copy")
            seen.add(card.id)
        if laid.under is not None and (laid.card.kind != "spell" or laid.under.kind not in ("spellbook", "mandrake")):
            raise PhotoRefused(f"only a spellbook or a mandrake lies under a spell, not {GAME.label(laid.under)} "
                               f"under {GAME.label(laid.card)}", "mandragora.cast.prepare")
    told = [laid for laid in cards if laid.card.kind == "spell" and laid.under is not None]
    spells = [laid for laid in cards if laid.card.kind == "spell" and laid.under is None]
    books = [laid for laid in cards if laid.card.kind in ("spellbook", "mandrake")]
    scrolls = [laid.card for laid in cards if laid.card.kind == "cursed_scroll"]
    pairs = nearest_pairs(spells, books, reach=PAIR_REACH)
    lonely = [spell.card for spell, book in pairs if book is None]
    if lonely:
        # a spell is cast on its spellbook, which then lies face down under it: the photo cannot see which
        asks = [Unseen(spell.id, f"Which spellbook is under {GAME.label(spell)}?", UNDER_CHOICES) for spell in lonely]
        names = ", ".join(GAME.label(spell) for spell in lonely)
        return Scored("/api/calc/mandragora", {}, None,
                      f"The photo cannot see the spellbook under {names}: it lies face down. Say which below "
                      "(a mandrake counts 0), or lay it overlapping its spell, both codes showing, and take the photo again.", [],
                      [], asks)
    used = {id(book) for _, book in pairs}
    hand = [laid.card for laid in cards if laid.card.kind in ("spellbook", "mandrake", "ingredient")
            and id(laid) not in used]
    colours = list(dict.fromkeys(colour for card in hand if (colour := GAME.hand_colour(card))))
    cast = [(spell.card, book.card) for spell, book in pairs if book is not None]
    cast += [(laid.card, laid.under) for laid in told]
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


def _face(card: str) -> tuple[Any, ...]:
    """Identical copies look the same: a spell by its spell and value, a cursed scroll by its curses."""
    found = GAME.card(card)
    return (found.kind, found.spell, found.value, found.curses)


def _label(card: str) -> str:
    return str(GAME.label(GAME.card(card)))


def _curses(ref: Any) -> int | None:
    """A seek's scroll as its curses (the move may name the scroll or only its curses)."""
    if isinstance(ref, int) and not isinstance(ref, bool):
        return ref
    card = GAME.find_card(ref) if isinstance(ref, str) else None
    return card.curses if card is not None and card.kind == "cursed_scroll" else None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _cast_placed(made: SeatMove, spell: str) -> Placed:
    move = made.move
    label = _label(spell)

    def swap(other: str) -> Fixed | None:
        card = GAME.card(other)
        if card.kind != "spell":
            return None
        ingredients = move.get("ingredients")
        held = len(ingredients) if isinstance(ingredients, list) else 0
        if card.value > held:
            return None, (f"{GAME.label(card)} has power {card.value} and move {made.seq} used "
                          f"{_plural(held, 'ingredient')}: correct the ingredients too, on the corrections page")
        needs = [name for name in EFFECT_FIELDS.get(str(card.spell), ()) if move.get(name) is None]
        if needs and card.spell in ("transfer", "levitation", "substitution", "banishment"):
            asked = {"scroll": "which cursed scroll", "to": "who received it", "from": "whose hand",
                     "shop": "which shop"}
            return None, (f"{GAME.label(card)}'s effect needs {' and '.join(asked[n] for n in needs)}, which "
                          f"move {made.seq} does not say: correct it on the corrections page, which asks")
        kept = {key: value for key, value in move.items()
                if key not in ALL_EFFECT_FIELDS or key in EFFECT_FIELDS.get(str(card.spell), ())}
        return swapped(made.seq, {**kept, "spell": card.id, "power": card.value},
                       f"Move {made.seq} cast {GAME.label(card)}, not {label}")

    def remove() -> Fixed:
        if made.last:
            return {"seq": made.seq, "move": None}, f"You never cast {label}: take back move {made.seq}"
        return None, (f"Casting {label} (move {made.seq}) ended your turn and the game went on from it, so "
                      "taking it back alone cannot fix this: correct it on the corrections page")

    return Placed(spell, made.seq, swap, remove)


def _seek_placed(made: SeatMove, index: int, curses: int, scroll: str) -> Placed:
    refs = list(made.move["scrolls"])

    def swap(other: str) -> Fixed | None:
        card = GAME.card(other)
        if card.kind != "cursed_scroll":
            return None
        return swapped(made.seq, {**made.move, "scrolls": refs[:index] + [card.id] + refs[index + 1:]},
                       f"Move {made.seq} took a cursed scroll with {_plural(card.curses, 'curse')}, not {curses}")

    def remove() -> Fixed:
        return swapped(made.seq, {**made.move, "scrolls": refs[:index] + refs[index + 1:]},
                       f"Move {made.seq} took no cursed scroll with {_plural(curses, 'curse')}")

    return Placed(scroll, made.seq, swap, remove)


def _placed(mine: Mapping[str, Any], moves: Sequence[SeatMove]) -> list[Placed]:
    """The spells the seat's own casts put in front of it (its n-th cast is its n-th spell: spells stay where
    they are cast) and the cursed scrolls its seeks took (a scroll is any of its identical copies)."""
    casts = [made for made in moves if made.move.get("type") == "cast"]
    spells = [row["spell"] for row in mine["spells"]]
    out = [_cast_placed(made, spell) for made, spell in zip(casts, spells, strict=True)] if len(casts) == len(spells) else []
    for made in moves:
        refs = made.move.get("scrolls") if made.move.get("type") == "seek" else None
        for index, ref in enumerate(refs if isinstance(refs, list) else ()):
            curses = _curses(ref)
            for scroll in mine["scrolls"]:
                if curses is not None and GAME.card(scroll).curses == curses:
                    out.append(_seek_placed(made, index, curses, scroll))
    return out


def audit(view: Mapping[str, Any], seat: int, found: Sequence[str], moves: Sequence[SeatMove]) -> list[Difference]:
    places: dict[str, str] = {}
    for stack in view["spell_stacks"]:
        for card in stack["cards"]:
            places[card] = f"still in the stack of power {stack['value']}"
    mine: Mapping[str, Any] = {"spells": [], "scrolls": []}
    for player in view["players"]:
        here = "in front of you" if player["seat"] == seat else f"in front of {player['name']}"
        for spell in player["spells"]:
            places[spell["spell"]] = here
            if spell.get("book") and spell["book"] != "mandrake":
                places[spell["book"]] = f"under a spell {here}"
        for scroll in player["scrolls"]:
            places[scroll] = here
        if player["seat"] == seat:
            mine = player
    front = [spell["spell"] for spell in mine["spells"]] + list(mine["scrolls"])
    # spellbooks under a spell are face down and the cards in hand are secret: spells and scrolls are compared
    shown = [card for card in found if GAME.card(card).kind in ("spell", "cursed_scroll")]
    return front_audit(front=front, found=shown, where=places.get, name=_label, placed=_placed(mine, moves),
                       face=_face)


def known_under(view: Mapping[str, Any], seat: int) -> dict[str, str]:
    """The spellbook (or mandrake) under each spell this seat cast, as its own reported casts say, for every copy of
    that spell card (identical copies look the same in a photo); only this seat's own spells are read."""
    mine = next((player for player in view["players"] if player["seat"] == seat), None)
    mandrake = UNDER_CHOICES[-1][0]
    rows = [(row["spell"], mandrake if row["book"] == "mandrake" else row["book"])
            for row in (mine or {}).get("spells", ()) if isinstance(row.get("book"), str)]
    known = dict(rows)  # each spell card as cast first; then a copy the seat did not cast, as its twin's
    for spell, under in rows:
        for card in GAME.cards:
            if card.kind == "spell" and card.id not in known and _face(card.id) == _face(spell):
                known[card.id] = under
    return known


#: how near (in code sides) a spellbook's code must lie to a spell's to be read as the one it was cast with: the
#: two cards overlapping, both codes showing (about 2 sides apart); cards laid side by side are about 4 sides
#: apart, so a spellbook of the hand laid in a row beside a spell is never taken for the one under it (it was,
#: within 6 sides: a wrong score, silently)
PAIR_REACH = 2.5

PHOTO = PhotoScoring(
    what="Lay each spell overlapping the spellbook it was cast with, both codes showing (a spellbook left face "
         "down under its spell is asked for after the photo); lay the cards left in your hand and your cursed "
         "scrolls apart, side by side; codes up, and take one photo.",
    score=score,
    extras=(Extra("curse_marker", "I hold the Curse marker", "flag", 0, 1, 0, "mandragora.curse.most"),),
    audit=audit, audit_what="your spells and cursed scrolls", under="the spellbook under it",
    known_under=known_under)
