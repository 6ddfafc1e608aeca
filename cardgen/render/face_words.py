"""The print labels a card's faces draw, as drawn: what a card's content version includes of the labels.

A card's version (:func:`cardgen.catalog.versions.card_version`) must change when a word its face or
back prints changes, and only then: a label another kind of card prints (the plural of a feat's
elements, say) must not mark every card of the game "changed since your print". So the version does
not digest the label files; it digests the words the card's own faces read from them, with their
placeholders filled in, as they are drawn: :func:`printed_words` draws the card's front and back (its
game's ``deck_faces``) on a scratch canvas while recording every label read
(:func:`~cardgen.render.labels.recording_labels`), in the default language of the content's data folder.

Faces lay out by their size's profile (a mini card leaves optional lines off, a tarot card keeps more),
so the card is drawn at one size of each profile (:data:`PROFILE_SIZES`) and the words of all three are
kept. The QR code of a face drawn here is a placeholder (its real one carries the version being made).
"""

from __future__ import annotations

import dataclasses
import io
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from cardgen.catalog import DataError
from cardgen.catalog.base import DEFAULT_DATA_DIR, Problem
from cardgen.catalog.versions import unversioned

from .labels import DEFAULT_LANG, labels_root, load_labels, recording_labels
from .options import DEFAULT_BASE_URL, BuildOptions, ResolvedOptions
from .print_specs import CardSize, print_specs
from .qr import QrMatrix, deferred_codes, encode

#: One card size of each face profile (standard, tall, compact): the sizes a card's words are read at.
#: Fixed here, not read from card-sizes.toml, so that adding a size there changes no card's version.
PROFILE_SIZES = (CardSize("poker", 63.0, 88.0), CardSize("tarot", 70.0, 120.0), CardSize("mini", 44.0, 63.0))

_FACES = "_face_words_faces"


def _unpainted(self: Any, *args: Any, **kwargs: Any) -> None:
    return None


_PAINTING = ("setFillColor", "setStrokeColor", "setFillColorRGB", "setStrokeColorRGB", "setFillColorCMYK",
             "setStrokeColorCMYK", "setFillAlpha", "setStrokeAlpha", "setLineWidth", "setDash", "setLineCap",
             "setLineJoin", "rect", "roundRect", "circle", "ellipse", "wedge", "line", "lines", "grid", "bezier",
             "arc", "drawPath", "clipPath", "drawString", "drawRightString", "drawCentredString", "drawText",
             "drawImage", "drawInlineImage")


class _UnpaintedText(PDFTextObject):
    """A text object that lays its lines out but writes nothing (see :class:`ScratchCanvas`)."""

    def _formatText(self, text: str) -> str:
        return ""


class ScratchCanvas(Canvas):
    """A canvas whose painting operators do nothing: a face drawn on it decides what to print (text fitted,
    lines kept or left off) as on a page, at a quarter of the cost. Only read, never saved."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO())

    def beginText(self, x: float = 0, y: float = 0, direction: Any = None) -> PDFTextObject:
        return _UnpaintedText(self, x, y, direction=direction)


for _name in _PAINTING:
    setattr(ScratchCanvas, _name, _unpainted)
    if _name.startswith("set"):
        setattr(_UnpaintedText, _name, _unpainted)


@lru_cache(maxsize=1)
def _placeholder_code() -> QrMatrix:
    return encode("v")


def _scratch(face: Any) -> Any:
    """``face`` with a placeholder QR code (its real code would carry the version being made; encoding it, or
    storing it in a build's code cache, would be waste)."""
    if dataclasses.is_dataclass(face) and not isinstance(face, type) and any(f.name == "qr" for f in dataclasses.fields(face)):
        return dataclasses.replace(face, qr=_placeholder_code())
    return face


def _faces(content: Any, root: Path) -> dict[str, list[tuple[Any, Any]]] | None:
    """card id -> its (front, back) at each profile size, made once per content; None: no deck faces."""
    found = content.__dict__.get(_FACES)
    if found is not None:
        return found  # type: ignore[no-any-return]
    from .registry import print_kits

    kit = print_kits().get(getattr(content, "game", ""))
    if kit is None or kit.deck_faces is None:
        return None
    try:
        specs = print_specs(root)
    except DataError:
        specs = print_specs(DEFAULT_DATA_DIR)
    paper = next(iter(specs.papers.values()))
    found = {}
    with unversioned(), deferred_codes():
        for size in PROFILE_SIZES:
            resolved = ResolvedOptions(BuildOptions(card_size=size.name), specs, paper, size, DEFAULT_BASE_URL)
            for deck in kit.deck_faces(content, resolved):
                for card in deck.cards:
                    found.setdefault(card.card_id, []).append((_scratch(card.front), _scratch(card.back)))
    try:
        object.__setattr__(content, _FACES, found)
    except (AttributeError, TypeError):  # pragma: no cover - a content with slots: made again next time
        pass
    return found


def printed_words(content: Any, card: Any) -> list[str] | None:
    """The label words ``card``'s front and back draw in the default language, sorted; None when its game has
    no deck faces (or its labels cannot be read: the build then says why), so the version falls back to
    every label of the game."""
    root = Path(content.__dict__.get("_data_root") or DEFAULT_DATA_DIR)
    try:
        table = load_labels(labels_root(root), DEFAULT_LANG)
    except DataError:
        return None
    faces = _faces(content, root)
    if faces is None or card.id not in faces:
        return None
    canvas = ScratchCanvas()
    with recording_labels(table) as words:
        for front, back in faces[card.id]:
            for face in (front, back):
                canvas.saveState()
                try:
                    face.draw(canvas, 0.0)
                except DataError:  # a text that does not fit at this size: the build refuses it, saying where
                    pass           # (the card's data is in its version all the same)
                canvas.restoreState()
    return sorted(words)


def fit_problems(content: Any, specs: Any, root: Path | None = None) -> list[Problem]:
    """Every card text of ``content`` that cannot be set on its face at some card size of ``specs``, as the
    face refuses it while drawing (file, record, field: :func:`~cardgen.render.drawable_text.unfitted`), once per
    field; ``cardgen check`` lists them, as a build at that size would refuse them."""
    from .registry import print_kits

    kit = print_kits().get(getattr(content, "game", ""))
    if kit is None or kit.deck_faces is None:
        return []
    root = Path(root if root is not None else content.__dict__.get("_data_root") or DEFAULT_DATA_DIR)
    table = load_labels(labels_root(root), DEFAULT_LANG)
    paper = next(iter(specs.papers.values()))
    found: dict[tuple[str, str, str], Problem] = {}
    canvas = ScratchCanvas()
    with unversioned(), deferred_codes(), recording_labels(table):
        for size in specs.card_sizes.values():
            resolved = ResolvedOptions(BuildOptions(card_size=size.name), specs, paper, size, DEFAULT_BASE_URL)
            for deck in kit.deck_faces(content, resolved):
                for card in deck.cards:
                    for face in (_scratch(card.front), card.back):
                        canvas.saveState()
                        try:
                            face.draw(canvas, 0.0)
                        except DataError as refused:
                            for problem in refused.problems:
                                found.setdefault((problem.file, problem.record, problem.field), problem)
                        finally:
                            canvas.restoreState()
    return list(found.values())
