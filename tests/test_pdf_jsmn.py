"""The Jonathan Strange & Mr Norrell print kit: the seven decks, the map poster and its assembly guide, the
magician boards, the tokens, the quick reference and the magicianship tally sheet, as PDFs.

The kit is built once per variant for the whole module; QR codes are decoded from full sheets rendered at
200 dpi (what a phone camera sees on a home print). Poster tiles are checked twice: from the positions at
which the registration marks' labels are drawn on each page, and by rendering the overlap strips of
neighbouring pages and comparing them.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader
from reportlab.lib.units import mm

from cardgen.catalog import content
from cardgen.catalog.jsmn import DECKS, JsmnContent
from cardgen.render import BuildOptions, build, plan_build
from cardgen.render.jsmn.deck import DECK_NAMES

JSMN: JsmnContent = content("jsmn")
A4 = (210 * mm, 297 * mm)
LETTER = (215.9 * mm, 279.4 * mm)


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    paths = build(BuildOptions(game="jsmn", out_dir=tmp_path_factory.mktemp("jsmn-kit")))
    return {p.stem: p for p in paths}


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., dict[str, Path]]:
    """``variant(**options)`` builds the kit (once per distinct options) and returns its PDFs by name."""
    built: dict[str, dict[str, Path]] = {}

    def make(**options: Any) -> dict[str, Path]:
        key = repr(sorted(options.items()))
        if key not in built:
            out = tmp_path_factory.mktemp("variant")
            built[key] = {p.stem: p for p in build(BuildOptions(game="jsmn", out_dir=out, **options))}
        return built[key]
    return make


@functools.lru_cache(maxsize=64)
def _pages(path: Path) -> tuple[str, ...]:
    return tuple(page.extract_text() for page in PdfReader(path).pages)


def _flat(text: str) -> str:
    return " ".join(text.split())


@functools.lru_cache(maxsize=64)
def _render(path: Path, page: int, dpi: float) -> Image.Image:
    image: Image.Image = pdfium.PdfDocument(str(path))[page].render(scale=dpi / 72).to_pil().convert("L")
    return image


def _url(card_id: str, base: str = "http://localhost:8000") -> str:
    return f"{base}/c/jsmn/{card_id}"


def _deck_pages(pages: tuple[str, ...]) -> dict[str, list[int]]:
    """Front page indexes per deck, found by their sheet labels."""
    found: dict[str, list[int]] = {kind: [] for kind in DECKS}
    for index, text in enumerate(pages):
        for kind in DECKS:
            if f"Strange & Norrell {DECK_NAMES[kind]} · fronts" in text:
                found[kind].append(index)
    return found


# -- the decks -------------------------------------------------------------------------------------

def test_deck_pages_and_card_counts_read_back_from_the_pdf(kit: dict[str, Path]) -> None:
    pages = _pages(kit["deck"])
    # 9 poker cards a sheet either way round: 6 + 6 + 4 + 3 + 1 + 2 + 2 sheets, each followed by its backs
    assert len(pages) == 2 * 24
    fronts = _deck_pages(pages)
    numbers: dict[str, list[int]] = {}
    for kind, indexes in fronts.items():
        text = " ".join(pages[i] for i in indexes)
        label = DECKS[kind][0].lower()
        numbers[kind] = [int(n) for n in re.findall(rf"{re.escape(label)} (\d+)/\d+ · card", text)]
    assert {kind: len(found) for kind, found in numbers.items()} == {
        "invitation": 48, "introduction": 48, "feat": 33, "spell": 24, "connexion": 6, "book": 18, "marseilles": 12}
    for kind, found in numbers.items():
        assert sorted(found) == list(range(1, len(JSMN.deck(kind)) + 1)), kind
    for kind, indexes in fronts.items():  # every front sheet is followed by its back sheet
        for i in indexes:
            assert f"Strange & Norrell {DECK_NAMES[kind]} · backs" in pages[i + 1]


def test_every_fact_of_every_card_is_on_its_front(kit: dict[str, Path]) -> None:
    pages = _pages(kit["deck"])
    fronts = _deck_pages(pages)
    text = {kind: _flat(" ".join(pages[i] for i in indexes)) for kind, indexes in fronts.items()}
    for card in JSMN.invitations:
        place = JSMN.map.location(card.location)
        element = JSMN.element(card.element)
        assert f"ATTEND IN {place.name}" in text["invitation"], card.id
        assert f"element: {element.name} ({element.symbol_name})" in text["invitation"]
    assert text["invitation"].count("CITY OF LONDON") == sum(1 for c in JSMN.invitations if c.london)
    for card in JSMN.introductions:
        assert f"Meet {_flat(card.name)}: gain {card.prestige} prestige." in text["introduction"], card.id
        assert f"MEET IN {JSMN.map.location(card.location).name}" in text["introduction"], card.id
    for card in JSMN.feats:
        needs = ", ".join(f"{n} {JSMN.element(e).name.lower()}" for e, n in card.requires)
        assert f"Needs exactly {needs}. Complete: +{card.magicianship} magicianship" in text["feat"], card.id
    for card in JSMN.spells:
        assert _flat(card.text) in text["spell"], card.id
    assert text["spell"].count("+1 MAGICIANSHIP once played") == sum(1 for c in JSMN.spells if c.magicianship)
    assert text["spell"].count("Or discard it for 1 prestige") == 24
    for card in JSMN.named_connexions:
        kind = JSMN.connexion_type(card.connexion_type)
        assert f"{kind.name.upper()} CONNEXION" in text["connexion"] and _flat(card.text) in text["connexion"]
    for card in JSMN.books:
        assert card.author in text["book"] and _flat(card.text) in text["book"], card.id
    for card in JSMN.marseilles:
        assert card.name in text["marseilles"] and card.english in text["marseilles"], card.id
        assert f"+{card.strength} FAIRY STRENGTH" in text["marseilles"], card.id


def test_qr_codes_decode_to_the_card_urls_on_portrait_and_landscape_sheets(kit: dict[str, Path]) -> None:
    fronts = _deck_pages(_pages(kit["deck"]))
    for kind in ("introduction", "feat"):
        page = fronts[kind][1]  # the second sheet of the deck: cards 10-18
        results = zxingcpp.read_barcodes(_render(kit["deck"], page, 200))
        assert sorted(r.text for r in results) == sorted(_url(c.id) for c in JSMN.deck(kind)[9:18]), kind


def test_backs_line_up_with_their_fronts_and_differ_per_deck(kit: dict[str, Path]) -> None:
    reader = PdfReader(kit["deck"])
    for front, back in ((0, 1), (24, 25)):  # a portrait and a landscape sheet
        f, b = reader.pages[front].trimbox, reader.pages[back].trimbox
        width = float(reader.pages[front].mediabox.width)
        assert float(b.left) == pytest.approx(width - float(f.right), abs=0.01)
        assert float(b.bottom) == pytest.approx(float(f.bottom), abs=0.01)
    backs = {kind: _flat(_pages(kit["deck"])[indexes[0] + 1]) for kind, indexes in _deck_pages(_pages(kit["deck"])).items()}
    for kind, text in backs.items():
        assert text.count(DECKS[kind][0].upper()) == min(9, len(JSMN.deck(kind))), kind
