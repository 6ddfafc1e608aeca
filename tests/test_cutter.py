"""``cardgen build --cutter silhouette|cricut`` (issue 26): the cutter's registration marks on every card
sheet, nothing of a card in their band, and an SVG whose cut lines are the cards' trims within 0.1 mm."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.render.cutter import KEEP_MM

MM = 72 / 25.4


def _rects(svg: str) -> list[tuple[float, float, float, float]]:
    return [tuple(float(v) for v in m) for m in  # type: ignore[misc]
            re.findall(r'<rect id="card-\d+" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/>', svg)]


@pytest.mark.parametrize(("cutter", "paper", "per_sheet"), [("silhouette", "Letter", 8), ("silhouette", "A4", 9),
                                                           ("cricut", "A4", 9)])
def test_the_cut_file_matches_the_trim_boxes_and_the_marks_have_their_band(tmp_path: Path, cutter: str, paper: str,
                                                                          per_sheet: int) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "mandragora", "--only", "deck", "--paper", paper,
                                       "--cutter", cutter, "--out", str(tmp_path), "--base-url", "http://10.0.0.2:8000"])
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "mandragora" / "deck-cut.svg").read_text(encoding="utf-8")
    rects = _rects(svg)
    assert len(rects) == per_sheet
    reader = PdfReader(tmp_path / "mandragora" / "deck.pdf")
    page = reader.pages[0]
    height = float(page.mediabox.height) / MM
    trim = [float(v) / MM for v in page.trimbox]
    # the union of the cut rectangles is the page's TrimBox (SVG y runs down), each card its own size
    assert min(x for x, _, _, _ in rects) == pytest.approx(trim[0], abs=0.1)
    assert max(x + w for x, _, w, _ in rects) == pytest.approx(trim[2], abs=0.1)
    assert min(height - y - h for _, y, _, h in rects) == pytest.approx(trim[1], abs=0.1)
    assert max(height - y for _, y, _, _ in rects) == pytest.approx(trim[3], abs=0.1)
    assert {tuple(sorted((round(w, 1), round(h, 1)))) for _, _, w, h in rects} == {(63.0, 88.0)}
    area = sum(w * h for _, _, w, h in rects)
    assert area == pytest.approx((trim[2] - trim[0]) * (trim[3] - trim[1]), abs=0.5), "the cuts tile the grid"
    bleed = [float(v) / MM for v in page.bleedbox]
    width = float(page.mediabox.width) / MM
    assert bleed[0] >= KEEP_MM - 0.01 and bleed[1] >= KEEP_MM - 0.01
    assert width - bleed[2] >= KEEP_MM - 0.01 and height - bleed[3] >= KEEP_MM - 0.01
    content = page.get_contents().get_data().decode("latin1")
    square = f"{5 * MM:.4g}"
    assert re.search(r"re f\b", content) and square[:4] in content   # the filled 5 mm square
    if cutter == "silhouette":
        assert content.count(f"{10 * MM:.5g}"[:5]) >= 2                   # the L's 10 mm arms


def _dark_box(image: object, box_mm: tuple[float, float, float, float], dpi: float) -> tuple[float, float, float, float] | None:
    """The bounding box (mm from the top-left corner) of the dark pixels inside ``box_mm`` (x0, y0, x1, y1 mm)."""
    scale = dpi / 25.4
    x0, y0, x1, y1 = (round(v * scale) for v in box_mm)
    region = image.crop((x0, y0, x1, y1)).point(lambda v: 255 if v < 128 else 0)  # type: ignore[attr-defined]
    found = region.getbbox()
    if found is None:
        return None
    return tuple((v + o) / scale for v, o in zip(found, (x0, y0, x0, y0), strict=True))  # type: ignore[return-value]


@pytest.mark.parametrize(("cutter", "paper"), [("silhouette", "A4"), ("silhouette", "Letter"), ("cricut", "Letter")])
def test_the_registration_marks_sit_where_the_cutters_look_for_them(tmp_path: Path, cutter: str, paper: str) -> None:
    """Measured on the rendered front page, against the specs in docs/printing.md: a filled 5 mm square 5 mm
    in from the top and left edges; Silhouette's L corners (10 mm arms, 0.5 mm thick) 5 mm in at top right
    and bottom left; Cricut's 0.75 mm frame 5 mm in from every edge. Nothing else dark in the band the
    marks keep (within 0.2 mm: 200 dpi pixels)."""
    import pypdfium2 as pdfium

    result = CliRunner().invoke(main, ["build", "--game", "fillory", "--only", "deck", "--paper", paper,
                                       "--cutter", cutter, "--out", str(tmp_path), "--base-url", "http://10.0.0.2:8000"])
    assert result.exit_code == 0, result.output
    dpi = 200.0
    document = pdfium.PdfDocument(str(tmp_path / "fillory" / "deck.pdf"))
    page = document[0]
    width, height = page.get_width() / MM, page.get_height() / MM
    image = page.render(scale=dpi / 72).to_pil().convert("L")
    document.close()
    tol = 0.2

    def near(found: tuple[float, float, float, float] | None, expected: tuple[float, float, float, float]) -> None:
        assert found is not None, expected
        assert all(abs(a - b) <= tol for a, b in zip(found, expected, strict=True)), (found, expected)

    scale = dpi / 25.4
    square = image.crop(tuple(round(v * scale) for v in (5.9, 5.9, 9.9, 9.9)))
    assert square.getextrema()[1] < 128, "the 5 mm square is filled"
    assert _dark_box(image, (10.25, 6, 12, 9.9), dpi) is None and _dark_box(image, (6, 10.25, 9.9, 12), dpi) is None
    if cutter == "silhouette":
        near(_dark_box(image, (2, 2, 10.4, 10.4), dpi), (5, 5, 10, 10))        # the square, top left
        # each arm of an L measured in a slice of the 10.5 mm band no card reaches
        near(_dark_box(image, (width - 18, 2, width - 6, 8), dpi), (width - 15, 5, width - 6, 5.5))       # top-right L
        near(_dark_box(image, (width - 8, 6, width - 2, 18), dpi), (width - 5.5, 6, width - 5, 15))
        assert _dark_box(image, (width - 10.4, 5.6, width - 5.6, 10.4), dpi) is None   # an L, not a square
        near(_dark_box(image, (6, height - 8, 18, height - 2), dpi), (6, height - 5.5, 15, height - 5))    # bottom-left L
        near(_dark_box(image, (2, height - 18, 8, height - 6), dpi), (5, height - 15, 5.5, height - 6))
        assert _dark_box(image, (5.6, height - 10.4, 10.4, height - 5.6), dpi) is None
        assert _dark_box(image, (2, 12, 10.4, height - 18), dpi) is None       # nothing else down the left band
    else:
        near(_dark_box(image, (2, 2, width - 2, height - 2), dpi), (5, 5, width - 5, height - 5))          # the frame
        near(_dark_box(image, (2, height / 2 - 5, 10.4, height / 2 + 5), dpi), (5, height / 2 - 5, 5.75, height / 2 + 5))
        near(_dark_box(image, (width - 10.4, height / 2 - 5, width - 2, height / 2 + 5), dpi),
             (width - 5.75, height / 2 - 5, width - 5, height / 2 + 5))
    for strip in ((0, 0, width, 4.8), (0, 0, 4.8, height), (width - 4.8, 0, width, height), (0, height - 4.8, width, height)):
        assert _dark_box(image, strip, dpi) is None, strip                      # the 5 mm edge stays clear
