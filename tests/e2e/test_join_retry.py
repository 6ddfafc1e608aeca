"""Joining a seat and taking one over on a phone (390x844) whose first answer is lost on the table's Wi-Fi: the
server made the change, the phone never heard back. The page sends the tap again by itself with the seat key it
made before the first send, and the phone lands on its seat page holding the seat (not "taken", not "unknown")."""

from __future__ import annotations

import re
from typing import Any, Callable

from playwright.sync_api import BrowserContext, Page, Route, expect

from .conftest import HTTP_SECONDS, Api
from .phone import lose_the_first_answer

KEY = re.compile(r'name="token"\r\n\r\n([A-Za-z0-9_-]+)\r\n')


def seat_key(route: Route) -> str:
    """The seat key a join or take-over form sent."""
    found = KEY.search(route.request.post_data or "")
    return found.group(1) if found else ""


def holder(api: Api, game_id: str, token: str) -> int | None:
    seen = api.http.get(f"{api.base}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"},
                        timeout=HTTP_SECONDS)
    return seen.json()["state"]["you"] if seen.status_code == 200 else None


def lands_on_seat_1(new_phone: Callable[..., BrowserContext], api: Api, game: dict[str, Any], path: str,
                    button: str) -> tuple[Page, str]:
    """A new phone opens ``path`` (a join or take-over page of ``game``) and taps ``button``; the first answer is
    lost after the server acted. The page sends the same seat key again by itself and lands on seat 1's page,
    holding it with that key. Returns the phone and its key."""
    sent: list[str] = []
    phone = new_phone(service_workers="block").new_page()  # (a service worker's fetches pass the route by)
    phone.route(f"**/{path.strip('/').split('/')[0]}/*", lose_the_first_answer(sent, seat_key))
    phone.goto(path)
    phone.get_by_role("button", name=button).click()
    expect(phone).to_have_url(re.compile(rf"/g/{game['id']}/seat/1$"))
    assert len(sent) == 2 and len(sent[0]) >= 32 and sent[0] == sent[1], sent
    cookie = next(c["value"] for c in phone.context.cookies() if c["name"] == f"seat_{game['id']}_1")
    assert cookie == sent[0] and holder(api, game["id"], cookie) == 1
    return phone, cookie


def test_a_join_whose_answer_was_lost_lands_on_its_seat(new_phone: Callable[..., BrowserContext], api: Api) -> None:
    game = api.new_game(["Ann", "Ben"])
    released = api.http.post(f"{api.base}/api/games/{game['id']}/seats/1/release",
                             headers={"Authorization": f"Bearer {game['host_token']}"}, timeout=HTTP_SECONDS)
    assert released.status_code == 200
    phone, _ = lands_on_seat_1(new_phone, api, game, f"/j/{game['join_code']}", "I am Ben")
    expect(phone.locator("h1")).to_contain_text("Ben")
    phone.reload()  # the phone holds the seat: its page opens, not the join page
    expect(phone).to_have_url(re.compile(rf"/g/{game['id']}/seat/1$"))


def test_a_take_over_whose_answer_was_lost_lands_on_its_seat(new_phone: Callable[..., BrowserContext],
                                                             api: Api) -> None:
    game = api.new_game(["Ann", "Ben"])
    old = game["seats"][1]["token"]
    offer = api.http.post(f"{api.base}/api/games/{game['id']}/seats/1/handover",
                          headers={"Authorization": f"Bearer {old}"}, timeout=HTTP_SECONDS)
    assert offer.status_code == 200
    lands_on_seat_1(new_phone, api, game, f"/h/{offer.json()['code']}", "I am Ben: take the seat")
    assert holder(api, game["id"], old) is None
