"""A long pick list's "Find by name" reads each pick's words apart: a card's name and the place under it (found by
the Fillory phone audit: "Alice" over "your zone" was searched as "aliceyour zone", so "alice your" found nothing)."""

from __future__ import annotations

from typing import Callable

from playwright.sync_api import BrowserContext, expect

from .conftest import Api
from .phone import caught_up, open_seat


def test_find_by_name_matches_a_name_followed_by_its_place(new_phone: Callable[[], BrowserContext], api: Api,
                                                           server: str) -> None:
    game = api.new_game(["Ann", "Ben"])
    ann, ben = (seat["token"] for seat in game["seats"])
    for token, cards in ((ann, ("Arctic Foxes", "Physical Kids", "Time Loop")), (ben, ("Golem", "Cocaine", "Mentors"))):
        for card in cards:
            api.move(game["id"], token, {"type": "draw", "card": card})
    for move in ({"type": "draw", "card": "Romance"}, {"type": "play", "card": "Physical Kids"},
                 {"type": "summon", "card": "Quentin", "to": "zone"}):
        api.move(game["id"], ann, move)
    page = open_seat(new_phone, server, game, 0)
    caught_up(page, api, game["id"])
    form = page.locator("#f-trick")
    form.locator("xpath=ancestor::details[1]/summary").tap()
    form.locator("fieldset", has_text="Discard which card?").locator("label.pick", has_text="Arctic Foxes").tap()
    form.locator("fieldset", has_text="For which trait").locator("label.pick", has_text="Transform").tap()
    targets = form.locator("fieldset", has_text="Which two Characters")
    quentin = targets.locator("label.pick", has_text="Quentin")
    expect(quentin).to_contain_text("your zone")
    targets.get_by_label("Find by name").fill("quentin your")
    expect(quentin).to_be_visible()
    targets.get_by_label("Find by name").fill("alice neutral")
    expect(targets.locator("label.pick", has_text="Alice")).to_be_visible()
    expect(quentin).to_be_hidden()
