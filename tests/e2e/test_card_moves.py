"""A printed card's QR code reports the move (issue 16), in Chromium at 390×844: a seated phone opens a card
page by its URL (what the phone's camera app does with the printed code) and reports a move with that card,
the card already picked; it lands on its seat page. The move is logged exactly as the same move sent from
the seat page, and a stale page is refused with a 409 like any other. Barony: Sorcery's cast from a spell card
is tests/e2e/test_barony_sorcery_play.py::test_a_spell_card_scanned_on_a_seated_phone_casts_in_one_tap."""

from __future__ import annotations

import re
from typing import Any, Callable

from playwright.sync_api import Browser, BrowserContext, Page, expect

from cardgen.catalog import content
from cardgen.catalog.versions import card_version

from .conftest import PHONE, WAIT_MS, Api, login_seat, screenshot
from .phone import held_live_js, set_hidden
from .test_accessibility import blocking_violations

BOOK = "spellbook-red-3"


def mandragora_game(api: Api) -> dict[str, Any]:
    """Ann and Ben have each sought 3 shops: Ann holds 3 cards on her turn, so she may cast."""
    answer = api.http.post(f"{api.base}/api/games", json={"game": "mandragora", "players": ["Ann", "Ben"],
                                                          "options": {}}, timeout=5)
    assert answer.status_code == 201, answer.text
    game = dict(answer.json())
    ann, ben = (seat["token"] for seat in game["seats"])
    api.move(game["id"], ann, {"type": "seek", "steps": 3})
    api.move(game["id"], ben, {"type": "seek", "steps": 3})
    return game


def seated_phone(new_phone: Callable[[], BrowserContext], server: str, game: dict[str, Any], seat: int) -> Page:
    phone = new_phone()
    login_seat(phone, server, game["id"], seat, game["seats"][seat]["token"])
    return phone.new_page()


def log_of(api: Api, game_id: str) -> list[dict[str, Any]]:
    entries = api.http.get(f"{api.base}/api/games/{game_id}/log", timeout=5).json()["entries"]
    return [{k: v for k, v in e.items() if k != "at"} for e in entries]


def fill_levitation(form: Any) -> None:
    """The rest of the cast, asked on the spot: a mandrake as the ingredient, power 1, Levitation on the first
    shop offered (the shops are offered by id, in the circle's order: both games lay out the kit's circle)."""
    form.locator("label.pick", has_text="A mandrake as an ingredient").locator("input").fill("1")
    form.locator("input[name=power][value='1']").check()
    form.locator("input[name=spell][value=levitation]").check()
    form.get_by_role("group", name="Take a card from which shop?").locator("input[type=radio]").first.check()


def test_cast_with_a_spellbook_from_its_card_page_lands_on_the_seat_page_logged_as_from_the_seat(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, twin = mandragora_game(api), mandragora_game(api)
    page = seated_phone(new_phone, server, game, 0)
    page.goto(f"/c/mandragora/{BOOK}")
    cast = page.locator("#m-cast")
    expect(cast).to_be_visible()
    book = cast.locator(f"input[name=book][value={BOOK}]")
    expect(book).to_be_checked()  # the card scanned is the spellbook: no tap for it
    assert cast.locator("input[name=book]").count() == 1
    box = page.locator("#card-moves").bounding_box()
    facts = page.locator(".card-face").bounding_box()
    assert box and facts and box["y"] < facts["y"]  # above the card's facts
    expect(cast.locator("input[name=ingredients][data-repeat=red]")).to_be_visible()  # red book: red ingredients
    expect(cast.locator("input[name=ingredients][data-repeat=green]")).to_be_hidden()
    fill_levitation(cast)
    screenshot(page, "card-moves-mandragora-cast")
    assert blocking_violations(page) == []
    cast.get_by_role("button", name="Cast").click()
    expect(page).to_have_url(re.compile(rf"/g/{game['id']}/seat/0$"))
    expect(page.locator("#live")).to_contain_text("Levitation")

    # the same cast from the twin game's seat page: the same log lines
    seat_page = seated_phone(new_phone, server, twin, 0)
    seat_page.goto(f"/g/{twin['id']}/seat/0")
    seat_page.locator("#m-cast-details > summary").click()
    cast = seat_page.locator("#m-cast")
    cast.locator(f"input[name=book][value={BOOK}]").check()
    fill_levitation(cast)
    cast.get_by_role("button", name="Cast").click()
    expect(seat_page.locator("#move-message")).to_contain_text("Recorded.")
    assert log_of(api, game["id"]) == log_of(api, twin["id"])
    assert log_of(api, game["id"])[-1]["move"]["book"] == BOOK


def test_noting_a_spellbook_is_one_tap_and_a_stale_page_is_refused(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game = mandragora_game(api)
    ben = seated_phone(new_phone, server, game, 1)  # not his turn: only his private hand note uses the card
    current = card_version(content("mandragora").find_card(BOOK))
    ben.goto(f"/c/mandragora/{BOOK}?v={'0' * len(current)}")  # an old print: still reports, says the card changed
    expect(ben.locator(".stale-print")).to_be_visible()
    expect(ben.locator("#card-moves")).to_contain_text("the move uses the card as it is now")
    note = ben.locator("#m-note")
    expect(note.locator(f"input[data-repeat={BOOK}]")).to_be_checked()
    expect(ben.locator("#m-cast")).to_have_count(0)
    # another phone moves first: the page (version 2) is stale; the refusal says so and the form is fresh
    set_hidden(ben, True)  # screen off while Ann moves, so no live swap comes before the tap
    api.move(game["id"], game["seats"][0]["token"], {"type": "seek", "steps": 1})
    note.get_by_role("button", name="Save my note").click()
    expect(ben.locator(".move-feedback")).to_contain_text("Another phone moved first")
    assert [e["move"]["type"] for e in log_of(api, game["id"])] == ["seek", "seek", "seek"]
    ben.reload()
    ben.locator("#m-note").get_by_role("button", name="Save my note").click()  # one tap
    expect(ben).to_have_url(re.compile(rf"/g/{game['id']}/seat/1$"))
    entries = api.http.get(f"{api.base}/api/games/{game['id']}/log", timeout=5,
                           headers={"Authorization": f"Bearer {game['seats'][1]['token']}"}).json()["entries"]
    assert entries[-1]["move"] == {"type": "note_hand", "cards": [BOOK]}


def test_without_a_seat_or_with_two_games_the_card_page_says_what_to_do(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    bare = new_phone().new_page()
    bare.goto(f"/c/mandragora/{BOOK}")
    expect(bare.locator("#card-moves")).to_have_text(
        "No move can be reported from this card: this phone holds no seat in a game of Mandragora in progress.")
    expect(bare.locator("h1")).to_have_text(re.compile("Red Spellbook"))
    first, second = mandragora_game(api), mandragora_game(api)
    phone = new_phone()
    login_seat(phone, server, first["id"], 0, first["seats"][0]["token"])
    login_seat(phone, server, second["id"], 1, second["seats"][1]["token"])
    page = phone.new_page()
    page.goto(f"/c/mandragora/{BOOK}")
    choices = page.locator("#card-moves .your-games a")
    expect(choices).to_have_count(2)
    expect(choices.first).to_contain_text("Ben with Ann")  # the newer game first
    choices.first.click()
    expect(page.locator("#m-note")).to_be_visible()
    assert f"g={second['id']}" in page.url


def test_fillory_draw_and_play_each_one_tap_from_the_card_page(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game = api.new_game(["Ann", "Ben"])
    page = seated_phone(new_phone, server, game, 0)
    page.goto("/c/fillory/physical-kids")
    draw = page.locator("#f-draw")
    expect(draw.locator("input[name=card][value=physical-kids]")).to_be_checked()
    assert draw.locator("input[name=card]").count() == 1
    draw.get_by_role("button", name="Report this draw").click()  # one tap
    expect(page).to_have_url(re.compile(rf"/g/{game['id']}/seat/0$"))
    ann = game["seats"][0]["token"]
    mine = api.http.get(f"{api.base}/api/games/{game['id']}/log", timeout=5,
                        headers={"Authorization": f"Bearer {ann}"}).json()["entries"]
    assert mine[-1]["move"] == {"type": "draw", "card": "physical-kids"}

    opened, ann, ben = api.two_player_opening()  # Ann holds Physical Kids, Time Loop, Magic Missile, Romance
    page = seated_phone(new_phone, server, opened, 0)
    page.goto("/c/fillory/romance")
    play = page.locator("#f-play")
    expect(play.locator("input[name=card][value=romance]")).to_be_checked()
    screenshot(page, "card-moves-fillory-play")
    play.get_by_role("button", name="Play it").click()  # one tap
    expect(page).to_have_url(re.compile(rf"/g/{opened['id']}/seat/0$"))
    entries = api.http.get(f"{api.base}/api/games/{opened['id']}/log", timeout=5).json()["entries"]
    assert entries[-1]["move"] == {"type": "play", "card": "romance"} and entries[-1]["seat"] == 0
    # Ben's phone on a card in his own hand, on Ann's turn: nothing to report, and it says so
    other = seated_phone(new_phone, server, opened, 1)
    other.goto("/c/fillory/golem")
    expect(other.locator("#card-moves")).to_contain_text("Nothing to report with this card now")


def test_jsmn_engagement_one_tap_from_the_invitation_card(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    from test_pages_jsmn import STARTING, next_move

    answer = api.http.post(f"{server}/api/games", json={"game": "jsmn", "players": ["Ann", "Ben", "Cid"],
                                                        "options": {}}, timeout=5)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    game_id, tokens = game["id"], [seat["token"] for seat in game["seats"]]
    for seat in range(3):
        api.move(game_id, tokens[seat], {"type": "starting_feats", "feats": STARTING[seat]})
    view = api.http.get(f"{server}/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens[1]}"},
                        timeout=5).json()["state"]
    api.move(game_id, tokens[1], next_move(view))   # 1806: the rows and a card
    api.move(game_id, tokens[0], {"type": "still_waters"})
    api.move(game_id, tokens[0], {"type": "move", "to": "padua"})
    ball = next(c for c in content("jsmn").invitations if c.location == "padua")
    page = seated_phone(new_phone, server, game, 0)
    page.goto(f"/c/jsmn/{ball.id}")
    engage = page.locator("#j-engage")
    expect(engage.locator(f"input[name=card][value={ball.id}]")).to_be_checked()
    screenshot(page, "card-moves-jsmn-engage")
    engage.get_by_role("button", name="Fulfil it").click()  # one tap: two introductions drawn, no feat
    expect(page).to_have_url(re.compile(rf"/g/{game_id}/seat/0$"))
    mine = api.http.get(f"{server}/api/games/{game_id}/log", headers={"Authorization": f"Bearer {tokens[0]}"},
                        timeout=5).json()["entries"]
    assert mine[-1]["move"]["type"] == "engage" and mine[-1]["move"]["card"] == ball.id



def test_a_tap_before_the_pages_scripts_have_loaded_is_sent_once_they_have(
        browser: Browser, api: Api, server: str) -> None:
    """On a slow connection the move part arrives before js/live.js: a tap then is held, not lost to a
    native form submission (which reloaded the card page), and sent once the script runs. The phone runs no
    service worker here: one that took over the page would fetch live.js past the held route."""
    game = api.new_game(["Ann", "Ben"])
    phone = browser.new_context(viewport=PHONE, base_url=server, device_scale_factor=1, is_mobile=True,
                                has_touch=True, service_workers="block")
    phone.set_default_timeout(WAIT_MS)
    login_seat(phone, server, game["id"], 0, game["seats"][0]["token"])
    page = phone.new_page()
    release = held_live_js(page)
    page.goto("/c/fillory/physical-kids")
    draw = page.locator("#f-draw")
    expect(draw.locator("input[name=card][value=physical-kids]")).to_be_checked()
    draw.get_by_role("button", name="Report this draw").click()  # before live.js has arrived
    page.wait_for_timeout(300)
    assert "/c/fillory/physical-kids" in page.url and len(release) == 1  # held: no reload, nothing sent yet
    assert log_of(api, game["id"]) == []
    release[0].continue_()
    expect(page).to_have_url(re.compile(rf"/g/{game['id']}/seat/0$"))
    assert [e["move"]["type"] for e in log_of(api, game["id"])] == ["draw"]
    phone.close()


def test_a_feat_card_scanned_at_jsmn_setup_comes_ticked_with_no_red_sentence(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """JS&MN setup (issue 25): scanning a dealt feat card opens "Report my three feats" with that feat ticked
    (the player's scan is their pick) and no "Pick at least 3 here." before anything else is tapped; two more
    taps and the three feats are reported, logged as from the seat page."""
    answer = api.http.post(f"{server}/api/games", json={"game": "jsmn", "players": ["Ann", "Ben"], "options": {}},
                           timeout=5)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    page = seated_phone(new_phone, server, game, 0)
    page.goto("/c/jsmn/speak-with-the-wind")
    form = page.locator(".card-moves form#j-start")
    expect(form).to_be_visible()
    scanned = form.locator("input[name='feats[]'][value='speak-with-the-wind']")
    expect(scanned).to_be_checked()
    expect(form.locator("input[name='feats[]']:checked")).to_have_count(1)
    expect(form.locator(".c-count:not([hidden])")).to_have_count(0)  # nothing tapped yet: nothing in red
    screenshot(page, "jsmn-feat-scanned")
    for feat in ("send-ravens-as-messengers", "make-the-trees-march"):
        form.locator(f"label.pick:has(input[value='{feat}'])").click()
    expect(form.locator(".c-count:not([hidden])")).to_have_count(0)
    form.get_by_role("button", name="Report my three feats").click()
    expect(page).to_have_url(re.compile(rf"/g/{game['id']}/seat/0$"))
    entry = log_of(api, game["id"])[-1]
    assert entry["seat"] == 0 and entry["move"]["type"] == "starting_feats"
