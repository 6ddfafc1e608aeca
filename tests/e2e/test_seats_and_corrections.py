"""Seats and corrections on real phones (390x844): a seat handed to another phone; a move three turns ago
corrected on the choice form that reported it, the score following, the other phone told at once and putting it
back in one tap; a correction that breaks a later move, fixed in the same place; a take-back of another's move
asked first and put back; and the host releasing a seat that a phone then joins again by code."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

from playwright.sync_api import BrowserContext, Page, Route, expect

from companion.served import RunningServer
from companion.store import Store
from tests.store_checks import (
    fillory_put_back_that_ends_sooner,
    fillory_score_that_ends_sooner,
)

from .conftest import HTTP_SECONDS, REPO, Api, screenshot
from .phone import lose_the_first_answer, open_seat
from .test_accessibility import blocking_violations


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


BARONY = {"locations": ["whispering-well", "ruined-tower", "fairy-ring"],
          "spells": ["velocity", "teleport", "charm", "illusion", "portal"]}
DOC_IMAGES = REPO / "docs" / "images"


def doc_screenshot(page: Page, name: str) -> None:
    """A screenshot for docs/seats-and-corrections.md (the phone's screen, not the full page), written to
    output/screenshots/ and, with E2E_DOC_IMAGES=1, to docs/images/ (committed, so the doc shows them)."""
    screenshot(page, name)
    if os.environ.get("E2E_DOC_IMAGES") == "1":
        DOC_IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOC_IMAGES / f"{name}.png"))


def barony_six_moves(api: Api) -> tuple[dict[str, Any], list[str]]:
    """Ann and Ben in Barony: Sorcery, six explorations and casts in: Ben's move 3 is three turns ago."""
    answer = api.http.post(f"{api.base}/api/games", json={"game": "barony-sorcery", "players": ["Ann", "Ben"],
                                                          "options": BARONY}, timeout=5)
    assert answer.status_code == 201, answer.text
    game = dict(answer.json())
    tokens = [seat["token"] for seat in game["seats"]]
    for seat, move in ((1, {"type": "explore", "location": "Ruined Tower", "reward": 3}),
                       (0, {"type": "explore", "location": "Whispering Well", "reward": 3}),
                       (1, {"type": "explore", "location": "Whispering Well", "reward": 2}),
                       (0, {"type": "explore", "location": "Fairy Ring", "reward": 3}),
                       (1, {"type": "cast", "spells": ["Velocity"]}),
                       (0, {"type": "explore", "location": "Ruined Tower", "reward": 2})):
        api.move(game["id"], tokens[seat], move)
    return game, tokens


def totals(api: Api, game_id: str) -> list[int]:
    scores = api.http.get(f"{api.base}/api/games/{game_id}", timeout=5).json()["scores"]
    return [row["total"] for row in scores]


def test_a_move_three_turns_ago_is_corrected_on_its_choice_form_and_the_other_phone_puts_it_back(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, _ = barony_six_moves(api)
    assert totals(api, game["id"]) == [9, 6]
    ben = open_seat(new_phone, server, game, 1)
    ann = open_seat(new_phone, server, game, 0)
    ann.get_by_role("link", name="Table view").click()
    table = ann
    expect(table.locator(".player-score").nth(1)).to_contain_text("6 points")
    table.get_by_role("link", name="Correct a move, hand over, rename").click()
    expect(ann.locator(".history-move")).to_have_count(6)            # the whole history, newest first
    ann.get_by_role("link", name="Ben", exact=True).click()           # Ben's moves only
    expect(ann.locator(".history-move")).to_have_count(3)
    doc_screenshot(ann, "corrections-history")
    assert blocking_violations(ann) == []

    # Ben's move 3 was no exploration: he cast Charm. Ann opens it: the form Ben used, filled in as reported
    ann.get_by_role("link", name="Change move 3").click()
    expect(ann.locator("h1")).to_contain_text("Change move 3")
    explore = ann.locator("form[data-move=explore]")
    expect(explore.get_by_label("Whispering Well")).to_be_checked()
    assert explore.locator("input[name=location]").first.bounding_box()["height"] >= 1  # a picker, not a text field
    assert ann.locator("input[type=text]").count() == 0
    doc_screenshot(ann, "corrections-form-prefilled")
    assert blocking_violations(ann) == []
    ann.locator("summary", has_text="Cast").click()                      # it was another kind of move
    cast = ann.locator("form[data-move=cast]")
    cast.locator("input[value=charm]").check()
    cast.get_by_role("button", name="Cast").click()
    confirm = ann.locator(".confirm-box")                                # another's move: asked first
    expect(confirm).to_contain_text("Change Ben's move 3?")
    assert api.version(game["id"]) == 6
    yes = confirm.get_by_role("button", name="Yes, change it")
    assert yes.bounding_box()["height"] >= 44
    doc_screenshot(ann, "corrections-confirm")
    yes.click()
    expect(ann.locator("#done")).to_contain_text("Ann corrected Ben's move 3; it now reads: Ben cast Charm")
    assert totals(api, game["id"]) == [9, 3]                              # the score follows the correction

    # Ben's phone is told at once, with one tap to put it back
    told = ben.locator(".told")
    expect(told).to_contain_text("Ann corrected your move 3")
    expect(ben.locator("#live")).to_contain_text("3 Magic")               # and his page follows too
    doc_screenshot(ben, "corrections-told")
    assert blocking_violations(ben) == []
    told.get_by_role("button", name="Put it back").click()
    expect(ben.locator(".told")).to_have_count(0)
    assert totals(api, game["id"]) == [9, 6]
    log = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert log[-1]["text"].startswith("Ben undid the correction of their move 3")
    table.goto(f"/g/{game['id']}")
    expect(table.locator(".player-score").nth(1)).to_contain_text("6 points")


def test_a_correction_whose_answer_was_lost_is_sent_again_with_the_same_action_id_and_made_once(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """The correction reached the server but its answer was lost: the page never says "nothing was changed" (it
    was), and pressing again sends the same action id, answered as made (not "another phone moved first")."""
    game, _ = barony_six_moves(api)
    ann = open_seat(new_phone, server, game, 0)
    sent: list[dict[str, Any]] = []
    ann.route("**/api/games/*/correct", lose_the_first_answer(sent, lambda route: route.request.post_data_json))
    ann.get_by_role("link", name="Table view").click()
    ann.get_by_role("link", name="Correct a move, hand over, rename").click()
    ann.get_by_role("link", name="Change move 3").click()
    ann.locator("summary", has_text="Cast").click()
    cast = ann.locator("form[data-move=cast]")
    cast.locator("input[value=charm]").check()
    for press in range(2):
        cast.get_by_role("button", name="Cast").click()
        ann.locator(".confirm-box").get_by_role("button", name="Yes, change it").click()
        if press == 0:  # the first press's answer is lost: the page says so before the second press
            expect(ann.locator("#move-message")).to_contain_text("not confirmed")
            expect(ann.locator("#move-message")).not_to_contain_text("nothing was changed")
    expect(ann.locator("#done")).to_contain_text("Ann corrected Ben's move 3; it now reads: Ben cast Charm")
    assert len(sent) == 2 and sent[0]["action_id"] == sent[1]["action_id"]
    assert api.version(game["id"]) == 7  # made once, answered twice


def test_a_put_back_sent_again_after_no_answer_keeps_its_action_id(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """A put-back that got no answer is not said to be undone ("nothing was put back": the phone cannot know), and
    pressing again sends the same action id, so it is made once even if the first one had reached the server."""
    game, tokens = barony_six_moves(api)
    taken = api.http.post(f"{api.base}/api/games/{game['id']}/undo", json={"version": 6, "action_id": "take"},
                          headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=5)
    assert taken.status_code == 200, taken.text  # Ben took back Ann's move 6
    sent: list[dict[str, Any]] = []

    def no_answer_the_first_time(route: Route) -> None:
        sent.append(route.request.post_data_json)
        if len(sent) == 1:
            route.abort("connectionreset")
        else:
            route.continue_()

    ann = open_seat(new_phone, server, game, 0)
    ann.route("**/api/games/*/revert", no_answer_the_first_time)
    told = ann.locator(".told")
    expect(told).to_contain_text("Ben took back your move 6")
    told.get_by_role("button", name="Put it back").click()
    expect(ann.locator("#move-message")).to_contain_text("not confirmed")
    told.get_by_role("button", name="Put it back").click()
    expect(ann.locator(".told")).to_have_count(0)
    assert len(sent) == 2 and sent[0]["action_id"] == sent[1]["action_id"]
    assert api.version(game["id"]) == 8


def test_a_correction_that_breaks_a_later_move_shows_that_move_where_the_finger_is_and_fixes_it_too(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, _ = barony_six_moves(api)
    ann = open_seat(new_phone, server, game, 0)
    ann.goto(f"/g/{game['id']}/seat/0/fix/2")
    # Ann reached the Fairy Ring, not the Whispering Well: Ben then came first to the Whispering Well (3 Magic
    # tokens, not the 2 he took), so his move 3 no longer fits; the page shows it under the form, to fix in place
    form = ann.locator("form[data-move=explore]").first
    form.get_by_label("Fairy Ring").check()
    form.get_by_role("button", name="Place my Control token").click()
    misfit = ann.locator("#misfit")
    expect(misfit).to_contain_text("Ben's later move")
    expect(misfit).to_contain_text("Ben explored the Whispering Well")
    assert "seq" not in misfit.inner_text() and "drop" not in misfit.inner_text()
    assert misfit.is_visible() and api.version(game["id"]) == 6
    doc_screenshot(ann, "corrections-later-move")
    assert blocking_violations(ann) == []
    fix = misfit.locator("[data-also] form[data-move=explore]")
    expect(fix.get_by_label("Whispering Well")).to_be_checked()           # filled in as reported
    # Ben's move on Ann's phone: its form speaks of Ben (it read "A knight of yours…", "you arrive 2nd")
    expect(fix).to_contain_text("A knight of Ben's reached")
    expect(fix).to_contain_text("Ben arrives 2nd")
    assert not re.search(r"\b(you|your|yours|my)\b", fix.inner_text(), re.I)
    status = ann.locator("#move-message")
    expect(status).to_contain_text("Not changed yet")
    fix.get_by_role("button", name="Place Ben's Control token").click()   # the same place, at what it pays now
    # while the question is open, the status area asks it (it kept the refusal that came before)
    expect(status).to_contain_text("Change Ben's move too?")
    expect(status).not_to_contain_text("Not changed yet")
    misfit.locator(".confirm-box").get_by_role("button", name="Cancel").click()
    expect(status).to_contain_text("Not changed yet")                     # cancelled: the refusal again
    fix.get_by_role("button", name="Place Ben's Control token").click()
    misfit.locator(".confirm-box").get_by_role("button", name="Yes, change it").click()
    # then Ann's own move 4 (the Fairy Ring again) no longer fits: she went to the Whispering Well then
    expect(ann.locator("#misfit")).to_contain_text("your later move")
    fix = ann.locator("#misfit [data-also] form[data-move=explore]")
    fix.get_by_label("Whispering Well").check()
    fix.get_by_role("button", name="Place my Control token").click()
    expect(ann.locator("#done")).to_contain_text("Ann corrected their move 2")
    entries = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert entries[-1]["text"].endswith("corrected with it: move 3, 4")
    assert totals(api, game["id"]) == [9, 6]


def test_a_correction_that_opens_a_choice_the_rules_require_asks_for_it_in_place(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """Mandragora's team game: Ann forgot the cursed scroll she took; with it, the rules need her help for her
    partner before Ben's next move. The page asks for that choice where the refusal would have been."""
    answer = api.http.post(f"{api.base}/api/games", json={"game": "mandragora", "players": ["Ann", "Ben", "Cat", "Dan"],
                                                          "options": {"teams": True}}, timeout=5)
    assert answer.status_code == 201, answer.text
    game = dict(answer.json())
    api.move(game["id"], game["seats"][0]["token"], {"type": "seek", "steps": 3, "scrolls": []})
    api.move(game["id"], game["seats"][1]["token"], {"type": "seek", "steps": 1, "scrolls": []})
    ann = open_seat(new_phone, server, game, 0)
    ann.goto(f"/g/{game['id']}/seat/0/fix/1")
    seek = ann.locator("form[data-move=seek]")
    expect(seek.locator("input[name=steps][value='3']")).to_be_checked()       # filled in as reported
    seek.locator("input[data-repeat='2']").fill("1")
    seek.get_by_role("button", name="Seek").click()
    need = ann.locator("#misfit [data-insert-before='2']")
    expect(need).to_contain_text("The rules now need your choice before that move")
    assert "would no longer fit" not in ann.locator("main").inner_text()
    doc_screenshot(ann, "corrections-choice-needed")
    helping = need.locator("form[data-move=team_help]")
    helping.get_by_label("No help this time").check()
    helping.get_by_role("button").last.click()
    expect(ann.locator("#done")).to_contain_text("put in with it: move 4")
    log = api.http.get(f"{server}/api/games/{game['id']}/log", timeout=5).json()["entries"]
    assert log[-1]["before"] == 2 and log[-1]["seat"] == 0


def test_taking_back_another_players_move_asks_first_and_that_phone_puts_it_back(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game, _ = barony_six_moves(api)
    ben = open_seat(new_phone, server, game, 1)
    ann = open_seat(new_phone, server, game, 0)
    undo = ben.locator("#f-undo")
    expect(undo).to_contain_text("Ann explored the Ruined Tower")
    undo.get_by_role("button", name="Take back the last move").click()
    expect(ben.locator(".confirm-box")).to_contain_text("Take back another player's move (Ann explored the Ruined Tower")
    assert api.version(game["id"]) == 6                                  # nothing sent before the answer
    ben.locator(".confirm-box").get_by_role("button", name="Yes, take it back").click()
    expect(ben.locator("#move-message")).to_contain_text("Undone.")
    told = ann.locator(".told")
    expect(told).to_contain_text("Ben took back your move 6")
    # where Ann's eyes are: the notice leads her page, just below the status bar, its button focused, and the
    # status bar says it (it still said "Recorded." while the notice sat above the screen)
    put_back = told.get_by_role("button", name="Put it back")
    expect(put_back).to_be_focused()
    expect(ann.locator("#move-message")).to_contain_text("Ben took back your move 6")
    box, bar = told.bounding_box(), ann.locator("#status-bar").bounding_box()
    assert box is not None and bar is not None
    assert bar["y"] + bar["height"] - 1 <= box["y"] and box["y"] + box["height"] <= 844, (box, bar)
    put_back.click()
    expect(ann.locator(".told")).to_have_count(0)
    assert totals(api, game["id"]) == [9, 6]
    ben.get_by_role("link", name="Table view").click()                   # Ann's move stands again
    expect(ben.locator("body")).to_contain_text("Ann put back their move 6")


def joins_by_code(new_phone: Callable[[], BrowserContext], code: str, game_id: str, seat: int, name: str) -> None:
    """A new phone takes the freed seat ``seat`` (``name``'s) on the join page of the game's code."""
    again = new_phone().new_page()
    again.goto(f"/j/{code}")
    again.get_by_role("button", name=f"I am {name}").click()
    again.wait_for_url(f"**/g/{game_id}/seat/{seat}")


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
    expect(table.locator(".confirm-box")).to_contain_text("Ben's phone stops working for it at once")
    table.get_by_role("button", name="Yes, release it").click()
    expect(table.locator("body")).to_contain_text("Ben's seat was released")
    screenshot(table, "table-host-seats")
    # the released phone, still on its seat page, is told at once where the finger is (live update)
    expect(wrong.locator("#seat-gone")).to_contain_text("This phone no longer holds this seat")
    assert wrong.goto(f"/g/{game_id}/seat/1").status == 403

    joins_by_code(new_phone, code, game_id, 1, "Ben")


def test_a_correction_that_ends_the_game_sooner_removes_every_move_after_the_end_in_one_tap(
        new_phone: Callable[[], BrowserContext], api: Api, served: RunningServer) -> None:
    """Fillory: a trait score corrected to one that reaches 100 VP there. The page lists the moves now after the
    end (another player's hidden draws among them) and one tap, asked first, removes them all with it."""
    store = Store(str(served.db_path))  # the server's own database: a random game played to its end through it
    try:
        game, seq, seat, trait, moves = fillory_score_that_ends_sooner(store, ["Ann", "Ben"])
    finally:
        store.close()
    later = [n for n, _, _ in moves]
    phone = open_seat(new_phone, served.base, game, seat)
    phone.goto(f"/g/{game['id']}/seat/{seat}/fix/{seq}")
    form = phone.locator("form[data-move=score]").first
    form.locator(f"input[value='{trait}']").check()
    form.locator("button[type=submit]").click()
    misfit = phone.locator("#misfit")
    expect(misfit).to_contain_text(f"the game ends before move {later[0]}")
    expect(misfit).to_contain_text(f"{len(later)} moves come after the end")
    misfit.get_by_role("button", name="Remove them with this change").click()
    misfit.locator(".confirm-box").get_by_role("button", name="Yes, remove them").click()
    expect(phone.locator("#done")).to_contain_text(f"corrected their move {seq}")
    state = api.http.get(f"{served.base}/api/games/{game['id']}", timeout=HTTP_SECONDS).json()
    assert state["over"] is True, state


def test_a_put_back_that_ends_the_game_sooner_removes_every_move_after_the_end_in_one_tap(
        new_phone: Callable[[], BrowserContext], api: Api, served: RunningServer) -> None:
    """Fillory: a correction that kept the game going is put back, which ends it sooner. The page offered to
    remove one later move per round (11 later moves: 12 rounds); it lists them all and one tap, asked first
    (another player's moves among them), puts it back with all of them."""
    store = Store(str(served.db_path))
    try:
        game, seat, entry, since = fillory_put_back_that_ends_sooner(store, ["Ann", "Ben"])
    finally:
        store.close()
    phone = open_seat(new_phone, served.base, game, seat)
    phone.goto(f"/g/{game['id']}/seat/{seat}/fix")
    change = phone.locator(f"#change-{entry}")
    change.get_by_role("button").click()
    expect(change).to_contain_text(f"{len(since)} moves come after the end: {', '.join(map(str, since))}")
    offer = change.get_by_role("button", name=f"Put it back and remove them ({len(since)} moves)")
    offer.click()
    change.locator(".confirm-box").get_by_role("button", name="Yes, remove them").click()
    expect(phone.locator("#done")).to_be_visible()
    state = api.http.get(f"{served.base}/api/games/{game['id']}", timeout=HTTP_SECONDS).json()
    assert state["over"] is True, state


def test_find_by_name_filters_the_card_list_on_a_moves_own_page(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """Correcting a draw on its own page: "Find by name" over the deck's cards filters them as on the seat page
    (it did nothing there: the filter lived in the seat page's script), and Enter picks the one match."""
    game, _, _ = api.two_player_opening()
    phone = open_seat(new_phone, server, game, 0)
    phone.goto(f"/g/{game['id']}/seat/0/fix/1")
    form = phone.locator("form[data-move=draw]").first
    picks = form.locator(".pick:visible")
    everyone = picks.count()
    form.get_by_label("Find by name").fill("Romanc")
    expect(picks).to_have_count(2)  # the match, and the card picked as reported (picks made stay shown)
    expect(form.locator(".pick:visible", has_text="Romance")).to_have_count(1)
    form.get_by_label("Find by name").fill("")
    expect(picks).to_have_count(everyone)
    form.get_by_label("Find by name").fill("zzzz")
    expect(picks).to_have_count(1)  # only the card picked as reported


def test_a_lost_host_phone_is_replaced_with_the_link_companion_host_prints(
        new_phone: Callable[[], BrowserContext], served: RunningServer, api: Api) -> None:
    """Ann's phone, the host's, is lost with her seat. Whoever runs the companion prints a host link; the new
    phone opens it (the key in its fragment fills the form), becomes the host with one tap, lands on the Seats
    panel and releases Ann's seat; her new phone then joins it by code."""
    from click.testing import CliRunner

    from companion.cli import main

    game = api.new_game(["Ann", "Ben"])
    printed = CliRunner().invoke(main, ["host", game["id"], "--db", str(served.db_path), "--base-url", served.base])
    assert printed.exit_code == 0, printed.output
    link = re.search(r"Open on the new host's phone: (\S+)", printed.output).group(1)  # type: ignore[union-attr]
    page = new_phone().new_page()
    page.goto(link)
    expect(page.get_by_label(re.compile("Host key"))).not_to_have_value("")
    page.get_by_role("button", name="Make this phone the host").click()
    page.wait_for_url(f"**/g/{game['id']}?seats=1#host-seats")
    page.get_by_role("button", name="Release Ann's seat").click()
    page.get_by_role("button", name="Yes, release it").click()
    expect(page.locator("body")).to_contain_text("Ann's seat was released")
    joins_by_code(new_phone, game["join_code"], game["id"], 0, "Ann")


def test_leave_it_also_clears_the_status_bar_that_said_it(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """Ann tapped "Leave it" on Ben's take-back: the notice went, but the status bar went on saying "Ben took back
    your move 6" until her next move (the phone audit)."""
    game, _ = barony_six_moves(api)
    ann = open_seat(new_phone, server, game, 0)
    ben = api.http.post(f"{server}/api/games/{game['id']}/undo",
                        headers={"Authorization": f"Bearer {game['seats'][1]['token']}"},
                        json={"version": 6, "action_id": "undo-6"})
    assert ben.status_code == 200, ben.text
    told = ann.locator(".told")
    expect(ann.locator("#move-message")).to_contain_text("Ben took back your move 6")
    told.get_by_role("button", name="Leave it").click()
    expect(told).to_be_hidden()
    expect(ann.locator("#move-message")).not_to_contain_text("Ben took back your move 6")
