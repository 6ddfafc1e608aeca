"""Magicians of Fillory: "what can I do now?" — advice for a seat, random legal moves.

``random_legal_move`` drives property tests and load benchmarks: every move it returns is legal
(the tests apply each one), and its choices come only from the ``random.Random`` it is given.
"""

from __future__ import annotations

import random
from typing import Any

from cardgen.catalog.fillory import AbilityOption

from .scoring import seat_trait_points
from .state import CARDS, CARDS_WITH, GAME, Board, FilloryState

TRICK_CHANCE = 0.4      # how often a random player uses a card trick when one is possible
SCORE_CHANCE = 0.85     # how often a random player scores when a trait would score
GREEDY_CHANCE = 0.6     # how often that score is the best one rather than any one

#: Per card id, its traits that have a card trick.
TRICK_TRAITS: dict[str, tuple[str, ...]] = {
    card.id: tuple(t for t in card.traits if GAME.trait(t).trick is not None) for card in CARDS}


def acting_seats(state: FilloryState) -> list[int]:
    """The seats that may move now: dealing seats short of a hand, else the active seat."""
    if state.phase == "deal":
        return [s for s in range(len(state.players)) if state.count_at(f"hand:{s}") < GAME.starting_hand]
    if state.phase == "play" and state.loss is not None:
        return [state.loss[0]]  # a Religion or Threat trick waits for its victim to say which card it took
    if state.phase == "play" and state.turn_seat is not None and not stalled(state):
        return [state.turn_seat]
    return []  # (the end, or a dead end: nobody moves)


def ability_targets(state: FilloryState, seat: int, option: AbilityOption) -> list[str]:
    """Cards the waiting ability's ``option`` could pick now (summon: anywhere but my zone)."""
    named = (option.target,) if option.kind == "card" else CARDS_WITH[option.target]
    mine = f"zone:{seat}"
    if option.action == "summon":
        return [c for c in named if state.where(c) != mine]
    return [c for c in named
            if (place := state.where(c)) == "neutral" or (place.startswith("zone:") and place != mine)]


# --- advice --------------------------------------------------------------------------------------

def _entry(kind: str, text: str, move: dict[str, Any], points: int = 0, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "text": text, "move": move, "points": points, **extra}


def _score_advice(state: FilloryState, seat: int) -> list[dict[str, Any]]:
    return [_entry("score", f"Score {t['trait']}: {t['cards']} card{'s' * (t['cards'] != 1)} for {t['points']} VP.",
                   {"type": "score", "trait": t["trait"]}, t["points"], trait=t["trait"], cards=t["cards"])
            for t in seat_trait_points(state, seat)]


def _end_advice(state: FilloryState, seat: int) -> dict[str, Any]:
    held = len(state.cards_at(f"hand:{seat}"))
    excess = held - GAME.hand_limit
    text = (f"End your turn: discard {excess} of your {held} cards first (hand limit {GAME.hand_limit})."
            if excess > 0 else "End your turn.")
    return _entry("end_turn", text, {"type": "end_turn", "discard": []}, discard_at_least=max(excess, 0))


def advice(state: FilloryState, seat: int) -> list[dict[str, Any]]:
    """What ``seat`` could do now, best first: ``{"type", "text", "move", "points", ...}`` per choice.

    Score entries also carry ``trait`` and ``cards``; ability entries carry their possible ``targets``.
    """
    if seat not in acting_seats(state):
        return []
    if state.phase == "play" and state.loss is not None:
        thief = state.players[state.turn_seat or 0]
        return [_entry("lose_card", f"Say which card {thief}'s {state.loss[1]} trick took from your hand (picked "
                       "at random).", {"type": "lose_card"})]
    if state.phase == "deal":
        left = GAME.starting_hand - len(state.cards_at(f"hand:{seat}"))
        return [_entry("draw", f"Draw your starting hand: {left} more card{'s' * (left != 1)} from the deck.",
                       {"type": "draw"})]
    hand = state.cards_at(f"hand:{seat}")
    if state.step == "draw":
        note = "" if state.cards_at("deck") else " The deck is empty, so shuffle the discard pile into a new deck first."
        return [_entry("draw", "Draw the top card of the deck and report which card it is." + note, {"type": "draw"})]
    if state.step == "ability" and state.pending is not None:
        found = []
        for option in GAME.card(state.pending).ability:
            targets = ability_targets(state, seat, option)
            if targets:
                found.append(_entry(option.action, f"{option.action.title()} {option.label(GAME)}.",
                                    {"type": option.action}, targets=targets))
        return found + [_entry("decline", "Decline the ability.", {"type": "decline"})]
    found = []
    if state.step == "action":
        found += [_entry("play", f"Play {GAME.card(c).name}: {GAME.ability_text(GAME.card(c))}.",
                         {"type": "play", "card": c}) for c in hand]
        if hand:
            return found
    if state.step == "trick":
        for c in hand:
            for trait in (GAME.trait(t) for t in GAME.card(c).traits):
                if trait.trick is not None:
                    found.append(_entry("trick", f"Discard {GAME.card(c).name} for the {trait.name} trick: "
                                        f"{trait.trick.text}", {"type": "trick", "card": c, "trait": trait.name}))
    if state.step != "end":
        found += _score_advice(state, seat)
    return found + [_end_advice(state, seat)]


# --- random legal moves --------------------------------------------------------------------------

def random_legal_move(state: FilloryState, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """A legal move for ``seat`` chosen with ``rng``, or None when the seat may not move now."""
    if seat not in acting_seats(state):
        return None
    if state.phase == "play" and state.loss is not None:
        return {"type": "lose_card", "card": rng.choice(state.cards_at(f"hand:{seat}"))}
    if state.phase == "deal" or state.step == "draw":
        return {"type": "draw", "card": rng.choice(state.cards_at("deck") or state.cards_at("discard"))}
    if state.step == "ability":
        return _random_ability(state, seat, rng)
    hand = state.cards_at(f"hand:{seat}")
    if state.step == "action" and hand:
        return {"type": "play", "card": rng.choice(hand)}
    if state.step == "trick" and hand and rng.random() < TRICK_CHANCE:
        move = _random_trick(state, seat, hand, rng)
        if move is not None:
            return move
    if state.step != "end" and rng.random() < SCORE_CHANCE:
        options = seat_trait_points(state, seat)
        if options:
            pick = options[0] if rng.random() < GREEDY_CHANCE else rng.choice(options)
            return {"type": "score", "trait": pick["trait"]}
    excess = max(0, len(hand) - GAME.hand_limit)  # exactly the excess (fillory.end.hand-limit)
    return {"type": "end_turn", "discard": rng.sample(hand, excess)}


def _random_ability(state: FilloryState, seat: int, rng: random.Random) -> dict[str, Any]:
    assert state.pending is not None
    choices = [(opt.action, target) for opt in GAME.card(state.pending).ability
               for target in ability_targets(state, seat, opt)]
    if not choices or rng.random() < 0.05:
        return {"type": "decline"}
    action, target = rng.choice(choices)
    if action == "summon":
        return {"type": "summon", "card": target, "to": rng.choice(("hand", "zone"))}
    return {"type": "banish", "card": target}


def _random_trick(state: FilloryState, seat: int, hand: list[str], rng: random.Random) -> dict[str, Any] | None:
    options = [(c, t) for c in hand for t in TRICK_TRAITS[c]]
    rng.shuffle(options)
    for card, trait_name in options[:3]:
        board = Board(state)
        board.move(card, "discard")
        fields = _trick_fields(board, seat, trait_name, rng)
        if fields is not None:
            return {"type": "trick", "card": card, "trait": trait_name, **fields}
    return None


def _opponent(board: Board, seat: int, rng: random.Random) -> int:
    return rng.choice([s for s in range(len(board.players)) if s != seat])


def _trick_fields(board: Board, seat: int, trait_name: str, rng: random.Random) -> dict[str, Any] | None:
    """Effect fields for a trick, on a board where the trick card is already discarded (None: impossible)."""
    effect = GAME.trait(trait_name).trick
    assert effect is not None
    kind = effect.kind
    if kind in ("peek_deck", "extra_action", "gain_vp"):
        return {}
    if kind == "peek_hand":
        return {"target_seat": _opponent(board, seat, rng)}
    if kind in ("to_neutral", "swap", "revive"):
        def fits(place: str) -> bool:
            return (("neutral" in effect.zones and place == "neutral")
                    or ("control" in effect.zones and place.startswith("zone:"))
                    or ("discard" in effect.zones and place == "discard"))
        found = [c for c in CARDS_WITH.get(effect.trait, ()) if fits(board.where(c))]
        if kind != "swap":
            return {"target": rng.choice(found)} if found else None
        pairs = [(a, b) for a in found for b in found if a < b and board.where(a) != board.where(b)]
        return {"targets": list(rng.choice(pairs))} if pairs else None
    if kind == "search_deck":
        pool = board.cards_at("deck") or board.cards_at("discard")
        return {"take": rng.choice(pool)} if pool else {}
    if kind == "draw_and_place":
        pool = board.cards_at("deck") or board.cards_at("discard")
        drawn = rng.choice(pool) if pool else None
        hand = board.cards_at(f"hand:{seat}") + ([drawn] if drawn else [])
        fields: dict[str, Any] = {"draw": drawn} if drawn else {}
        return {**fields, "place": rng.choice(hand)} if hand else fields
    if kind in ("steal_random", "force_discard"):
        return {"target_seat": _opponent(board, seat, rng)}  # the victim's phone then says which card
    if kind == "draw_split":
        deck = board.cards_at("deck")
        if len(deck) >= 2:
            pair = rng.sample(deck, 2)
        else:
            discard = board.cards_at("discard")
            pair = deck + rng.sample(discard, min(2 - len(deck), len(discard)))
            rng.shuffle(pair)
        return dict(zip(("to_hand", "to_zone"), pair, strict=False))
    if kind == "from_discard":
        return {"take": rng.choice(board.cards_at("discard")), "to": rng.choice(("hand", "zone"))}
    raise AssertionError(f"unknown trick kind {kind}")


def stalled(state: FilloryState) -> bool:
    """True when the game can never change again: no card left to draw or play, nothing left to score.

    The rulebook has no rule for it, but it happens: every turn puts a card into a control zone, and
    once the deck, the discard pile and every hand are empty and every seat has scored all it can,
    nobody can reach the goal. The companion reports it instead of cycling turns forever.
    """
    if state.phase != "play" or "deck" in state.locations or "discard" in state.locations:
        return False
    if state.pending is not None or state.step == "ability":
        return False  # the last card played has its ability waiting: a summon or banish moves a card again
    seats = range(len(state.players))
    return all(not state.count_at(f"hand:{s}") and not seat_trait_points(state, s) for s in seats)
