"""The Jonathan Strange & Mr Norrell print kit: the seven decks, the map poster and its assembly guide, the
magician boards, the tokens, the quick reference and the magicianship tally sheet, as PDFs.

The kit is built once per variant for the whole module; QR codes are decoded from full sheets rendered at
200 dpi (what a phone camera sees on a home print). Poster tiles are checked twice: from the positions at
which the registration marks' labels are drawn on each page, and by rendering the overlap strips of
neighbouring pages and comparing them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

import pytest
from pdf_checks import (
    build_kit,
    card_url,
    flattened,
    page_texts,
    qr_codes,
    qr_texts,
    rendered,
    shape_difference,
    symbol_image,
    variant_builder,
)
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader
from reportlab.lib.units import mm

from cardgen.catalog import content
from cardgen.catalog.jsmn import DECKS, JsmnContent
from cardgen.render import BuildOptions, build, plan_build

JSMN: JsmnContent = content("jsmn")
#: the elements' names after the number 1, in plain English (the rest read the same: 1 rain, 2 rain)
ONE = {"birds": "bird", "hills": "hill", "stones": "stone", "trees": "tree"}
A4 = (210 * mm, 297 * mm)
LETTER = (215.9 * mm, 279.4 * mm)


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_kit("jsmn", tmp_path_factory.mktemp("jsmn-kit"))


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., dict[str, Path]]:
    """``variant(**options)`` builds the kit (once per distinct options) and returns its PDFs by name."""
    return variant_builder("jsmn", tmp_path_factory)


def _deck_pages(pages: Sequence[str], side: str = "fronts") -> dict[str, list[int]]:
    """Page indexes per deck (a sheet shared by two decks holds both): the sheet's caption gives its side, and
    its cards the decks, a front by their number lines ("invitation 3/48 · card 3/189"), a back by the deck's
    word on them ("INVITATION"). Not by the deck names of the caption: a mixed sheet's caption too long for
    its card drops the names first, keeping side and sheet."""
    found: dict[str, list[int]] = {kind: [] for kind in DECKS}
    for index, text in enumerate(pages):
        if not re.search(rf"\b{side} · sheet \d+/\d+", text):
            continue
        for kind, (word, _) in DECKS.items():
            pattern = (rf"\b{re.escape(word[:1].lower() + word[1:])} \d+/\d+ · card" if side == "fronts"
                       else rf"\b{re.escape(word.upper())}\b")
            if re.search(pattern, flattened(text)):
                found[kind].append(index)
    return found


# -- the decks -------------------------------------------------------------------------------------

def test_deck_pages_and_card_counts_read_back_from_the_pdf(kit: dict[str, Path]) -> None:
    pages = page_texts(kit["deck"])
    # 189 poker cards, 9 a sheet, the decks one after another on shared sheets (a fresh sheet each took 24)
    assert len(pages) == 2 * 21
    fronts = _deck_pages(pages)
    numbers: dict[str, list[int]] = {}
    for kind, indexes in fronts.items():
        text = " ".join(pages[i] for i in indexes)
        label = DECKS[kind][0][:1].lower() + DECKS[kind][0][1:]
        numbers[kind] = [int(n) for n in re.findall(rf"{re.escape(label)} (\d+)/\d+ · card", text)]
    assert {kind: len(found) for kind, found in numbers.items()} == {
        "invitation": 48, "introduction": 48, "feat": 33, "spell": 24, "connexion": 6, "book": 18, "marseilles": 12}
    for kind, found in numbers.items():
        assert sorted(found) == list(range(1, len(JSMN.deck(kind)) + 1)), kind
    shared = [i for i in range(0, len(pages), 2) if sum(i in indexes for indexes in fronts.values()) > 1]
    assert shared, "a deck's last sheet is filled up with the next deck's cards"
    backs = _deck_pages(pages, "backs")
    for kind, indexes in fronts.items():  # every front sheet is followed by its back sheet
        assert [i + 1 for i in indexes] == backs[kind], kind


def test_every_fact_of_every_card_is_on_its_front(kit: dict[str, Path]) -> None:
    pages = page_texts(kit["deck"])
    fronts = _deck_pages(pages)
    text = {kind: flattened(" ".join(pages[i] for i in indexes)) for kind, indexes in fronts.items()}
    for card in JSMN.invitations:
        place = JSMN.map.location(card.location)
        element = JSMN.element(card.element)
        assert f"ATTEND IN {place.name}" in text["invitation"], card.id
        assert f"element: {element.name} ({element.symbol_name})" in text["invitation"]
    assert text["invitation"].count("CITY OF LONDON") >= sum(1 for c in JSMN.invitations if c.london)
    for card in JSMN.introductions:
        assert f"Meet {flattened(card.name)}: gain {card.prestige} prestige." in text["introduction"], card.id
        assert f"MEET IN {JSMN.map.location(card.location).name}" in text["introduction"], card.id
    for card in JSMN.feats:
        needs = ", ".join(f"{n} {ONE.get(e, e) if n == 1 else e}" for e, n in card.requires)
        assert f"Needs exactly {needs}. Complete: +{card.magicianship} magicianship" in text["feat"], card.id
    # the print audit: "Needs exactly 1 birds" on 20 feats; one bird, two birds
    assert " 1 bird," in text["feat"] or " 1 bird." in text["feat"]
    assert not re.search(r"\b1 (birds|hills|stones|trees)\b", text["feat"])
    for card in JSMN.spells:
        assert flattened(card.text) in text["spell"], card.id
    assert text["spell"].count("+1 MAGICIANSHIP once played") == sum(1 for c in JSMN.spells if c.magicianship)
    assert text["spell"].count("Or discard it for 1 prestige") == 24
    for card in JSMN.named_connexions:
        kind = JSMN.connexion_type(card.connexion_type)
        assert f"{kind.name.upper()} CONNEXION" in text["connexion"] and flattened(card.text) in text["connexion"]
    for card in JSMN.books:
        assert card.author in text["book"] and flattened(card.text) in text["book"], card.id
    for card in JSMN.marseilles:
        assert card.name in text["marseilles"] and card.english in text["marseilles"], card.id
        assert f"+{card.strength} FAIRY STRENGTH" in text["marseilles"], card.id


def test_qr_codes_decode_to_the_card_urls_on_portrait_and_landscape_sheets(kit: dict[str, Path]) -> None:
    for kind, sheet in (("introduction", 7), ("feat", 12)):   # cards 55-63 and 100-108: one deck each
        results = qr_codes(kit["deck"], 2 * (sheet - 1))
        first = 9 * (sheet - 1) + 1
        wanted = [c for c in JSMN.cards if first <= c.number < first + 9]
        assert {c.kind for c in wanted} == {kind}
        assert sorted(r.text for r in results) == sorted(card_url("jsmn", c.id) for c in wanted), kind


def test_backs_line_up_with_their_fronts_and_differ_per_deck(kit: dict[str, Path]) -> None:
    reader = PdfReader(kit["deck"])
    for front, back in ((0, 1), (22, 23)):  # a portrait and a landscape sheet
        f, b = reader.pages[front].trimbox, reader.pages[back].trimbox
        width = float(reader.pages[front].mediabox.width)
        assert float(b.left) == pytest.approx(width - float(f.right), abs=0.01)
        assert float(b.bottom) == pytest.approx(float(f.bottom), abs=0.01)
    pages = page_texts(kit["deck"])
    for kind, indexes in _deck_pages(pages, "backs").items():   # each card has its own deck's back
        count = sum(flattened(pages[i]).count(DECKS[kind][0].upper()) for i in indexes)
        assert count == len(JSMN.deck(kind)), kind


# -- the map poster ----------------------------------------------------------------------------------

def _label_positions(path: Path, page: int) -> dict[str, tuple[float, float]]:
    """Where each registration mark's label (R1, R2, ...) is drawn on a page, in points."""
    found: dict[str, tuple[float, float]] = {}

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: Any) -> None:
        label = text.strip()
        if re.fullmatch(r"R\d+", label):
            found[label] = (tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5])
    PdfReader(path).pages[page].extract_text(visitor_text=visit)
    return found


def _stated_overlap_mm(path: Path) -> float:
    match = re.search(r"pages overlap by (\d+(?:\.\d+)?) mm", flattened(page_texts(path)[0]))
    assert match, "the assembly guide states the overlap"
    return float(match.group(1))


@pytest.mark.parametrize("paper, size", [("A4", A4), ("Letter", LETTER)])
def test_poster_tiles_overlap_and_targets_sit_only_where_the_next_page_covers_them(
        variant: Callable[..., dict[str, Path]], paper: str, size: tuple[float, float]) -> None:
    """Each page goes over its left and upper neighbours: a registration target is printed once, on the strip
    that goes under (a page's right or bottom 10 mm), where the next page's own first 10 mm lie on it."""
    path = variant(paper=paper, documents=("map",))["map"]
    reader = PdfReader(path)
    pages = page_texts(path)
    assert len(reader.pages) == 1 + 8  # the guide, then 4 across and 2 down
    names = {re.search(r"Map page ([A-D][12]) ", pages[i]).group(1): i for i in range(1, 9)}  # type: ignore[union-attr]
    assert sorted(names) == ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2"]
    overlap = _stated_overlap_mm(path) * mm
    assert overlap == pytest.approx(10 * mm)
    trim = reader.pages[1].trimbox
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(size, abs=0.01)
    seen: list[str] = []
    for name, index in names.items():
        column, row = name[0], int(name[1])
        has_right, has_below = column != "D", row != 2
        for label, (x, y) in _label_positions(path, index).items():
            seen.append(label)
            in_right = float(trim.right) - overlap < x < float(trim.right) + 3 * mm
            in_bottom = float(trim.bottom) - 3 * mm < y < float(trim.bottom) + overlap
            assert (has_right and in_right) or (has_below and in_bottom), (name, label, x, y)
            assert not x < float(trim.left) + overlap and not y > float(trim.top) - overlap, (name, label)
    assert len(seen) == len(set(seen)) == 2 * (3 * 2) + 2 * (4 * 1)  # each target once: 6 vertical seams, 4 horizontal


def test_poster_overlap_strips_show_the_same_map(kit: dict[str, Path]) -> None:
    """At 127 dpi a millimetre is 5 pixels: the shared strips of neighbouring A4 pages compare pixel for pixel
    (allowing one pixel, 0.2 mm, for the renderer rounding the page to whole pixels)."""
    path, px = kit["map"], 5
    reader = PdfReader(path)
    trim = reader.pages[1].trimbox
    left, bottom = round(float(trim.left) / mm * px), round(float(trim.bottom) / mm * px)
    right, top = round(float(trim.right) / mm * px), round(float(trim.top) / mm * px)
    height_px = round(float(reader.pages[1].mediabox.height) / mm * px)
    y0, y1 = height_px - top, height_px - bottom  # image rows run downwards
    strip = 10 * px

    def difference(page: int, box: tuple[int, int, int, int], other: Image.Image) -> float:
        image = rendered(path, page, 127)
        return min(ImageStat.Stat(ImageChops.difference(
            image.crop((box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)), other)).mean[0]
            for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    def pieces(box: tuple[int, int, int, int], axis: str) -> list[tuple[int, int, int, int]]:
        """The strip without the 8 mm round its two registration targets (at 0.3 and 0.7 of the window,
        printed on the strip that goes under) and without the dashed edge line on its inner side."""
        x0, top_row, x1, bottom_row = box
        if axis == "x":
            cuts = sorted(y1 - round(share * (y1 - y0)) for share in (0.3, 0.7))
            edges = [top_row, cuts[0] - 8 * px, cuts[0] + 8 * px, cuts[1] - 8 * px, cuts[1] + 8 * px, bottom_row]
            return [(x0 + 3, edges[i], x1, edges[i + 1]) for i in range(0, 6, 2)]
        cuts = sorted(left + round(share * (right - left)) for share in (0.3, 0.7))
        edges = [x0, cuts[0] - 8 * px, cuts[0] + 8 * px, cuts[1] - 8 * px, cuts[1] + 8 * px, x1]
        return [(edges[i], top_row + 3, edges[i + 1], bottom_row) for i in range(0, 6, 2)]
    pairs = [(2, 3, "x"), (6, 7, "x"), (3, 7, "y"), (4, 8, "y")]  # B1|C1, B2|C2, B1/B2, C1/C2
    for first, second, axis in pairs:
        if axis == "x":
            box_a, box_b = (right - strip, y0 + 60, right, y1 - 60), (left, y0 + 60, left + strip, y1 - 60)
            others = [(left + k * strip, y0 + 60, left + (k + 1) * strip, y1 - 60) for k in (2, 3, 4)]
        else:
            box_a, box_b = (left + 60, y1 - strip, right - 60, y1), (left + 60, y0, right - 60, y0 + strip)
            others = [(left + 60, y0 + k * strip, right - 60, y0 + (k + 1) * strip) for k in (2, 3, 4)]
        whole = rendered(path, second, 127).crop(box_b)
        assert ImageStat.Stat(whole).stddev[0] > 10, (first, second)  # there is map in the strip
        # another strip of the map differs: the check can fail
        assert max(difference(second, other, whole) for other in others) > 3, (first, second)
        for piece_a, piece_b in zip(pieces(box_a, axis), pieces(box_b, axis), strict=True):
            b = rendered(path, second, 127).crop(piece_b)
            assert difference(first, piece_a, b) < 1.5, (first, second, piece_a)


def test_map_holds_locations_tracks_and_slots(kit: dict[str, Path]) -> None:
    text = flattened(page_texts(kit["map"])[1])  # the map is drawn once (a form) and placed on every page
    for loc in JSMN.map.locations:
        assert (loc.name.upper() if loc.region == "london" else loc.name) in text, loc.id
    assert "THE CITY OF LONDON" in text and "All City locations are joined to one another." in text
    years = JSMN.tracks.years
    assert all(str(year) in text for year in years)
    assert text.count("RAVEN YEAR: confront the fairy") == len(JSMN.tracks.raven_years) == 4
    assert text.count("CONNEXION") - text.count("CONNEXIONS") >= len(JSMN.tracks.connexion_spaces)
    assert text.count("BOOK OF MAGIC") == 3 and all(f"FEAT OF MAGIC {n}" in text for n in range(1, 5))
    assert "red slot: this book leaves at the start of each year" in text and "new books enter here" in text
    assert "experienced" in text and "foolhardy" in text and "THE FAIRY" in text and "PRESTIGE" in text


def test_locations_keep_their_geography_on_the_map() -> None:
    from cardgen.render import print_specs
    from cardgen.render.jsmn.card_frame import landscape
    from cardgen.render.jsmn.map_layout import MapLayout
    layout = MapLayout(JSMN, landscape(print_specs().card_size("poker")))
    for region, panel in (("europe", layout.europe_panel), ("city", layout.city_panel)):
        places = [loc for loc in JSMN.map.locations if loc.region == region or (region == "europe" and
                                                                                    loc.region == "london")]
        points = {loc.id: layout.position(loc.id) for loc in places}
        for loc in places:
            x, y = points[loc.id]
            assert panel.x < x < panel.right and panel.y < y < panel.top, loc.id
            for other in places:  # west stays west, north stays north
                ox, oy = points[other.id]
                assert (loc.lon < other.lon) == (x < ox) or loc.lon == other.lon
                assert (loc.lat < other.lat) == (y < oy) or loc.lat == other.lat
    madrid, paris = layout.position("madrid"), layout.position("paris")
    assert madrid[0] < paris[0] and madrid[1] < paris[1]


# -- boards, tokens, reference and tally --------------------------------------------------------------

def test_magician_boards(kit: dict[str, Path]) -> None:
    pages = page_texts(kit["boards"])
    assert len(pages) == 4
    for magician, text in zip(JSMN.magicians, pages, strict=True):
        flat = flattened(text)
        assert magician.name in flat and f"Unique: {magician.unique_action}" in flat
        assert flattened(magician.unique_text) in flat
        assert "SILVER BASIN" in flat and flat.count("SLOT") == 6
        for action in JSMN.actions:
            assert action.name in flat and flattened(action.text) in flat
        for kind in JSMN.connexion_types:
            assert kind.name in flat and flattened(kind.text) in flat
    page = PdfReader(kit["boards"]).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((A4[1], A4[0]), abs=0.01)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_tokens_and_discs_share_one_duplex_sheet(kit: dict[str, Path], variant: Callable[..., dict[str, Path]],
                                                 paper: str) -> None:
    path = kit["tokens"] if paper == "A4" else variant(paper="Letter", documents=("tokens",))["tokens"]
    pages = page_texts(path)
    assert len(pages) == 2  # the 16 mm tokens above the 12 mm discs, and the back
    front = Counter(flattened(pages[0]).split())
    for element in JSMN.elements:
        assert front[element.name.upper()] == JSMN.contents.tokens_per_element == 13
    assert sum(front[e.name.upper()] for e in JSMN.elements) == JSMN.contents.element_tokens == 78
    assert front["YEAR"] == 1 and front["FAIRY"] == 1
    for magician in JSMN.magicians:  # its piece (16 mm) and its discs (12 mm)
        assert front[magician.name.split()[-1].upper()] == JSMN.contents.discs_per_colour + 1
    back = Counter(flattened(pages[1]).split())
    assert front.pop("fronts") == back.pop("backs") > 0  # the captions tell the sides apart
    assert back == front  # two-sided: the same faces behind


def test_element_symbols_differ_in_shape_alone(tmp_path: Path) -> None:
    from cardgen.render.jsmn.symbols import ELEMENT_DRAWERS
    images = {element.id: symbol_image(ELEMENT_DRAWERS[element.symbol], tmp_path, element.id)
              for element in JSMN.elements}
    names = sorted(images)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            share = shape_difference(images[a], images[b])
            assert share > 0.08, (a, b, share)


def test_quick_reference_and_tally(kit: dict[str, Path]) -> None:
    text = flattened(" ".join(page_texts(kit["reference"])))
    for heading in ("A year", "A turn", "Visits", "Magic", "Confronting the fairy", "Scoring", "The six elements",
                    "Actions", "Connexions", "Notes on the rulebook"):
        assert heading in text, heading
    for rule_id in ("jsmn.fairy.confront", "jsmn.end.tie", "jsmn.move.london", "jsmn.magic.available",
                    "jsmn.turn.order", "jsmn.magicianship.total"):
        assert flattened(JSMN.rule(rule_id).text) in text, rule_id
    for note in JSMN.notes:
        assert flattened(note.text) in text, note.id
    (tally,) = page_texts(kit["tally"])
    flat = flattened(tally)
    assert all(m.name in flat for m in JSMN.magicians)
    assert flat.count("Total magicianship") == 4 and flat.count("Pupil connexion (+3, tick)") == 4
    assert all(flat.count(str(year)) == 4 for year in JSMN.tracks.raven_years)


# -- print options ----------------------------------------------------------------------------------

def test_documents_and_page_counts(kit: dict[str, Path]) -> None:
    counts = {name: len(PdfReader(path).pages) for name, path in kit.items()}
    assert counts == {"deck": 42, "map": 9, "boards": 4, "tokens": 2, "reference": counts["reference"], "tally": 1}
    assert 2 <= counts["reference"] <= 5
    plan = plan_build(BuildOptions(game="jsmn"))
    assert [d.document.name for d in plan.documents] == ["deck", "map", "boards", "tokens", "reference", "tally"]
    assert plan.total_work == 189 + 5


def test_every_page_has_boxes_and_standard_font_text(kit: dict[str, Path]) -> None:
    for name, path in kit.items():
        reader = PdfReader(path)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        for page in reader.pages:
            media, bleed, trim = page.mediabox, page.bleedbox, page.trimbox
            assert media.left <= bleed.left <= trim.left and trim.right <= bleed.right <= media.right, name
        text = "".join(page_texts(path))
        assert not {ch for ch in text if ch != "?" and ch.encode("cp1252", errors="replace") == b"?"}, name


def test_same_input_same_bytes(kit: dict[str, Path], tmp_path: Path) -> None:
    again = {p.stem: p for p in build(BuildOptions(game="jsmn", out_dir=tmp_path))}
    for name, path in kit.items():
        assert again[name].read_bytes() == path.read_bytes(), name


def test_letter_paper_and_mini_cards(variant: Callable[..., dict[str, Path]]) -> None:
    kit = variant(paper="Letter", card_size="mini", documents=("deck", "tokens"))
    deck = PdfReader(kit["deck"])
    assert float(deck.pages[0].mediabox.height) == pytest.approx(LETTER[1], abs=0.01)
    # 18 mini cards a sheet either way round, the decks on shared sheets: 11 sheets (a fresh one each: 13)
    assert len(deck.pages) == 2 * 11
    texts = qr_texts(kit["deck"], 2 * 9)   # sheet 10: cards 163-180, the last books and the first Marseilles
    assert texts == sorted(card_url("jsmn", c.id) for c in JSMN.cards if 163 <= c.number <= 180)


def test_ink_saver_drops_the_heavy_fills(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    saver = variant(ink_saver=True, documents=("deck", "tokens", "map", "boards"))

    def mean(path: Path, page: int) -> float:
        return float(ImageStat.Stat(rendered(path, page, 30)).mean[0]) / 255
    assert mean(kit["deck"], 1) < 0.5 and mean(saver["deck"], 1) > 0.88
    # the one token sheet is half tokens: white grounds with outlines lighten it by more than a tenth
    assert mean(kit["tokens"], 0) < 0.85 and mean(saver["tokens"], 0) > mean(kit["tokens"], 0) + 0.1
    assert mean(kit["map"], 2) < mean(saver["map"], 2) - 0.05
    assert mean(saver["boards"], 0) > mean(kit["boards"], 0)


def test_no_duplex_and_back_offsets(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    pages = page_texts(variant(duplex=False, documents=("deck",))["deck"])
    assert len(pages) == 42   # every front sheet, then every back sheet
    assert "invitations + introductions · fronts · sheet 6/21" in pages[5]
    assert "invitations · backs · sheet 1/21" in pages[21]
    shifted = variant(back_offset_x=2.0, back_offset_y=-1.0, documents=("deck", "tokens"))
    for name in ("deck", "tokens"):
        plain, moved = PdfReader(kit[name]).pages, PdfReader(shifted[name]).pages
        assert float(moved[1].trimbox.left - plain[1].trimbox.left) == pytest.approx(2.0 * mm, abs=0.01), name
        assert float(moved[1].trimbox.bottom - plain[1].trimbox.bottom) == pytest.approx(-1.0 * mm, abs=0.01), name
        assert moved[0].get_contents().get_data() == plain[0].get_contents().get_data(), name


def test_no_crop_marks_also_drops_the_poster_cut_marks(kit: dict[str, Path],
                                                        variant: Callable[..., dict[str, Path]]) -> None:
    plain = variant(crop_marks=False, documents=("map",))["map"]
    px = 127 / 25.4
    window = (int(8 * px), int(2 * px), int(12 * px), int(8 * px))  # beside the top-left corner's vertical cut mark
    assert rendered(kit["map"], 1, 127).crop(window).getextrema()[0] < 128
    assert rendered(plain, 1, 127).crop(window).getextrema()[0] > 240


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_every_letter_of_a_magician_board_lies_inside_its_frame(kit: dict[str, Path],
                                                               variant: Callable[..., dict[str, Path]],
                                                               paper: str) -> None:
    """The frame is drawn 7.5 mm inside the paper (2.5 mm outside the 10 mm margin); on Letter the connexion
    column's caption once ran past it."""
    import pypdfium2 as pdfium

    path = kit["boards"] if paper == "A4" else variant(paper="Letter", documents=("boards",))["boards"]
    document = pdfium.PdfDocument(path)
    try:
        for index in range(len(document)):
            page = document[index]
            width, _height = page.get_size()
            text = page.get_textpage()
            boxes = [text.get_charbox(i) for i in range(text.count_chars())]
            boxes = [b for b in boxes if b[2] > b[0]]  # spaces have no box
            assert len(boxes) > 500, index
            frame = 7.5 * mm
            assert max(b[2] for b in boxes) <= width - frame - 0.5, (paper, index)
            assert min(b[0] for b in boxes) >= frame + 0.5, (paper, index)
    finally:
        document.close()


def test_a_feats_title_rule_stops_beside_its_magicianship_badge(tmp_path: Path) -> None:
    # the rule under a feat's name ran the card's whole width: across the ink-saver ring and its number, and
    # out on both sides of the star in full colour; it now ends before the badge (the ring in ink-saver mode
    # tells where the badge is, the star in full colour sits on the same centre)
    import io

    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.jsmn.deck import card_fronts
    from cardgen.render.options import resolve
    from cardgen.render.print_specs import print_specs

    class Recording(Canvas):
        def __init__(self) -> None:
            super().__init__(io.BytesIO())
            self.lines: list[tuple[float, float, float, float]] = []
            self.circles: list[tuple[float, float, float]] = []

        def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
            self.lines.append((x1, y1, x2, y2))
            super().line(x1, y1, x2, y2)

        def circle(self, x: float, y: float, r: float, stroke: int = 1, fill: int = 0) -> None:
            self.circles.append((x, y, r))
            super().circle(x, y, r, stroke=stroke, fill=fill)

    def drawn(ink_saver: bool) -> list[Recording]:
        resolved = resolve(BuildOptions(game="jsmn", ink_saver=ink_saver, out_dir=tmp_path), print_specs())
        canvases = []
        for front in card_fronts(content("jsmn"), resolved, "feat"):
            canvas = Recording()
            front.draw(canvas, 3.0)
            canvases.append(canvas)
        return canvases

    def header_rule(canvas: Recording) -> tuple[float, float]:
        rules = [(y1, x2) for x1, y1, x2, y2 in canvas.lines if y1 == y2 and x2 - x1 > 20 * mm]
        return max(rules)   # the highest long rule: the one under the name

    saver, colour = drawn(True), drawn(False)
    assert len(saver) == len(colour) == 33
    for ringed, starred in zip(saver, colour, strict=True):
        x, _y, r = max(ringed.circles)   # the badge's ring: the rightmost circle
        for canvas in (ringed, starred):
            rule_y, rule_end = header_rule(canvas)
            assert rule_end < x - r * 1.3, (rule_end / mm, (x - r) / mm)   # the star reaches 1.05/0.8 of the ring


def test_mixed_sheet_captions_keep_side_and_sheet_before_the_deck_names(kit: dict[str, Path]) -> None:
    """The print audit: on mixed sheets the caption was cut to the deck names alone, dropping "fronts/backs" and the
    sheet number, the part that sorts loose pages."""
    from cardgen.render.faces import text_width
    from cardgen.render.imposition import LABEL_FONT, LABEL_SMALLEST, _fitting_label

    names = "Strange & Norrell named connexions + books of magic"
    text = f"{names} · fronts · sheet 18/21 · cards 150–158"

    def room(label: str) -> float:
        return text_width(label, LABEL_FONT, LABEL_SMALLEST) + 0.5

    assert _fitting_label(text, room(text)) == (text, pytest.approx(LABEL_SMALLEST, abs=0.6))
    assert _fitting_label(text, room(f"{names} · fronts · sheet 18/21"))[0] == f"{names} · fronts · sheet 18/21"
    assert _fitting_label(text, room(names))[0] == "fronts · sheet 18/21 · cards 150–158"
    assert _fitting_label(text, room("fronts · sheet 18/21"))[0] == "fronts · sheet 18/21"
    assert _fitting_label(text, room("fronts"))[0] == "fronts"
    assert _fitting_label(text, 1.0) is None
    dotted = "Barony: Sorcery · tokens · fronts · sheet 1/1 · tokens 1–104"  # a name holding the separator
    assert _fitting_label(dotted, room("fronts · sheet 1/1 · tokens 1–104"))[0] == "fronts · sheet 1/1 · tokens 1–104"
    pages = page_texts(kit["deck"])
    for number, page in enumerate(pages, 1):
        side = "fronts" if number % 2 else "backs"
        assert re.search(rf"{side} · sheet {(number + 1) // 2}/{len(pages) // 2}\b", page), (number, page[-160:])


def test_the_no_duplex_words_say_what_the_build_does() -> None:
    """--no-duplex writes every front sheet, then every back (test_no_duplex_and_back_offsets); the help and the
    docs said each deck's backs followed that deck's fronts."""
    from click.testing import CliRunner

    from cardgen.cli import main

    help_text = " ".join(CliRunner().invoke(main, ["build", "--help"]).output.split())
    assert "every front sheet of a document comes first, then all their backs" in help_text
    docs = Path(__file__).resolve().parents[1] / "docs"
    for name in ("print-kit.md", "printing.md"):
        text = " ".join((docs / name).read_text(encoding="utf-8").split())
        assert "that deck's fronts" not in text and "every front sheet of a document first" in text, name


def test_of_the_cards_printed_before_the_plural_fix_only_those_whose_words_changed_are_out_of_date() -> None:
    """Versions digested every label of the game: fixing the feats' plural changed all 189 cards' versions, so
    every printed card said "changed since your print". Now a version digests the words its own faces draw,
    and a card whose face is as it was keeps the version printed on it (pinned). Changed since: the feats that
    read "1 bird", and the books that print the tokens they give ("2 tokens of birds", was "2 birds tokens")."""
    import json
    import sys

    from cardgen.catalog.versions import card_version

    path = Path(sys.modules[type(JSMN).__module__].__file__ or "").with_name("versions_before_words.json")
    pinned = json.loads(path.read_text(encoding="utf-8"))["cards"]
    assert set(pinned) == {card.id for card in JSMN.cards}
    reworded = {f.id for f in JSMN.feats if any(n == 1 and e in ONE for e, n in f.requires)}
    giving_tokens = {b.id for b in JSMN.books if b.form in ("double", "convert")}  # "any" gives a token of any element
    out_of_date = {card.id for card in JSMN.cards if card_version(card) != pinned[card.id][0]}
    assert out_of_date == reworded | giving_tokens and (len(reworded), len(giving_tokens)) == (20, 12)
    from cardgen.render.face_words import printed_words

    said = {b.form: [w for w in printed_words(JSMN, b) or [] if "token" in w] for b in JSMN.books if b.element == "birds"}
    assert said == {"double": ["2 tokens of birds"], "convert": ["1 token of birds"], "any": ["1 token of any element"]}
