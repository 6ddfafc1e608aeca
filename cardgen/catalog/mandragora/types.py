"""Mandragora: the typed records of the card-data layer and the vocabularies they use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..base import DataNote, Provenance
from . import GAME_ID as GAME_ID  # the front's: its id is known without these records

CardKind = Literal["spell", "cursed_scroll", "mandrake", "spellbook", "ingredient"]
EffectKind = Literal["immediate", "permanent", "end_of_game"]
ShopTime = Literal["day", "night"]

ITEM_KINDS: tuple[str, ...] = ("cursed_scroll", "mandrake", "spellbook", "ingredient")
KIND_LABELS: dict[str, str] = {
    "spell": "Spell", "cursed_scroll": "Cursed scroll", "mandrake": "Mandrake", "spellbook": "Spellbook",
    "ingredient": "Ingredient",
}
#: The three kinds of spell effect, with the rulebook's icon for each.
EFFECT_KINDS: dict[str, str] = {"immediate": "Immediate", "permanent": "Permanent", "end_of_game": "End of game"}
EFFECT_ICONS: dict[str, str] = {"immediate": "lightning bolt", "permanent": "infinity", "end_of_game": "hourglass"}

#: What each spell does, for the rules module: the effect kind it must have and the fields a
#: player reports when it resolves.
EFFECTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "remove_scroll": ("immediate", ("scroll",)),                            # Banishment
    "give_scroll": ("immediate", ("scroll", "target_seat")),                # Transfer
    "swap_with_opponent": ("immediate", ("target_seat", "take", "give")),   # Substitution
    "take_from_shop": ("immediate", ("shop", "take")),                      # Levitation
    "extra_turn": ("immediate", ()),                                        # Replication
    "extra_move": ("permanent", ()),                                        # Swiftness
    "discard_colour": ("end_of_game", ("colour",)),                         # Disappearance
    "discard_hand": ("end_of_game", ()),                                    # Purification
}

#: Colour symbols the print kit draws (so colour is never the only cue), with a spoken name.
COLOUR_SYMBOLS: dict[str, str] = {
    "crystal": "crystal", "flame": "flame", "leaf": "leaf", "flower": "flower", "drop": "water drop",
    "pentagram": "pentagram",
}
WHITE = "white"  # the hand colour of mandrakes (content.mandrake_hand_colour is its printed name)


@dataclass(frozen=True)
class Colour:
    id: str
    name: str
    column: int          # the rulebook's colour-table column (6 = black)
    ingredients: int     # the table's ingredient count for the column
    spellbooks: int      # the table's spellbook count for the column
    symbol: str          # a key of COLOUR_SYMBOLS
    black_magic: bool = False
    provenance: Provenance = "rulebook"

    @property
    def symbol_name(self) -> str:
        return COLOUR_SYMBOLS.get(self.symbol, self.symbol)


@dataclass(frozen=True)
class Spell:
    """One of the eight spells; its ``count`` cards carry ``values`` (one per copy)."""

    id: str
    name: str
    count: int
    values: tuple[int, ...]
    kind: EffectKind
    effect: str          # a key of EFFECTS
    rule: str            # the rule entry that states the effect in full
    text: str            # the short card text
    provenance: Provenance = "rulebook"
    values_provenance: Provenance = "authored"

    @property
    def kind_label(self) -> str:
        return EFFECT_KINDS[self.kind]


@dataclass(frozen=True)
class Card:
    game: str
    id: str
    number: int
    name: str
    kind: CardKind
    colour: str | None       # colour id: spellbooks and ingredients only
    value: int | None        # spells 1..5, spellbooks 0..3
    curses: int              # cursed scrolls: 1..3, else 0
    spell: str | None        # spell id: spell cards only
    provenance: Provenance
    notes: tuple[DataNote, ...] = ()

    @property
    def deck(self) -> Literal["spells", "items"]:
        return "spells" if self.kind == "spell" else "items"

    @property
    def kind_label(self) -> str:
        return KIND_LABELS[self.kind]


@dataclass(frozen=True)
class ShopTile:
    id: str
    name: str
    time: ShopTime
    start: bool
    provenance: Provenance = "authored"

    @property
    def restock_face_up(self) -> bool:
        return self.time == "day"


@dataclass(frozen=True)
class Removal:
    """Item cards returned to the box for a smaller game: every card of ``colours``, plus ``cards``."""

    players: int
    colours: tuple[str, ...]
    colour_cards: int
    cards: tuple[str, ...]   # card ids
    provenance: Provenance = "authored"


@dataclass(frozen=True)
class ComponentCounts:
    """The rulebook's component list; the loader checks the cards against it."""

    cards: int
    spells: int
    items: int
    cursed_scrolls: int
    scrolls_by_curses: tuple[int, ...]   # index 0: one-curse scrolls
    mandrakes: int
    spellbooks: int
    ingredients: int
    shop_tiles: int
    day_shops: int
    night_shops: int


@dataclass(frozen=True)
class ExampleBreakdown:
    spells: tuple[int, ...]   # spellbook + spell, per spell
    spells_total: int
    curse: int                # negative
    colours: int              # negative
    total: int


@dataclass(frozen=True)
class ScoringExample:
    """The rulebook's final-scoring example as printed (pairs read spellbook + spell)."""

    pairs: tuple[tuple[int, int], ...]
    printed_pairs_total: int
    curse_marker: bool
    colours_in_hand: int
    colours_removed: int
    printed_total: int
    disappearance_pair: int   # 1-based
    total_note: str = ""
    provenance: Provenance = "rulebook"

    def breakdown(self, curse_penalty: int, colour_penalty: int) -> ExampleBreakdown:
        spells = tuple(book + spell for book, spell in self.pairs)
        curse = -curse_penalty if self.curse_marker else 0
        colours = -colour_penalty * max(0, self.colours_in_hand - self.colours_removed)
        return ExampleBreakdown(spells, sum(spells), curse, colours, sum(spells) + curse + colours)
