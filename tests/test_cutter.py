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
