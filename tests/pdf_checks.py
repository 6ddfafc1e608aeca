"""Checks shared by the print-kit tests: building a kit once per variant, reading pages back as text,
rendering them, decoding their QR codes, and telling symbols apart by shape alone."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable, overload

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.render import BuildOptions, build

LOCAL_BASE_URL = "http://localhost:8000"


def build_kit(game: str, out_dir: Path, **options: Any) -> dict[str, Path]:
    """A game's whole kit (or the documents ``options`` choose), its PDFs by name."""
    return {p.stem: p for p in build(BuildOptions(game=game, out_dir=out_dir, **options))}


def variant_builder(game: str, tmp_path_factory: pytest.TempPathFactory) -> Callable[..., dict[str, Path]]:
    """``variant(**options)``: the kit built once per distinct options, its PDFs by name."""
    built: dict[str, dict[str, Path]] = {}

    def make(**options: Any) -> dict[str, Path]:
        key = repr(sorted(options.items()))
        if key not in built:
            built[key] = build_kit(game, tmp_path_factory.mktemp("variant"), **options)
        return built[key]
    return make


class PageTexts(Sequence[str]):
    """A document's pages' texts, each extracted when first read (pypdf's ``extract_text``: about a second a
    page of cards on a quiet machine), then kept: a test that reads two pages of a 42-page variant extracts two."""

    def __init__(self, path: Path) -> None:
        self.reader = PdfReader(path)
        self.texts: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self.reader.pages)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        page = index + len(self) if index < 0 else index
        if not 0 <= page < len(self):
            raise IndexError(index)
        if page not in self.texts:
            self.texts[page] = self.reader.pages[page].extract_text()
        return self.texts[page]


@functools.lru_cache(maxsize=64)
def page_texts(path: Path) -> PageTexts:
    """Each page's text (cached; a page is extracted when first read)."""
    return PageTexts(path)


def document_text(path: Path) -> str:
    """The whole document's text, every run of white space as one space, from pdfium's text layer: a deck of
    26 pages in under a second where pypdf's ``extract_text`` takes half a minute. (pdfium joins two runs
    drawn apart with no space between them, "Character" "Hedge" as "CharacterHedge": look for words and
    phrases within one run.)"""
    document = pdfium.PdfDocument(str(path))
    try:
        return flattened(" ".join(document[i].get_textpage().get_text_bounded() for i in range(len(document))))
    finally:
        document.close()


def flattened(text: str) -> str:
    """The text with every run of white space (line breaks included) as one space."""
    return " ".join(text.split())


@functools.lru_cache(maxsize=64)
def rendered(path: Path, page: int, dpi: float, mode: str = "L") -> Image.Image:
    """The page as an image (greyscale unless told; cached: several tests look at the same pages)."""
    image: Image.Image = pdfium.PdfDocument(str(path))[page].render(scale=dpi / 72).to_pil().convert(mode)
    return image


def card_url(game: str, card_id: str, base: str = LOCAL_BASE_URL) -> str:
    """What a card's QR code should open: its page, with the card's content version."""
    from cardgen.catalog import content
    from cardgen.catalog.versions import card_version

    card = content(game).find_card(card_id)
    assert card is not None, f"{game} has no card {card_id}"
    return f"{base}/c/{game}/{card_id}?v={card_version(card)}"


def qr_codes(path: Path, page: int, dpi: float = 200) -> list[Any]:
    """The QR codes found on a page rendered at ``dpi`` (200: what a phone camera sees on a home print)."""
    return list(zxingcpp.read_barcodes(rendered(path, page, dpi)))


def qr_texts(path: Path, page: int, dpi: float = 200) -> list[str]:
    """The texts of the QR codes found on a page, sorted."""
    return sorted(r.text for r in qr_codes(path, page, dpi))


def symbol_image(draw: Callable[..., None], tmp_path: Path, name: str) -> Image.Image:
    """A symbol drawer's picture in black on white, 50 points square, as a 1-bit image."""
    path = tmp_path / f"{name}.pdf"
    canvas = Canvas(str(path), pagesize=(60, 60))
    draw(canvas, 30, 30, 50, "#000000", "#FFFFFF")
    canvas.save()
    return pdfium.PdfDocument(str(path))[0].render(scale=1).to_pil().convert("1")


def shape_difference(a: Image.Image, b: Image.Image) -> float:
    """The share of the square where two 1-bit symbol pictures differ."""
    return float(ImageStat.Stat(ImageChops.logical_xor(a, b).convert("L")).mean[0] / 255)
