"""The seven Jonathan Strange & Mr Norrell decks in one document, one deck after another on shared sheets,
each card with its own deck's back (duplex: every front sheet followed by its backs; otherwise all backs
after the fronts).

Invitations, introductions and spells are portrait cards (kept in hand); feats, named connexions, books and
cards of Marseilles are landscape cards (kept on the table), which lie sideways in the same slots: every
card is one card size's footprint, so a deck's last sheet is filled up with the next deck's first cards
(189 poker cards: 21 sheets, where a fresh sheet per deck took 24). Each sheet's caption names the decks
it holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from cardgen.catalog.jsmn import DECKS, JsmnContent
from cardgen.catalog.versions import card_version

from ..export_faces import CardFaces, DeckFaces
from ..imposition import ImpositionSettings, SheetInfo, impose, sheet_label
from ..labels import label as words
from ..layout import SheetLayout
from ..options import ResolvedOptions
from ..pdf import new_canvas
from ..print_specs import CardSize
from ..qr import card_url, qr_matrix
from ..registry import Progress
from .card_faces import CardFront
from .card_frame import DeckBack, landscape
from .style import style_for


class _DeckNames(Mapping[str, str]):
    """Each deck's name for sheet labels and the document's subject, in the active language
    (``[jsmn-deck]`` ``<kind>`` of the labels)."""

    def __getitem__(self, kind: str) -> str:
        if kind not in DECKS:
            raise KeyError(kind)
        return words("jsmn-deck", kind)

    def __iter__(self) -> Iterator[str]:
        return iter(DECKS)

    def __len__(self) -> int:
        return len(DECKS)


DECK_NAMES: Mapping[str, str] = _DeckNames()


def deck_size(resolved: ResolvedOptions, kind: str) -> CardSize:
    return landscape(resolved.card_size) if DECKS[kind][1] == "landscape" else resolved.card_size


def deck_layout(resolved: ResolvedOptions, size: CardSize) -> SheetLayout:
    return resolved.layout_for(size)


def card_fronts(content: JsmnContent, resolved: ResolvedOptions, kind: str) -> list[CardFront]:
    style = style_for(resolved.options.ink_saver)
    size = deck_size(resolved, kind)
    return [CardFront(card=card, content=content, style=style, size=size,
                      qr=qr_matrix(card_url(resolved.base_url, content.game, card.id, card_version(card))))
            for card in content.deck(kind)]


def deck_faces(content: JsmnContent, resolved: ResolvedOptions) -> list[DeckFaces]:
    """The seven decks as (front, back) pairs, for the print-shop export."""
    style = style_for(resolved.options.ink_saver)
    decks = []
    for kind in DECKS:
        back = DeckBack(kind, style, deck_size(resolved, kind))
        decks.append(DeckFaces(kind, [CardFaces(f.card.id, f, back, card_version(f.card)) for f in card_fronts(content, resolved, kind)]))
    return decks


def render_deck(content: JsmnContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    style = style_for(options.ink_saver)
    settings = ImpositionSettings.from_options(options)
    counts = ", ".join(f"{len(content.deck(kind))} {DECK_NAMES[kind]}" for kind in DECKS)
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=f"{content.title}: the seven decks ({resolved.card_size.name}, {resolved.paper.name})",
                        subject=f"{counts}; {'duplex backs' if options.duplex else 'backs after fronts'}")
    fronts: list[CardFront] = []
    backs: list[DeckBack] = []
    kinds: list[str] = []
    for kind in DECKS:
        deck = card_fronts(content, resolved, kind)
        back = DeckBack(kind, style, deck_size(resolved, kind))
        fronts += deck
        backs += [back] * len(deck)
        kinds += [kind] * len(deck)
    portrait = resolved.card_size if resolved.card_size.width <= resolved.card_size.height else \
        CardSize(resolved.card_size.name, resolved.card_size.height, resolved.card_size.width,
                 resolved.card_size.description)

    def label(info: SheetInfo) -> str:
        names = " + ".join(DECK_NAMES[k] for k in dict.fromkeys(kinds[info.first_card - 1:info.last_card]))
        return sheet_label(words("jsmn-deck", "sheet", decks=names))(info)

    impose(canvas, deck_layout(resolved, portrait), resolved.specs.sheet, fronts, backs, settings, label,
           on_card=progress)
    canvas.save()
