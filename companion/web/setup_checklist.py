"""The setup checklist a table sees when a game starts: what to lay out for this game and player count.

Each step is a sentence with the rule it comes from and where the fact comes from (``rulebook`` or
``authored``, as the data marks it). By default a game's steps are its rule entries tagged ``setup``, in
the rule book's order; a game's :class:`~companion.web.games.GamePages` may add to them for its player
count (``setup_steps``), e.g. the cards a smaller game returns to the box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Provenance = Literal["rulebook", "authored"]


@dataclass(frozen=True)
class SetupCard:
    """A card a step names, linked to its card page."""

    game: str
    id: str
    label: str


@dataclass(frozen=True)
class SetupStep:
    title: str
    text: str
    rule: str | None = None
    provenance: Provenance = "rulebook"
    cards: tuple[SetupCard, ...] = ()
    #: where the card list's facts come from, when not from the step's own provenance
    cards_provenance: Provenance | None = None


def rule_steps(catalog: Any, players: int) -> list[SetupStep]:
    """The game's rule entries tagged ``setup``, one step each (the player count changes none of them)."""
    return [SetupStep(title=_capital(rule.title.removeprefix("Setup: ")), text=rule.text, rule=rule.id,
                      provenance=rule.provenance)
            for rule in catalog.rules if "setup" in rule.tags]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def with_cards(steps: list[SetupStep], rule: str, cards: tuple[SetupCard, ...],
               provenance: Provenance | None = None, text: str | None = None,
               title: str | None = None) -> list[SetupStep]:
    """``steps`` with the cards (and, if given, new text or title) added to the step of ``rule``."""
    return [SetupStep(title=title or s.title, text=text if text is not None else s.text, rule=s.rule,
                      provenance=s.provenance, cards=cards, cards_provenance=provenance)
            if s.rule == rule else s for s in steps]
