"""Jonathan Strange & Mr Norrell: the typed records of the card-data layer (elements, boards, tracks, the
component list, the example turn and the seven kinds of card) and the vocabularies they use.
:mod:`cardgen.catalog.jsmn` re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..base import DataNote, Provenance
from . import GAME_ID as GAME_ID  # the front's: its id is known without these records

ELEMENT_IDS: tuple[str, ...] = ("birds", "hills", "rain", "stones", "trees", "wind")
CONNEXION_TYPE_IDS: tuple[str, ...] = ("advisor", "man-of-business", "confidant", "street-magician", "pupil",
                                       "coachman")
CardKind = Literal["invitation", "introduction", "feat", "spell", "connexion", "book", "marseilles"]
#: The seven decks in card-number order, with a label for people and whether the card is kept in hand
#: (portrait) or on the table (landscape), as the rulebook sorts them.
DECKS: dict[str, tuple[str, str]] = {
    "invitation": ("Invitation", "portrait"), "introduction": ("Introduction", "portrait"),
    "feat": ("Feat of magic", "landscape"), "spell": ("Spell", "portrait"),
    "connexion": ("Named connexion", "landscape"), "book": ("Book of magic", "landscape"),
    "marseilles": ("Card of Marseilles", "landscape"),
}
SPELL_TIMINGS: dict[str, str] = {"your-turn": "on your turn", "any-time": "at any time, even on another player's turn"}
#: What a spell does, as a key the rules module acts on.
SPELL_EFFECTS: tuple[str, ...] = (
    "introduction_anywhere", "place_listed_element", "magicianship", "move_anywhere", "long_move", "extra_move",
    "extra_engagement", "draw_invitations", "draw_introductions", "take_feat", "reuse_book", "refresh_books",
    "uncover_action", "place_any_element", "study_any", "prestige", "hold_back", "look_ahead", "swap_engagement")
NAMED_EFFECTS: tuple[str, ...] = ("move_anywhere", "place_any_element", "draw_invitations", "take_book",
                                  "draw_introductions", "draw_spell")
UNIQUE_EFFECTS: tuple[str, ...] = ("books_twice", "extra_element", "borrow_connexion", "extra_engagement")
#: The rulebook's three forms of book, as sentences with {element} for the book's element.
BOOK_FORMS: dict[str, str] = {
    "double": "Discard a {element} card to place two {element} tokens.",
    "any": "Discard a {element} card to place one token of any element.",
    "convert": "Discard a card of any element to place one {element} token.",
}
PERSON_KINDS: tuple[str, ...] = ("historical", "period type", "fictional")


@dataclass(frozen=True)
class Element:
    id: str
    name: str
    symbol: str                 # a drawing of the print kit, e.g. "standing-stone"
    provenance: Provenance
    name_one: str = ""          # the name after the number 1 ("1 bird"); empty: ``name`` ("1 rain")

    def counted_name(self, count: int) -> str:
        """The element's name after ``count``: ``name_one`` for 1, else ``name`` (2 birds, 1 bird)."""
        return self.name_one or self.name if count == 1 else self.name

    @property
    def symbol_name(self) -> str:
        return self.symbol.replace("-", " ")


@dataclass(frozen=True)
class Action:
    """A standard action of every magician board; a study action makes ``study`` available this turn."""

    id: str
    name: str
    text: str
    study: tuple[str, ...]
    provenance: Provenance


@dataclass(frozen=True)
class ConnexionType:
    id: str
    name: str
    text: str
    magicianship: int           # the pupil's 3, else 0
    provenance: Provenance


@dataclass(frozen=True)
class Magician:
    id: str
    name: str
    unique_action: str
    unique_text: str
    unique_effect: str          # a key of UNIQUE_EFFECTS
    colour: str
    symbol: str
    provenance: Provenance
    unique_provenance: Provenance


@dataclass(frozen=True)
class Limits:
    hand_limit: int
    max_moves: int
    max_engagements: int
    invitation_takes: int
    start_invitations: int
    start_introductions: int
    start_feats: int
    available_books: int
    available_feats: int
    available_named_connexions: int
    spell_discard_prestige: int


@dataclass(frozen=True)
class MagicianshipValues:
    feat_values: tuple[int, ...]
    book: int
    pupil: int
    spell: int


@dataclass(frozen=True)
class Contents:
    """The rulebook's component list; the loader checks the decks and tokens against it."""

    invitations: int
    introductions: int
    feats: int
    spells: int
    named_connexions: int
    books: int
    marseilles: int
    decks: int
    magician_pieces: int
    discs: int
    discs_per_colour: int
    action_discs: int
    prestige_discs: int
    connexion_discs: int
    fairy_discs: int
    year_tokens: int
    magician_boards: int
    element_tokens: int
    tokens_per_element: int

    def deck_size(self, kind: str) -> int:
        return {"invitation": self.invitations, "introduction": self.introductions, "feat": self.feats,
                "spell": self.spells, "connexion": self.named_connexions, "book": self.books,
                "marseilles": self.marseilles}[kind]


@dataclass(frozen=True)
class Tracks:
    first_year: int
    last_year: int
    raven_years: tuple[int, ...]
    fairy_start: int
    fairy_advanced: tuple[int, ...]
    fairy_length: int
    prestige_start: int
    connexion_spaces: tuple[int, ...]
    prestige_length: int
    spaces_provenance: Provenance

    @property
    def years(self) -> tuple[int, ...]:
        return tuple(range(self.first_year, self.last_year + 1))

    @property
    def difficulties(self) -> tuple[int, ...]:
        return (self.fairy_start, *self.fairy_advanced)

    def connexions_passed(self, before: int, after: int) -> int:
        """How many connexion spaces a disc moving from ``before`` to ``after`` lands on or passes."""
        return sum(1 for space in self.connexion_spaces if before < space <= after)


@dataclass(frozen=True)
class ExampleTurn:
    """The rulebook's example turn (John Segundus, 1811), as printed; the loader checks our data fits it."""

    magician: str
    year: int
    start: str
    invitation: str
    introduction: str
    destination: str
    via: str
    steps: int
    prestige_gained: int
    feats_magicianship: int
    books: int
    pupil: bool
    total: int
    fairy: int
    invitations_drawn: int
    element_available: str
    element_unavailable: str


@dataclass(frozen=True, kw_only=True)
class Card:
    game: str
    id: str
    number: int
    name: str
    kind: CardKind
    provenance: Provenance
    notes: tuple[DataNote, ...] = ()

    @property
    def kind_label(self) -> str:
        return DECKS[self.kind][0]


@dataclass(frozen=True, kw_only=True)
class Invitation(Card):
    element: str
    location: str
    london: bool


@dataclass(frozen=True, kw_only=True)
class Introduction(Card):
    element: str
    prestige: int
    location: str
    person: str                 # a key of PERSON_KINDS

    @property
    def value(self) -> int:
        return self.prestige


@dataclass(frozen=True, kw_only=True)
class Feat(Card):
    magicianship: int
    requires: tuple[tuple[str, int], ...]   # (element, tokens), in element order

    @property
    def value(self) -> int:
        return self.magicianship

    @property
    def tokens(self) -> int:
        return sum(count for _, count in self.requires)


@dataclass(frozen=True, kw_only=True)
class Spell(Card):
    effect: str                 # a key of SPELL_EFFECTS
    timing: str                 # a key of SPELL_TIMINGS
    text: str
    elements: tuple[str, ...]   # Daedalus's Rose: the element types it may place
    magicianship: int           # 1 for a spell that grants magicianship when played, else 0
    discard_prestige: int


@dataclass(frozen=True, kw_only=True)
class NamedConnexion(Card):
    connexion_type: str
    effect: str                 # a key of NAMED_EFFECTS
    text: str


@dataclass(frozen=True, kw_only=True)
class Book(Card):
    author: str
    form: str                   # a key of BOOK_FORMS
    element: str

    @property
    def text(self) -> str:
        return BOOK_FORMS[self.form].format(element=self.element)


@dataclass(frozen=True, kw_only=True)
class MarseillesCard(Card):
    english: str
    strength: int
    invitations: int
    elements: tuple[str, ...]


AnyCard = Invitation | Introduction | Feat | Spell | NamedConnexion | Book | MarseillesCard
