"""Crop marks on a part-filled sheet sit round the cards it holds, not where the full grid would end; a card
size defined in a ``--data`` folder is accepted by ``cardgen build`` (issue 26)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from cardgen.catalog.base import DEFAULT_DATA_DIR
from cardgen.cli import main
from cardgen.render import plan_layout, print_specs
from cardgen.render.imposition import crop_mark_segments

MM = 72 / 25.4


@pytest.mark.parametrize("used", [1, 2, 4, 5])
def test_marks_of_a_part_filled_sheet_start_at_its_cards(used: int) -> None:
    specs = print_specs()
    rules = specs.sheet
    layout = plan_layout(specs.paper("A4"), specs.card_size("poker"), 3.0, rules)
    slots = [layout.slot(i) for i in range(used)]
    bottom = min(s.bleed_rect.y for s in slots)
    right = max(s.bleed_rect.right for s in slots)
    for x0, y0, x1, y1 in crop_mark_segments(layout, rules, used):
        if x0 == x1 and y1 < y0:      # a mark below the cards, running down
            assert y0 == pytest.approx(bottom - rules.crop_gap)
        if y0 == y1 and x1 > x0 and x0 > layout.paper.width / 2:   # a mark right of the cards
            assert x0 == pytest.approx(right + rules.crop_gap)
    full = crop_mark_segments(layout, rules)
    assert min(min(s[1], s[3]) for s in full) < bottom - 60, "a full sheet's marks are at the grid's foot"


def test_a_card_size_from_the_data_folder_builds(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR / "print", root / "print")
    shutil.copytree(DEFAULT_DATA_DIR / "barony-sorcery", root / "barony-sorcery")
    with open(root / "print" / "card-sizes.toml", "a", encoding="utf-8") as sizes:
        sizes.write('\n[[card_size]]\nname = "square"\nwidth = 70.0\nheight = 70.0\ndescription = "square"\n')
    result = CliRunner().invoke(main, ["build", "--game", "barony-sorcery", "--only", "deck", "--card-size", "square",
                                       "--data", str(root), "--out", str(tmp_path / "out"),
                                       "--base-url", "http://10.0.0.2:8000"])
    assert result.exit_code == 0, result.output
    assert "square cards (70×70 mm" in result.output
    page = PdfReader(tmp_path / "out" / "barony-sorcery" / "deck.pdf").pages[0]
    assert float(page.trimbox.height) / MM % 70 == pytest.approx(0, abs=0.01)   # whole 70 mm rows
    wrong = CliRunner().invoke(main, ["build", "--game", "barony-sorcery", "--card-size", "square",
                                      "--out", str(tmp_path / "x")])
    assert wrong.exit_code != 0 and "unknown card size 'square' (known: poker, bridge, tarot, mini)" in wrong.output
