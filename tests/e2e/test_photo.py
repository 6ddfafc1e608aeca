"""Score by photo in a phone's browser (390×844): a generated photo of a tableau uploaded through the file
input, the boxes drawn, one card removed and one added by hand, the calculator's total; and on a tracked
game's seat, the audit listing a planted mis-report whose one-tap correction fixes it."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Callable

from PIL import Image
from playwright.sync_api import BrowserContext, Page, expect

from cardgen.catalog import content
from companion.photo import card_name
from companion.rules import rules_for
from tests.e2e.conftest import Api, screenshot
from tests.e2e.phone import open_seat
from tests.e2e.test_accessibility import blocking_violations
from tests.e2e.test_before_scripts import hold, let_through

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import photo_set  # noqa: E402  bench/photo_set.py: table photos from the print kit's faces

FILLORY = content("fillory")
WAIT = 30_000  # a generous ceiling: the server reads the photo on a busy machine
DOC_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def doc_picture(page: Page, name: str) -> None:
    """A full-page screenshot in output/screenshots/ and, with E2E_DOC_IMAGES=1, the picture docs/at-the-table.md
    shows (docs/images/<name>.png, committed): the photo flow as the browser test drives it, on photos made from
    the print kit's own faces."""
    path = screenshot(page, name)
    if os.environ.get("E2E_DOC_IMAGES") == "1":
        DOC_IMAGES.mkdir(parents=True, exist_ok=True)
        doc_png(path, DOC_IMAGES / f"{name}.png")


def doc_png(source: Path, target: Path) -> None:
    """A screenshot as the docs keep it: 256 colours (a third of the bytes; the page's flat colours survive)."""
    with Image.open(source) as image:
        image.convert("RGB").quantize(256, dither=Image.Dither.NONE).save(target, optimize=True)


def _photo(tmp_path: Path, cards: list[str], seed: int) -> Path:
    scene = photo_set.scene("fillory", cards, 6.0, seed, perspective=0.08)
    assert sorted(scene.cards) == sorted(cards)
    path = tmp_path / "table.jpg"
    path.write_bytes(scene.jpeg)
    return path


def test_a_photo_of_a_tableau_fills_the_calculator(new_phone: Callable[[], BrowserContext], tmp_path: Path) -> None:
    laid = ["quentin", "alice", "penny", "julia"]
    page = new_phone().new_page()
    page.goto("/")
    page.get_by_role("link", name=FILLORY.title).click()
    expect(page.get_by_role("heading", name=re.compile("Score by photo"))).to_be_visible()
    page.set_input_files("#photo-file", str(_photo(tmp_path, laid, 11)))
    expect(page.locator("#photo-status")).to_contain_text("4 cards found", timeout=WAIT)
    boxes = page.locator("#photo-boxes polygon:not(.unread)")
    expect(boxes).to_have_count(4)
    labels = page.locator("#photo-boxes text")
    assert sorted(labels.all_text_contents()) == sorted(card_name(FILLORY, FILLORY.card(card)) for card in laid)
    expect(page.locator("#photo-img")).to_be_visible()
    screenshot(page, "photo-read")

    page.get_by_role("button", name=f"Remove {FILLORY.card('julia').name}").click()
    expect(page.locator("#photo-boxes polygon.removed")).to_have_count(1)
    page.get_by_label("Add a card by hand").fill(FILLORY.card("brakebills").name)
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#card-list")).to_contain_text(f"{FILLORY.card('brakebills').name} (added by hand)")

    page.get_by_role("button", name="Score these cards").click()
    best = rules_for("fillory").trait_points(["quentin", "alice", "penny", "brakebills"], [])[0]
    expect(page.locator("#result-headline")).to_contain_text(f"Total: {best['points']}.", timeout=WAIT)
    expect(page.locator("#result-list li").first).to_contain_text(f"{best['trait']} ×{best['cards']}")
    doc_picture(page, "score-by-photo")
    assert blocking_violations(page) == []  # axe-core on the page with its photo, boxes, lists and breakdown


def test_a_photo_picked_before_the_script_arrived_is_read(new_phone: Callable[[], BrowserContext],
                                                        tmp_path: Path) -> None:
    """On a slow connection the page shows its file input before its deferred script has run: a photo picked
    then fired its change event at no listener and the page sat still. The script reads a photo already
    picked when it arrives."""
    page = new_phone(service_workers="block").new_page()  # (a service worker would serve the script past the route)
    held = hold(page, "photo")  # held back until the photo is picked
    page.goto("/calc/fillory/photo", wait_until="commit")
    expect(page.get_by_role("heading", name=re.compile("Score by photo"))).to_be_visible()
    page.set_input_files("#photo-file", str(_photo(tmp_path, ["quentin", "alice"], 3)))
    page.wait_for_function("document.querySelector('#photo-file').files.length === 1")
    let_through(page, held)
    expect(page.locator("#photo-status")).to_contain_text("2 cards found", timeout=WAIT)
    expect(page.locator("#photo-boxes text")).to_have_count(2)


def test_the_seat_audit_lists_a_planted_mis_report_and_one_tap_fixes_it(
        new_phone: Callable[[], BrowserContext], server: str, api: Api, tmp_path: Path) -> None:
    game, ann, _ = api.two_player_opening()
    loop, romance = FILLORY.card("Time Loop"), FILLORY.card("Romance")
    api.move(game["id"], ann, {"type": "play", "card": loop.id})   # the planted mis-report: she played Romance
    page = open_seat(new_phone, server, game, 0)
    page.get_by_role("link", name="Take a photo of your cards").click()
    expect(page.get_by_role("heading", name=re.compile("Check your cards"))).to_be_visible()
    page.set_input_files("#photo-file", str(_photo(tmp_path, [romance.id], 5)))
    expect(page.locator("#photo-boxes text")).to_have_text([card_name(FILLORY, romance)], timeout=WAIT)
    page.get_by_role("button", name="Compare with the app").click()
    difference = page.locator("#result-list li")
    expect(difference).to_contain_text(f"The app thinks {romance.name} is in your hand and {loop.name} in front of "
                                       f"you; the photo shows {romance.name} in front of you, not {loop.name}.",
                                       timeout=WAIT)
    doc_picture(page, "photo-audit")
    page.get_by_role("button", name=re.compile(f"Fix: Move [0-9]+ was {romance.name}, not {loop.name}")).click()
    expect(page.locator("#result-headline")).to_have_text("The photo and the app agree.", timeout=WAIT)
    state = api.http.get(f"{server}/api/games/{game['id']}", headers={"Authorization": f"Bearer {ann}"},
                         timeout=5).json()["state"]
    assert state["players"][0]["zone"] == [romance.id] and loop.id in state["players"][0]["hand"]
