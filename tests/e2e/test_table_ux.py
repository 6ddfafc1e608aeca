"""The phone at the table: feedback where the finger is, a status bar that stays, your-turn signals.

At 390 × 844 (the fixtures' phone): a refused move sent from a control far down a long seat page shows
its reason next to that control, inside the viewport, and in the sticky status bar that screen readers
hear; the bar says whose turn it is; a seat whose move it becomes is told by its tab title and a
vibration; the screen is kept on while a game is open unless this phone switched that off.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from playwright.sync_api import BrowserContext, Page, expect

from .conftest import Api, screenshot
from .phone import caught_up, open_seat, recorded
from .test_accessibility import blocking_violations

VIEWPORT_HEIGHT = 844


def in_viewport(page: Page, selector: str) -> bool:
    """Whether the element's box lies wholly inside the visible part of the page."""
    return bool(page.evaluate("""sel => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""", selector))


def barony_game(api: Api) -> dict[str, Any]:
    answer = api.http.post(f"{api.base}/api/games", json={
        "game": "barony-sorcery", "players": ["Ann", "Ben", "Cat"],
        "options": {"spells": ["Velocity", "Teleport", "Tornado", "Charm", "Abundance"],
                    "locations": ["Standing Stones", "Whispering Well", "Ruined Tower", "Fairy Ring"]}}, timeout=5)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def test_a_refused_move_far_down_the_page_is_answered_where_the_finger_is(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game = barony_game(api)
    api.move(game["id"], game["seats"][0]["token"], {"type": "explore", "location": "standing-stones"})
    ann = open_seat(new_phone, server, game, 0)
    caught_up(ann, api, game["id"])
    form = ann.locator("#f-cast")
    for spell in ("Velocity", "Charm"):  # Movement and Recruitment do not combine
        form.locator("label.pick", has_text=spell).click()
    button = form.get_by_role("button", name="Cast")
    button.scroll_into_view_if_needed()
    scrolled = ann.evaluate("window.scrollY")
    assert scrolled > VIEWPORT_HEIGHT  # the control is more than a screen down the page
    button.click()

    feedback = form.locator(".move-feedback .notice.error")
    expect(feedback).to_contain_text("Only spells of one category combine")
    expect(feedback.get_by_role("link", name="barony-sorcery.cast.same-category")).to_be_visible()
    assert in_viewport(ann, "#f-cast .move-feedback")
    # the status bar never scrolled away and carries the same answer, in an assertive live region
    assert in_viewport(ann, "#status-bar")
    bar = ann.locator("#move-message")
    expect(bar).to_contain_text("Only spells of one category combine")
    expect(bar).to_have_attribute("aria-live", "assertive")
    expect(ann.locator("#live-status")).to_have_attribute("data-state", "live")
    screenshot(ann, "ux-refused-far-down")
    assert blocking_violations(ann) == []

    # a legal move from the same control: "Recorded." next to it, then the answer stays in the bar only
    form.locator("label.pick", has_text="Charm").click()
    form.locator("label.pick", has_text="Teleport").click()
    button.click()
    recorded(ann)
    expect(bar).to_have_attribute("aria-live", "polite")
    expect(form.locator(".move-feedback")).to_contain_text("Recorded.")
    assert in_viewport(ann, "#f-cast .move-feedback")
    expect(form.locator(".move-feedback")).to_have_count(0)
    expect(bar).to_contain_text("Recorded.")


def test_the_status_bar_says_whose_turn_and_the_seat_is_told_when_it_is_theirs(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    game = api.new_game(["Ann", "Ben"])
    ann_token, ben_token = (seat["token"] for seat in game["seats"])
    for card in ("Physical Kids", "Time Loop", "Magic Missile"):
        api.move(game["id"], ann_token, {"type": "draw", "card": card})
    phone = new_phone()
    phone.add_init_script("window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };")
    ann = open_seat(lambda: phone, server, game, 0)
    turn = ann.locator("#status-turn")
    expect(turn).to_contain_text("Dealing")
    expect(ann).not_to_have_title(re.compile("Your move"))  # Ann has dealt herself; Ben has not

    ann.mouse.wheel(0, 1500)  # far down the page, the bar is still there
    assert in_viewport(ann, "#status-bar")
    for card in ("Golem", "Cocaine", "Mentors"):
        api.move(game["id"], ben_token, {"type": "draw", "card": card})
    expect(ann).to_have_title(re.compile(r"^● Your move · "))
    expect(turn).to_contain_text("Your move Turn 1 · Ann · Draw step")
    assert ann.evaluate("window.__buzz") == [[120, 80, 120]]

    # Ann's move: no longer hers, the title goes back; no buzz for a turn that is not hers
    ann.locator("#f-draw").get_by_label("Find by name").fill("Romance")
    ann.locator("#f-draw label.pick", has_text="Romance").click()
    ann.get_by_role("button", name="Report this draw").click()
    recorded(ann)
    expect(turn).to_contain_text("Action step")
    assert ann.evaluate("window.__buzz") == [[120, 80, 120]]

    # the table page says whose turn too, without a "your move"
    table = new_phone().new_page()
    table.goto(f"/g/{game['id']}")
    expect(table.locator("#status-turn")).to_have_text("Turn 1 · Ann · Action step")
    expect(table).not_to_have_title(re.compile("Your move"))


def test_the_screen_stays_on_unless_this_phone_says_not(new_phone: Callable[[], BrowserContext], api: Api,
                                                        server: str) -> None:
    game = api.new_game(["Ann", "Ben"])
    ann = open_seat(new_phone, server, game, 0)
    root = ann.locator("html")
    expect(root).to_have_attribute("data-wake-lock", "on")
    ann.locator("#phone-settings > summary").click()
    keep_on = ann.get_by_label("Keep the screen on while a game is open")
    expect(keep_on).to_be_checked()
    keep_on.uncheck()
    expect(root).to_have_attribute("data-wake-lock", "off")
    ann.reload()  # the choice is this phone's, kept across visits
    expect(root).to_have_attribute("data-wake-lock", "off")
    ann.locator("#phone-settings > summary").click()
    expect(ann.get_by_label("Keep the screen on while a game is open")).not_to_be_checked()
    assert blocking_violations(ann) == []


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def test_join_from_the_first_screen_and_back_to_your_games_in_one_tap(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    # -- the home page: the join code is on the first screen, every new-game form folded below ------
    host = new_phone().new_page()
    host.goto("/")
    assert box(host, "#code")["y"] + box(host, "#code")["height"] <= VIEWPORT_HEIGHT
    assert host.evaluate("[...document.querySelectorAll('details.new-game')].every(d => !d.open)")
    expect(host.locator("#your-games")).to_have_count(0)  # a new phone holds no seat
    screenshot(host, "ux-home")
    assert blocking_violations(host) == []

    # -- the host starts a game: the join QR is first on the page, and large ------------------------
    host.locator("#mandragora-new-section > summary").click()
    form = host.locator("#new-mandragora")
    for number, name in enumerate(("Ann", "Ben", "Cat"), 1):
        form.get_by_label(f"Player {number}", exact=True).fill(name)
    form.get_by_role("button", name="Start Mandragora").click()
    expect(host).to_have_url(re.compile(r"/g/[0-9a-f]+/seat/0"))
    game_id = host.url.split("/g/")[1].split("/")[0]
    code = host.locator(".invite-first .code").inner_text()
    qr = box(host, ".invite-first svg.qr")
    assert qr["y"] + qr["height"] <= VIEWPORT_HEIGHT and qr["width"] >= 300
    assert host.evaluate("""() => { const invite = document.querySelector('.invite-first');
        return [...document.querySelectorAll('#live section')].indexOf(invite) === 0; }""")
    expect(host.locator("svg.qr")).to_have_count(1)
    # ... and under it the setup checklist for 3 sorcerers, open: the 5 item cards to return to the box
    checklist = host.locator("#setup-checklist")
    expect(checklist).to_contain_text("Item cards for 3 sorcerers")
    expect(checklist.locator(".setup-cards a")).to_have_count(5)
    screenshot(host, "ux-host-start")
    assert blocking_violations(host) == []

    # -- Ben reaches the home page by the "Join" link: the code field has the focus ---------------
    ben = new_phone().new_page()
    ben.goto("/rules")
    ben.get_by_role("navigation", name="Main").get_by_role("link", name="Join").click()
    code_field = ben.get_by_label("Join code from the host's phone")
    expect(code_field).to_be_focused()
    ben.keyboard.type(code.lower())
    ben.keyboard.press("Enter")
    ben.get_by_role("button", name="I am Ben").click()
    expect(ben).to_have_url(re.compile(rf"/g/{game_id}/seat/1$"))

    # -- the tab is closed; back on the home page (after a reload), the seat is one tap away --------
    older = api.new_game(["Zed", "Ben"])  # a game Ben does not hold is not listed
    ben.goto("/")
    ben.reload()
    games = ben.locator("#your-games .my-game")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text("Mandragora as Ben")
    expect(games.first).to_contain_text("with Ann, Cat")
    assert box(ben, "#your-games .my-game")["y"] < VIEWPORT_HEIGHT  # on the first screen too
    assert older["id"] not in ben.content()
    assert blocking_violations(ben) == []
    games.first.click()
    expect(ben).to_have_url(re.compile(rf"/g/{game_id}/seat/1$"))

    # -- a second game on the same phone lists first (newest first) --------------------------------
    newer = api.new_game(["Ben", "Dee"])
    ben.context.add_cookies([{"name": f"seat_{newer['id']}_0", "value": newer["seats"][0]["token"], "url": server}])
    ben.goto("/")
    expect(games).to_have_count(2)
    expect(games.first).to_contain_text("Magicians of Fillory as Ben")
    expect(games.nth(1)).to_contain_text("Mandragora as Ben")

    # -- once every seat is taken the host's QR goes, live -------------------------------------------
    api.http.post(f"{server}/api/join", json={"code": code, "seat": 2}, timeout=5).raise_for_status()
    expect(host.locator("svg.qr")).to_have_count(0)  # checked every 3 s, then a swap
    expect(host.locator(".invite-first")).to_have_count(0)


SMALL_TARGETS = """() => {
  // every control and link a finger may hit: >= 44 px tall (a radio or checkbox counts with its label), a
  // link inside running text >= 24 px; what is hidden or folded away is not measured
  const small = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, summary, textarea')) {
    if (el.classList.contains('skip-link') || !el.getClientRects().length) continue;
    const target = (el.type === 'radio' || el.type === 'checkbox') && el.closest('label') ? el.closest('label') : el;
    const box = target.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const inText = el.tagName === 'A' && el.parentElement.textContent.trim().length > el.textContent.trim().length + 2;
    const need = inText ? 24 : 44;
    if (box.height < need - 0.5 || box.width < 23.5) {
      small.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.textContent || el.value || '').trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)} < ${need}`);
    }
  }
  return small;
}"""

SIDEWAYS = """limit => {
  // what sticks out of a page laid out `limit` px wide (a scrolling region inside the page is fine)
  const wide = [];
  if (document.documentElement.scrollWidth > limit + 2) wide.push(`page ${document.documentElement.scrollWidth} px`);
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > limit + 2 && !el.closest('.table-scroll, .pick-list.long')) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className} right ${Math.round(box.right)}`);
    }
  }
  return wide.slice(0, 8);
}"""


def every_page(api: Api, server: str, phone: BrowserContext) -> list[str]:
    """The home, join, rules and card pages, and each game's table, first seat and join page (at their start)."""
    paths = ["/", "/join", "/rules", "/rules?q=summon", "/c/fillory/quentin", "/c/mandragora/spellbook-blue-2"]
    for game in ("fillory", "mandragora", "barony-sorcery", "jsmn"):
        answer = api.http.post(f"{api.base}/api/games", json={"game": game, "players": ["Ann", "Ben", "Cat"]}, timeout=5)
        assert answer.status_code == 201, answer.text
        made = answer.json()
        phone.add_cookies([{"name": f"seat_{made['id']}_0", "value": made["seats"][0]["token"], "url": server}])
        paths += [f"/g/{made['id']}", f"/g/{made['id']}/seat/0", f"/j/{made['join_code']}"]
    return paths


def test_tap_targets_are_big_enough_and_nothing_is_clipped_at_200_percent_zoom(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    phone = new_phone()
    paths = every_page(api, server, phone)
    page = phone.new_page()
    small, wide = {}, {}
    for path in paths:
        page.set_viewport_size({"width": 390, "height": VIEWPORT_HEIGHT})
        page.goto(path)
        if path.startswith("/c/"):  # a card page: its moves part (this phone holds seats) arrives after the page
            page.locator("#card-moves > *").first.wait_for()
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # folded parts too
        small[path] = page.evaluate(SMALL_TARGETS)
        page.set_viewport_size({"width": 195, "height": VIEWPORT_HEIGHT // 2})  # 200 % zoom: half the CSS width
        wide[path] = page.evaluate(SIDEWAYS, 195)
        nav = page.get_by_role("navigation", name="Main").get_by_role("link")
        for index in range(nav.count()):
            link = nav.nth(index).bounding_box()
            assert link is not None and link["x"] >= 0 and link["x"] + link["width"] <= 197, (path, index, link)
    assert {p: found for p, found in small.items() if found} == {}
    assert {p: found for p, found in wide.items() if found} == {}
