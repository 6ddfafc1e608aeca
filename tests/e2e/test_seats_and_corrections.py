"""Seats and corrections on real phones (390x844): a seat handed to another phone, a move corrected, a
correction refused because a later move no longer fits, any seat taking back the last move, and the host
releasing a seat that a phone then joins again by code."""

from __future__ import annotations

from typing import Callable

from playwright.sync_api import BrowserContext, expect

from .conftest import Api, screenshot
from .phone import open_seat


def test_a_seat_is_handed_to_another_phone_and_the_old_phone_loses_it(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, ann_token, ben_token = api.two_player_opening()
    ben = open_seat(new_phone, server, game, 1)
    left_open = ben.context.new_page()          # Ben's seat page stays open in another tab of the old phone
    left_open.goto(f"{server}/g/{game['id']}/seat/1")
    expect(left_open.locator("#live-status")).to_contain_text("Live")
    ben.get_by_role("link", name="Table view").click()
    ben.get_by_role("link", name="Correct a move, hand over, rename").click()
    ben.get_by_role("button", name="Hand this seat to another phone").click()
    code = ben.locator("#handover-code").inner_text().strip()
    assert len(code) == 8
    expect(ben.locator("svg.qr")).to_be_visible()
    screenshot(ben, "seat-handover-code")

    new = new_phone().new_page()
    new.goto(f"/h/{code}")
    expect(new.get_by_role("heading", level=1)).to_have_text("Take over Ben's seat")
    new.get_by_role("button", name="I am Ben: take the seat").click()
    new.wait_for_url(f"**/g/{game['id']}/seat/1")
    expect(new.locator("h1")).to_contain_text("Ben")
    expect(new.locator("body")).to_contain_text("Golem")   # Ben's hand came with the seat

    # the tab left open says the seat is gone and how to rejoin, without a reload (not "Reconnecting…")
    expect(left_open.locator("#live-status")).to_contain_text("Seat released")
    expect(left_open.locator("#move-message")).to_contain_text("This phone no longer holds Ben's seat")
    expect(left_open.locator("#move-message")).to_contain_text(game["join_code"])
    screenshot(left_open, "seat-released-old-phone")
    # the old phone no longer holds the seat, and the code does not work twice
    answer = ben.goto(f"/g/{game['id']}/seat/1")
    assert answer is not None and answer.status == 403
    expect(ben.locator("body")).to_contain_text("This phone no longer holds Ben's seat")
    third = new_phone().new_page()
    assert third.goto(f"/h/{code}").status == 404
    assert api.http.get(f"{server}/api/games/{game['id']}", headers={"Authorization": f"Bearer {ben_token}"},
                        timeout=5).status_code == 401


def test_a_move_is_corrected_from_the_seat_page_and_a_correction_that_breaks_a_later_move_is_refused(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, ann_token, ben_token = api.two_player_opening()
    ann = open_seat(new_phone, server, game, 0)
    ann.get_by_role("link", name="Table view").click()
    ann.get_by_role("link", name="Correct a move, hand over, rename").click()
    expect(ann.locator(".correction")).to_have_count(7)

    # Ann's first draw was Physical Kids; she says Golem, which Ben drew as move 4: refused, nothing changes
    first = ann.locator("#correct-1")
    first.locator("summary", has_text="Edit move 1").click()
    first.get_by_label("card").fill("Golem")
    first.get_by_role("button", name="Correct move 1").click()
    expect(ann.locator("#move-message")).to_contain_text("Ben's move 4 would no longer fit")
    assert api.version(game["id"]) == 7

    # her last draw was really Levitation, not Romance
    last = ann.locator("#correct-7")
    last.locator("summary", has_text="Edit move 7").click()
    last.get_by_label("card").fill("Levitation")
    last.get_by_role("button", name="Correct move 7").click()
    expect(ann.locator("#move-message")).to_contain_text("Recorded.")
    screenshot(ann, "seat-corrections")
    assert api.version(game["id"]) == 8
    mine = api.http.get(f"{server}/api/games/{game['id']}", headers={"Authorization": f"Bearer {ann_token}"},
                        timeout=5).json()
    hand = mine["state"]["players"][0]["hand"]
    assert "levitation" in hand and "romance" not in hand

    # Ben takes back the last move (Ann's corrected draw) from his seat page
    ben = open_seat(new_phone, server, game, 1)
    undo = ben.locator("#f-undo")
    expect(undo).to_contain_text("Ann drew")
    undo.get_by_role("button", name="Take back the last move").click()
    expect(ben.locator("#move-message")).to_contain_text("Undone.")
    log = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert log[-1]["text"].startswith("Ben took back Ann's move 7")


def test_the_host_releases_a_seat_and_another_phone_joins_it_by_code(
        new_phone: Callable[[], BrowserContext], server: str) -> None:
    host = new_phone()
    page = host.new_page()
    page.goto("/")
    page.locator("#new-section > summary").click()
    form = page.locator("#new-game")
    form.get_by_label("Player 1", exact=True).fill("Ann")
    form.get_by_label("Player 2", exact=True).fill("Ben")
    form.get_by_role("button", name="Start").first.click()
    page.wait_for_url("**/seat/0?created=1")
    game_id = page.url.split("/g/")[1].split("/")[0]
    code = page.locator(".code").first.inner_text().strip()

    wrong = new_phone().new_page()          # Ben's phone: taps his name on the join page
    wrong.goto(f"/j/{code}")
    wrong.get_by_role("button", name="I am Ben").click()
    wrong.wait_for_url(f"**/g/{game_id}/seat/1")

    table = host.new_page()
    table.goto(f"/g/{game_id}")
    table.locator("#host-seats > summary").click()
    table.get_by_role("button", name="Release Ben's seat").click()
    expect(table.locator("body")).to_contain_text("Ben's seat was released")
    screenshot(table, "table-host-seats")
    assert wrong.goto(f"/g/{game_id}/seat/1").status == 403

    again = new_phone().new_page()
    again.goto(f"/j/{code}")
    again.get_by_role("button", name="I am Ben").click()
    again.wait_for_url(f"**/g/{game_id}/seat/1")
