"""The print-shop export (one card a page or an image per face), the gutter between cards, and the warning
for QR codes that point at a loopback address."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import zxingcpp
from click.testing import CliRunner
from pdf_checks import card_url
from PIL import Image
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.render import BuildOptions, plan_layout, print_specs
from cardgen.render.build import plan_build
from cardgen.render.export import ExportSettings, deck_faces, export_cards, pixel_size
from cardgen.render.options import BuildError, base_url_warning
from cardgen.render.registry import print_kits

BASE = "https://cards.example.org"
MM = 72 / 25.4


def test_png_export_writes_one_image_per_face_at_the_card_size_plus_bleed(tmp_path: Path) -> None:
    written = export_cards(BuildOptions(game="barony-sorcery", out_dir=tmp_path, base_url=BASE),
                           ExportSettings(format="png", dpi=300))
    names = [p.name for p in written]
    assert len(names) == 18 and names == sorted(names), "upload order is name order"
    assert [n.endswith("-1-front.png") for n in names] == [True, False] * 9
    assert names[0].startswith("001-spells-") and names[-1].startswith("009-spells-")
    for path in written:
        with Image.open(path) as image:
            assert image.size == (815, 1110)   # (63 + 6) x (88 + 6) mm at 300 dpi
            assert round(image.info["dpi"][0]) == 300
    with Image.open(written[0]) as image:
        codes = zxingcpp.read_barcodes(image.convert("L"))
    card_id = names[0].split("-spells-")[1].removesuffix("-1-front.png")
    assert [c.text for c in codes] == [card_url("barony-sorcery", card_id, BASE)]


@pytest.mark.parametrize(("width", "height", "dpi", "expected"), [
    (69, 94, 300, (815, 1110)), (69, 94, 600, (1630, 2220)), (50, 69, 300, (591, 815)), (126, 76, 150, (744, 449))])
def test_pixel_sizes(width: float, height: float, dpi: int, expected: tuple[int, int]) -> None:
    assert pixel_size(width, height, dpi) == expected


@pytest.fixture(scope="module")
def pdf_export(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("export-pdf")
    return {p.stem: p for p in export_cards(BuildOptions(game="all", out_dir=out, base_url=BASE),
                                            ExportSettings(format="pdf", cmyk=True))}


def test_pdf_export_has_one_face_a_page_with_trim_and_bleed_boxes(pdf_export: dict[str, Path]) -> None:
    expected = {}  # every deck each discovered kit declares, one front and one back page a card
    for game in print_kits():
        plan = plan_build(BuildOptions(game=game, out_dir=Path("unused"), base_url=BASE))
        for item in plan.documents[:1]:
            expected.update({f"{game}-{deck.name}": len(deck.cards) for deck in deck_faces(game, item.content, plan.resolved)})
    assert expected and all(expected.values())
    assert {name: len(PdfReader(path).pages) // 2 for name, path in pdf_export.items()} == expected
    for name, path in pdf_export.items():
        for page in PdfReader(path).pages[:4]:
            media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
            assert [float(v) for v in bleed] == pytest.approx([float(v) for v in media])
            assert float(trim.left) == pytest.approx(3 * MM) and float(trim.bottom) == pytest.approx(3 * MM)
            size = sorted((float(trim.width) / MM, float(trim.height) / MM))
            assert size == pytest.approx([63, 88], abs=0.01), name   # poker, portrait or landscape


def test_cmyk_export_writes_no_rgb_colour(pdf_export: dict[str, Path]) -> None:
    page = PdfReader(pdf_export["fillory-deck"]).pages[0]
    content = page.get_contents().get_data().decode("latin-1")
    assert not re.search(r"\b(rg|RG)\b", content)
    assert re.search(r"\b(k|K)\b", content)


def test_cmyk_needs_the_pdf_format(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="PNG images have no CMYK form"):
        export_cards(BuildOptions(game="fillory", out_dir=tmp_path), ExportSettings(format="png", cmyk=True))
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("url", ["http://localhost:8000", "http://127.0.0.1", "http://127.8.9.1:5000/x",
                                 "http://[::1]:8000", "http://0.0.0.0:8000", "http://LOCALHOST.", "http://a.localhost",
                                 # a browser reads a numeric last label as IPv4, short forms included
                                 "http://127.1", "http://0x7f.1:8000", "http://2130706433", "http://0"])
def test_loopback_base_urls_are_warned_about(url: str) -> None:
    assert "loopback address" in (base_url_warning(url) or "")


@pytest.mark.parametrize("url", ["http://192.168.1.20:8000", "https://cards.example.org", "http://10.0.0.5",
                                 "http://localhost-box.lan", "http://10.1", "http://box1.lan", "http://1.2.3.4.5"])
def test_other_base_urls_are_not(url: str) -> None:
    assert base_url_warning(url) is None


def test_build_warns_about_localhost_and_strict_refuses(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["build", "--game", "barony-sorcery", "--only", "deck", "--out", str(tmp_path / "a")]
    warned = runner.invoke(main, args)
    assert warned.exit_code == 0
    assert "Warning: the QR codes point at http://localhost:8000, a loopback address" in warned.stderr
    strict = runner.invoke(main, ["build", "--game", "barony-sorcery", "--strict", "--out", str(tmp_path / "b")])
    assert strict.exit_code == 1 and "loopback address" in strict.stderr
    assert not (tmp_path / "b").exists(), "a strict refusal writes nothing"
    fine = runner.invoke(main, [*args, "--strict", "--base-url", "http://192.168.1.20:8000"])
    assert fine.exit_code == 0 and "Warning" not in fine.stderr


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("gutter", [2.0, 6.0, 10.0])
def test_a_gutter_is_filled_by_each_cards_own_bleed(paper: str, gutter: float) -> None:
    specs = print_specs()
    layout = plan_layout(specs.paper(paper), specs.card_size("poker"), 3.0, specs.sheet, gutter)
    for index in range(layout.per_sheet):
        slot = layout.slot(index)
        if slot.column + 1 < layout.columns:
            right = layout.slot(index + 1)
            assert slot.bleed_right == right.bleed_left == min(3.0, gutter / 2)
            assert right.trim.x - slot.trim.right == pytest.approx(gutter)
            if gutter <= 6:   # the two bleeds meet in the middle of the gutter: no paper shows
                assert slot.bleed_rect.right == pytest.approx(right.bleed_rect.x)
    if gutter == 2.0:
        assert layout.per_sheet == (9 if paper == "A4" else 8)


def test_cli_gutter_reaches_the_layout(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "barony-sorcery", "--only", "deck", "--gutter", "6",
                                       "--base-url", BASE, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "8 per A4 sheet (turned sideways)" in result.stderr
