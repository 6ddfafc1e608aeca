"""A seat page's "Put it back" refused because a move of this seat made since no longer fits: the phone says why, in
the server's words with the rule, as for any refused move (found by the Fillory phone audit: it said only "move 24,
made since, would no longer fit", dropping the reason and the rule the server sent)."""

from __future__ import annotations

import re
from typing import Callable

from playwright.sync_api import BrowserContext, expect

from .conftest import Api
from .phone import caught_up, open_seat


def test_a_put_back_refused_by_a_later_move_of_ones_own_says_why_and_names_the_rule(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, ann, ben = api.two_player_opening()
    api.move(game["id"], ann, {"type": "play", "card": "Time Loop"})       # mis-tapped; Ben takes it back
    version = api.version(game["id"])
    undone = api.http.post(f"{server}/api/games/{game['id']}/undo", headers={"Authorization": f"Bearer {ben}"},
                           json={"version": version, "action_id": f"undo-{version}"})
    assert undone.status_code == 200, undone.text
    api.move(game["id"], ann, {"type": "play", "card": "Romance"})         # Ann plays again, before reading the notice
    page = open_seat(new_phone, server, game, 0)
    caught_up(page, api, game["id"])
    told = page.locator(".told").filter(has_text="Ben took back your move")
    told.get_by_role("button", name="Put it back").tap()
    answer = page.locator(".told .put-back-answer")
    expect(answer).to_contain_text(re.compile(r"your move \d+ would no longer fit: .+", re.I))
    rule = answer.get_by_role("link", name=re.compile(r"^fillory\."))
    expect(rule).to_have_attribute("href", re.compile(r"/rules/fillory#fillory\."))
    expect(page.locator("#move-message")).to_contain_text("would no longer fit: ")
    # the way out is still offered, and works
    page.get_by_role("button", name=re.compile(r"^Put it back and remove move \d+$")).tap()
    expect(page.locator("#move-message")).to_contain_text("Put back.")


def test_the_corrections_page_says_why_too(new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """The same refusal on the corrections page's "Changes you can put back" (js/corrections.js)."""
    game, ann, ben = api.two_player_opening()
    api.move(game["id"], ann, {"type": "play", "card": "Time Loop"})
    version = api.version(game["id"])
    undone = api.http.post(f"{server}/api/games/{game['id']}/undo", headers={"Authorization": f"Bearer {ben}"},
                           json={"version": version, "action_id": f"undo-{version}"})
    assert undone.status_code == 200, undone.text
    api.move(game["id"], ann, {"type": "play", "card": "Romance"})
    page = open_seat(new_phone, server, game, 0)
    page.goto(f"/g/{game['id']}/seat/0/fix")
    page.locator("form[data-revert]").get_by_role("button", name="Put it back").tap()
    answer = page.locator("form[data-revert] ~ .fix-answer, form[data-revert] .fix-answer").first
    expect(answer).to_contain_text(re.compile(r"Not put back: your move \d+ would no longer fit: .+ Put it back and "
                                              r"remove move \d+\?", re.I))
    expect(answer.get_by_role("link", name=re.compile(r"^fillory\."))).to_have_attribute(
        "href", re.compile(r"/rules/fillory#fillory\."))
