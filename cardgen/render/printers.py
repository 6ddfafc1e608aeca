"""Uploads for card printers and Tabletop Simulator: ``cardgen export --for mpc|drivethrucards|thegamecrafter|tts``.

Each card printer publishes a template per card size: the image in pixels at 300 dpi, the card plus its
bleed. :data:`PRINTERS` holds those sizes; a face is drawn with its trim centred on the printer's image
and its background carried out to the image's edges (the printer cuts at its own trim, which is its
published card size: 2.5 × 3.5 in for poker, a hair larger than our 63 × 88 mm, so the cut lands in the
bleed). Every deck is one orientation (landscape table cards turned a quarter into portrait images, as
the printers' card templates are portrait), and one back image per deck (all the deck's cards share it).

* ``mpc`` (MakePlayingCards): ``OUT/<game>/mpc/<deck>/front/NNN-<card>.png`` and ``<deck>/back.png``;
  the fronts upload in name order, the back once as "same image for all backs".
* ``drivethrucards``: ``OUT/<game>/drivethrucards/<game>-<deck>.pdf``, one card a page at the template
  size (825 × 1125 px at 300 dpi is 2.75 × 3.75 in), front and back in turn: the PDF their card decks take.
* ``thegamecrafter``: ``OUT/<game>/thegamecrafter/<deck>/NNN-<card>.png`` and ``<deck>/back.png``.
* ``tts`` (Tabletop Simulator): ``OUT/<game>/tts/<deck>-sheet-N.png``, 10 × 7 slots, at most 4096 px either
  way, cards in reading order, up to 69 a sheet with the deck's back in the 70th slot (Tabletop Simulator's
  hidden-card slot); ``<deck>-back.png``; and ``<deck>-tts.json`` saying how many cards each sheet holds.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from .build import make_folder, plan_build, write_atomically
from .export import deck_faces
from .export_faces import DeckFaces
from .faces import Face
from .fonts import BASE_FONT
from .options import BuildError, BuildOptions
from .pdf import apply_document_settings, pt

MM_PER_INCH = 25.4
TEMPLATE_DPI = 300


@dataclass(frozen=True)
class Printer:
    name: str
    title: str
    sizes: dict[str, tuple[int, int]]   # card size -> (width, height) px of the template, portrait, at 300 dpi
    layout: str                          # "images" (a front per card, one back) or "pdf" (one PDF a deck)


#: The printers' published templates (portrait, card plus bleed, 300 dpi). MPC's bleed is 36 px a side
#: (poker 750 × 1050 trim in an 822 × 1122 image); DriveThruCards' and The Game Crafter's 37.5 px (1/8 in:
#: poker 825 × 1125).
PRINTERS: dict[str, Printer] = {
    "mpc": Printer("mpc", "MakePlayingCards", {"poker": (822, 1122), "bridge": (747, 1122), "tarot": (897, 1497),
                                               "mini": (597, 822)}, "images"),
    "drivethrucards": Printer("drivethrucards", "DriveThruCards", {"poker": (825, 1125), "bridge": (750, 1125),
                                                                   "tarot": (900, 1500), "mini": (600, 825)}, "pdf"),
    "thegamecrafter": Printer("thegamecrafter", "The Game Crafter", {"poker": (825, 1125), "bridge": (750, 1125),
                                                                     "tarot": (900, 1500), "mini": (600, 825)},
                              "images"),
}
TTS = "tts"
TTS_COLUMNS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096


def _portrait(face: Face) -> bool:
    return face.size.width <= face.size.height


def face_page(canvas: Canvas, face: Face, width_mm: float, height_mm: float) -> None:
    """One page of ``width_mm × height_mm`` (portrait) with ``face`` centred on it, its background carried
    to the page's edges; a landscape face turned a quarter (its top to the page's left edge)."""
    canvas.setPageSize((pt(width_mm), pt(height_mm)))
    w, h = face.size.width, face.size.height
    turned = not _portrait(face)
    across, up = (h, w) if turned else (w, h)
    bleed = max((width_mm - across) / 2, (height_mm - up) / 2, 0.0)
    canvas.saveState()
    canvas.translate(pt(width_mm / 2), pt(height_mm / 2))
    if turned:
        canvas.rotate(90)
    canvas.translate(-pt(w / 2), -pt(h / 2))
    face.draw(canvas, bleed)
    canvas.restoreState()
    canvas.showPage()


def _pdf(faces: list[Face], width_mm: float, height_mm: float, title: str) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1, pdfVersion=(1, 6), initialFontName=BASE_FONT)
    apply_document_settings(canvas, title=title, subject=f"{len(faces)} faces")
    for face in faces:
        face_page(canvas, face, width_mm, height_mm)
    canvas.save()
    return buffer.getvalue()


def _images(data: bytes, size: tuple[int, int]) -> list[Image.Image]:
    document = pdfium.PdfDocument(data)
    try:
        images = []
        for page in document:
            width_pt, _ = page.get_size()
            image = page.render(scale=size[0] / width_pt).to_pil().convert("RGB")
            images.append(image if image.size == size else image.resize(size))
        return images
    finally:
        document.close()


def _save(path: Path, image: Image.Image, dpi: int = TEMPLATE_DPI) -> Path:
    make_folder(path.parent)

    def write(partial: Path) -> None:
        with open(partial, "wb") as handle:
            image.save(handle, "PNG", dpi=(dpi, dpi))
    write_atomically(path, write)
    return path


def _mm(px: int, dpi: int = TEMPLATE_DPI) -> float:
    return px / dpi * MM_PER_INCH


def _printer_deck(printer: Printer, size_name: str, deck: DeckFaces, folder: Path, title: str) -> list[Path]:
    if size_name not in printer.sizes:
        raise BuildError(f"{printer.title} has no template for {size_name} cards in this kit "
                         f"(known: {', '.join(printer.sizes)})")
    px = printer.sizes[size_name]
    width_mm, height_mm = _mm(px[0]), _mm(px[1])
    fronts: list[Face] = [card.front for card in deck.cards]
    back = deck.cards[0].back
    if printer.layout == "pdf":
        faces: list[Face] = [f for card in deck.cards for f in (card.front, card.back)]
        path = folder / f"{folder.parent.name}-{deck.name}.pdf"
        make_folder(folder)
        data = _pdf(faces, width_mm, height_mm, f"{title}: {deck.name} for {printer.title}")
        write_atomically(path, lambda partial: partial.write_bytes(data))
        return [path]
    images = _images(_pdf([*fronts, back], width_mm, height_mm, f"{title}: {deck.name}"), px)
    written = [_save(folder / deck.name / "front" / f"{n:03d}-{card.card_id}.png"
                     if printer.name == "mpc" else folder / deck.name / f"{n:03d}-{card.card_id}.png", image)
               for n, (card, image) in enumerate(zip(deck.cards, images[:-1], strict=True), 1)]
    written.append(_save(folder / deck.name / "back.png", images[-1]))
    return written


def tts_card_px(face: Face) -> tuple[int, int]:
    """A card's slot on a Tabletop Simulator sheet: as large as 10 × 7 slots allow within 4096 px, portrait."""
    w, h = sorted((face.size.width, face.size.height))
    scale = min(TTS_MAX_PX / (TTS_COLUMNS * w), TTS_MAX_PX / (TTS_ROWS * h))
    return math.floor(w * scale), math.floor(h * scale)


def _tts_deck(deck: DeckFaces, folder: Path, title: str) -> list[Path]:
    fronts: list[Face] = [card.front for card in deck.cards]
    back = deck.cards[0].back
    slot = tts_card_px(fronts[0])
    w_mm, h_mm = sorted((fronts[0].size.width, fronts[0].size.height))
    images = _images(_pdf([*fronts, back], w_mm, h_mm, f"{title}: {deck.name} for Tabletop Simulator"), slot)
    back_image = images[-1]
    per_sheet = TTS_COLUMNS * TTS_ROWS - 1
    written: list[Path] = []
    sheets = []
    for number, start in enumerate(range(0, len(fronts), per_sheet), 1):
        sheet = Image.new("RGB", (slot[0] * TTS_COLUMNS, slot[1] * TTS_ROWS), "white")
        chunk = images[start:min(start + per_sheet, len(fronts))]
        for index, image in enumerate(chunk):
            sheet.paste(image, ((index % TTS_COLUMNS) * slot[0], (index // TTS_COLUMNS) * slot[1]))
        sheet.paste(back_image, ((TTS_COLUMNS - 1) * slot[0], (TTS_ROWS - 1) * slot[1]))  # the hidden-card slot
        written.append(_save(folder / f"{deck.name}-sheet-{number}.png", sheet))
        sheets.append({"file": written[-1].name, "cards": len(chunk), "columns": TTS_COLUMNS, "rows": TTS_ROWS,
                       "card_ids": [c.card_id for c in deck.cards[start:start + len(chunk)]]})
    written.append(_save(folder / f"{deck.name}-back.png", back_image))
    manifest = folder / f"{deck.name}-tts.json"
    text = json.dumps({"deck": deck.name, "back": f"{deck.name}-back.png", "sheets": sheets}, indent=1) + "\n"
    write_atomically(manifest, lambda partial: partial.write_text(text, encoding="utf-8"))
    written.append(manifest)
    return written


def export_for(options: BuildOptions, target: str, progress: Callable[[int], None] | None = None) -> list[Path]:
    """Write the uploads ``target`` (a key of :data:`PRINTERS`, or ``tts``) takes, per game and deck."""
    if target != TTS and target not in PRINTERS:
        raise BuildError(f"unknown target '{target}' (known: {', '.join([*PRINTERS, TTS])})")
    plan = plan_build(replace(options, documents=("deck",), bleed=max(options.bleed, 3.0)))
    report = progress or (lambda steps: None)
    written: list[Path] = []
    for item in plan.documents:
        title = str(getattr(item.content, "title", item.game))
        folder = Path(options.out_dir) / item.game / target
        for deck in deck_faces(item.game, item.content, plan.resolved):
            if not deck.cards:
                continue
            if target == TTS:
                written.extend(_tts_deck(deck, folder, title))
            else:
                written.extend(_printer_deck(PRINTERS[target], plan.resolved.card_size.name, deck, folder, title))
            report(len(deck.cards))
    return written
