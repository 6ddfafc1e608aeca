"""A printed card's QR code reports the move (issue 16), in Chromium at 390×844: a seated phone opens a card
page by its URL (what the phone's camera app does with the printed code) and reports a move with that card,
the card already picked; it lands on its seat page. The move is logged exactly as the same move sent from
the seat page, and a stale page is refused with a 409 like any other."""

from __future__ import annotations

import re
from typing import Any, Callable

from playwright.sync_api import BrowserContext, Page, expect

from cardgen.catalog import content
from cardgen.catalog.versions import card_version

from .conftest import Api, login_seat, screenshot
from .phone import set_hidden
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
    """The rest of the cast, asked on the spot: a mandrake as the ingredient, power 1, Levitation on shop 1."""
    form.locator("label.pick", has_text="A mandrake as an ingredient").locator("input").fill("1")
    form.locator("input[name=power][value='1']").check()
    form.locator("input[name=spell][value=levitation]").check()
    form.get_by_role("group", name="Take a card from which shop?").locator("input[value='1']").check()


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
