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
from typing import Any, Callable

import pypdfium2 as pdfium
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFString
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


#: The OutputIntent of ``--cmyk`` files: which conversion made the CMYK numbers (no ICC profile was used).
CMYK_CONDITION = ("Spellbook Table plain DeviceCMYK conversion: K = 1 - max(R, G, B), C/M/Y from the rest; "
                  "near-neutral text and strokes on the black plate alone (dark ones at 100 % K); no ICC profile")
#: Near-neutral: the RGB channels lie within this much of each other (0..1).
NEUTRAL_SPREAD = 0.15
#: Near-neutral ink at least this dark prints as 100 % K.
SOLID_K = 0.8


def to_k(colour: object) -> CMYKColor:
    """Text and stroke colours: near-neutral ones on the black plate alone (dark ones as 100 % K), so a
    6 pt line of text or a hairline rule cannot fringe when the plates misregister; coloured ones as
    :func:`to_cmyk`."""
    value = toColor(colour)
    if isinstance(value, CMYKColor):  # already converted (the canvas's fill): judged by the colour it stands for
        if value.cyan == value.magenta == value.yellow == 0:
            return value
        d, k = value.density, value.black
        value = Color(*((1 - d * c) * (1 - d * k) for c in (value.cyan, value.magenta, value.yellow)),
                      alpha=value.alpha)  # the inverse of to_cmyk
    assert isinstance(value, Color)
    r, g, b = value.red, value.green, value.blue
    if max(r, g, b) - min(r, g, b) > NEUTRAL_SPREAD:
        return to_cmyk(value)
    k = 1 - (r + g + b) / 3
    return CMYKColor(0, 0, 0, 1.0 if k >= SOLID_K else round(k, 4), alpha=value.alpha)


class CmykCanvas(Canvas):
    """A canvas that writes DeviceCMYK only: fills by :func:`to_cmyk`, text and strokes by :func:`to_k`, and
    an OutputIntent naming the conversion (:data:`CMYK_CONDITION`)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, enforceColorSpace=to_cmyk, **kwargs)  # type: ignore[arg-type]
        catalog = self._doc.Catalog
        catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
        catalog.OutputIntents = PDFArray([PDFDictionary({
            "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString("Custom"), "OutputCondition": PDFString(CMYK_CONDITION),
            "RegistryName": PDFString(""), "Info": PDFString(CMYK_CONDITION)})])

    def beginText(self, *args: object, **kwargs: object) -> Any:  # noqa: N802 - ReportLab's name
        text = super().beginText(*args, **kwargs)
        text._enforceColorSpace = to_k   # every colour a text object sets is a text colour
        return text

    def setStrokeColor(self, aColor: object, alpha: object = None) -> None:  # noqa: N802, N803
        super().setStrokeColor(to_k(aColor), alpha)

    def _as_text(self, draw: Callable[[], None]) -> None:
        fill = self._fillColorObj
        ink = to_k(fill) if fill is not None else None
        if ink is None or ink == fill:
            draw()
            return
        super().setFillColor(ink)
        draw()
        super().setFillColor(fill)

    def drawString(self, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        self._as_text(lambda: Canvas.drawString(self, *args, **kwargs))

    def drawCentredString(self, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        self._as_text(lambda: Canvas.drawCentredString(self, *args, **kwargs))

    def drawRightString(self, *args: Any, **kwargs: Any) -> None:  # noqa: N802
        self._as_text(lambda: Canvas.drawRightString(self, *args, **kwargs))

    def drawText(self, aTextObject: Any) -> None:  # noqa: N802, N803 - paragraphs set the fill, then draw
        self._as_text(lambda: Canvas.drawText(self, aTextObject))


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
    canvas: Canvas
    if cmyk:
        canvas = CmykCanvas(buffer, invariant=1, pageCompression=1, pdfVersion=(1, 6), initialFontName=BASE_FONT)
    else:
        canvas = Canvas(buffer, invariant=1, pageCompression=1, pdfVersion=(1, 6), initialFontName=BASE_FONT)
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
