"""Magicians of Fillory's pages: move forms from the rules' choices on each seat, zones on the table.

The seat's forms are :func:`companion.rules.fillory.game.choices` rendered by the shared choice templates
(``templates/pages/_choices.html``); this module adds only the headline (what to do now, in words) and
the card page's Fillory facts (:mod:`companion.web.games.fillory_cards`).
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.web.setup_checklist import SetupCard, SetupStep, rule_steps, with_cards

from . import GamePages
from .fillory_cards import card_context


def headline(context: Mapping[str, Any], moves: set[str]) -> str:
    """What this seat should do now, in one sentence (the moves come from the rules' choices)."""
    view, seat, catalog = context["view"], context["seat"], context["catalog"]
    names = {p["seat"]: p["name"] for p in view["players"]}
    me = view["players"][seat]
    turn = view["turn"]
    if view["over"]:
        return f"The game is over: {names.get(view['winner'], 'nobody')} won."
    if view["phase"] == "deal":
        missing = catalog.starting_hand - me["hand_count"]
        if missing > 0:
            return f"Report your starting hand: draw {missing} more card{'s' * (missing != 1)}."
        waiting = [f"{p['name']} ({p['hand_count']}/{catalog.starting_hand})" for p in view["players"]
                   if p["hand_count"] < catalog.starting_hand]
        return "Your starting hand is complete. Waiting for " + ", ".join(waiting) + "."
    loss = turn.get("loss")
    if loss and loss["seat"] == seat:  # the game waits on this phone now, on another's turn
        return f"{names.get(turn['seat'], '?')}'s {loss['trait']} trick took a card from your hand: say which one below."
    if turn["seat"] != seat:
        return f"{names.get(turn['seat'], '?')}'s turn ({turn['step']} step). Your turn comes later."
    step = turn["step"]
    if step == "draw":
        empty = "" if view["deck_count"] else " The deck is empty: shuffle the discard pile to make a new one."
        return "Your turn: draw a card and report which one." + empty
    if step == "ability":
        return "Resolve your card's ability, or decline it."
    if step == "action":
        if turn.get("extra_action"):
            return "Extra action from Time: play another card, or score or end."
        if "play" not in moves:
            return "Your hand is empty: score a trait or end your turn."
        return "Play a card from your hand into your zone."
    return {"trick": "Optional: discard a card for its trick, then score, then end your turn.",
            "score": "Optional: score one trait, then end your turn.",
            "end": "End your turn (discard down to the hand limit if needed)."}.get(step, "Your turn.")


def seat_extras(context: Mapping[str, Any]) -> dict[str, Any]:
    """The card whose ability waits to be resolved, in words (shown under the headline)."""
    view, catalog = context["view"], context["catalog"]
    pending = ""
    if view["pending"] and view["turn"]["seat"] == context["seat"]:
        card = catalog.card(view["pending"]["card"])
        pending = f"{card.name}: {catalog.ability_text(card)}"
    return {"pending": pending}


def show_invite(context: Mapping[str, Any]) -> bool:
    return not all(context["info"]["claimed"]) or context["view"]["phase"] == "deal"


def setup_steps(catalog: Any, players: int) -> list[SetupStep]:
    """The rule book's setup, its 13 neutral cards each linked to its card page."""
    neutral = tuple(SetupCard("fillory", cid, catalog.card(cid).name) for cid in catalog.setup_neutral)
    return with_cards(rule_steps(catalog, players), "fillory.setup.neutral", neutral, "rulebook")


PAGES = GamePages(
    intro="Each player reports what they drew and played; the companion keeps every card and every point.",
    first_seat_label="Who goes first? (the most magical player)",
    table_template="pages/fillory/_table_live.html",
    seat_template="pages/fillory/_seat_live.html",
    headline=headline,
    compact_lists=True,  # long card lists sent once per page as data
    seat_extras=seat_extras,
    show_invite=show_invite,
    setup_steps=setup_steps,
    card_context=card_context,
    form_prefix="",
)
