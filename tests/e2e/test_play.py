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
from .phone import (
    LIVE_WITHIN_MS,
    assert_not_reloaded,
    caught_up,
    field,
    hosted_game,
    mark_page,
    pick,
    recorded,
    report_draw,
)


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
    expect(ann.locator("#f-summon").get_by_label("My zone")).to_be_checked()  # the reversible default
    ann.get_by_role("button", name="Summon", exact=True).click()
    expect(ann.locator("#f-score")).to_be_visible()
    screenshot(ann, "seat-trick-score")
    score_choice = ann.locator("#f-score label.pick").first
    expect(score_choice).to_contain_text("Student")
    expect(score_choice).to_contain_text("+4 VP")
    expect(ann.locator("#f-score input:checked")).to_have_count(0)  # no trait is chosen for the player
    score_choice.click()
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
    spell = field(ann, "f-trick", "Which card did you draw?")
    expect(spell).to_be_hidden()
    ann.locator("#f-trick-details > summary").click()
    pick(ann, "f-trick", "Magic Missile")
    field(ann, "f-trick", "For which trait").locator("label.pick", has_text="Spell").click()
    expect(spell).to_be_visible()
    expect(field(ann, "f-trick", "Drawn card kept in your hand")).to_be_hidden()  # another trick's field
    spell.get_by_label("Find by name").fill("Ember")
    spell.get_by_label("Find by name").press("Enter")  # the single match is picked
    expect(spell.locator("input[value=ember]")).to_be_checked()
    field(ann, "f-trick", "Which card goes into your zone").locator("label.pick", has_text="The card I just drew").click()
    ann.get_by_role("button", name="Do the trick").click()
    expect(ann.locator("#move-message")).to_contain_text("Recorded.")
    expect(ann.locator("#zone-title + .chips")).to_contain_text("Ember")
    expect(ann.locator("#hand-title + .chips")).not_to_contain_text("Magic Missile")
    expect(ann.locator("#f-trick")).to_have_count(0)  # one trick per turn: on to scoring
    expect(ann.locator("#f-score")).to_be_visible()
    log = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert log[-1]["move"]["type"] == "trick" and log[-1]["move"]["trait"] == "Spell"
    assert log[-1]["move"]["place"] == "ember"  # (the drawn card itself is not in the public log)


def test_a_phone_draws_and_plays_with_the_search_and_enter(new_phone: Callable[[], BrowserContext], api: Api,
                                                           server: str) -> None:
    """At 390 x 844: the draw is a search and Enter (the single match is picked) and one tap to send; the play
    is one tap on the card and one on the button. Taps per move are counted from what the hand does."""
    game = api.new_game(["Ann", "Ben"])
    for seat, cards in ((0, ("Physical Kids", "Time Loop", "Romance")), (1, ("Golem", "Cocaine", "Mentors"))):
        for card in cards:
            api.move(game["id"], game["seats"][seat]["token"], {"type": "draw", "card": card})
    phone = new_phone()
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    ann = phone.new_page()
    ann.goto(f"/g/{game['id']}/seat/0")
    assert ann.viewport_size == {"width": 390, "height": 844}
    draw = ann.locator("#f-draw")
    expect(draw.locator("label.pick")).to_have_count(110 - 13 - 3)  # every card this phone cannot see (Ben's too)
    search = draw.get_by_label("Find by name")
    search.fill("magic mis")                       # typing, then
    search.press("Enter")                          # tap 1: Enter picks the single match
    expect(draw.locator("input[value=magic-missile]")).to_be_checked()
    expect(draw.locator("label.pick:visible")).to_have_count(1)
    draw.get_by_role("button", name="Report this draw").click()   # tap 2
    recorded(ann)
    expect(ann.locator("#hand-title + .chips")).to_contain_text("Magic Missile")
    play = ann.locator("#f-play")
    expect(play.locator("label.pick")).to_have_count(4)  # the hand, by name
    expect(play.locator("input:checked")).to_have_count(0)  # nothing chosen for the player
    play.locator("label.pick", has_text="Time Loop").click()      # tap 1
    play.get_by_role("button", name="Play it").click()           # tap 2
    recorded(ann)
    expect(ann.locator("#zone-title + .chips")).to_contain_text("Time Loop")
    log = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert [e["move"] for e in log[-2:]] == [{"type": "draw", "card": None},  # a draw is secret in the public log
                                              {"type": "play", "card": "time-loop"}]
    screenshot(ann, "seat-after-play")
