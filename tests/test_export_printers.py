"""``cardgen export --for mpc|drivethrucards|thegamecrafter|tts`` (issue 26): each printer's published
template size, one orientation and one back per deck, the names and order each takes; Tabletop Simulator
sheets of 10 × 7 slots at most 4096 px, with the deck's back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import zxingcpp
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from cardgen.catalog import content
from cardgen.cli import main
from cardgen.render import BuildOptions
from cardgen.render.printers import PRINTERS, export_for

BASE = "https://cards.example.org"
# The printers' published poker templates at 300 dpi (card plus bleed)
POKER = {"mpc": (822, 1122), "drivethrucards": (825, 1125), "thegamecrafter": (825, 1125)}


@pytest.mark.parametrize("printer", ["mpc", "thegamecrafter"])
def test_image_printers_get_their_template_size_one_front_per_card_and_one_back(tmp_path: Path, printer: str) -> None:
    written = export_for(BuildOptions(game="barony-sorcery", out_dir=tmp_path, base_url=BASE), printer)
    spells = sorted(content("barony-sorcery").cards, key=lambda c: c.number)
    fronts = [p for p in written if p.name != "back.png"]
    backs = [p for p in written if p.name == "back.png"]
    assert len(fronts) == len(spells) and len(backs) == 1, "one back per deck, not one per card"
    assert [p.name for p in fronts] == sorted(p.name for p in fronts) == \
        [f"{n:03d}-{c.id}.png" for n, c in enumerate(spells, 1)], "upload order is name order"
    if printer == "mpc":
        assert {p.parent.name for p in fronts} == {"front"}
    for path in written:
        with Image.open(path) as image:
            assert image.size == POKER[printer] == PRINTERS[printer].sizes["poker"]
            assert round(image.info["dpi"][0]) == 300
    with Image.open(fronts[0]) as image:
        [code] = zxingcpp.read_barcodes(image.convert("L"))
        assert code.text.startswith(f"{BASE}/c/barony-sorcery/{spells[0].id}?v=")


def test_drivethrucards_gets_one_pdf_a_deck_at_its_template_size_front_then_back(tmp_path: Path) -> None:
    [path] = export_for(BuildOptions(game="barony-sorcery", out_dir=tmp_path, base_url=BASE), "drivethrucards")
    assert path.name == "barony-sorcery-spells.pdf"
    pages = PdfReader(path).pages
    assert len(pages) == 18
    for page in pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(w / 72 * 300), round(h / 72 * 300)) == POKER["drivethrucards"]
    assert pages[1].extract_text() == pages[3].extract_text(), "every back the same"


def test_landscape_decks_are_turned_so_every_image_of_a_deck_is_portrait(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "--game", "jsmn", "--for", "thegamecrafter", "--out", str(tmp_path),
                                       "--base-url", BASE])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "jsmn" / "thegamecrafter"
    decks = sorted(p.name for p in folder.iterdir())
    assert decks == sorted(["invitation", "introduction", "feat", "spell", "connexion", "book", "marseilles"])
    for deck in decks:
        images = sorted((folder / deck).glob("*.png"))
        assert len([p for p in images if p.name == "back.png"]) == 1
        for path in images[:2] + images[-1:]:
            with Image.open(path) as image:
                assert image.size == (825, 1125), (deck, path.name)
    with Image.open(next((folder / "feat").glob("001-*.png"))) as image:   # a feat, turned: its code still reads
        assert zxingcpp.read_barcodes(image.convert("L"))


def test_tts_sheets_are_ten_by_seven_within_4096_px_with_the_back_in_the_hidden_slot(tmp_path: Path) -> None:
    written = export_for(BuildOptions(game="fillory", out_dir=tmp_path, base_url=BASE), "tts")
    folder = tmp_path / "fillory" / "tts"
    sheets = sorted(folder.glob("deck-sheet-*.png"))
    assert [p.name for p in sheets] == ["deck-sheet-1.png", "deck-sheet-2.png"]      # 110 cards: 69 + 41
    manifest = json.loads((folder / "deck-tts.json").read_text(encoding="utf-8"))
    assert [s["cards"] for s in manifest["sheets"]] == [69, 41]
    assert manifest["sheets"][0]["columns"] * manifest["sheets"][0]["rows"] == 70
    with Image.open(folder / "deck-back.png") as back:
        slot = back.size
        back_pixels = back.convert("RGB").tobytes()
    assert slot[0] < slot[1]
    for path in sheets:
        with Image.open(path) as image:
            assert max(image.size) <= 4096 and image.size == (10 * slot[0], 7 * slot[1])
            hidden = image.crop((9 * slot[0], 6 * slot[1], 10 * slot[0], 7 * slot[1])).convert("RGB")
            assert hidden.tobytes() == back_pixels, "the 70th slot holds the deck's back"
    assert len(written) == 4
