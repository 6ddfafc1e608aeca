"""The print kit: sheet geometry, print data, and the PDFs themselves (text, QR codes, boxes, marks).

Decks are built once per variant for the whole module; QR codes are decoded from pages rendered at
200 dpi, which is what a phone camera sees on a home print.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Callable, cast

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
)
from PIL import ImageStat
from pypdf import PdfReader
from reportlab.lib.units import mm

from cardgen.catalog import DataError, content
from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.cli import build as build_command
from cardgen.cli import check as check_command
from cardgen.cli import main
from cardgen.render import (
    BuildError,
    BuildOptions,
    LayoutError,
    build,
    plan_build,
    plan_layout,
    print_specs,
)
from cardgen.render.build import BuildPlan, PlannedDocument, run_build
from cardgen.render.colour import contrast
from cardgen.render.fillory.style import fillory_style
from cardgen.render.print_specs import (
    CardSize,
    PaperSize,
    load_print_specs,
    theme_problems,
)
from cardgen.render.registry import Document

FILLORY = content("fillory")
SPECS = print_specs()
GOLDEN = Path(__file__).parent / "golden"
CARDS = sorted(FILLORY.cards, key=lambda c: c.number)
A4_PT, LETTER_PT = (210 * mm, 297 * mm), (215.9 * mm, 279.4 * mm)


# -- building once per variant ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``deck(**options)`` builds (once per distinct options) and returns the deck PDF path."""
    built: dict[str, Path] = {}

    def make(**options: object) -> Path:
        key = repr(sorted(options.items()))
        if key not in built:
            out = tmp_path_factory.mktemp("deck")
            (built[key],) = build(BuildOptions(game="fillory", documents=("deck",), out_dir=out, **options))
        return built[key]
    return make


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_kit("fillory", tmp_path_factory.mktemp("kit"))


def _text(path: Path, page: int) -> str:
    return page_texts(path)[page]  # each document's pages extracted once, however many tests read them


# -- the kit -----------------------------------------------------------------------------------------

def test_build_writes_the_three_fillory_documents(kit: dict[str, Path]) -> None:
    assert sorted(kit) == ["deck", "reference", "score-pad"]
    for path in kit.values():
        assert path.parent.name == "fillory" and path.stat().st_size > 5000
        assert not list(path.parent.glob("*.partial"))


def test_deck_has_a_back_page_after_each_front_page(kit: dict[str, Path]) -> None:
    reader = PdfReader(kit["deck"])
    assert len(reader.pages) == 2 * 13  # 110 cards, 9 per A4 sheet: 13 sheets, each with its backs
    for i in range(13):
        assert f"fronts · sheet {i + 1}/13" in _text(kit["deck"], 2 * i)
        assert f"backs · sheet {i + 1}/13" in _text(kit["deck"], 2 * i + 1)


def test_every_card_is_on_its_sheet_with_name_number_traits_and_ability(kit: dict[str, Path]) -> None:
    for sheet in range(13):
        text = _text(kit["deck"], 2 * sheet)
        lines = text.splitlines()
        on_sheet = CARDS[sheet * 9:(sheet + 1) * 9]
        starts = []
        for card in on_sheet:  # each card's block starts with a line holding just its name
            start = lines.index(card.name, starts[-1] + 1 if starts else 0)
            starts.append(start)
        for k, card in enumerate(on_sheet):
            block = lines[starts[k]:starts[k + 1] if k + 1 < len(on_sheet) else len(lines)]
            flat = flattened(" ".join(block))
            assert f"{card.number}/110" in block, card.name
            for trait in card.traits:  # each trait its own chip, so its own text run
                assert trait in [line.strip() for line in block], (card.name, trait)
            assert FILLORY.ability_text(card) in flat, card.name


def test_setup_cards_are_marked_and_only_they(kit: dict[str, Path]) -> None:
    text = _text(kit["deck"], 0) + _text(kit["deck"], 2)
    assert text.count("STARTS IN NEUTRAL ZONE") == 13  # cards 1-13 are exactly the setup cards
    assert "STARTS IN NEUTRAL ZONE" not in _text(kit["deck"], 4)


def test_qr_codes_decode_to_the_card_urls_at_200_dpi(kit: dict[str, Path]) -> None:
    decoded: list[str] = []
    for sheet in range(13):
        results = qr_codes(kit["deck"], 2 * sheet)
        texts = sorted(r.text for r in results)
        assert texts == sorted(card_url("fillory", c.id) for c in CARDS[sheet * 9:(sheet + 1) * 9])
        for r in results:
            width_mm = (r.position.top_right.x - r.position.top_left.x) / 200 * 25.4
            assert width_mm >= 14.0, (r.text, width_mm)
        decoded += texts
    assert len(decoded) == 110


def _xobject_kinds(resources: object) -> set[str]:
    """Subtypes of every XObject a page or form uses, forms followed inside (shared artwork is a form)."""
    found: set[str] = set()
    for ref in resources.get_object().get("/XObject", {}).values():  # type: ignore[attr-defined]
        xobject = ref.get_object()
        found.add(str(xobject["/Subtype"]))
        if "/Resources" in xobject:
            found |= _xobject_kinds(xobject["/Resources"])
    return found


def test_qr_codes_are_vector_paths_not_images(kit: dict[str, Path]) -> None:
    reader = PdfReader(kit["deck"])
    for page in reader.pages[:4]:
        assert len(page.images) == 0
        assert _xobject_kinds(page["/Resources"]) <= {"/Form"}  # drawings placed again, never pictures


def test_base_url_goes_into_the_qr_codes(deck: Callable[..., Path]) -> None:
    path = deck(base_url="https://table.example.org:8443/play/")
    texts = qr_texts(path, 0)
    assert texts == sorted(card_url("fillory", c.id, "https://table.example.org:8443/play") for c in CARDS[:9])


def test_text_uses_only_characters_the_standard_fonts_have(kit: dict[str, Path]) -> None:
    for path in kit.values():
        text = "".join(page_texts(path))
        missing = {ch for ch in text if not ch.isspace() and ch.encode("cp1252", errors="replace") == b"?"}
        assert not missing, (path.name, missing)


def test_every_page_has_trim_and_bleed_boxes(kit: dict[str, Path]) -> None:
    for path in kit.values():
        for page in PdfReader(path).pages:
            assert "/TrimBox" in page and "/BleedBox" in page
            media, bleed, trim = page.mediabox, page.bleedbox, page.trimbox
            assert media.left <= bleed.left <= trim.left and trim.right <= bleed.right <= media.right
            assert media.bottom <= bleed.bottom <= trim.bottom and trim.top <= bleed.top <= media.top


def test_deck_trim_box_is_the_card_grid_and_bleed_adds_3_mm(kit: dict[str, Path]) -> None:
    page = PdfReader(kit["deck"]).pages[0]
    assert float(page.trimbox.width) == pytest.approx(3 * 63 * mm, abs=0.01)
    assert float(page.trimbox.height) == pytest.approx(3 * 88 * mm, abs=0.01)
    assert float(page.trimbox.left) == pytest.approx((210 - 189) / 2 * mm, abs=0.01)
    assert float(page.bleedbox.width) == pytest.approx((189 + 6) * mm, abs=0.01)
    assert float(page.bleedbox.height) == pytest.approx((264 + 6) * mm, abs=0.01)


def test_print_scaling_none_in_every_document(kit: dict[str, Path]) -> None:
    for path in kit.values():
        assert PdfReader(path).trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_same_input_same_bytes(kit: dict[str, Path], tmp_path: Path) -> None:
    again = {p.stem: p for p in build(BuildOptions(game="fillory", out_dir=tmp_path))}
    for name, path in kit.items():
        assert again[name].read_bytes() == path.read_bytes(), name


def test_a4_and_letter_media_sizes(kit: dict[str, Path], tmp_path: Path) -> None:
    letter = {p.stem: p for p in build(BuildOptions(game="fillory", out_dir=tmp_path, paper="letter"))}
    for name in kit:
        for path, (w, h) in ((kit[name], A4_PT), (letter[name], LETTER_PT)):
            for page in PdfReader(path).pages:
                assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((w, h), abs=0.01)
    assert len(PdfReader(letter["deck"]).pages) == 26  # still 9 poker cards per Letter sheet


def _crop_mark_window(path: Path) -> float:
    """Darkest pixel in a window on the top crop mark of the first cut line (1 = white)."""
    img = rendered(path, 0, 100)
    px = 100 / 25.4
    x = (210 - 189) / 2 * px                       # the left cut line
    y_top = (297 - 264) / 2 - 3 - 0.5 - 4.0       # mm from the top: inside the mark, outside the bleed
    box = (int(x - 2), int(y_top * px), int(x + 3), int((y_top + 3) * px))
    return cast(int, img.crop(box).getextrema()[0]) / 255  # greyscale: (darkest, lightest)


def test_no_crop_marks_removes_them(kit: dict[str, Path], deck: Callable[..., Path]) -> None:
    assert _crop_mark_window(kit["deck"]) < 0.5
    plain = deck(crop_marks=False)
    assert _crop_mark_window(plain) > 0.95
    assert plain.read_bytes() != kit["deck"].read_bytes()


def _mean(path: Path, page: int) -> float:
    return ImageStat.Stat(rendered(path, page, 40)).mean[0] / 255


def test_ink_saver_drops_the_heavy_fills(kit: dict[str, Path], deck: Callable[..., Path]) -> None:
    saver = deck(ink_saver=True)
    assert _mean(kit["deck"], 0) < 0.82 and _mean(kit["deck"], 1) < 0.4
    assert _mean(saver, 0) > 0.9 and _mean(saver, 1) > 0.95
    assert FILLORY.card("quentin").name in _text(saver, 0)


def test_back_offset_moves_back_pages_only(kit: dict[str, Path], deck: Callable[..., Path]) -> None:
    shifted = deck(back_offset_x=2.5, back_offset_y=-1.5)
    plain_pages, shifted_pages = PdfReader(kit["deck"]).pages, PdfReader(shifted).pages
    for i in (0, 2):
        assert shifted_pages[i].get_contents().get_data() == plain_pages[i].get_contents().get_data()
        assert list(shifted_pages[i].trimbox) == list(plain_pages[i].trimbox)
    for i in (1, 3):
        assert float(shifted_pages[i].trimbox.left - plain_pages[i].trimbox.left) == pytest.approx(2.5 * mm, abs=0.01)
        assert float(shifted_pages[i].trimbox.bottom - plain_pages[i].trimbox.bottom) == pytest.approx(-1.5 * mm,
                                                                                                        abs=0.01)
        assert shifted_pages[i].get_contents().get_data() != plain_pages[i].get_contents().get_data()


def _slot_brightness(path: Path, page: int, column: int, row: int) -> float:
    """Brightness at the middle of an A4 poker slot (0 = dark back, 1 = empty paper)."""
    img = rendered(path, page, 30)
    px = 30 / 25.4
    x = ((210 - 189) / 2 + column * 63 + 31.5) * px
    y = ((297 - 264) / 2 + row * 88 + 1.5) * px   # on the card's top border (dark front and back)
    return cast(int, img.getpixel((int(x), int(y)))) / 255  # greyscale: one level


def test_duplex_backs_are_mirrored_behind_their_fronts(kit: dict[str, Path], deck: Callable[..., Path]) -> None:
    # the last sheet holds cards 109 and 110 in the two left-most top slots
    assert _slot_brightness(kit["deck"], 24, 0, 0) < 0.9 and _slot_brightness(kit["deck"], 24, 2, 0) > 0.95
    # flipped on the long edge, their backs sit top-right and top-middle; top-left stays empty
    last_back = 25
    assert _slot_brightness(kit["deck"], last_back, 2, 0) < 0.5
    assert _slot_brightness(kit["deck"], last_back, 1, 0) < 0.5
    assert _slot_brightness(kit["deck"], last_back, 0, 0) > 0.95
    # without duplex: all fronts first, then the backs unmirrored
    simplex = deck(duplex=False)
    assert "fronts · sheet 2/13" in _text(simplex, 1) and "backs · sheet 1/13" in _text(simplex, 13)
    assert _slot_brightness(simplex, 25, 0, 0) < 0.5 and _slot_brightness(simplex, 25, 2, 0) > 0.95


def test_mini_cards_turn_sideways_and_still_scan(deck: Callable[..., Path]) -> None:
    path = deck(card_size="mini")
    assert len(PdfReader(path).pages) == 2 * 7  # 18 per sheet
    texts = qr_texts(path, 0)
    assert texts == sorted(card_url("fillory", c.id) for c in CARDS[:18])


def test_progress_reports_every_card_and_sheet(tmp_path: Path) -> None:
    steps: list[int] = []
    plan = plan_build(BuildOptions(game="fillory", out_dir=tmp_path, card_size="tarot"))
    assert plan.total_work == 110 + 2
    run_build(plan, steps.append)
    assert sum(steps) == plan.total_work


def test_unwritable_output_folder_is_a_build_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the output folder should go", encoding="utf-8")
    with pytest.raises(BuildError, match=rf"^cannot create folder {re.escape(str(blocker))}/fillory: "):
        build(BuildOptions(out_dir=blocker, documents=("score-pad",)))


def test_failed_render_leaves_no_partial_file(tmp_path: Path) -> None:
    def explode(*_: object) -> None:
        Path(tmp_path / "fillory" / "boom.pdf.partial").write_bytes(b"half")
        raise RuntimeError("renderer broke")
    plan = plan_build(BuildOptions(out_dir=tmp_path, documents=("score-pad",)))
    broken = Document("boom", "boom.pdf", "fails", work=lambda c: 1, render=explode)
    (tmp_path / "fillory").mkdir()
    with pytest.raises(RuntimeError, match="renderer broke"):
        run_build(BuildPlan(plan.resolved, (PlannedDocument("fillory", broken, FILLORY,
                                                            tmp_path / "fillory" / "boom.pdf", 1),)))
    assert list((tmp_path / "fillory").iterdir()) == []


# -- reference sheet and score pad -------------------------------------------------------------------

def test_reference_sheet_content(kit: dict[str, Path]) -> None:
    text = flattened(" ".join(page_texts(kit["reference"])))
    for phase in ("1 Draw", "2 Action", "3 Card trick", "4 Score", "5 End"):
        assert phase in text
    for trait in FILLORY.traits:
        if trait.trick is not None:
            assert f"{trait.name} {trait.trick.text} {len(FILLORY.cards_with(trait.name))}" in text
        assert f"{trait.name} {len(FILLORY.cards_with(trait.name))}" in text
    assert "Cards 1 2 3 4 5 6 7 8 9 10 VP 1 4 9 16 25 36 49 64 81 100" in text
    for note in FILLORY.notes:
        assert flattened(note.text) in text, note.id
    assert FILLORY.rule("fillory.summon").text in text


def test_score_pad_content(kit: dict[str, Path]) -> None:
    text = _text(kit["score-pad"], 0)
    scorable = [t.name for t in FILLORY.traits if t.scorable]
    assert len(scorable) == 26
    lines = [line.strip() for line in text.splitlines()]
    for name in scorable:
        assert name in lines, name
        assert f"{len(FILLORY.cards_with(name))} cards" in text
    assert "Character can never be scored." in text
    for heading in ("Turn", "Trait scored", "Total", "Player"):
        assert heading in lines
    assert [str(n) for n in range(1, 31)] == [line for line in lines if line.isdigit()][:30]


# -- geometry, print data, options -------------------------------------------------------------------

def _layout_summary() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for paper in SPECS.papers.values():
        for card in SPECS.card_sizes.values():
            layout = plan_layout(paper, card, 3.0, SPECS.sheet)
            g = layout.grid
            out[f"{paper.name}/{card.name}"] = {
                "columns": layout.columns, "rows": layout.rows, "rotated": layout.rotated,
                "grid_mm": [round(v, 2) for v in (g.x, g.y, g.width, g.height)],
                "outer_bleed_mm": [round(v, 2) for v in layout.outer_bleed]}
    return out


def test_layouts_match_the_golden_sample() -> None:
    golden = GOLDEN / "layouts.json"
    summary = _layout_summary()
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    assert summary == json.loads(golden.read_text(encoding="utf-8"))
    assert summary["A4/poker"]["columns"] == 3 and summary["A4/poker"]["rows"] == 3
    assert summary["Letter/poker"]["columns"] == 3 and summary["Letter/poker"]["rows"] == 3


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("card_size", ["poker", "bridge", "tarot", "mini"])
def test_slots_stay_inside_the_margin_and_backs_mirror(paper: str, card_size: str) -> None:
    layout = plan_layout(SPECS.paper(paper), SPECS.card_size(card_size), 3.0, SPECS.sheet)
    margin, w, h = SPECS.sheet.margin, layout.paper.width, layout.paper.height
    slots = [layout.slot(i) for i in range(layout.per_sheet)]
    for slot in slots:
        bleed = slot.bleed_rect
        assert bleed.x >= margin - 1e-6 and bleed.y >= margin - 1e-6 and bleed.right <= w - margin + 1e-6
        assert bleed.top <= h - margin + 1e-6
        back = layout.back_slot(slot.index)
        assert back.trim.x == pytest.approx(w - slot.trim.right) and back.trim.y == pytest.approx(slot.trim.y)
        assert back.rotation == -slot.rotation
    for a in slots:
        for b in slots:
            if a.index < b.index:
                overlap_x = min(a.trim.right, b.trim.right) - max(a.trim.x, b.trim.x)
                overlap_y = min(a.trim.top, b.trim.top) - max(a.trim.y, b.trim.y)
                assert overlap_x <= 1e-6 or overlap_y <= 1e-6


def test_layout_that_cannot_fit_is_a_clear_error() -> None:
    with pytest.raises(LayoutError) as caught:
        plan_layout(PaperSize("Postcard", 100, 148), CardSize("giant", 90, 130), 3.0, SPECS.sheet)
    assert str(caught.value) == ("a giant card (90 x 130 mm) does not fit on Postcard (100 x 148 mm) with 7 mm kept "
                                 "clear along each edge (the 5 mm printable margin and the crop marks)")


@pytest.mark.parametrize("options, message", [
    (dict(paper="A5"), "unknown paper size 'A5' (known: A4, Letter)"),
    (dict(card_size="jumbo"), "unknown card size 'jumbo' (known: poker, bridge, tarot, mini)"),
    (dict(bleed=-1.0), "bleed must be between 0 and 10 mm, got -1"),
    (dict(back_offset_x=25.0), "back offset x must be within ±20 mm, got 25"),
    (dict(base_url="ftp://files.example"),
     "base URL must start with http:// or https:// and name a host, got 'ftp://files.example'"),
    (dict(base_url="http://host/?x=1"), "base URL must not carry a query or fragment, got 'http://host/?x=1'"),
    (dict(base_url="http://host/" + "a" * 2400), "base URL must be at most 200 characters (the cards' QR codes "
                                                 "must stay small enough to scan), got 2412"),
    (dict(game="barony"), "unknown game 'barony' (known: barony-sorcery, fillory, jsmn, mandragora, or all)"),
    (dict(documents=("poster",)), "unknown document 'poster' (known: boards, deck, map, player-sheet, reference, score-pad, "
                                        "setup, tally, tiles, tokens)"),
])
def test_bad_options_are_build_errors(options: dict, message: str) -> None:
    with pytest.raises(BuildError) as caught:
        plan_build(BuildOptions(**options))
    assert str(caught.value) == message


def test_broken_print_data_names_file_record_and_field(tmp_path: Path) -> None:
    shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
    folder = tmp_path / "print"
    cards = folder / "card-sizes.toml"
    cards.write_text(cards.read_text(encoding="utf-8").replace('name = "bridge"', 'name = "poker"')
                     .replace("width = 70.0", "width = 170.0"), encoding="utf-8")
    (folder / "sheet.toml").unlink()
    with pytest.raises(DataError) as caught:
        load_print_specs(tmp_path)
    assert [str(p) for p in caught.value.problems] == [
        f"{folder}/card-sizes.toml: card size #2 'poker': field 'name': duplicate card size 'poker'",
        f"{folder}/card-sizes.toml: card size #3 'tarot': field 'width': 170.0 is wider than the height 120.0; "
        "give portrait sizes",
        f"{folder}/sheet.toml: file is missing",
    ]


def test_every_missing_sheet_setting_is_reported(tmp_path: Path) -> None:
    shutil.copytree(DEFAULT_DATA_DIR / "print", tmp_path / "print")
    sheet = tmp_path / "print" / "sheet.toml"
    sheet.write_text("allow_rotation = 'yes'\n[crop_marks]\ngap = -1\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_print_specs(tmp_path)
    assert [str(p).removeprefix(f"{sheet}: ") for p in caught.value.problems] == [
        "sheet: field 'allow_rotation': expected true or false, got 'yes'",
        "sheet: field 'margin': is missing",
        "sheet: field 'gutter': is missing",
        "crop_marks: field 'gap': -1 must be 0 and at most 10.0",
        "crop_marks: field 'length': is missing",
        "crop_marks: field 'line_width_pt': is missing",
        "registration: field 'diameter': is missing",
        "registration: field 'line_width_pt': is missing",
    ]


def test_theme_gives_every_trait_one_family_and_readable_chips() -> None:
    assert theme_problems(SPECS, None, "fillory", [t.name for t in FILLORY.traits]) == []
    for ink_saver in (False, True):
        style = fillory_style(SPECS.theme("fillory"), ink_saver)
        for trait in FILLORY.traits:
            chip = style.chip(trait.name)
            assert contrast(chip.text, chip.fill or "#FFFFFF") >= 4.5, (trait.name, ink_saver)


# -- the CLI -----------------------------------------------------------------------------------------

def test_help_documents_every_option() -> None:
    runner = CliRunner()
    for command in (build_command, check_command):
        result = runner.invoke(main, [str(command.name), "--help"], terminal_width=200)
        assert result.exit_code == 0
        for param in command.params:
            if param.name == "help":
                continue
            assert param.help, f"{command.name} {param.name} has no help text"
            for opt in (*param.opts, *param.secondary_opts):
                assert re.search(rf"(^|[\s/,]){re.escape(opt)}\b", result.output), opt
    help_text = runner.invoke(main, ["build", "--help"], terminal_width=200).output
    for value in ("A4|Letter", "poker 63×88 mm", "bridge 57×89 mm", "tarot 70×120 mm", "mini 44×63 mm",
                  "http://localhost:8000", "[default: output]"):
        assert value in help_text


def test_cli_build_lists_files_with_sizes(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "fillory", "--only", "score-pad", "--only", "reference",
                                       "--paper", "letter",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Wrote 2 file(s):" in result.stdout
    for name in ("reference.pdf", "score-pad.pdf"):
        path = tmp_path / "fillory" / name
        assert re.search(rf"{re.escape(str(path))}\s+\d+\.\d KB", result.stdout)
    assert "9 per Letter sheet" in result.stderr


@pytest.mark.parametrize("args, code, message", [
    (["--base-url", "localhost:8000"], 1,
     "Error: base URL must start with http:// or https:// and name a host, got 'localhost:8000'"),
    (["--bleed", "12"], 2, "Invalid value for '--bleed': 12.0 is not in the range 0<=x<=10."),
    (["--card-size", "jumbo"], 1, "Error: unknown card size 'jumbo' (known: poker, bridge, tarot, mini)"),
])
def test_cli_build_errors_are_clean(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path), *args])
    assert result.exit_code == code
    assert message in result.stderr
    assert "Traceback" not in result.output and not list(tmp_path.iterdir())


def test_cli_build_on_broken_data_lists_problems(tmp_path: Path) -> None:
    shutil.copytree(DEFAULT_DATA_DIR, tmp_path / "data")
    cards = tmp_path / "data" / "fillory" / "cards.toml"
    cards.write_text(cards.read_text(encoding="utf-8").replace('"Telekinetics", "Fillory"]',
                                                               '"Telekinesis", "Fillory"]', 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--data", str(tmp_path / "data"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-2:] == [
        "game data: 1 problem(s)",
        f"  {cards}: card #1 'Quentin': field 'traits': unknown trait 'Telekinesis'",
    ]
    assert not (tmp_path / "out").exists()
