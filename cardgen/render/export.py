"""Print-shop export: every card on its own, for card printers and print shops that impose themselves.

``export_cards(options, ExportSettings(...))`` writes, per game and deck,

* ``pdf``: ``OUT/<game>/<game>-<deck>.pdf``, one card face per page (front, back, front, back, ...), each
  page the card plus its bleed, with the TrimBox on the card's cut line and the BleedBox the whole page;
  with ``cmyk`` every colour is written as DeviceCMYK.
* ``png``: ``OUT/<game>/<NNN>-<deck>-<card id>-1-front.png`` and ``...-2-back.png``, one image per face at
  the card's size plus bleed (a poker card with 3 mm bleed at 300 dpi: 815 x 1110 px), rasterised by
  PDFium (pypdfium2) from the same pages; sorted by name they are in upload order, each front before its
  back.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Callable

import pypdfium2 as pdfium
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfgen.canvas import Canvas

from .build import make_folder, plan_build, write_atomically
from .export_faces import DeckFaces
from .fonts import BASE_FONT
from .options import BuildError, BuildOptions, ResolvedOptions
from .pdf import apply_document_settings, pt
from .registry import print_kits

FORMATS = ("png", "pdf")
DPI_RANGE = (72, 1200)
MM_PER_INCH = 25.4


@dataclass(frozen=True)
class ExportSettings:
    format: str = "pdf"
    dpi: int = 300
    cmyk: bool = False


def to_cmyk(colour: object) -> CMYKColor:
    """Any ReportLab colour as DeviceCMYK: greys on the black plate alone, other colours by the plain
    device conversion (no ICC profile: a print shop's own profile still applies)."""
    value = toColor(colour)
    if isinstance(value, CMYKColor):
        return value
    assert isinstance(value, Color)
    r, g, b, alpha = value.red, value.green, value.blue, value.alpha
    k = 1 - max(r, g, b)
    if k >= 1.0:
        return CMYKColor(0, 0, 0, 1, alpha=alpha)
    if r == g == b:
        return CMYKColor(0, 0, 0, k, alpha=alpha)
    return CMYKColor((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k, alpha=alpha)


def pixel_size(width_mm: float, height_mm: float, dpi: int) -> tuple[int, int]:
    """A face's image size in pixels at ``dpi`` (rounded to the nearest pixel)."""
    return round(width_mm / MM_PER_INCH * dpi), round(height_mm / MM_PER_INCH * dpi)


def deck_faces(game: str, content: object, resolved: ResolvedOptions) -> list[DeckFaces]:
    """A game's decks as (front, back) pairs, as its print kit declares them (none: no cards)."""
    kit = print_kits()[game]
    return list(kit.deck_faces(content, resolved)) if kit.deck_faces is not None else []


def deck_pdf(deck: DeckFaces, resolved: ResolvedOptions, *, title: str, cmyk: bool) -> bytes:
    """One page per face (each card's front, then its back), trim and bleed boxes set."""
    buffer = io.BytesIO()
    bleed = resolved.options.bleed
    canvas = Canvas(buffer, invariant=1, pageCompression=1, pdfVersion=(1, 6), initialFontName=BASE_FONT,
                    enforceColorSpace=to_cmyk if cmyk else None)
    apply_document_settings(canvas, title=title, subject=f"{len(deck.cards)} cards, one face a page, "
                            f"{bleed:g} mm bleed{', CMYK' if cmyk else ''}")
    for card in deck.cards:
        for face in (card.front, card.back):
            w, h = face.size.width, face.size.height
            canvas.setPageSize((pt(w + 2 * bleed), pt(h + 2 * bleed)))
            canvas.saveState()
            canvas.translate(pt(bleed), pt(bleed))
            face.draw(canvas, bleed)
            canvas.restoreState()
            canvas.setTrimBox((pt(bleed), pt(bleed), pt(bleed + w), pt(bleed + h)))
            canvas.setBleedBox((0, 0, pt(w + 2 * bleed), pt(h + 2 * bleed)))
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _write(path: Path, data: bytes | Callable[[io.BufferedWriter], None]) -> None:
    def write(partial: Path) -> None:
        with open(partial, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                data(handle)
    write_atomically(path, write)


def export_cards(options: BuildOptions, settings: ExportSettings,
                 progress: Callable[[int], None] | None = None) -> list[Path]:
    """Write the print-shop files of ``options.game`` (or every game) into ``options.out_dir``."""
    if settings.format not in FORMATS:
        raise BuildError(f"unknown export format '{settings.format}' (known: {', '.join(FORMATS)})")
    low, high = DPI_RANGE
    if not low <= settings.dpi <= high:
        raise BuildError(f"dpi must be between {low} and {high}, got {settings.dpi}")
    if settings.cmyk and settings.format == "png":
        raise BuildError("PNG images have no CMYK form: use --format pdf with --cmyk")
    plan = plan_build(replace(options, documents=("deck",)))
    resolved = plan.resolved
    report = progress or (lambda steps: None)
    written: list[Path] = []
    for item in plan.documents:
        folder = Path(options.out_dir) / item.game
        make_folder(folder)
        number = 0
        for deck in deck_faces(item.game, item.content, resolved):
            title = f"{getattr(item.content, 'title', item.game)}: {deck.name} for a print shop"
            data = deck_pdf(deck, resolved, title=title, cmyk=settings.cmyk)
            if settings.format == "pdf":
                path = folder / f"{item.game}-{deck.name}.pdf"
                _write(path, data)
                written.append(path)
                report(len(deck.cards))
                continue
            document = pdfium.PdfDocument(data)
            try:
                for index, card in enumerate(deck.cards):
                    number += 1
                    for side, face_index in (("1-front", 2 * index), ("2-back", 2 * index + 1)):
                        page = document[face_index]
                        width_pt, height_pt = page.get_size()
                        target = pixel_size(width_pt / 72 * MM_PER_INCH, height_pt / 72 * MM_PER_INCH, settings.dpi)
                        image = page.render(scale=target[0] / width_pt).to_pil().convert("RGB")
                        if image.size != target:  # PDFium rounds the pixel grid its own way: at most a pixel
                            image = image.resize(target)
                        path = folder / f"{number:03d}-{deck.name}-{card.card_id}-{side}.png"
                        _write(path, partial(image.save, format="PNG", dpi=(settings.dpi, settings.dpi)))
                        written.append(path)
                    report(1)
            finally:
                document.close()
    return written
