"""Phones playing a game through the pages, against the real server: creating, joining, reporting
moves, live updates on other phones, refused moves, and phones that slept or lost the network."""

from __future__ import annotations

import io
import re
from typing import Callable

import zxingcpp
from PIL import Image
from playwright.sync_api import BrowserContext, expect

from .conftest import Api, login_seat, screenshot
from .phone import LIVE_WITHIN_MS, assert_not_reloaded, caught_up, hosted_game, mark_page, pick, report_draw

def test_three_phones_create_join_play_and_watch_live(new_phone: Callable[[], BrowserContext], api: Api,
                                                      server: str) -> None:
    host = new_phone()
    ann = host.new_page()
    ann.goto("/")
    ann.locator("#new-section > summary").click()  # every game's new-game form is folded below joining
    form = ann.locator("#new-game")  # Fillory's form; other games have their own on the same page
    form.get_by_label("Player 1").fill("Ann")
    form.get_by_label("Player 2").fill("Ben")
    form.get_by_label("Player 3").fill("Cat")
    form.get_by_label("Who goes first?").select_option(label="Ann")
    screenshot(ann, "home")
    form.get_by_role("button", name="Start Magicians of Fillory").click()
    code, game_id = hosted_game(ann)
    expect(ann.get_by_role("heading", level=1)).to_contain_text("Ann")
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code)
    assert ann.locator("svg.qr").get_attribute("aria-label") == f"QR code for {server}/j/{code}"
    drawn = Image.open(io.BytesIO(ann.locator(".qr-box").screenshot()))  # as Chromium draws it on the phone
    assert [found.text for found in zxingcpp.read_barcodes(drawn)] == [f"{server}/j/{code}"]

    table = host.new_page()  # the host also props a tablet in the middle: the table view
    table.goto(f"/g/{game_id}")
    mark_page(table)

    ben_phone = new_phone()
    ben = ben_phone.new_page()
    ben.goto("/")
    ben.get_by_label("Join code from the host's phone").fill(code.lower())
    ben.get_by_role("button", name="Join", exact=True).click()
    expect(ben).to_have_url(re.compile(rf"/j/{code}$"))
    expect(ben.locator(".seat-taken")).to_contain_text("Ann")  # the host's seat is taken
    screenshot(ben, "join")
    ben.get_by_role("button", name="I am Ben").click()
    expect(ben).to_have_url(re.compile(rf"/g/{game_id}/seat/1$"))

    ann.bring_to_front()  # the active tab: background tabs get no animation frames
    cat_token = api.http.post(f"{server}/api/join", json={"code": code, "seat": 2}, timeout=5).json()["token"]

    for card in ("Physical Kids", "Time Loop", "Romance"):
        report_draw(ann, card)
    expect(ann.locator("#headline")).to_contain_text("Waiting for Ben (0/3), Cat (0/3)")
    caught_up(ben, api, game_id)
    for card in ("Golem", "Cocaine", "Mentors"):
        report_draw(ben, card)
    for card in ("Ember", "Djinn", "Hospital"):
        api.move(game_id, cat_token, {"type": "draw", "card": card})

    # the table, open on the host's other page, follows without a reload
    expect(table.locator(".banner.turn")).to_contain_text("Ann", timeout=LIVE_WITHIN_MS)
    expect(table.locator(".player-score").nth(2)).to_contain_text("3 cards in hand", timeout=LIVE_WITHIN_MS)
    expect(ann.locator("#headline")).to_contain_text("draw a card", timeout=LIVE_WITHIN_MS)

    caught_up(ann, api, game_id)
    report_draw(ann, "Magic Missile")
    pick(ann, "f-play", "Physical Kids")
    ann.get_by_role("button", name="Play it").click()
    expect(ann.locator(".pending-card")).to_contain_text("Summon Alice, Quentin, Margo or Elliot")
    expect(table.locator(".banner .pending")).to_contain_text("Physical Kids", timeout=LIVE_WITHIN_MS)
    screenshot(ann, "seat-ability")
    pick(ann, "f-summon", "Quentin")
    ann.locator("#f-summon").get_by_label("my zone").check()
    ann.get_by_role("button", name="Summon", exact=True).click()
    expect(ann.locator("#f-score")).to_be_visible()
    screenshot(ann, "seat-trick-score")
    score_choice = ann.locator("#f-score label.pick").first
    expect(score_choice).to_contain_text("Student")
    expect(score_choice).to_contain_text("+4 VP")
    ann.get_by_role("button", name="Score", exact=True).click()
    expect(ann.locator(".vp.big strong")).to_have_text("4")

    ann_row = table.locator(".player-score").first
    expect(ann_row.locator(".vp strong")).to_have_text("4", timeout=LIVE_WITHIN_MS)
    expect(ann_row).to_contain_text("Student 4")
    ann_zone = table.locator("section.zone").first
    expect(ann_zone).to_contain_text("Physical Kids", timeout=LIVE_WITHIN_MS)
    expect(ann_zone).to_contain_text("Quentin")
    expect(table.locator("#neutral-title")).to_contain_text("(12)")
    expect(table.locator("#live-announce")).to_contain_text("Ann scored the trait Student")  # for screen readers
    expect(table.locator("#live-status")).to_have_attribute("data-state", "live")
    assert_not_reloaded(table)
    table.bring_to_front()
    screenshot(table, "table")

    ann.bring_to_front()
    ann.get_by_role("button", name="End my turn").click()
    expect(ben.locator("#headline")).to_contain_text("draw a card", timeout=LIVE_WITHIN_MS)
    expect(table.locator(".banner.turn")).to_contain_text("Ben", timeout=LIVE_WITHIN_MS)
    screenshot(ben, "seat-draw")
    assert_not_reloaded(table)


def test_card_trick_with_its_effect_fields(new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, ann_token, _ = api.two_player_opening()
    api.move(game["id"], ann_token, {"type": "play", "card": "Romance"})
    api.move(game["id"], ann_token, {"type": "decline"})

    phone = new_phone()
    login_seat(phone, server, game["id"], 0, ann_token)
    ann = phone.new_page()
    ann.goto(f"/g/{game['id']}/seat/0")
    expect(ann.locator("fieldset.trick-group[data-group=Spell]")).to_be_hidden()
    ann.locator("#trick-details > summary").click()
    ann.locator("#f-trick label.pick", has_text="Magic Missile → Spell").click()
    group = ann.locator("fieldset.trick-group[data-group=Spell]")
    expect(group).to_be_visible()
    group.get_by_label("Which card did you draw?").fill("Ember")
    group.get_by_label("Which card goes into your zone?").select_option(label="The card I just drew")
    ann.get_by_role("button", name="Do the trick").click()
    expect(ann.locator("#move-message")).to_contain_text("Recorded.")
    expect(ann.locator("#zone-title + .chips")).to_contain_text("Ember")
    expect(ann.locator("#hand-title + .chips")).not_to_contain_text("Magic Missile")
    expect(ann.locator("#f-trick")).to_have_count(0)  # one trick per turn: on to scoring
    expect(ann.locator("#f-score")).to_be_visible()
    log = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert log[-1]["move"]["type"] == "trick" and log[-1]["move"]["trait"] == "Spell"
    assert log[-1]["move"]["place"] == "Ember"
