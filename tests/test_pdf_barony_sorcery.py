"""The Barony: Sorcery print kit: spell cards, hex Territory tiles, tokens, reference sheets and setup card.

QR codes are decoded from full sheets rendered at 200 dpi; the hex size is measured on the rendered tiles.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner
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
from PIL import ImageStat
from pypdf import PdfReader
from reportlab.lib.units import mm

from cardgen.catalog import content
from cardgen.catalog.barony_sorcery import (
    CATEGORY_SYMBOLS,
    PLAYER_SYMBOLS,
    BaronySorceryContent,
)
from cardgen.cli import main
from cardgen.render import BuildError, BuildOptions, build, plan_build
from cardgen.render.barony_sorcery.style import CATEGORY_INKS, TERRAIN_INKS
from cardgen.render.barony_sorcery.symbols import (
    CATEGORY_DRAWERS,
    PLAYER_DRAWERS,
    TERRAIN_DRAWERS,
)
from cardgen.render.barony_sorcery.tiles import HexGeometry, TileSheet, plan_tile_sheet
from cardgen.render.print_specs import print_specs

BARONY: BaronySorceryContent = content("barony-sorcery")
DOCUMENTS = ["deck", "player-sheet", "reference", "setup", "tiles", "tokens"]
A4 = (210 * mm, 297 * mm)
SPECS = print_specs()
PAPER_A4 = SPECS.paper("A4")


def _centre(corners: list[tuple[float, float]]) -> tuple[float, float]:
    return (sum(c[0] for c in corners) / len(corners), sum(c[1] for c in corners) / len(corners))


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_kit("barony-sorcery", tmp_path_factory.mktemp("barony-kit"))


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., dict[str, Path]]:
    return variant_builder("barony-sorcery", tmp_path_factory)


# -- what the kit holds --------------------------------------------------------------------------

def test_build_writes_six_documents_with_their_page_counts(kit: dict[str, Path]) -> None:
    assert sorted(kit) == DOCUMENTS
    assert all(p.parent.name == "barony-sorcery" and p.stat().st_size > 3000 for p in kit.values())
    counts = {name: len(PdfReader(path).pages) for name, path in kit.items()}
    assert counts["deck"] == 2           # 9 poker cards on one A4 sheet, then its backs
    assert counts["tiles"] == 2 * 2      # 50 mm hexes nested: 6 tiles a sheet, each sheet followed by its backs
    assert counts["tokens"] == 2         # 104 tokens of 20 mm on one sheet, both sides
    assert counts["setup"] == 2          # an A6 card, front and back
    assert counts["player-sheet"] == 1
    assert 2 <= counts["reference"] <= 4


def test_plan_names_the_documents_and_counts_every_card() -> None:
    plan = plan_build(BuildOptions(game="barony-sorcery"))
    assert [d.document.name for d in plan.documents] == ["deck", "tiles", "tokens", "reference", "player-sheet",
                                                         "setup"]
    assert [d.path.name for d in plan.documents] == ["deck.pdf", "tiles.pdf", "tokens.pdf", "reference.pdf",
                                                     "player-sheet.pdf", "setup.pdf"]
    assert plan.total_work == 9 + 5


def test_every_spell_card_shows_name_category_cost_and_effect(kit: dict[str, Path]) -> None:
    front, back = page_texts(kit["deck"])
    flat = flattened(front)
    for card in BARONY.cards:
        spell = BARONY.spell(card.spell)
        BARONY.category(spell.category)  # the spell names a category the content has
        assert card.name in [line.strip() for line in front.splitlines()], card.id
        assert f"spell {card.number}/9" in front
        assert flattened(spell.text) in flat, card.id
    assert flat.count("MOVEMENT SPELL") == flat.count("RECRUITMENT SPELL") == flat.count("CONSTRUCTION SPELL") == 3
    assert flat.count("cost 1 Magic token") - flat.count("cost 1 Magic tokens") == 6
    assert flat.count("cost 2 Magic tokens") == 3 and flat.count("MAGIC") == 9
    assert "Barony: Sorcery spells · fronts · sheet 1/1 · cards 1–9" in front
    assert flattened(back).count("SPELL") == 9 and "Velocity" not in back   # one back for all: they are drawn at random


def _slot_box(col: int, row: int) -> tuple[float, float]:
    """Top-left corner (mm) of a poker card on the default A4 sheet (3 × 3 grid, no gutter)."""
    return (210 - 189) / 2 + col * 63, (297 - 264) / 2 + row * 88


def test_category_by_frame_colour_and_cost_on_the_left(kit: dict[str, Path]) -> None:
    image = rendered(kit["deck"], 0, 100, "RGB")
    px = 100 / 25.4
    for number, card in enumerate(BARONY.cards):
        x, y = _slot_box(number % 3, number // 3)
        pixel = image.getpixel((int((x + 1.2) * px), int((y + 44) * px)))  # the frame beside the panel
        expected = CATEGORY_INKS[BARONY.category(card.category).colour]
        wanted = tuple(int(expected[i:i + 2], 16) for i in (1, 3, 5))
        assert isinstance(pixel, tuple) and max(abs(a - b) for a, b in zip(pixel, wanted, strict=True)) < 12, card.id
    # the cost numeral sits in the left column: the card's leftmost large text is its cost
    reader = PdfReader(kit["deck"])
    found: list[tuple[float, str]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        if text.strip() in ("1", "2") and size * tm[0] > 15:
            found.append((tm[4] * cm[0] + tm[5] * cm[2] + cm[4], text.strip()))  # page x of the numeral
    reader.pages[0].extract_text(visitor_text=visit)
    costs = Counter(value for _, value in found)
    assert costs == {"1": 6, "2": 3}
    for x, _ in found:  # every cost numeral lies in the 12.5 mm column inside its card's left border
        offset = (x / mm - _slot_box(0, 0)[0]) % 63
        assert 3 < offset < 3 + 12.5 - 3, offset


def test_qr_codes_on_the_sheet_decode_to_the_card_pages(kit: dict[str, Path]) -> None:
    results = qr_codes(kit["deck"], 0)
    assert sorted(r.text for r in results) == sorted(card_url("barony-sorcery", c.id) for c in BARONY.cards)
    for r in results:
        width_mm = (r.position.top_right.x - r.position.top_left.x) / 200 * 25.4
        assert width_mm >= 13.5, (r.text, width_mm)


def test_base_url_goes_into_the_qr_codes(variant: Callable[..., dict[str, Path]]) -> None:
    deck = variant(base_url="https://table.example.org/play/", documents=("deck",))["deck"]
    texts = qr_texts(deck, 0)
    assert texts == sorted(card_url("barony-sorcery", c.id, "https://table.example.org/play") for c in BARONY.cards)


# -- hex tiles ----------------------------------------------------------------------------------------

def test_tiles_hold_every_land_and_location(kit: dict[str, Path]) -> None:
    pages = page_texts(kit["tiles"])
    fronts = flattened(" ".join(pages[0::2]))
    for tile in BARONY.tiles:
        if tile.mysterious:
            assert tile.location in fronts, tile.id
    assert fronts.count("MYSTERIOUS LOCATION") == 5 and fronts.count("magic 3 · 2 · 1 · no building") == 5
    assert [n for n in range(1, 10) if f"Barony: Sorcery · tile {n}" in fronts] == list(range(1, 10))
    lands = Counter(h for t in BARONY.tiles for h in t.hexes if h != "mysterious")
    for land, count in lands.items():
        assert fronts.count(land.upper()) == count, land
    assert "Barony: Sorcery tiles (50 mm hexes) · fronts · sheet 1/2 · tiles 1–6" in pages[0]
    assert "backs · sheet 1/2" in pages[1] and "tiles 7–9" in pages[2]
    # the tiles a front page holds, counted by their numbers: 6 on the first sheet, the other 3 on the second
    assert [[n for n in range(1, 10) if f"tile {n}" in flattened(page)] for page in pages[0::2]] == \
        [[1, 2, 3, 4, 5, 6], [7, 8, 9]]


def test_default_hex_size_is_the_data_s_50_mm(kit: dict[str, Path]) -> None:
    assert BARONY.hex_size_mm == 50.0 and BARONY.hex_size_provenance == "authored"
    page = PdfReader(kit["tiles"]).pages[0]
    # six tiles turned a quarter: two strips of three, each strip five hexes (250 mm) long plus two gaps, the
    # two strips four rows of hexes deep (1 + 3 × 0.75 corner-to-corner heights) plus the strips' gap
    corners = 100 / math.sqrt(3)
    trim_w, trim_h = float(page.trimbox.width) / mm, float(page.trimbox.height) / mm
    assert 250 + 2 * 2 <= trim_h <= 250 + 2 * 6 + 1e-6
    assert corners * 3.25 + 2 <= trim_w <= corners * 3.25 + 2 * 6 + 1e-6
    assert "50 mm hexes" in str(PdfReader(kit["tiles"]).metadata.title)


def _run(image: Any, start: tuple[int, int], step: tuple[int, int], ink: tuple[int, ...]) -> int:
    """How many pixels from ``start`` (inclusive) along ``step`` keep within 40 of ``ink``."""
    x, y, n = start[0], start[1], 0
    while 0 <= x < image.width and 0 <= y < image.height and \
            max(abs(a - b) for a, b in zip(image.getpixel((x, y)), ink, strict=True)) < 40:
        x, y, n = x + step[0], y + step[1], n + 1
    return n


def _rgb(ink: str) -> tuple[int, ...]:
    return tuple(int(ink[i:i + 2], 16) for i in (1, 3, 5))


def test_hex_size_option_measured_on_the_rendered_tile(variant: Callable[..., dict[str, Path]]) -> None:
    """Hexes 40 mm across flats, no bleed: eight tiles a sheet; tile 1's Plains space (bottom left) measures
    40 mm from flat to flat at its centre line, and its Mysterious top space sits above the seam of the two
    below (its left flat 20 mm right of the Plains space's)."""
    tiles = variant(hex_size=40.0, bleed=0.0, documents=("tiles",))["tiles"]
    sheet = plan_tile_sheet(PAPER_A4, HexGeometry(40.0), 0.0, SPECS.sheet, 9)
    assert "(40 mm hexes)" in page_texts(tiles)[0] and f"tiles 1–{sheet.per_sheet}" in page_texts(tiles)[0]
    assert len(PdfReader(tiles).pages) == 2 * sheet.sheets_for(9)
    place = sheet.places[0]
    top, _, bottom_left = [_centre(c) for c in sheet.hexes(place)]
    dpi = 200
    px = dpi / 25.4
    image = rendered(tiles, 0, dpi, "RGB")
    # across the flats: the tile's own x axis, turned with the tile (pixels run downwards)
    ux, uy = round(math.cos(math.radians(place.turn))), round(math.sin(math.radians(place.turn)))
    step = (ux, -uy)

    def at(point: tuple[float, float]) -> tuple[int, int]:
        return int(point[0] * px), int((297 - point[1]) * px)

    def along(pixel: tuple[int, int]) -> float:   # position along the tile's x axis, mm
        return (pixel[0] * ux - pixel[1] * uy) / px
    def flat(centre: tuple[float, float], sign: int, ink: tuple[int, ...]) -> float:
        """Where a space's flat lies along the tile's x axis (mm): the end of the run of its colour from
        17 mm off its centre (clear of the picture and the words) outwards."""
        start = at((centre[0] + sign * 17 * ux, centre[1] + sign * 17 * uy))
        run = _run(image, start, (sign * step[0], sign * step[1]), ink)
        return along(start) + sign * (run - 0.5) / px
    plains = _rgb(TERRAIN_INKS["plains"])
    assert flat(bottom_left, 1, plains) - flat(bottom_left, -1, plains) == pytest.approx(40.0, abs=0.4)
    dark = _rgb(TERRAIN_INKS["mysterious"])
    assert flat(top, -1, dark) - flat(bottom_left, -1, plains) == pytest.approx(20.0, abs=0.4)


PLANS = [(paper, hex_size, bleed) for paper in ("A4", "Letter")
         for hex_size, bleed in ((50, 3), (50, 0), (40, 0), (40, 3), (30, 3), (60, 2), (20, 3), (25, 1.5))]


def _separation(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    """A lower bound of the distance between two hexes of the same orientation (negative when they
    overlap): the widest of their gaps along the three directions square to their edges."""
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    best = -math.inf
    for k in range(3):
        (x0, y0), (x1, y1) = a[k], a[k + 1]
        nx, ny = y1 - y0, x0 - x1
        length = math.hypot(nx, ny)
        nx, ny = nx / length, ny / length
        apothem = abs((x0 + x1) / 2 - ax) * abs(nx) + abs((y0 + y1) / 2 - ay) * abs(ny)
        best = max(best, abs((bx - ax) * nx + (by - ay) * ny) - 2 * apothem)
    return best


@pytest.mark.parametrize("paper,hex_size,bleed", PLANS)
def test_nested_tiles_inside_the_printable_area_apart_and_backed(paper: str, hex_size: float, bleed: float) -> None:
    """Every tile with its bleed lies inside the 5 mm printable margin and above the label band; no two tiles'
    outlines overlap, the gap between them keeping both bleeds (at least 1 mm of each); each back's centre is
    its front's mirrored across the sheet's vertical axis and its outline the mirror of the front's."""
    from cardgen.render.barony_sorcery.tiles import LABEL_BAND
    sheet: TileSheet = plan_tile_sheet(SPECS.paper(paper), HexGeometry(hex_size), bleed, SPECS.sheet, 9)
    w, h, margin = sheet.paper.width, sheet.paper.height, SPECS.sheet.margin
    assert sheet.per_sheet >= 2
    assert 2 * min(bleed, 1.0) - 1e-9 <= sheet.gap <= 2 * bleed + 1e-9
    for place in sheet.places:
        for x, y in (c for corners in sheet.hexes(place, bleed) for c in corners):
            assert margin < x < w - margin and margin + LABEL_BAND < y < h - margin, (place, x, y)
    outlines = [sheet.hexes(place) for place in sheet.places]
    for i, j in itertools.combinations(range(len(outlines)), 2):
        for a in outlines[i]:
            for b in outlines[j]:
                assert _separation(a, b) >= sheet.gap - 1e-6, (paper, hex_size, bleed, i, j)
    for place, corners in zip(sheet.places, outlines, strict=True):
        back = sheet.back(place)
        assert abs(back.x - (w - place.x)) < 0.1 and abs(back.y - place.y) < 0.1
        mirrored = [(w - x, y) for c in corners for x, y in c]
        for x, y in (p for c in sheet.hexes(back) for p in c):
            assert min(math.hypot(x - mx, y - my) for mx, my in mirrored) < 0.1, (place, x, y)


def test_fifty_mm_tiles_six_a_sheet_on_a4_and_letter(kit: dict[str, Path],
                                                      variant: Callable[..., dict[str, Path]]) -> None:
    """9 tiles of 50 mm hexes: 2 duplex sheets (4 pages) on both papers (they took 5 sheets, 10 pages)."""
    letter = variant(paper="Letter", documents=("tiles",))["tiles"]
    for path in (kit["tiles"], letter):
        reader = PdfReader(path)
        assert len(reader.pages) == 4 and "6 per sheet" in str(reader.metadata.subject)
        texts = [flattened(t) for t in page_texts(path)]
        assert [sum(f"tile {n}" in t for n in range(1, 10)) for t in texts[0::2]] == [6, 3]


def test_cut_outlines_only_round_the_tiles_a_sheet_holds(kit: dict[str, Path],
                                                         variant: Callable[..., dict[str, Path]]) -> None:
    """Each tile strokes its cut outline in the cut line's grey: 6 outlines on each side of the first sheet,
    3 on the second (which holds 3 tiles), none without crop marks."""
    from cardgen.render.barony_sorcery.tiles import CUT_LINE
    grey = " ".join(f"{int(CUT_LINE[i:i + 2], 16) / 255:.6f}".strip("0") for i in (1, 3, 5)) + " RG"  # as written

    def outlines(path: Path) -> list[int]:
        return [page.get_contents().get_data().decode("latin-1").count(grey) for page in PdfReader(path).pages]
    assert outlines(kit["tiles"]) == [6, 6, 3, 3]
    assert outlines(variant(crop_marks=False, documents=("tiles",))["tiles"]) == [0, 0, 0, 0]


def test_every_tile_and_back_is_drawn_where_planned_and_nothing_paints_over_it(kit: dict[str, Path]) -> None:
    """On the rendered A4 sheet, 1 mm inside every corner of every hex is that space's own colour (front) or
    the back's colour (behind it on the next page), and between two neighbouring tiles there is ink (their
    bleeds meet), not paper. The pages' TrimBoxes mirror each other."""
    from cardgen.render.barony_sorcery.style import style_for
    sheet = plan_tile_sheet(PAPER_A4, HexGeometry(50.0), 3.0, SPECS.sheet, 9)
    dpi = 100
    px = dpi / 25.4
    pages = PdfReader(kit["tiles"]).pages
    front_trim, back_trim = pages[0].trimbox, pages[1].trimbox
    assert float(front_trim.left + back_trim.right) / mm == pytest.approx(210.0, abs=0.1)
    assert float(front_trim.bottom - back_trim.bottom) / mm == pytest.approx(0.0, abs=0.1)
    back_ink = _rgb(style_for(False).back)

    def near(image: Any, point: tuple[float, float], ink: tuple[int, ...]) -> bool:
        pixel = image.getpixel((int(point[0] * px), int((297 - point[1]) * px)))
        return max(abs(a - b) for a, b in zip(pixel, ink, strict=True)) < 40

    for page, side in ((0, "front"), (1, "back")):
        image = rendered(kit["tiles"], page, dpi, "RGB")
        for number, place in enumerate(sheet.places):
            tile = BARONY.tiles[number]
            where = place if side == "front" else sheet.back(place)
            for terrain, corners in zip(tile.hexes, sheet.hexes(where), strict=True):
                cx, cy = _centre(corners)
                ink = _rgb(TERRAIN_INKS[terrain]) if side == "front" else back_ink
                for x, y in corners:
                    d = math.hypot(x - cx, y - cy)
                    inside = (x + (cx - x) / d, y + (cy - y) / d)
                    assert near(image, inside, ink), (side, tile.number, terrain, inside)
    image = rendered(kit["tiles"], 0, dpi, "RGB")
    outlines = [sheet.hexes(place) for place in sheet.places]
    between = 0
    for i, j in itertools.combinations(range(len(outlines)), 2):
        for a in outlines[i]:
            for b in outlines[j]:
                if _separation(a, b) < sheet.gap + 0.1:
                    (ax, ay), (bx, by) = _centre(a), _centre(b)
                    pixel = image.getpixel((int((ax + bx) / 2 * px), int((297 - (ay + by) / 2) * px)))
                    assert min(pixel) < 235, (i, j, pixel)
                    between += 1
    assert between >= 7


def test_hex_size_from_the_command_line_and_out_of_range(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "barony-sorcery", "--only", "tiles", "--hex-size", "30",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "barony-sorcery" / "tiles.pdf")
    assert "30 mm hexes" in str(reader.metadata.title)
    assert "15 per sheet" in str(reader.metadata.subject) and len(reader.pages) == 2   # 30 mm hexes: one sheet
    refused = CliRunner().invoke(main, ["build", "--game", "barony-sorcery", "--hex-size", "10", "--out", str(tmp_path)])
    assert refused.exit_code == 2 and "--hex-size" in refused.output
    with pytest.raises(BuildError, match="hex size must be between 20 and 120 mm across flats, got 150"):
        plan_build(BuildOptions(game="barony-sorcery", hex_size=150.0))


# -- tokens ---------------------------------------------------------------------------------------------

def test_token_sheet_counts_both_sides(kit: dict[str, Path]) -> None:
    for side in page_texts(kit["tokens"]):
        words = Counter(flattened(side).split())
        assert words["MAGIC"] == 30
        for colour in BARONY.player_colours:
            assert words[colour.name.upper()] == 5, colour.id
        for resource in BARONY.resources:
            assert words[resource.terrain.upper()] == resource.count
        assert (words["KNIGHT"], words["CITY"], words["STRONGHOLD"], words["VILLAGE"], words["SCORE"]) == (7, 5, 2, 14, 1)
    front, back = page_texts(kit["tokens"])  # a caption too long for a token keeps its side and sheet first
    assert "fronts · sheet 1/1" in front and "backs · sheet 1/1" in back


@pytest.mark.parametrize("drawers, used", [
    (CATEGORY_DRAWERS, {c.symbol for c in BARONY.categories}),
    (PLAYER_DRAWERS, {c.symbol for c in BARONY.player_colours}),
    (TERRAIN_DRAWERS, set(TERRAIN_DRAWERS)),
])
def test_symbols_differ_in_shape_alone(tmp_path: Path, drawers: dict[str, Any], used: set[str]) -> None:
    """Drawn in black, every pair of symbols of one kind still differs in at least 8% of the square."""
    assert set(CATEGORY_DRAWERS) == set(CATEGORY_SYMBOLS) and set(PLAYER_DRAWERS) == set(PLAYER_SYMBOLS)
    images = {name: symbol_image(drawers[name], tmp_path, name) for name in used}
    for a, b in itertools.combinations(sorted(images), 2):
        share = shape_difference(images[a], images[b])
        assert share > 0.08, (a, b, share)


# -- reference sheets and setup card ---------------------------------------------------------------------

def test_reference_sheet_content(kit: dict[str, Path]) -> None:
    text = flattened(" ".join(page_texts(kit["reference"])))
    for heading in ("What the expansion adds", "Setup changes", "Exploring Mysterious locations",
                    "Casting and combining spells", "The rulebook's combination examples", "The 9 spells", "Scoring",
                    "Notes on the rulebook"):
        assert heading in text, heading
    for rule in BARONY.rules:
        if rule.id.startswith(("barony-sorcery.explore.", "barony-sorcery.cast.", "barony-sorcery.spell.",
                               "barony-sorcery.score.", "barony-sorcery.setup.")):
            assert flattened(rule.text) in text, rule.id
    for note in BARONY.notes:
        assert flattened(note.text) in text, note.id
    assert "Velocity + Teleport (1 + 1 = 2 Magic tokens)" in text
    assert "Abundance + Petrify + Sanctuary (1 + 1 + 2 = 4 Magic tokens)" in text
    for row in ("2 18 3 0 15", "3 27 4 0 23", "4 36 5 0 31", "5 45 5 4 36"):
        assert row in text, row


def test_player_sheet_and_fifth_player_pieces(kit: dict[str, Path]) -> None:
    (text,) = page_texts(kit["player-sheet"])
    flat = flattened(text)
    for pieces in ("7 Knights", "5 Cities", "2 Strongholds", "14 Villages", "1 Score counter", "5 Control tokens"):
        assert pieces in flat, pieces
    assert "The fifth player's pieces (Purple, symbol: star)" in flat
    for spell in BARONY.spells:
        assert flattened(spell.text) in flat, spell.id


def test_setup_card_front_and_back(kit: dict[str, Path]) -> None:
    front, back = (flattened(t) for t in page_texts(kit["setup"]))
    for row in ("2 18 3 0 15", "3 27 4 0 23", "4 36 5 0 31", "5 45 5 4 36"):
        assert row in front, row
    assert "2 players: 3, 3 players: 4, 4 players: 5, 5 players: 5" in front
    assert "1 Standing Stones, 2 Whispering Well, 3 Ruined Tower, 4 Fairy Ring, 5 Forgotten Shrine" in front
    assert "setup card · fronts" in front and "setup card · backs" in back
    assert flattened(BARONY.rule("barony-sorcery.setup.spells").text) in back
    assert front.count("2 18 3 0 15") == 2 and "cards 1–2" in front, "two copies: the sheet is not left empty"


# -- print properties ---------------------------------------------------------------------------------

def test_boxes_paper_scaling_and_fonts(kit: dict[str, Path]) -> None:
    for path in kit.values():
        reader = PdfReader(path)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        for page in reader.pages:
            media, bleed, trim = page.mediabox, page.bleedbox, page.trimbox
            assert (float(media.width), float(media.height)) == pytest.approx(A4, abs=0.01)
            assert media.left <= bleed.left <= trim.left and trim.right <= bleed.right <= media.right
        text = "".join(page_texts(path))
        missing = {ch for ch in text if not ch.isspace() and ch.encode("cp1252", errors="replace") == b"?"}
        assert not missing, (path.name, missing)


def test_same_input_same_bytes(kit: dict[str, Path], tmp_path: Path) -> None:
    again = {p.stem: p for p in build(BuildOptions(game="barony-sorcery", out_dir=tmp_path))}
    for name, path in kit.items():
        assert again[name].read_bytes() == path.read_bytes(), name


def test_ink_saver_drops_the_fills_but_keeps_the_symbols(kit: dict[str, Path],
                                                         variant: Callable[..., dict[str, Path]]) -> None:
    saver = variant(ink_saver=True, documents=("deck", "tiles", "tokens"))

    def mean(path: Path, page: int) -> float:
        return float(ImageStat.Stat(rendered(path, page, 40)).mean[0]) / 255
    assert mean(kit["deck"], 1) < 0.4 and mean(kit["tokens"], 0) < 0.7
    assert mean(saver["deck"], 0) > 0.85 and mean(saver["deck"], 1) > 0.9 and mean(saver["tokens"], 0) > 0.85
    assert mean(saver["tiles"], 0) > 0.85
    assert flattened(page_texts(saver["deck"])[0]).count("MOVEMENT SPELL") == 3
    assert qr_texts(saver["deck"], 0) == \
        sorted(card_url("barony-sorcery", c.id) for c in BARONY.cards)


def test_no_duplex_and_back_offset(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    simplex = page_texts(variant(duplex=False, documents=("tiles",))["tiles"])
    assert "fronts · sheet 2/2" in simplex[1] and "backs · sheet 1/2" in simplex[2]
    shifted = variant(back_offset_x=2.0, documents=("deck", "tokens"))
    for name in ("deck", "tokens"):
        plain, moved = PdfReader(kit[name]).pages, PdfReader(shifted[name]).pages
        assert moved[0].get_contents().get_data() == plain[0].get_contents().get_data(), name
        assert float(moved[1].trimbox.left - plain[1].trimbox.left) == pytest.approx(2.0 * mm, abs=0.01), name


def test_letter_paper_and_no_crop_marks(variant: Callable[..., dict[str, Path]]) -> None:
    letter = variant(paper="Letter", crop_marks=False, documents=("deck", "tokens"))
    page = PdfReader(letter["deck"]).pages[0]
    assert float(page.mediabox.height) == pytest.approx(279.4 * mm, abs=0.01)
    assert len(PdfReader(letter["tokens"]).pages) == 2


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_gutter_fold_tiles_nest_several_a_page_with_their_backs_mirrored_about_the_fold(paper: str,
                                                                                        tmp_path: Path) -> None:
    """Gutter-fold tiles are nested on the front half like the duplex sheets (they took a page each, in
    rectangles): 2 tiles of 50 mm hexes a page, so the 9 tiles print on 5 pages, not 9; every front with its
    bleed stays inside the half page's printable margin, its back is its mirror about the fold, and the
    smaller the hexes the fewer the pages."""
    from cardgen.render.barony_sorcery.tiles import plan_folded_tiles
    pages = {}
    for hex_size in (50.0, 40.0, 30.0):
        fold = plan_folded_tiles(SPECS.paper(paper), HexGeometry(hex_size), 3.0, SPECS.sheet, 9)
        margin, middle = SPECS.sheet.margin, fold.width / 2
        for place in fold.half.places:
            for x, y in (c for corners in fold.half.hexes(place, 3.0) for c in corners):
                assert margin < x < middle - margin and margin < y < fold.height - margin, (hex_size, place, x, y)
            back = fold.back(place)
            for x, y in (c for corners in fold.half.hexes(back, 3.0) for c in corners):
                assert middle + margin < x < fold.width - margin, (hex_size, back, x, y)
            front = sorted((round(x, 3), round(y, 3)) for c in fold.half.hexes(place) for x, y in c)
            mirrored = sorted((round(fold.width - x, 3), round(y, 3)) for c in fold.half.hexes(back) for x, y in c)
            assert max(math.hypot(a[0] - b[0], a[1] - b[1]) for a, b in zip(front, mirrored, strict=True)) < 0.01
        [path] = build(BuildOptions(game="barony-sorcery", paper=paper, gutter_fold=True, documents=("tiles",),
                                    hex_size=hex_size, out_dir=tmp_path / f"{hex_size:g}"))
        reader = PdfReader(path)
        pages[hex_size] = len(reader.pages)
        assert pages[hex_size] == -(-9 // fold.half.per_sheet)
        assert "fold on the dashed line" in flattened(reader.pages[0].extract_text())
        texts = [flattened(page.extract_text()) for page in reader.pages]
        assert sorted(n for n in range(1, 10) for t in texts if f"tile {n}" in t) == list(range(1, 10))
    assert pages[50.0] == 5 and pages[50.0] > pages[40.0] >= pages[30.0]
