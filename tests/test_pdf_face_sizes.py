"""Card faces laid out for their size (issue 15): a tarot card (70 × 120 mm) sets larger titles and text
than a poker card, a mini card (44 × 63 mm) a compact face whose every text is 6 pt or more; on every size
all text lies inside the card's safe area and the QR code decodes at its printed size.

Each game's decks are drawn one face a page (the print-shop export's pages, TrimBox on the cut line), a
sample of every deck: the first cards and then every fourth (the long texts and names are among them).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from pypdf import PdfReader
from test_print_kit import SMALLEST_TEXT_PT, text_sizes

from cardgen.render import BuildOptions
from cardgen.render.build import plan_build
from cardgen.render.export import deck_faces, deck_pdf
from cardgen.render.faces import COMPACT, STANDARD, TALL, face_profile
from cardgen.render.print_specs import CardSize
from cardgen.render.registry import print_kits

GAMES = tuple(print_kits())  # every game with a print kit, as discovered
SIZES = ("tarot", "poker", "mini")
BASE = "https://cards.example.org"
#: No text closer than this to the cut line (mm): a 0.5 mm cut error and a margin for the eye.
SAFE_MM = 3.0
MM = 72 / 25.4


def _sample(cards: list) -> list:
    return cards if len(cards) <= 12 else cards[:4] + cards[4::4]


class Faces(dict[tuple[str, str], list[tuple[str, Path, int]]]):
    """(game, size) -> [(deck name, one-face-a-page PDF of a sample of its cards, cards in it)], each game and size
    drawn the first time a test asks for it: a run of some games' cases only (``-k``; the test game's shared run
    selects its own) draws those games' faces alone, a whole run every one, once."""

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out = out

    def __missing__(self, key: tuple[str, str]) -> list[tuple[str, Path, int]]:
        game, size = key
        plan = plan_build(BuildOptions(game=game, card_size=size, out_dir=self.out, base_url=BASE,
                                       documents=("deck",)))
        drawn: list[tuple[str, Path, int]] = []
        for item in plan.documents:
            for deck in deck_faces(item.game, item.content, plan.resolved):
                sample = replace(deck, cards=_sample(deck.cards))
                path = self.out / f"{game}-{size}-{deck.name}.pdf"
                path.write_bytes(deck_pdf(sample, plan.resolved, title=deck.name, cmyk=False))
                drawn.append((deck.name, path, len(sample.cards)))
        self[key] = drawn
        return drawn


@pytest.fixture(scope="module")
def faces(tmp_path_factory: pytest.TempPathFactory) -> Faces:
    return Faces(tmp_path_factory.mktemp("faces"))


def _title_sizes(path: Path) -> list[float]:
    """Each front's largest run of words (its name or title; numbers such as costs and values left out)."""
    largest: dict[int, float] = {}
    for size, page, text in text_sizes(path):
        if page % 2 == 0 and sum(ch.isalpha() for ch in text) >= 3:
            largest[page] = max(largest.get(page, 0.0), size)
    return list(largest.values())


def test_each_size_reads_its_profile() -> None:
    assert face_profile(CardSize("tarot", 70, 120)) is TALL
    assert face_profile(CardSize("poker", 63, 88)) is STANDARD and face_profile(CardSize("b", 57, 89)) is STANDARD
    assert face_profile(CardSize("mini", 44, 63)) is COMPACT
    assert face_profile(CardSize("tarot landscape", 120, 70)) is TALL  # the table decks, read sideways
    assert STANDARD.text(0.9) == 0.9 and TALL.text(1.0) > 1.1 and COMPACT.compact


@pytest.mark.parametrize("game", GAMES)
def test_titles_are_larger_on_tarot_and_smaller_on_mini_cards(faces: dict, game: str) -> None:
    medians = {}
    for size in SIZES:
        for deck, path, _ in faces[game, size]:
            titles = _title_sizes(path)
            assert titles, f"{game} {deck} {size}: no title found"
            medians[deck, size] = statistics.median(titles)
    for deck, _, _ in faces[game, "poker"]:
        tarot, poker, mini = (medians[deck, s] for s in SIZES)
        # the tall profile: 1.12 x what the width alone allows (1.11 x poker), so about 1.2 x poker
        assert tarot >= 1.15 * poker > 1.15 * mini, f"{game} {deck}: title {tarot:.2f} / {poker:.2f} / {mini:.2f} pt"
        assert mini >= SMALLEST_TEXT_PT


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_text_is_6_pt_or_more_inside_the_safe_area_and_clear_of_the_others(faces: dict, game: str, size: str) -> None:
    small: list[str] = []
    outside: list[str] = []
    overlaps: list[str] = []
    for deck, path, _ in faces[game, size]:
        runs = text_sizes(path)
        assert len(runs) > 10, path
        small += [f"{deck} p{page + 1} {pt:.2f} pt {text[:30]!r}" for pt, page, text in runs
                  if pt < SMALLEST_TEXT_PT - 0.01]
        document = pdfium.PdfDocument(str(path))
        trimboxes = [page.trimbox for page in PdfReader(path).pages]  # the file read once, not once a page
        for number in range(len(document)):
            page = document[number]
            left, bottom, right, top = (float(v) for v in trimboxes[number])
            text = page.get_textpage()
            boxes: list[tuple[float, float, float, float, str]] = []
            for index in range(text.count_rects()):
                x0, y0, x1, y1 = text.get_rect(index)
                words = text.get_text_bounded(x0, y0, x1, y1).strip()
                if not words:
                    continue
                gaps = (x0 - left, y0 - bottom, right - x1, top - y1)
                if min(gaps) < SAFE_MM * MM - 0.2:
                    outside.append(f"{deck} p{number + 1} {min(gaps) / MM:.2f} mm from the cut {words[:30]!r}")
                for a0, b0, a1, b1, other in boxes:  # glyph boxes of two lines overlapping by more than 1 pt
                    if min(x1, a1) - max(x0, a0) > 1.0 and min(y1, b1) - max(y0, b0) > 1.0:
                        overlaps.append(f"{deck} p{number + 1} {words[:24]!r} on {other[:24]!r}")
                boxes.append((x0, y0, x1, y1, words))
        document.close()
    assert small == [], f"{game} {size}: {len(small)} runs under 6 pt, e.g. {small[:6]}"
    assert outside == [], f"{game} {size}: {len(outside)} texts outside the safe area, e.g. {outside[:6]}"
    assert overlaps == [], f"{game} {size}: {len(overlaps)} texts on top of each other, e.g. {overlaps[:6]}"


@pytest.mark.parametrize("size", ("tarot", "mini"))
@pytest.mark.parametrize("game", GAMES)
def test_qr_codes_decode_at_their_printed_size(faces: dict, game: str, size: str) -> None:
    for deck, path, count in faces[game, size]:
        document = pdfium.PdfDocument(str(path))
        for number in (0, 2 * (count - 1)):  # the first and the last front of the sample
            image = document[number].render(scale=150 / 72).to_pil().convert("L")
            found = [r.text for r in zxingcpp.read_barcodes(image)]
            assert len(found) == 1 and found[0].startswith(f"{BASE}/c/{game}/"), f"{game} {deck} {size} p{number + 1}"
        document.close()


@pytest.mark.parametrize("game", GAMES)
def test_mini_cards_keep_their_card_number(faces: dict, game: str) -> None:
    """What a compact face leaves off are its less important lines: the card's number ('12/110', '3/48 · card
    3/189') stays on every front (JS&MN's portrait mini cards lost it with their footer lines)."""
    for deck, path, count in faces[game, "mini"]:
        pages = PdfReader(path).pages
        for number in range(0, 2 * count, 2):
            text = " ".join(pages[number].extract_text().split())
            assert re.search(r"\b\d+/\d+\b", text), f"{game} {deck} p{number + 1}: no card number in {text[:80]!r}"
