"""Magicians of Fillory: the typed records of the card-data layer (cards, traits, card tricks, abilities)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..base import DataNote, Provenance
from . import GAME_ID as GAME_ID  # the front's: its id is known without these records

if TYPE_CHECKING:
    from .content import FilloryContent


Action = Literal["summon", "banish"]
TargetKind = Literal["card", "trait"]

#: The card-trick effects the rules module knows how to apply. Data names one per trait and gives
#: its numbers; ``needs`` lists the move fields a player reports for it.
TRICK_KINDS: dict[str, tuple[str, ...]] = {
    "peek_deck": (),                   # look at the top N cards of the deck (nothing moves)
    "peek_hand": ("target_seat",),     # look at an opponent's hand (nothing moves)
    "to_neutral": ("target",),         # a card with <trait> in a control zone goes to the neutral zone
    "swap": ("targets",),              # two cards with <trait> in neutral/control zones swap places
    "search_deck": ("take",),          # look at the top N cards, take one into your hand
    "revive": ("target",),             # a card with <trait> in the discard goes to your control zone
    "extra_action": (),                # another action phase at once
    "draw_and_place": ("draw", "place"),  # draw one card, then put a hand card into your zone
    "gain_vp": (),                     # score N victory points
    "steal_random": ("target_seat", "take"),  # take a random card from an opponent's hand
    "draw_split": ("to_hand", "to_zone"),     # draw two: one to hand, one to control zone
    "from_discard": ("take", "to"),    # a random discard card to your hand or control zone
    "force_discard": ("target_seat", "take"),  # an opponent discards a random card from hand
}


@dataclass(frozen=True)
class TrickEffect:
    kind: str
    text: str
    count: int = 0        # peek_deck / search_deck: how many cards; gain_vp: points
    trait: str = ""       # to_neutral / swap / revive: the trait the moved card must have
    zones: tuple[str, ...] = ()  # where such a card may be: "neutral", "control"


@dataclass(frozen=True)
class Trait:
    name: str
    trick: TrickEffect | None
    scorable: bool = True
    provenance: Provenance = "rulebook"


@dataclass(frozen=True)
class AbilityOption:
    """One choice of a card's special ability: summon or banish a named card or any card of a trait."""

    action: Action
    kind: TargetKind
    target: str  # a card id or a trait name

    def label(self, content: FilloryContent) -> str:
        return content.card(self.target).name if self.kind == "card" else self.target


@dataclass(frozen=True)
class Card:
    game: str
    id: str
    number: int
    name: str
    traits: tuple[str, ...]
    ability: tuple[AbilityOption, ...]
    provenance: Provenance
    notes: tuple[DataNote, ...] = ()

    def has_trait(self, trait: str) -> bool:
        return trait in self.traits
