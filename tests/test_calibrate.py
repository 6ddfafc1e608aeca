"""The duplex calibration sheet reads the offsets to pass, and printer profiles keep them."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageOps
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.render import print_specs
from cardgen.render.calibrate import (
    PrinterProfile,
    back_pointers,
    calibration_geometry,
    load_profiles,
    render_calibration,
    save_profile,
)
from cardgen.render.options import BuildError

DPI = 254  # 10 pixels a millimetre
PX = DPI / 25.4


def _page(path: Path, index: int) -> Image.Image:
    return pdfium.PdfDocument(str(path))[index].render(scale=DPI / 72).to_pil().convert("L")


def _pointer_x(back_seen_from_front: Image.Image, y_mm: float, paper_h: float) -> float:
    """The x (mm) of the upright pointer line crossing height ``y_mm`` on the back, as seen through the sheet."""
    row = round((paper_h - y_mm) * PX)
    dark = [x for x in range(back_seen_from_front.width) if back_seen_from_front.getpixel((x, row)) < 128]
    assert dark, "no pointer at that height"
    return (sum(dark) / len(dark) + 0.5) / PX


def _pointer_y(back_seen_from_front: Image.Image, x_mm: float, y_zero: float, paper_h: float) -> float:
    """The y (mm) of the level pointer crossing ``x_mm`` within 15 mm of the scale's zero."""
    column = round(x_mm * PX)
    rows = range(round((paper_h - y_zero - 15) * PX), round((paper_h - y_zero + 15) * PX))
    dark = [y for y in rows if back_seen_from_front.getpixel((column, y)) < 128]
    assert dark, "no pointer at that place"
    return paper_h - (sum(dark) / len(dark) + 0.5) / PX


@pytest.mark.parametrize("paper_name", ["A4", "Letter"])
@pytest.mark.parametrize(("printer_x", "printer_y"), [(0.0, 0.0), (2.0, -1.5), (-3.5, 4.0)])
def test_the_scales_read_the_offsets_that_cancel_a_printers_shift(tmp_path: Path, paper_name: str,
                                                                 printer_x: float, printer_y: float) -> None:
    """A printer that shifts the back side by (printer_x, printer_y) mm (right and up, as seen on the back):
    the pointers cross the scales at the offsets that cancel it, and a sheet built with those offsets
    reads 0."""
    paper = print_specs().paper(paper_name)
    geo = calibration_geometry(paper)
    path = tmp_path / "calibration.pdf"
    render_calibration(path, paper)
    assert len(PdfReader(path).pages) == 2
    front_text = PdfReader(path).pages[0].extract_text()
    for label in ("-10", "-5", "0", "+5", "+10", "--back-offset-x", "--back-offset-y"):
        assert label in front_text

    def printed_back(offset_x: float, offset_y: float) -> Image.Image:
        render_calibration(path, paper, offset_x, offset_y)
        back = _page(path, 1)
        dx, dy = round(printer_x * PX), round(printer_y * PX)   # the printer's error on the back side
        shifted = Image.new("L", back.size, 255)
        shifted.paste(back, (dx, -dy))
        return ImageOps.mirror(shifted)                          # seen through the sheet from the front

    seen = printed_back(0.0, 0.0)
    read_x = geo.x_label(_pointer_x(seen, geo.x_scale_y, paper.height))
    read_y = geo.y_label(_pointer_y(seen, geo.y_scale_x, geo.y_zero, paper.height))
    assert read_x == pytest.approx(-printer_x, abs=0.15) and read_y == pytest.approx(-printer_y, abs=0.15)
    corrected = printed_back(round(read_x * 2) / 2, round(read_y * 2) / 2)   # read to the half millimetre
    assert geo.x_label(_pointer_x(corrected, geo.x_scale_y, paper.height)) == pytest.approx(0, abs=0.3)
    assert geo.y_label(_pointer_y(corrected, geo.y_scale_x, geo.y_zero, paper.height)) == pytest.approx(0, abs=0.3)


def test_back_pointers_mirror_the_front_zero() -> None:
    paper = print_specs().paper("Letter")
    geo = calibration_geometry(paper)
    assert back_pointers(paper, geo, 0, 0) == (paper.width - geo.x_zero, geo.y_zero)
    assert back_pointers(paper, geo, 1.5, -2) == (paper.width - geo.x_zero + 1.5, geo.y_zero - 2)


def test_printer_profiles_round_trip_and_reach_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "conf" / "printers.toml"
    monkeypatch.setenv("SPELLBOOK_PRINTERS", str(store))
    runner = CliRunner()
    saved = runner.invoke(main, ["printer", "save", 'Kitchen "laser"', "--back-offset-x", "1.5",
                                 "--back-offset-y", "-0.5"])
    assert saved.exit_code == 0, saved.output
    assert load_profiles(store) == {'Kitchen "laser"': PrinterProfile('Kitchen "laser"', 1.5, -0.5)}
    save_profile(PrinterProfile("other", 0.0, 2.0), store)
    assert set(load_profiles(store)) == {'Kitchen "laser"', "other"}
    listed = runner.invoke(main, ["printer", "list"])
    assert 'Kitchen "laser": back offset x 1.5 mm, y -0.5 mm' in listed.output
    out = tmp_path / "out"
    built = runner.invoke(main, ["build", "--game", "barony-sorcery", "--only", "deck", "--printer", 'Kitchen "laser"',
                                 "--back-offset-y", "1", "--base-url", "http://10.0.0.2:8000", "--out", str(out)])
    assert built.exit_code == 0, built.output
    assert 'printer Kitchen "laser": backs shifted 1.5 mm right, 1 mm up' in built.stderr
    reader = PdfReader(out / "barony-sorcery" / "deck.pdf")
    front, back = reader.pages[0].trimbox, reader.pages[1].trimbox
    width = float(reader.pages[0].mediabox.width)
    mm = 72 / 25.4
    assert float(back.left) == pytest.approx(width - float(front.right) + 1.5 * mm, abs=0.01)
    assert float(back.bottom) == pytest.approx(float(front.bottom) + 1.0 * mm, abs=0.01)
    unknown = runner.invoke(main, ["build", "--printer", "nope", "--out", str(tmp_path / "x")])
    assert unknown.exit_code == 1 and "unknown printer 'nope' (known: Kitchen \"laser\", other)" in unknown.output


def test_a_profiles_offsets_are_said_in_words_whichever_their_sign() -> None:
    from cardgen.cli import _backs_shifted

    assert _backs_shifted(0.5, -1) == "backs shifted 0.5 mm right, 1 mm down"  # it said "-1 mm up"
    assert _backs_shifted(-1.5, 0.25) == "backs shifted 1.5 mm left, 0.25 mm up"
    assert _backs_shifted(0, -2) == "backs shifted 2 mm down" and _backs_shifted(0, 0) == "backs not shifted"


def test_out_of_range_profiles_and_broken_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="within ±20 mm"):
        save_profile(PrinterProfile("x", 25.0, 0.0), tmp_path / "p.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[printer.x\n", encoding="utf-8")
    with pytest.raises(BuildError, match="cannot read the printer profiles"):
        load_profiles(broken)


def test_calibrate_command_writes_the_sheet(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["calibrate", "--paper", "Letter", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "calibration.pdf")
    assert len(reader.pages) == 2
    assert float(reader.pages[0].mediabox.height) == pytest.approx(279.4 * 72 / 25.4, abs=0.01)


@pytest.mark.parametrize(("turn", "scale", "shift"), [(0.0, 1.0, 1.5), (0.4, 1.0, -2.0), (-0.25, 1.006, 0.7),
                                                      (0.0, 0.994, 0.0)])
def test_the_three_across_scales_measure_skew_and_scale(turn: float, scale: float, shift: float) -> None:
    """A back turned by ``turn`` degrees about the page's middle, printed ``scale`` times as wide and shifted:
    the pointers land where that puts them, and the readings give the turn and the scaling back."""
    import math

    from cardgen.render.calibrate import calibration_geometry, skew_and_scale
    from cardgen.render.print_specs import print_specs

    paper = print_specs().paper("A4")
    geo = calibration_geometry(paper)
    cx, cy = paper.width / 2, paper.height / 2
    a = math.radians(turn)

    def reading(zero: float, y: float) -> float:   # where the pointer meant for (zero, y) crosses y, less zero
        x = cx + scale * ((zero - cx) * math.cos(a) - (y - cy) * math.sin(a)) + shift
        return x - zero

    upper = reading(geo.x_zero, geo.x_scale_y)
    left, right = reading(geo.lower_left, geo.lower_y), reading(geo.lower_right, geo.lower_y)
    if turn == 0 and scale == 1:
        assert upper == pytest.approx(left) == pytest.approx(right) == pytest.approx(shift), "a plain shift"
    measured_turn, measured_scale = skew_and_scale(geo, upper, left, right)
    assert measured_turn == pytest.approx(turn, abs=0.01)
    assert measured_scale == pytest.approx(100 * (scale * math.cos(a) - 1), abs=0.01)
    result = CliRunner().invoke(main, ["calibrate", "--read", str(upper), str(left), str(right)])
    assert result.exit_code == 0 and f"back turned {measured_turn:+.3f}°" in result.output


@pytest.mark.parametrize("readings", [("nan", "0", "0"), ("0", "inf", "0"), ("0", "0", "-inf"), ("50", "-20", "20"),
                                      ("10.5", "0", "0")])
def test_a_reading_no_scale_can_show_is_refused_with_the_scales_range(readings: tuple[str, str, str]) -> None:
    result = CliRunner().invoke(main, ["calibrate", "--read", *readings])
    assert result.exit_code == 2 and "not on the sheet's scales" in result.output and "from -10 to +10" in result.output
    assert "back turned" not in result.output


def test_readings_at_the_ends_of_the_scales_are_taken() -> None:
    result = CliRunner().invoke(main, ["calibrate", "--read", "-10", "10", "10"])
    assert result.exit_code == 0 and "back turned" in result.output


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf"])
@pytest.mark.parametrize("command", [["build", "--game", "barony-sorcery", "--only", "deck"], ["calibrate"],
                                     ["printer", "save", "P", "--back-offset-y", "0"]])
def test_a_back_offset_that_is_not_a_finite_number_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               command: list[str], value: str) -> None:
    """NaN passed click's -20..20 range (every comparison with it is false) and was written into the back pages
    as ``nan`` operators, or saved into printers.toml for every later build."""
    store = tmp_path / "printers.toml"
    monkeypatch.setenv("SPELLBOOK_PRINTERS", str(store))
    out = [] if command[0] == "printer" else ["--out", str(tmp_path / "out")]
    result = CliRunner().invoke(main, [*command, "--back-offset-x", value, *out])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--back-offset-x'" in result.output
    assert "not a finite number" in result.output or "not in the range" in result.output
    assert not (tmp_path / "out").exists() and not store.exists()


@pytest.mark.parametrize("option", ["--bleed", "--gutter", "--hex-size"])
def test_the_other_float_options_refuse_nan_as_well(tmp_path: Path, option: str) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "barony-sorcery", option, "nan", "--out", str(tmp_path)])
    assert result.exit_code == 2 and f"Invalid value for '{option}'" in result.output


def test_the_library_refuses_non_finite_offsets_too(tmp_path: Path) -> None:
    from cardgen.render import BuildOptions, plan_build

    with pytest.raises(BuildError, match="within ±20 mm"):
        save_profile(PrinterProfile("x", float("nan"), 0.0), tmp_path / "p.toml")
    with pytest.raises(BuildError, match="back offset y must be within ±20 mm, got nan"):
        plan_build(BuildOptions(game="barony-sorcery", back_offset_y=float("nan"), base_url="http://10.0.0.2:8000",
                                out_dir=tmp_path))
    with pytest.raises(BuildError, match="within ±20 mm"):
        render_calibration(tmp_path / "c.pdf", print_specs().paper("A4"), float("inf"), 0.0)
    assert not (tmp_path / "p.toml").exists() and not (tmp_path / "c.pdf").exists()


@pytest.mark.parametrize("saved", ["nan", "inf", "-inf", "25.0"])
def test_a_saved_profile_holding_a_value_out_of_range_is_refused_naming_file_and_field(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saved: str) -> None:
    store = tmp_path / "printers.toml"
    store.write_text(f'[printer."P"]\nback_offset_x = 0.5\nback_offset_y = {saved}\n', encoding="utf-8")
    monkeypatch.setenv("SPELLBOOK_PRINTERS", str(store))
    expected = f"{store}: printer 'P': back_offset_y must be a number of mm within ±20"
    with pytest.raises(BuildError, match=re.escape(expected)):
        load_profiles(store)
    for command in (["build", "--game", "barony-sorcery", "--only", "deck", "--printer", "P",
                     "--base-url", "http://10.0.0.2:8000"], ["calibrate", "--printer", "P"], ["printer", "list"]):
        result = CliRunner().invoke(main, [*command, *(["--out", str(tmp_path / "out")] if command[0] != "printer"
                                                       else [])])
        assert result.exit_code == 1 and expected in result.output, (command, result.output)
    assert not (tmp_path / "out").exists()
