"""The Mandragora print kit: decks, shop tiles, markers, reference sheet and score pad as PDFs.

The kit is built once per variant for the whole module; QR codes are decoded from full sheets
rendered at 200 dpi (what a phone camera sees on a home print).
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Callable

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
from cardgen.catalog.mandragora import (
    COLOUR_SYMBOLS,
    EFFECT_KINDS,
    EFFECTS,
    MandragoraContent,
)
from cardgen.cli import main
from cardgen.render import BuildError, BuildOptions, build, plan_build, print_specs
from cardgen.render.colour import contrast
from cardgen.render.mandragora.glyphs import SPELL_GLYPHS
from cardgen.render.mandragora.style import mandragora_style
from cardgen.render.mandragora.symbols import COLOUR_DRAWERS
from cardgen.render.print_specs import theme_problems

MANDRAGORA: MandragoraContent = content("mandragora")
ITEMS = sorted(MANDRAGORA.items, key=lambda c: c.number)
SPELLS = sorted(MANDRAGORA.spell_cards, key=lambda c: c.number)
A4 = (210 * mm, 297 * mm)
DOCUMENTS = ["deck", "reference", "score-pad", "tiles", "tokens"]


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_kit("mandragora", tmp_path_factory.mktemp("mandragora-kit"))


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., dict[str, Path]]:
    """``variant(**options)`` builds the kit (once per distinct options) and returns its PDFs by name."""
    return variant_builder("mandragora", tmp_path_factory)


# -- what the kit holds --------------------------------------------------------------------------

def test_build_writes_five_documents(kit: dict[str, Path]) -> None:
    assert sorted(kit) == DOCUMENTS
    for path in kit.values():
        assert path.parent.name == "mandragora" and path.stat().st_size > 4000


def test_page_counts(kit: dict[str, Path]) -> None:
    counts = {name: len(PdfReader(path).pages) for name, path in kit.items()}
    # 82 items and 24 spells on one run of sheets (the last item shares its sheet with 8 spells), each sheet
    # followed by its backs: 12 sheets where each deck on its own sheets took 10 + 3
    assert counts["deck"] == 2 * 12
    assert counts["tiles"] == 2 * 2          # 10 tiles, 6 per A4 sheet
    assert counts["tokens"] == 2             # front page, back page
    assert counts["score-pad"] == 1
    assert 2 <= counts["reference"] <= 5


def test_sheet_labels_follow_both_decks(kit: dict[str, Path]) -> None:
    pages = page_texts(kit["deck"])
    for sheet in range(12):
        first, last = sheet * 9 + 1, min(106, sheet * 9 + 9)
        assert f"Mandragora items and spells · fronts · sheet {sheet + 1}/12 · cards {first}–{last}" in pages[2 * sheet]
        assert f"Mandragora items and spells · backs · sheet {sheet + 1}/12" in pages[2 * sheet + 1]
    assert "MAGICAL ITEM" in pages[1] and "SPELL" in pages[21] and "MAGICAL ITEM" not in pages[21]
    # the shared sheet: item 82's back behind it, spell backs behind the eight spells
    back = flattened(pages[19])
    assert back.count("MAGICAL ITEM") == 2 and back.count("SPELL") == 2 * 8  # each back reads its title twice


def test_every_card_is_on_its_sheet_with_name_kind_and_number(kit: dict[str, Path]) -> None:
    pages = page_texts(kit["deck"])
    cards = [*ITEMS, *SPELLS]
    for sheet, chunk in enumerate(cards[i:i + 9] for i in range(0, 106, 9)):
        text = pages[2 * sheet]
        lines = [line.strip() for line in text.splitlines()]
        flat = flattened(text)
        items = [c for c in chunk if c in ITEMS]
        for card in items:
            assert card.name in lines, card.id
            assert f"item {card.number}/82" in lines, card.id
        assert Counter(line for line in lines if line in {c.name for c in items}) == Counter(c.name for c in items)
        for card in (c for c in chunk if c in SPELLS):
            spell = MANDRAGORA.spell_of(card)
            copy = MANDRAGORA.copies_of(spell.id).index(card) + 1
            assert f"spell {card.number - 82}/24" in text and f"{spell.name} {copy} of {spell.count}" in text
            assert f"{EFFECT_KINDS[spell.kind]} effect".upper() in text
            assert flattened(spell.text) in flat, card.id


def test_item_faces_say_what_they_do(kit: dict[str, Path]) -> None:
    text = flattened(" ".join(page_texts(kit["deck"])[0:20:2]))  # the sheets of items 1-82
    for card in ITEMS:
        assert flattened(MANDRAGORA.ability_text(card)) in text, card.id
    assert text.count("GIVES 1 CURSE") == 7 and text.count("GIVES 2 CURSES") == 4 and text.count("GIVES 3 CURSES") == 1
    assert text.count("WILD: ANY COLOUR, OR A SPELLBOOK") == 7
    assert text.count("BLACK MAGIC · WORTH 3 POINTS") == 1


def test_cards_that_leave_smaller_games_are_marked(kit: dict[str, Path]) -> None:
    text = " ".join(page_texts(kit["deck"]))
    both = [c for c in ITEMS if MANDRAGORA.removed_with(c) == (3, 2)]
    two_only = [c for c in ITEMS if MANDRAGORA.removed_with(c) == (2,)]
    assert len(both) + len(two_only) == 26 and len(both) == 5
    assert text.count("Out with 2 or 3 sorcerers") == len(both)
    assert text.count("Out with 2 sorcerers") == len(two_only)


def test_qr_codes_on_a_full_sheet_decode_to_the_card_urls(kit: dict[str, Path]) -> None:
    # a full item sheet, the shared sheet (item 82 and spells 1-8) and a full spell sheet
    for page, cards in ((4, ITEMS[18:27]), (18, [ITEMS[81], *SPELLS[:8]]), (20, SPELLS[8:17])):
        results = qr_codes(kit["deck"], page)
        assert sorted(r.text for r in results) == sorted(card_url("mandragora", c.id) for c in cards)
        for r in results:
            width_mm = (r.position.top_right.x - r.position.top_left.x) / 200 * 25.4
            assert width_mm >= 13.5, (r.text, width_mm)


def test_base_url_goes_into_the_qr_codes(variant: Callable[..., dict[str, Path]]) -> None:
    deck = variant(base_url="https://table.example.org/play/", documents=("deck",))["deck"]
    texts = qr_texts(deck, 0)
    assert texts == sorted(card_url("mandragora", c.id, "https://table.example.org/play") for c in ITEMS[:9])


def test_shop_tiles(kit: dict[str, Path]) -> None:
    pages = page_texts(kit["tiles"])
    fronts = pages[0] + pages[2]
    for shop in MANDRAGORA.shops:
        assert shop.name in [line.strip() for line in fronts.splitlines()], shop.id
    flat = flattened(fronts)
    assert flat.count("D A Y S H O P") + flat.count("DAY SHOP") == 7
    assert flat.count("N I G H T S H O P") + flat.count("NIGHT SHOP") == 3
    assert flat.count("Restock face up") == 7 and flat.count("Restock face down") == 3
    assert flat.count("START · the Assistant begins here") == 1
    assert "tiles 1–6" in pages[0] and "tiles 7–10" in pages[2] and "backs" in pages[1]


def test_day_and_night_tiles_look_different(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    """Night tiles are dark in full colour; in ink-saver mode both are light but night keeps hatched edges."""
    order = [MANDRAGORA.shop(s) for s in MANDRAGORA.circle_order]
    night_slot, day_slot = next(i for i, s in enumerate(order) if s.time == "night"), 1

    def slot_mean(path: Path, slot: int, inner: bool) -> float:
        img = rendered(path, 0, 40)
        px = 40 / 25.4
        x0, y0 = (210 - 168) / 2 + (slot % 2) * 84, (297 - 252) / 2 + (slot // 2) * 84
        box = (x0 + 20, y0 + 20, x0 + 64, y0 + 64) if inner else (x0 + 0.5, y0 + 0.5, x0 + 3.5, y0 + 83.5)
        left, top, right, bottom = (int(v * px) for v in box)
        return float(ImageStat.Stat(img.crop((left, top, right, bottom))).mean[0]) / 255
    assert slot_mean(kit["tiles"], night_slot, True) < 0.35 < 0.7 < slot_mean(kit["tiles"], day_slot, True)
    saver = variant(ink_saver=True, documents=("tiles",))["tiles"]
    assert slot_mean(saver, night_slot, True) > 0.8 and slot_mean(saver, day_slot, True) > 0.8
    assert slot_mean(saver, night_slot, False) < slot_mean(saver, day_slot, False) - 0.1


def test_markers_and_standee(kit: dict[str, Path]) -> None:
    front, back = (flattened(t) for t in page_texts(kit["tokens"]))
    for text in ("CURSE", "III", "3 ROUNDS LEFT", "THE ASSISTANT", "base: fold outwards", "How to make them",
                 "Countdown marker to fold"):
        assert text in front, text
    assert "2 ROUNDS LEFT" in back and "CURSE" in back and "3 ROUNDS LEFT" not in back
    assert "mirrored for long-edge duplex" in back


def test_marker_backs_sit_behind_their_fronts(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    """The curse marker (a dark disc 38 mm across, centred 41 mm from the left and 50 mm from the top) is
    mirrored on a duplex back page and stays put on a cut-and-glue back page. Probed 13 mm left of its
    centre, beside the light eye."""
    def dark_at(path: Path, page: int, x_mm: float) -> bool:
        img = rendered(path, page, 30)
        px = 30 / 25.4
        value = img.getpixel((int(x_mm * px), int(50 * px)))
        assert isinstance(value, int)
        return value < 128
    assert dark_at(kit["tokens"], 0, 28) and dark_at(kit["tokens"], 1, 210 - 28)
    assert not dark_at(kit["tokens"], 1, 28)
    simplex = variant(duplex=False, documents=("tokens",))["tokens"]
    assert dark_at(simplex, 1, 28) and "unmirrored, to cut and glue" in page_texts(simplex)[1]


def test_reference_sheet_content(kit: dict[str, Path]) -> None:
    text = flattened(" ".join(page_texts(kit["reference"])))
    for heading in ("Setup", "Your turn: do one of two things", "1 Seek magical items (the Assistant moves)",
                    "2 Cast a spell (the Assistant stays)", "The 8 spells (24 cards)", "The curse", "End of the game",
                    "Scoring", "Fewer than four sorcerers", "Team variant (4 sorcerers)", "The shop tiles",
                    "Notes on the rulebook"):
        assert heading in text, heading
    for spell in MANDRAGORA.spells:
        values = ", ".join(str(v) for v in spell.values)
        assert f"{spell.name} ×{spell.count} {values}" in text, spell.id
        assert flattened(MANDRAGORA.rule(spell.rule).text) in text, spell.id
    for kind in EFFECT_KINDS.values():
        assert kind in text
    for rule_id in ("mandragora.end.countdown", "mandragora.score.colours", "mandragora.curse.tie",
                    "mandragora.black.magic", "mandragora.spell.one-mandrake", "mandragora.team.exchange"):
        assert flattened(MANDRAGORA.rule(rule_id).text) in text, rule_id
    for colour in MANDRAGORA.colours:
        assert colour.name in text and colour.symbol_name in text
    for note in MANDRAGORA.notes:
        assert flattened(note.text) in text, note.id
    assert "2 + 3 = 5, 0 + 2 = 2, 3 + 1 = 4, 0 + 4 = 4, 1 + 1 = 2; together 17" in text
    assert "Total 13 (the rulebook prints 12; see the notes)" in text
    assert "3 sorcerers Cursed Scroll (1 curse) (item 7); Red Ingredient (item 36)" in text


def test_score_pad_content(kit: dict[str, Path]) -> None:
    (text,) = page_texts(kit["score-pad"])
    lines = [line.strip() for line in text.splitlines()]
    for label in ("Sorcerer", "Team (variant)", "Spells and spellbooks", "Colours left in hand (tick)",
                  "– 1 per colour", "Curse marker: – 2", "Total", "Spells cast (breaks a tie)", "Endgame countdown",
                  "Team A total", "Team B total"):
        assert label in lines, label
    spell_rows = [line for line in lines if line.startswith("Spell ") and line[6:].isdigit()]
    assert spell_rows == [f"Spell {n}" for n in range(1, len(spell_rows) + 1)] and len(spell_rows) >= 15
    assert "5 + 2 + 4 + 4 + 2 = 17; curse -2; 2 colours left -2; total 13 (printed there as 12)" in text


# -- print properties ---------------------------------------------------------------------------

def test_text_uses_only_characters_the_standard_fonts_have(kit: dict[str, Path]) -> None:
    for path in kit.values():
        text = "".join(page_texts(path))
        missing = {ch for ch in text if not ch.isspace() and ch.encode("cp1252", errors="replace") == b"?"}
        assert not missing, (path.name, missing)


def test_every_page_has_trim_and_bleed_boxes_and_the_paper_size(kit: dict[str, Path]) -> None:
    for path in kit.values():
        for page in PdfReader(path).pages:
            media, bleed, trim = page.mediabox, page.bleedbox, page.trimbox
            assert (float(media.width), float(media.height)) == pytest.approx(A4, abs=0.01)
            assert media.left <= bleed.left <= trim.left and trim.right <= bleed.right <= media.right
            assert media.bottom <= bleed.bottom <= trim.bottom and trim.top <= bleed.top <= media.top
    tiles = PdfReader(kit["tiles"]).pages[0]
    assert float(tiles.trimbox.width) == pytest.approx(2 * 84 * mm, abs=0.01)
    assert float(tiles.bleedbox.height) == pytest.approx((3 * 84 + 6) * mm, abs=0.01)


def test_print_scaling_none_everywhere(kit: dict[str, Path]) -> None:
    for path in kit.values():
        assert PdfReader(path).trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_same_input_same_bytes(kit: dict[str, Path], tmp_path: Path) -> None:
    again = {p.stem: p for p in build(BuildOptions(game="mandragora", out_dir=tmp_path))}
    for name, path in kit.items():
        assert again[name].read_bytes() == path.read_bytes(), name


def test_ink_saver_drops_the_heavy_fills(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    saver = variant(ink_saver=True, documents=("deck", "tokens"))

    def mean(path: Path, page: int) -> float:
        return ImageStat.Stat(rendered(path, page, 40)).mean[0] / 255
    assert mean(kit["deck"], 0) < 0.82 and mean(kit["deck"], 1) < 0.4
    assert mean(saver["deck"], 0) > 0.88 and mean(saver["deck"], 1) > 0.95 and mean(saver["tokens"], 0) > 0.9
    assert "Cursed Scroll" in page_texts(saver["deck"])[0]


def test_no_duplex_puts_every_back_after_the_fronts(variant: Callable[..., dict[str, Path]]) -> None:
    pages = page_texts(variant(duplex=False, documents=("deck",))["deck"])
    assert len(pages) == 24  # the 12 sheets of fronts, then their 12 backs
    assert "items and spells · fronts · sheet 12/12" in pages[11] and "items and spells · backs · sheet 1/12" in pages[12]
    assert "items and spells · backs · sheet 12/12" in pages[23]


def test_back_offset_moves_back_pages_only(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    shifted = variant(back_offset_x=2.0, back_offset_y=-1.0, documents=("deck", "tiles", "tokens"))
    for name in ("deck", "tiles", "tokens"):
        plain, moved = PdfReader(kit[name]).pages, PdfReader(shifted[name]).pages
        assert moved[0].get_contents().get_data() == plain[0].get_contents().get_data(), name
        assert float(moved[1].trimbox.left - plain[1].trimbox.left) == pytest.approx(2.0 * mm, abs=0.01), name
        assert float(moved[1].trimbox.bottom - plain[1].trimbox.bottom) == pytest.approx(-1.0 * mm, abs=0.01), name


def test_letter_and_mini_cards(variant: Callable[..., dict[str, Path]]) -> None:
    kit = variant(paper="Letter", card_size="mini", documents=("deck", "tiles"))
    deck = PdfReader(kit["deck"])
    assert len(deck.pages) == 2 * 6  # 18 mini cards per sheet: 106 cards on 6 sheets (each deck apart took 5 + 2)
    assert float(deck.pages[0].mediabox.height) == pytest.approx(279.4 * mm, abs=0.01)
    assert len(PdfReader(kit["tiles"]).pages) == 4
    texts = qr_texts(kit["deck"], 0)
    assert texts == sorted(card_url("mandragora", c.id) for c in ITEMS[:18])


def test_no_crop_marks_changes_only_the_marks(kit: dict[str, Path], variant: Callable[..., dict[str, Path]]) -> None:
    plain = variant(crop_marks=False, documents=("deck",))["deck"]
    img, marked = rendered(plain, 0, 100), rendered(kit["deck"], 0, 100)
    px = 100 / 25.4
    x = (210 - 189) / 2 * px
    window = (int(x - 2), int(((297 - 264) / 2 - 7.5) * px), int(x + 3), int(((297 - 264) / 2 - 4.5) * px))
    assert marked.crop(window).getextrema()[0] < 128 and img.crop(window).getextrema()[0] > 240


# -- colour is never the only cue -------------------------------------------------------------------

def test_colour_symbols_differ_in_shape_alone(tmp_path: Path) -> None:
    """Drawn in black, every pair of colour symbols still differs in at least 12% of the square."""
    used = {c.symbol for c in MANDRAGORA.colours}
    assert used <= set(COLOUR_DRAWERS) == set(COLOUR_SYMBOLS)
    images = {name: symbol_image(COLOUR_DRAWERS[name], tmp_path, name) for name in used}
    for a, b in itertools.combinations(sorted(images), 2):
        share = shape_difference(images[a], images[b])
        assert share > 0.12, (a, b, share)


def test_every_effect_has_a_picture_and_every_colour_a_theme_ink() -> None:
    assert set(SPELL_GLYPHS) == set(EFFECTS)
    specs = print_specs()
    assert theme_problems(specs, None, "mandragora", [c.id for c in MANDRAGORA.colours], member="colour") == []
    style = mandragora_style(specs.theme("mandragora"), False)
    for colour in MANDRAGORA.colours:  # the darkened ink used for kind lines stays readable on parchment
        assert contrast(style.readable(style.colour_ink(colour.id)), style.panel or "#FFFFFF") >= 4.5, colour.id


# -- options and the CLI ----------------------------------------------------------------------------

def test_progress_counts_every_card_and_sheet(tmp_path: Path) -> None:
    plan = plan_build(BuildOptions(game="mandragora", out_dir=tmp_path))
    assert plan.total_work == 106 + 4
    assert [d.document.name for d in plan.documents] == ["deck", "tiles", "tokens", "reference", "score-pad"]


def test_a_document_the_game_does_not_have_is_a_build_error(tmp_path: Path) -> None:
    with pytest.raises(BuildError) as caught:
        plan_build(BuildOptions(game="fillory", documents=("tiles",), out_dir=tmp_path))
    assert str(caught.value) == "fillory has no document 'tiles' (its documents: deck, reference, score-pad)"


def test_cli_builds_only_the_tiles(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--game", "mandragora", "--only", "tiles", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Wrote 1 file(s):" in result.stdout and str(tmp_path / "mandragora" / "tiles.pdf") in result.stdout
    assert sorted(p.name for p in (tmp_path / "mandragora").iterdir()) == ["tiles.pdf"]
