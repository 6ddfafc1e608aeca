"""A 3-player game of Barony: Sorcery tracked on three phones and a table view, to its winner.

The host creates it on the home page with the spells and Mysterious locations the table drew, the
others join by code in their own browser contexts; every move goes through the seat pages' forms:
explorations (the first, second and third visitor take 3, 2 and 1 Magic tokens), a legal combination
and a refused one that names its rule, the end of the base game, each phone's base-game points, and the
review of every total before the end: a mistyped total is sent back, corrected, and every phone confirms.
The forms are the rules' choices on the shared renderer (templates/pages/_choices.html).
"""

from __future__ import annotations

import re
from typing import Callable

from playwright.sync_api import BrowserContext, Page, expect

from .conftest import Api, login_seat, screenshot
from .phone import (
    LIVE_WITHIN_MS,
    assert_not_reloaded,
    hosted_game,
    join_by_code,
    mark_page,
    recorded,
    use,
)
from .test_accessibility import blocking_violations

SPELLS = ("Velocity", "Teleport", "Tornado", "Charm", "Abundance")
PLACES = ("Standing Stones", "Whispering Well", "Ruined Tower", "Fairy Ring")


def explore(page: Page, place: str, reward: int) -> None:
    form = page.locator("#f-explore")
    choice = form.locator("label.pick", has_text=place)
    expect(choice).to_contain_text(f"+{reward} Magic token")
    choice.click()
    form.get_by_role("button", name="Place my Control token").click()
    recorded(page)


def cast(page: Page, *spells: str) -> None:
    form = page.locator("#f-cast")
    for spell in spells:
        form.locator("label.pick", has_text=spell).click()
    form.get_by_role("button", name="Cast").click()


def enter_points(page: Page, points: int) -> None:
    page.get_by_label("Your base-game points (Barony's own score)").fill(str(points))
    page.get_by_role("button", name="Enter my points").click()
    recorded(page)


def confirm(page: Page) -> None:
    page.locator("#f-confirm").get_by_role("button", name="These totals are right").click()
    recorded(page)


def test_three_phones_track_magic_spells_and_the_winner(new_phone: Callable[[], BrowserContext], api: Api,
                                                        server: str) -> None:
    # -- the host starts the game on the home page with the spells the table drew ---------------
    host = new_phone()
    ann = host.new_page()
    ann.goto("/")
    ann.locator("#barony-sorcery-new-section > summary").click()
    form = ann.locator("#new-barony-sorcery")
    for number, name in enumerate(("Ann", "Ben", "Cat"), 1):
        form.get_by_label(f"Player {number}", exact=True).fill(name)
    expect(form.get_by_label("Who goes first?")).to_have_count(0)  # Barony keeps its own turn order
    form.get_by_label("we drew them: tick them below").check()
    form.locator("summary", has_text="Tick the 5 spells").click()
    for spell in SPELLS:
        form.get_by_role("checkbox", name=re.compile(rf"^{spell}\b")).check()
    form.get_by_label("we chose: tick them below").check()
    form.locator("summary", has_text="Tick the tiles").click()
    for place in PLACES:
        form.get_by_role("checkbox", name=re.compile(rf"^{place}\b")).check()
    form.locator("summary", has_text="Setup checklist").click()
    expect(form.locator(".bs-setup")).to_contain_text("27")
    screenshot(ann, "barony-home")
    assert blocking_violations(ann) == []
    form.get_by_role("button", name="Start Barony: Sorcery").click()
    code, game_id = hosted_game(ann)

    table = host.new_page()
    table.goto(f"/g/{game_id}")
    mark_page(table)
    expect(table.locator(".bs-spell")).to_have_count(5)
    expect(table.locator(".bs-spell.bs-movement").first).to_contain_text("Movement (cyan, winged boot)")
    expect(table.locator(".bs-place")).to_have_count(4)
    expect(table.locator(".bs-checklist").first).to_contain_text("27 Territory tiles for 3 players")
    screenshot(table, "barony-table-start")

    # -- Ben and Cat join by code on their own phones ---------------------------------------------
    ben, cat = (join_by_code(new_phone, code, game_id, seat, name) for seat, name in ((1, "Ben"), (2, "Cat")))

    # -- explorations: first, second and third visitor take 3, 2 and 1 Magic tokens ------------------
    explore(use(ann, api, game_id), "Standing Stones", 3)
    explore(use(ben, api, game_id), "Standing Stones", 2)
    expect(ben.locator("#f-explore label.pick", has_text="Standing Stones")).to_have_count(0)
    explore(use(cat, api, game_id), "Standing Stones", 1)
    explore(use(ben, api, game_id), "Fairy Ring", 3)
    stones = table.locator("#place-standing-stones")
    expect(stones).to_contain_text("Full", timeout=LIVE_WITHIN_MS)
    expect(stones.locator(".bs-controls li")).to_have_text(["1st: Ann +3 Magic", "2nd: Ben +2 Magic",
                                                            "3rd: Cat +1 Magic"])
    expect(table.locator("#supply")).to_contain_text("Supply: 21 of 30")
    expect(use(ann, api, game_id).locator("#f-explore label.pick", has_text="Standing Stones")).to_have_count(0)
    expect(ann.locator("#my-magic strong")).to_have_text("3")

    # -- a refused combination shows its rule; a legal one is paid ---------------------------------
    cast(ann, "Velocity", "Charm")
    message = ann.locator("#move-message .notice.error")
    expect(message).to_contain_text("Only spells of one category combine")
    expect(message.get_by_role("link", name="barony-sorcery.cast.same-category")).to_have_attribute(
        "href", "/rules/barony-sorcery#barony-sorcery.cast.same-category")
    screenshot(ann, "barony-seat-refused")
    assert blocking_violations(ann) == []
    ann.locator("#f-cast label.pick", has_text="Charm").click()  # untick Charm, tick Teleport
    cast(ann, "Teleport")
    recorded(ann)
    expect(ann.locator("#my-magic strong")).to_have_text("1")
    expect(table.locator("#supply")).to_contain_text("Supply: 23 of 30", timeout=LIVE_WITHIN_MS)
    expect(table.locator(".log li").first).to_contain_text("Ann cast Velocity and Teleport (2 Magic tokens)")

    # -- the end of the base game, then every phone enters its own points ----------------------------
    use(cat, api, game_id).locator("#f-end-details > summary").click()
    cat.get_by_role("button", name="Report the end of the base game").click()
    recorded(cat)
    expect(cat.locator("#f-cast")).to_have_count(0)
    enter_points(cat, 40)
    expect(table.locator(".banner")).to_contain_text("Waiting for the base-game points of Ann, Ben",
                                                     timeout=LIVE_WITHIN_MS)
    enter_points(use(ann, api, game_id), 41)
    enter_points(use(ben, api, game_id), 93)   # a typo: Ben scored 39

    # -- the review: every phone shows every total; Ann sends Ben's back, Ben corrects, all confirm ----
    expect(table.locator(".banner")).to_contain_text("Checking the totals", timeout=LIVE_WITHIN_MS)
    expect(table.locator("#verdict")).to_have_count(0)
    review = use(ann, api, game_id).locator("#review")
    expect(review.locator("#review-1")).to_contain_text("93")
    expect(ann.locator("#f-confirm")).to_be_visible()
    table_box, panel_box = review.locator("table").bounding_box(), review.bounding_box()
    assert table_box and panel_box and table_box["x"] + table_box["width"] <= panel_box["x"] + panel_box["width"]
    screenshot(ann, "barony-seat-review")
    assert blocking_violations(ann) == []
    ann.locator("#f-send-back-details > summary").click()
    sent = ann.locator("#f-send-back")
    sent.locator("label.pick", has_text="Ben").click()
    sent.get_by_role("button", name="Send back").click()
    recorded(ann)
    expect(use(ben, api, game_id).locator("#headline")).to_contain_text("enter your base-game points")
    enter_points(ben, 39)
    for phone in (ann, ben, cat):
        expect(use(phone, api, game_id).locator("#review-1")).to_contain_text("39")
        confirm(phone)

    expect(table.locator("#verdict")).to_have_text("Ben wins with 45 points!", timeout=LIVE_WITHIN_MS)
    rows = table.locator(".player-score")
    expect(rows.nth(0).locator(".breakdown")).to_contain_text("Base game (entered): 41")
    expect(rows.nth(0).locator(".breakdown")).to_contain_text("Control token on the Standing Stones: 3")
    expect(rows.nth(0).locator(".vp strong")).to_have_text("44")
    expect(rows.nth(1).locator(".breakdown")).to_contain_text("Control token on the Fairy Ring: 3")
    expect(rows.nth(1).locator(".breakdown")).to_contain_text("Total: 45")
    expect(rows.nth(1)).to_have_class(re.compile(r"\bwon\b"))
    expect(rows.nth(2).locator(".vp strong")).to_have_text("43")
    assert_not_reloaded(table)
    table.bring_to_front()
    screenshot(table, "barony-table-over")
    assert blocking_violations(table) == []
    expect(ben.locator("#headline")).to_contain_text("The game is over", timeout=LIVE_WITHIN_MS)


def test_a_spell_card_scanned_on_a_seated_phone_casts_in_one_tap(new_phone: Callable[[], BrowserContext], api: Api,
                                                                 server: str) -> None:
    """Issue 16 for Barony: the spell card's QR code opens its page with the cast, that spell ticked (the rules'
    choices name the card); one tap casts it and the phone lands on its seat page, logged as from the seat."""
    answer = api.http.post(f"{api.base}/api/games", json={
        "game": "barony-sorcery", "players": ["Ann", "Ben"],
        "options": {"spells": list(SPELLS), "locations": list(PLACES[:3])}}, timeout=5)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    api.move(game["id"], game["seats"][0]["token"], {"type": "explore", "location": "standing-stones", "reward": 3})
    phone = new_phone()
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    page.goto("/c/barony-sorcery/velocity")
    cast = page.locator("#card-moves #f-cast")
    expect(cast.locator("input[value=velocity]")).to_be_checked()
    screenshot(page, "barony-card-cast")
    assert blocking_violations(page) == []
    cast.get_by_role("button", name="Cast").click()   # the one tap
    expect(page).to_have_url(re.compile(rf"/g/{game['id']}/seat/0$"))
    expect(page.locator("#my-magic strong")).to_have_text("2")
    log = api.http.get(f"{api.base}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert [e["text"] for e in log] == ["Ann explored the Standing Stones, placed a Control token and took 3 Magic "
                                        "tokens.", "Ann cast Velocity (1 Magic token)."]
    bare = new_phone().new_page()   # Ben's phone holds no seat in it
    bare.goto("/c/barony-sorcery/velocity")
    expect(bare.locator("#card-moves")).to_contain_text("No move can be reported from this card")
