"""The nine Barony: Sorcery spell cards, each sheet followed by its backs (duplex) or all backs at the end."""

from __future__ import annotations

from pathlib import Path

from cardgen.catalog.barony_sorcery import BaronySorceryContent
from cardgen.catalog.versions import card_version

from ..export_faces import CardFaces, DeckFaces
from ..imposition import ImpositionSettings, impose, sheet_label
from ..labels import label as words
from ..options import ResolvedOptions
from ..pdf import new_canvas
from ..qr import card_url, qr_matrix
from ..registry import Progress
from .card_faces import SpellBack, SpellFront
from .style import style_for


def spell_fronts(content: BaronySorceryContent, resolved: ResolvedOptions) -> list[SpellFront]:
    style = style_for(resolved.options.ink_saver)
    return [SpellFront(card=card, content=content, style=style, size=resolved.card_size,
                       qr=qr_matrix(card_url(resolved.base_url, content.game, card.id, card_version(card))))
            for card in sorted(content.cards, key=lambda c: c.number)]


def deck_faces(content: BaronySorceryContent, resolved: ResolvedOptions) -> list[DeckFaces]:
    """The spell cards as (front, back) pairs, for the print-shop export."""
    back = SpellBack(style_for(resolved.options.ink_saver), resolved.card_size)
    return [DeckFaces("spells", [CardFaces(f.card.id, f, back, card_version(f.card)) for f in spell_fronts(content, resolved)])]


def render_deck(content: BaronySorceryContent, resolved: ResolvedOptions, path: Path, progress: Progress) -> None:
    options = resolved.options
    fronts = spell_fronts(content, resolved)
    layout = resolved.card_layout()
    canvas = new_canvas(path, resolved.paper.width, resolved.paper.height,
                        title=f"{content.title}: spell cards ({resolved.card_size.name}, {resolved.paper.name})",
                        subject=f"{len(fronts)} spell cards, {layout.per_sheet} per sheet, "
                                f"{'duplex backs' if options.duplex else 'backs after fronts'}")
    back = SpellBack(style_for(options.ink_saver), resolved.card_size)
    impose(canvas, layout, resolved.specs.sheet, fronts, [back] * len(fronts), ImpositionSettings.from_options(options),
           sheet_label(words("barony-sorcery-deck", "sheet")), on_card=progress)
    canvas.save()
