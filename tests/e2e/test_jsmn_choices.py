"""JS&MN's seat forms from the rules' choices on a 390×844 phone: the 33 starting feats are found with the
picker's search, Enter picking the single match not picked yet (nothing preselected, nothing sent before the button), and an
engagement is made in two taps; what the phone sends is exactly the move the rules expect.
"""

from __future__ import annotations

from typing import Any, Callable

from playwright.sync_api import BrowserContext, expect

from cardgen.catalog import content

from .conftest import Api
from .phone import open_seat, recorded

NAMES = ["Ann", "Ben"]
GAME = content("jsmn")
FEATS = ["grow-a-hedge-in-a-night", "speak-with-the-wind", "wake-the-stone-saints"]


def last_move(api: Api, game_id: str, token: str) -> dict[str, Any]:
    entries = api.http.get(f"{api.base}/api/games/{game_id}/log", headers={"Authorization": f"Bearer {token}"},
                           timeout=5).json()["entries"]
    return dict(entries[-1]["move"])


def test_starting_feats_by_search_and_enter_then_an_engagement(new_phone: Callable[[], BrowserContext], api: Api,
                                                              server: str) -> None:
    answer = api.http.post(f"{server}/api/games", json={"game": "jsmn", "players": NAMES, "options": {}}, timeout=5)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    game_id, tokens = game["id"], [seat["token"] for seat in game["seats"]]
    ann = open_seat(new_phone, server, game, 0)
    assert ann.viewport_size == {"width": 390, "height": 844}

    start = ann.locator("#j-start")
    expect(start.locator("input[type=checkbox]")).to_have_count(33)
    assert start.locator("input:checked").count() == 0   # an irreversible choice: nothing preselected
    search = start.get_by_label("Find by name")
    for fid in FEATS:
        name = GAME.card(fid).name
        search.fill(name[:-2])   # most of the name is enough
        expect(start.locator("label.pick:not([hidden]):not(:has(input:checked))")).to_have_count(1)
        search.press("Enter")    # picks the single match, sends nothing
        expect(start.locator(f"input[value={fid}]")).to_be_checked()
        search.fill("")
    search.fill("no such feat")   # what is picked stays in sight
    expect(start.locator("label.pick:not([hidden])")).to_have_count(3)
    search.fill("")
    assert api.version(game_id) == 0
    start.get_by_role("button", name="Report my three feats").click()
    recorded(ann)
    order = [f.id for f in GAME.feats]   # the form lists the feats in the catalog's order
    assert last_move(api, game_id, tokens[0]) == {"type": "starting_feats", "feats": sorted(FEATS, key=order.index)}

    api.move(game_id, tokens[1], {"type": "starting_feats",
                                  "feats": ["send-ravens-as-messengers", "make-the-trees-march", "raise-a-ship-of-rain"]})
    api.move(game_id, tokens[1], {"type": "new_year", "marseilles": "the-juggler",
                                  "books": ["the-magus", "the-sworn-book-of-honorius", "the-compound-of-alchymy"],
                                  "named": ["davey", "vinculus"]})
    api.move(game_id, tokens[0], {"type": "still_waters"})
    api.move(game_id, tokens[0], {"type": "move", "to": "padua"})
    person = next(c for c in GAME.introductions if c.location == "padua" and c.prestige < GAME.tracks.connexion_spaces[0])
    engage = ann.locator("#j-engage")
    expect(engage).to_contain_text("Fulfil an engagement in Padua (0 of 2 done)")
    engage.locator("label.pick", has_text=person.name).click()          # tap 1: the card
    engage.get_by_role("button", name="Fulfil it").click()              # tap 2: send
    recorded(ann)
    assert last_move(api, game_id, tokens[0]) == {"type": "engage", "card": person.id}
    expect(ann.locator("#headline")).to_contain_text("Your turn in 1806")
