"""Magicians of Fillory's pages: card-by-card move forms on each seat, zones on the table."""

from __future__ import annotations

from typing import Any, Mapping

from companion.web import seat_forms
from companion.web.setup_checklist import SetupCard, SetupStep, rule_steps, with_cards

from . import GamePages


def seat_extras(context: Mapping[str, Any]) -> dict[str, Any]:
    forms = seat_forms.build(context["catalog"], context["view"], context["seat"], context["rules"].trait_points,
                             context["log"])
    return {"forms": forms}


def show_invite(context: Mapping[str, Any]) -> bool:
    return not all(context["info"]["claimed"]) or context["view"]["phase"] == "deal"


def setup_steps(catalog: Any, players: int) -> list[SetupStep]:
    """The rule book's setup, its 13 neutral cards each linked to its card page."""
    neutral = tuple(SetupCard("fillory", cid, catalog.card(cid).name) for cid in catalog.setup_neutral)
    return with_cards(rule_steps(catalog, players), "fillory.setup.neutral", neutral, "rulebook")


PAGES = GamePages(
    game="fillory",
    intro="Each player reports what they drew and played; the companion keeps every card and every point.",
    first_seat_label="Who goes first? (the most magical player)",
    table_template="pages/fillory/_table_live.html",
    seat_template="pages/fillory/_seat_live.html",
    seat_extras=seat_extras,
    show_invite=show_invite,
    setup_steps=setup_steps,
    playable=True,
)
