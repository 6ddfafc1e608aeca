"""The whole print kit as a printer sees it, on A4 and on Letter: every font embedded, nothing printed in
the 5 mm band along the paper edge that home printers cannot reach."""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from cardgen.render import BuildOptions, build
from cardgen.render.registry import game_documents

PAPERS = ("A4", "Letter")
PRINTABLE_MARGIN_MM = 5.0
#: Rendering puts a soft edge of about half a pixel around marks lying right on the 5 mm line.
BAND_MM = PRINTABLE_MARGIN_MM - 0.25
DPI = 100


@pytest.fixture(scope="module", params=PAPERS)
def kit(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Path]]:
    """Every game's every document on one paper size (the default options otherwise)."""
    paper = request.param
    out = tmp_path_factory.mktemp(f"kit-{paper}")
    return paper, build(BuildOptions(game="all", paper=paper, out_dir=out, base_url="https://cards.example.org"))


def _fonts(resources: Any, seen: set[int]) -> list[tuple[str, DictionaryObject]]:
    """Every font a resource dictionary uses, forms (XObjects) included, as (name, font dictionary)."""
    found: list[tuple[str, DictionaryObject]] = []
    if resources is None:
        return found
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        found.append((str(font.get("/BaseFont")), font))
    for xobject in (resources.get("/XObject") or {}).values():
        if id(xobject.get_object()) in seen:
            continue
        seen.add(id(xobject.get_object()))
        form = xobject.get_object()
        if form.get("/Subtype") == "/Form":
            found += _fonts(form.get("/Resources"), seen)
    return found


def _embedded(font: DictionaryObject) -> bool:
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:  # the 14 base fonts carry none: the viewer substitutes them
        return False
    descriptor = descriptor.get_object()
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def test_every_font_of_every_document_is_embedded(kit: tuple[str, list[Path]]) -> None:
    paper, paths = kit
    assert len(paths) >= 20
    for path in paths:
        reader = PdfReader(path)
        names: set[str] = set()
        for number, page in enumerate(reader.pages, 1):
            for name, font in _fonts(page.get("/Resources"), set()):
                names.add(name)
                assert _embedded(font), f"{paper} {path.parent.name}/{path.name} page {number}: {name} is not embedded"
        assert names, f"{path} uses no font at all"
        assert not any("Helvetica" in n or "Times" in n for n in names), names


def _ink_in_band(image: Image.Image, band_px: int) -> list[str]:
    """Which edges of a greyscale page have ink within ``band_px`` of the paper edge."""
    width, height = image.size
    boxes = {"left": (0, 0, band_px, height), "right": (width - band_px, 0, width, height),
             "bottom": (0, height - band_px, width, height), "top": (0, 0, width, band_px)}
    return [edge for edge, box in boxes.items() if image.crop(box).getextrema()[0] < 250]


def test_nothing_is_printed_within_5_mm_of_the_paper_edge(kit: tuple[str, list[Path]]) -> None:
    paper, paths = kit
    band_px = int(BAND_MM / 25.4 * DPI)
    problems = []
    for path in paths:
        document = pdfium.PdfDocument(str(path))
        for number in range(len(document)):
            image = document[number].render(scale=DPI / 72).to_pil().convert("L")
            edges = _ink_in_band(image, band_px)
            if edges:
                problems.append(f"{path.parent.name}/{path.name} page {number + 1}: {', '.join(edges)}")
        document.close()
    assert problems == [], f"{paper}: ink within {BAND_MM} mm of the edge:\n" + "\n".join(problems)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("card_size", ["poker", "bridge", "tarot", "mini"])
@pytest.mark.parametrize("gutter", [0.0, 2.0, 6.0])
def test_every_crop_mark_prints_at_least_1_5_mm_inside_the_margin(paper: str, card_size: str, gutter: float) -> None:
    from cardgen.render import plan_layout, print_specs
    from cardgen.render.imposition import (
        crop_mark_segments,
        registration_diameter,
        registration_points,
    )

    specs = print_specs()
    rules = specs.sheet
    layout = plan_layout(specs.paper(paper), specs.card_size(card_size), 3.0, rules, gutter)
    w, h, m = layout.paper.width, layout.paper.height, PRINTABLE_MARGIN_MM
    segments = crop_mark_segments(layout, rules)
    xs, ys = layout.cut_lines()
    assert len(segments) == 2 * (len(xs) + len(ys)), "every cut has a mark at both ends"
    outer = layout.bleed_area
    for x0, y0, x1, y1 in segments:
        assert abs(x1 - x0) + abs(y1 - y0) >= 1.5 - 1e-9
        assert all(m - 1e-9 <= x <= w - m + 1e-9 for x in (x0, x1)), (x0, x1)
        assert all(m - 1e-9 <= y <= h - m + 1e-9 for y in (y0, y1)), (y0, y1)
        inside_x = outer.x < min(x0, x1) and max(x0, x1) < outer.right
        inside_y = outer.y < min(y0, y1) and max(y0, y1) < outer.top
        assert not (inside_x and inside_y), "a crop mark never lies on the printed bleed"
    radius = registration_diameter(layout, rules) / 2   # smaller where the margins are tight
    for x, y in registration_points(layout, rules):
        assert m <= x - radius and x + radius <= w - m and m <= y - radius and y + radius <= h - m
    if (card_size == "poker" or paper == "A4" and card_size == "bridge") and gutter == 0.0:
        assert layout.per_sheet == 9, f"{card_size} on {paper}: {layout.per_sheet} a sheet"


def test_crop_marks_only_for_slots_that_hold_a_card() -> None:
    from cardgen.render import plan_layout, print_specs
    from cardgen.render.imposition import crop_mark_segments

    specs = print_specs()
    layout = plan_layout(specs.paper("A4"), specs.card_size("poker"), 3.0, specs.sheet)
    assert len(crop_mark_segments(layout, specs.sheet)) == 2 * (4 + 4)
    one = crop_mark_segments(layout, specs.sheet, used=1)   # the top-left card: 2 vertical and 2 horizontal cuts
    first = layout.slot(0).trim
    assert sorted({round(s[0], 4) for s in one if s[0] == s[2]}) == [round(first.x, 4), round(first.right, 4)]
    assert sorted({round(s[1], 4) for s in one if s[1] == s[3]}) == [round(first.y, 4), round(first.top, 4)]
    assert len(one) == 8


@pytest.mark.parametrize("paper", PAPERS)
def test_gutter_fold_pages_put_each_back_behind_its_front(paper: str, tmp_path: Path) -> None:
    from cardgen.render import print_specs
    from cardgen.render.gutter_fold import plan_fold_layout

    specs = print_specs()
    fold = plan_fold_layout(specs.paper(paper), specs.card_size("poker"), 3.0, specs.sheet)
    assert fold.half.per_sheet == 4
    for index in range(fold.half.per_sheet):
        front, back = fold.front_slot(index), fold.back_slot(index)
        assert back.trim.x == pytest.approx(fold.width - front.trim.right)   # folded: one on the other
        assert (back.trim.y, back.trim.height) == (front.trim.y, front.trim.height)
        assert back.rotation == -front.rotation
        assert front.bleed_rect.right <= fold.fold_x - PRINTABLE_MARGIN_MM + 1e-9
        assert back.bleed_rect.x >= fold.fold_x + PRINTABLE_MARGIN_MM - 1e-9
    paths = build(BuildOptions(game="barony-sorcery", paper=paper, gutter_fold=True, documents=("deck", "tokens"),
                               out_dir=tmp_path, base_url="https://cards.example.org"))
    deck = next(p for p in paths if p.name == "deck.pdf")
    reader = PdfReader(deck)
    assert len(reader.pages) == 3   # 9 spells, 4 a page, no separate back pages
    assert "fold on the dashed line" in reader.pages[0].extract_text()
    band_px = int(BAND_MM / 25.4 * DPI)
    for path in paths:
        document = pdfium.PdfDocument(str(path))
        for number in range(len(document)):
            image = document[number].render(scale=DPI / 72).to_pil().convert("L")
            assert _ink_in_band(image, band_px) == [], f"{path.name} page {number + 1}"
            middle = image.crop((image.width // 2 - 1, 0, image.width // 2 + 2, image.height))
            assert middle.getextrema()[0] < 230, "the fold line is printed"
        document.close()


SMALLEST_TEXT_PT = 6.0


class TextRun(NamedTuple):
    size: float       # points as printed: the font size times the vertical scale of every matrix above it
    page: int
    text: str
    miniature: bool   # drawn inside a form XObject placed at less than full size (a thumbnail of a drawing)


Matrix = tuple[float, float, float, float, float, float]


def _matrix(obj: Any) -> Matrix:
    found = pdfium_c.FS_MATRIX()
    assert pdfium_c.FPDFPageObj_GetMatrix(obj, found)
    return (found.a, found.b, found.c, found.d, found.e, found.f)


def _then(inner: Matrix, outer: Matrix) -> Matrix:
    """``inner`` then ``outer`` (PDF's row-vector order: inner x outer)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _text_objects(objects: list[Any], outer: Matrix, miniature: bool, textpage: Any,
                  page: int) -> Iterator[TextRun]:
    """The text runs among ``objects`` (forms followed down), each ``outer`` placing them on the page."""
    for obj in objects:
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM:
            placed = _then(_matrix(obj), outer)
            inner = [pdfium_c.FPDFFormObj_GetObject(obj, i) for i in range(pdfium_c.FPDFFormObj_CountObjects(obj))]
            scaled_down = abs(placed[0] * placed[3] - placed[1] * placed[2]) < 0.99
            yield from _text_objects(inner, placed, miniature or scaled_down, textpage, page)
        elif kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            size = ctypes.c_float()
            assert pdfium_c.FPDFTextObj_GetFontSize(obj, size)
            length = pdfium_c.FPDFTextObj_GetText(obj, textpage, None, 0)
            buffer = ctypes.create_string_buffer(length)
            pdfium_c.FPDFTextObj_GetText(obj, textpage, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), length)
            text = buffer.raw[:length].decode("utf-16-le", errors="replace").rstrip("\x00").strip()
            if text:
                _, _, c, d, _, _ = _then(_matrix(obj), outer)
                yield TextRun((c * c + d * d) ** 0.5 * size.value, page, text, miniature)


def text_runs(path: Path) -> list[TextRun]:
    """Every text object of a PDF, read by PDFium from its page objects (forms followed down, their matrices
    applied). About ten times faster than pypdf's text visitor it replaces, with the same runs and sizes on
    every document of the kit but inside scaled-down forms, which that visitor read at full size."""
    found: list[TextRun] = []
    document = pdfium.PdfDocument(str(path))
    try:
        for number in range(len(document)):
            page = document[number]
            textpage = page.get_textpage()
            objects = [pdfium_c.FPDFPage_GetObject(page.raw, i) for i in range(pdfium_c.FPDFPage_CountObjects(page.raw))]
            found += _text_objects(objects, (1, 0, 0, 1, 0, 0), False, textpage.raw, number)
            textpage.close()
            page.close()
    finally:
        document.close()
    return found


def text_sizes(path: Path) -> list[tuple[float, int, str]]:
    """Every text run of a PDF as (size in points as printed, page, text): the font size times the scale of
    the text and drawing matrices (rotated, scaled and form-drawn text included)."""
    return [(run.size, run.page, run.text) for run in text_runs(path)]


def test_no_text_in_any_document_is_smaller_than_6_pt(kit: tuple[str, list[Path]]) -> None:
    """Every run of text is printed at 6 pt or more. The one kind of run let through is a miniature's (a form
    drawn scaled down, such as the JS&MN map's assembly guide) whose very text the document also prints at
    6 pt or more outside any miniature: a thumbnail of a drawing the kit prints in full."""
    paper, paths = kit
    assert len(paths) == sum(len(documents) for documents in game_documents().values())
    small: list[str] = []
    thumbnails = 0
    for path in paths:
        runs = text_runs(path)
        assert len(runs) > 5, path  # the scan sees the text (a document without any would pass blindly)
        full_size = {run.text for run in runs if not run.miniature and run.size >= SMALLEST_TEXT_PT - 0.01}
        for run in runs:
            if run.size >= SMALLEST_TEXT_PT - 0.01:
                continue
            if run.miniature and run.text in full_size:
                thumbnails += 1
                continue
            small.append(f"{path.parent.name}/{path.name} p{run.page + 1} {run.size:.2f} pt {run.text[:30]!r}")
    assert small == [], f"{paper}: {len(small)} runs under 6 pt ({thumbnails} in miniatures let through), e.g. {small[:8]}"
