"""Honest bleed (issue 26): on every paper, card size and gutter a deck either keeps the whole requested
bleed round its grid (measured from the PDF's BleedBox against its TrimBox) or the build says exactly what
it reduced and why; --full-bleed always keeps it (poker on Letter: 8 a sheet); every deck sheet has its
registration targets."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.cli import main
from cardgen.render.imposition import registration_diameter, registration_points
from cardgen.render.layout import bleed_shortfall, plan_layout
from cardgen.render.print_specs import print_specs

MM = 72 / 25.4
SPECS = print_specs()
SIZES = list(SPECS.card_sizes)
GAME = "barony-sorcery"  # the smallest deck: nine cards


def _sides(pdf: Path) -> dict[str, float]:
    page = PdfReader(pdf).pages[0]
    trim, bleed = page.trimbox, page.bleedbox
    return {"left": (float(trim.left) - float(bleed.left)) / MM, "right": (float(bleed.right) - float(trim.right)) / MM,
            "bottom": (float(trim.bottom) - float(bleed.bottom)) / MM, "top": (float(bleed.top) - float(trim.top)) / MM}


@pytest.mark.parametrize("gutter", [0.0, 3.0, 6.0])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_bleed_is_whole_or_the_build_says_what_it_reduced(tmp_path: Path, paper: str, size: str,
                                                               gutter: float) -> None:
    runner = CliRunner()
    args = ["build", "--game", GAME, "--only", "deck", "--paper", paper, "--card-size", size, "--gutter", str(gutter),
            "--base-url", "http://192.168.1.20:8000"]
    plain = runner.invoke(main, [*args, "--out", str(tmp_path / "plain")])
    assert plain.exit_code == 0, plain.output
    measured = _sides(tmp_path / "plain" / GAME / "deck.pdf")
    reduced = {side: value for side, value in measured.items() if value < 3.0 - 0.01}
    note = re.search(r"bleed reduced to (.*), not 3 mm: (.+)", plain.output)
    if not reduced:
        assert note is None or "between cards" in note.group(1)
    else:
        assert note, plain.output
        said = note.group(1)
        if reduced.keys() & {"left", "right"}:
            assert f"{measured['left']:.3g} mm left and right of the grid" in said.replace(".0 mm", " mm")
        if reduced.keys() & {"top", "bottom"}:
            assert f"{round(measured['top'], 3):g} mm above and below the grid" in said
        assert "--full-bleed puts" in note.group(2)
    if gutter and gutter / 2 < 3.0:
        assert note and f"{gutter / 2:g} mm between cards (half the {gutter:g} mm gutter)" in note.group(1)
    full = runner.invoke(main, [*args, "--full-bleed", "--out", str(tmp_path / "full")])
    assert full.exit_code == 0, full.output
    assert all(value == pytest.approx(3.0, abs=0.01) for value in _sides(tmp_path / "full" / GAME / "deck.pdf").values())
    for full_bleed in (False, True):
        layout = plan_layout(SPECS.paper(paper), SPECS.card_size(size), 3.0, SPECS.sheet, gutter, full_bleed)
        targets = registration_points(layout, SPECS.sheet)
        if gutter == 0 or full_bleed:
            assert len(targets) >= 1, "registration targets on every deck sheet of the default gutter"
            assert registration_diameter(layout, SPECS.sheet) >= 3.0
        elif not targets:
            assert "no registration targets on the card sheets" in plain.output
        if full_bleed:
            assert not [n for n in bleed_shortfall(layout) if "grid" in n]


def test_poker_on_letter_full_bleed_is_eight_a_sheet_sideways() -> None:
    layout = plan_layout(SPECS.paper("Letter"), SPECS.card_size("poker"), 3.0, SPECS.sheet, 0.0, True)
    assert (layout.per_sheet, layout.rotated, layout.outer_bleed) == (8, True, (3.0, 3.0))
    default = plan_layout(SPECS.paper("Letter"), SPECS.card_size("poker"), 3.0, SPECS.sheet, 0.0)
    assert default.per_sheet == 9 and default.outer_bleed == (3.0, 0.7)
    assert registration_diameter(default, SPECS.sheet) == pytest.approx(4.45, abs=0.01)


def test_at_an_equal_count_a_sheet_keeps_the_bleed() -> None:
    # poker on Letter with a 6 mm gutter: six a sheet either way; upright gave 0.45 mm at the sides, sideways 3 mm
    layout = plan_layout(SPECS.paper("Letter"), SPECS.card_size("poker"), 3.0, SPECS.sheet, 6.0)
    assert layout.per_sheet == 6 and layout.outer_bleed == (3.0, 3.0) and not bleed_shortfall(layout)
    for paper in ("A4", "Letter"):  # never fewer cards a sheet for it, and upright where the bleed is the same
        for size in SIZES:
            for gutter in (0.0, 3.0, 6.0):
                chosen = plan_layout(SPECS.paper(paper), SPECS.card_size(size), 3.0, SPECS.sheet, gutter)
                upright = plan_layout(SPECS.paper(paper), SPECS.card_size(size), 3.0,
                                      replace(SPECS.sheet, allow_rotation=False), gutter)
                assert chosen.per_sheet >= upright.per_sheet
                if chosen.rotated and chosen.per_sheet == upright.per_sheet:
                    assert min(chosen.outer_bleed) > min(upright.outer_bleed)


def test_with_a_cutter_the_reduced_bleed_note_names_its_marks_and_the_full_bleed_count(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["build", "--game", GAME, "--only", "deck", "--paper", "A4", "--cutter", "silhouette",
            "--base-url", "http://192.168.1.20:8000"]
    plain = runner.invoke(main, [*args, "--out", str(tmp_path / "plain")])
    assert plain.exit_code == 0, plain.output
    note = re.search(r"bleed reduced to (.*), not 3 mm: (.+)", plain.output)
    assert note and "for the cutter's registration marks" in note.group(2) and "crop marks" not in note.group(2)
    promised = int(re.search(r"--full-bleed puts (\d+) a sheet", note.group(2)).group(1))  # type: ignore[union-attr]
    full = runner.invoke(main, [*args, "--full-bleed", "--out", str(tmp_path / "full")])
    assert full.exit_code == 0 and f"{promised} per A4 sheet" in full.output, (promised, full.output)
