"""The next step in view: four phones at 390x844 play a whole game of every discovered title through the
seat pages, and after every move the next thing to tap is on screen, below the sticky status bar.

Which legal move each player makes comes from the rules module's own ``random_legal_move`` over the table
as the players see it, seeded: of :data:`SEED_TRIES` seeds, the one whose game (played first on the rules
alone, in a fraction of a second each) comes to its proper end in the fewest moves, so that each title is a
whole *short* game (issue 25) with every check of every move kept (the database the server writes, read by a store of the test's own, as the physical
table would show it). The move is then reported on the acting phone: its form is filled with the move
(what the page's advice buttons do) and its submit button tapped, so the page's own script sends it and
brings the next step into view. The move is pinned for that one tap (and the form's own checks of the
picks skipped), because a random move names cards and spells by name where the form has ids and may use a
field a form shows only after earlier picks; what is checked here is where the page leaves the player.

A phone put down lies with its screen off (no stream, no swap per move) and catches up when it is picked up for
its next move, as the end's check has every phone do; seat 0's phone stays on all game (every other player's move
swapped in live while nobody holds it), so both ways a phone comes up to date are played through every game.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest
import requests
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.rules import GAMES, rules_for
from companion.served import RunningServer
from companion.store import Store

from .conftest import login_seat
from .phone import LIVE_WITHIN_MS, set_hidden

PHONES = 4
SETTLE_MS = 8_000  # live updates after a move settle well within this on a busy machine
REPORTED_MS = 18_000  # a tap's answer (10 s) and then the live updates that follow it settling (8 s)
MOVE_CAP = 900  # a safety stop: a four-player random Fillory game is 300 to 600 moves, the others fewer
KEPT_ON = 0  # the seat whose phone's screen stays on when it is put down (the others' go off)
SEED_TRIES = 60  # seeds tried on the rules alone for the shortest whole game (0.1-0.5 s CPU a title)

#: Where the next step of a seat page is, measured in the page (the test's own reading, not the page's
#: script): the result or rematch when the game is over, else the button the move was sent from while its
#: form is still offered (the finger stays where "Recorded." appears), else this seat's first move form's first control
#: (text search fields aside; a move the game waits for first, else one it may report at any time, not folded)
#: or, when only folded moves the game waits for are left, the first fold's summary, else (another
#: player's move) the game's banner saying whose turn it is.
NEXT_CONTROL = """(sentFrom) => {
  const live = document.querySelector('[data-live]');
  const shown = (el) => el && el.getClientRects().length && !el.closest('[hidden]')
    && !(el.closest('details:not([open])') && !el.matches('summary'));
  const typed = 'input[type="text"], input[type="search"], input[type="number"], textarea';
  let target = live.querySelector('#rematch-offer a') || live.querySelector('#see-result');
  const used = !target && sentFrom && document.getElementById(sentFrom);
  if (used && shown(used) && used.closest('[data-moves]')) {  // the form still offered: its button
    const buttons = [...used.querySelectorAll('button:not([type="button"])')].filter((b) => shown(b) && !b.matches(':disabled'));
    target = buttons[buttons.length - 1] || null;
  }
  if (!target) {
    const form = [...live.querySelectorAll('[data-your-move] form.move:not([data-undo])')].find(shown)
      || [...live.querySelectorAll('[data-moves] form.move:not([data-undo])')].find(shown);
    const fold = [...live.querySelectorAll('[data-your-move] details > summary')].find(shown);
    if (!form && !fold) { // another player's move: whose turn it is, the game's banner
      const banner = live.querySelector('.banner');
      if (!banner) return null;
      const rect = banner.getBoundingClientRect();
      const bar = document.getElementById('status-bar').getBoundingClientRect();
      return {what: 'banner', top: rect.top, bottom: Math.min(rect.bottom, innerHeight), barBottom: bar.bottom,
              height: innerHeight, focused: document.activeElement === banner, missing: false};
    }
    target = form ? [...form.querySelectorAll('input:not([type=hidden]), select, button, textarea')]
      .find((el) => !el.matches(':disabled') && !el.matches(typed) && shown(el)) : fold;
    if (!target) return {what: form.id, top: 0, bottom: 0, barBottom: 0, height: innerHeight, focused: false, missing: true};
  }
  const rect = target.getBoundingClientRect();
  const bar = document.getElementById('status-bar').getBoundingClientRect();
  return {what: target.id || target.name || target.textContent.trim().slice(0, 40), top: rect.top, bottom: rect.bottom,
          barBottom: bar.bottom, height: innerHeight, focused: document.activeElement === target, missing: false};
}"""


#: The same reading as a condition the page waits for (checked in the page every 50 ms: no round trip a try)
IN_VIEW = f"""([sentFrom, mustFocus]) => {{
  const seen = ({NEXT_CONTROL})(sentFrom);
  return Boolean(seen && !seen.missing && seen.top >= seen.barBottom - 1 && seen.bottom <= seen.height + 1
                 && (seen.focused || !mustFocus));
}}"""


def short_seed(game: str, players: int) -> str:
    """Of SEED_TRIES seeds, the one whose random game of ``game`` (the test's own choice of seat and move, on
    the rules alone) reaches its proper end (over, not stalled) in the fewest moves; a seed is dropped as soon
    as it is longer than the best so far."""
    rules = rules_for(game)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]
    stalled = getattr(rules, "stalled", lambda _: False)
    best, best_moves = f"next-step-{game}", MOVE_CAP
    for k in range(SEED_TRIES):
        seed = f"next-step-{game}-{k}"
        rng = random.Random(seed)
        state, moves = rules.setup(names, {}), 0
        while moves < best_moves and not (rules.outcome(state).over or stalled(state)):
            candidates = [(seat, move) for seat in range(players)
                          if (move := rules.random_legal_move(state, seat, rng)) is not None]
            seat, move = rng.choice(candidates)
            state, moves = rules.apply(state, seat, move), moves + 1
        if rules.outcome(state).over and moves < best_moves:
            best, best_moves = seed, moves
    return best


def in_view(page: Page, must_focus: bool, context: str, sent_from: str | None = None) -> None:
    """The next control lies between the status bar and the screen's bottom edge (and has focus): waited for
    in the page while the live updates that follow the move settle (generous ceiling), then asserted."""
    try:
        page.wait_for_function(IN_VIEW, arg=[sent_from, must_focus], timeout=SETTLE_MS, polling=50)
    except PlaywrightTimeout:
        pass  # the assertions below say what is wrong
    assert_in_view(page, page.evaluate(NEXT_CONTROL, sent_from), must_focus, context)


def assert_in_view(page: Page, seen: dict[str, Any] | None, must_focus: bool, context: str) -> None:
    """What :data:`NEXT_CONTROL` read: the next control between the status bar and the screen's bottom edge."""
    assert seen is not None, f"{context}: no next step on this phone"
    assert not seen["missing"], f"{context}: the move form {seen['what']} has no control"
    assert seen["top"] >= seen["barBottom"] - 1 and seen["bottom"] <= seen["height"] + 1, f"{context}: {seen}"
    if must_focus:
        assert seen["focused"], f"{context}: {seen} focus on {page.evaluate('document.activeElement.outerHTML.slice(0, 120)')}"


#: after a tap: the page shows a newer version than ``before``, says "Recorded." and has the next step in view
REPORTED = f"""([before, sentFrom]) => {{
  const message = document.getElementById('move-message');
  return document.getElementById('live').getAttribute('data-version') !== before
    && Boolean(message && message.textContent.includes('Recorded.')) && ({IN_VIEW})([sentFrom, true]);
}}"""

#: In the page, one round trip: wait (every 20 ms, up to ``waitMs``) until the page shows ``version``, then pin
#: ``move`` on its form (the form filled, its checks skipped, the next collect of it answering the move) and
#: make its submit button tappable as Playwright's click would: scrolled into view below the status bar if it
#: is not, its box unchanged over two animation frames, and the button itself (not something over it) at its
#: centre; found again if the live part is swapped meanwhile (a refresh at the same version). Returns the form,
#: the version shown and where to tap, or what is wrong.
PIN = """async ([version, move, waitMs]) => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const shows = () => document.getElementById('live').getAttribute('data-version');
  const until = performance.now() + waitMs;
  while (shows() !== version && performance.now() < until) await sleep(20);
  if (shows() !== version) return {wrong: `the page shows version ${shows()}, not ${version}`};
  const barBottom = () => document.getElementById('status-bar').getBoundingClientRect().bottom;
  while (true) {  // again if the live part was swapped meanwhile (its form and button replaced)
    const live = document.querySelector('[data-live]');
    const forms = [...live.querySelectorAll(`form.move[data-move="${move.type}"]`)];
    const form = forms.find((f) => f.closest('[data-moves]')) || forms[0];
    if (!form) return {wrong: 'no form on the page reports it'};
    const fold = form.closest('details');
    if (fold) fold.open = true; // a folded move: the player opens it first
    window.SpellbookChoices.fill(form, move);
    form.noValidate = true; // a random move may name its picks otherwise than the form (names, not ids)
    const buttons = [...form.querySelectorAll('button[type="submit"], button:not([type])')];
    const button = buttons[buttons.length - 1];
    if (!button) return {wrong: `the form ${form.id} has no submit button`};
    let box = button.getBoundingClientRect();
    if (box.top < barBottom() || box.bottom > innerHeight) button.scrollIntoView({block: 'center', behavior: 'instant'});
    while (performance.now() < until && button.isConnected) {  // stable: the same box over two frames
      await frame(); await frame();
      const now = button.getBoundingClientRect();
      if (now.top === box.top && now.left === box.left && now.width === box.width && now.height === box.height) break;
      box = now;
    }
    if (!button.isConnected && performance.now() < until) continue;
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!box.width || !box.height || !hit || !button.contains(hit)) {
      return {wrong: `the button of ${form.id} is not tappable at (${x}, ${y}): ${hit ? hit.outerHTML.slice(0, 120) : 'nothing'} is there`};
    }
    const collect = window.SpellbookChoices.collect;
    window.SpellbookChoices.collect = (f) => { window.SpellbookChoices.collect = collect; return f === form ? move : collect(f); };
    if (shows() !== version) return {wrong: `the page moved on to version ${shows()} while the form was pinned`};
    return {form: form.id, version: shows(), x, y};
  }
}"""

#: In the page, one round trip: wait (every 20 ms, up to ``waitMs``) for :data:`REPORTED`, then read what the
#: assertions need (whether it came or not)
AFTER_TAP = f"""async ([before, sentFrom, waitMs]) => {{
  const until = performance.now() + waitMs;
  while (!({REPORTED})([before, sentFrom]) && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
  return {{version: document.getElementById('live').getAttribute('data-version'),
           message: (document.getElementById('move-message') || {{}}).textContent || '',
           next: ({NEXT_CONTROL})(sentFrom)}};
}}"""


def report(page: Page, version: int, move: dict[str, Any], context: str) -> None:
    """Once the phone shows ``version``: fill the move's form and tap its submit button (the move pinned for
    this one tap); then the page must show a newer version, say "Recorded." and have the next control in
    view, focused. Three browser calls a move: the wait for ``version`` and the pin in one evaluate, the tap
    (real mouse events at the button's centre), and one wait in the page for all three conditions (generous
    ceilings) returning the reading each is asserted from."""
    pinned = page.evaluate(PIN, [str(version), move, LIVE_WITHIN_MS * 5])
    assert "wrong" not in pinned, f"{context}: {pinned['wrong']} (reporting {move})"
    form_id, before = str(pinned["form"]), pinned["version"]
    page.mouse.click(pinned["x"], pinned["y"])
    seen = page.evaluate(AFTER_TAP, [before, form_id, REPORTED_MS])
    assert seen["version"] != before, (f"{context}: the page still shows version {before} after the tap "
                                       f"(its message: {seen['message']!r}; the tap at {pinned['x']}, {pinned['y']})")
    assert "Recorded." in seen["message"], f"{context}: {seen['message']!r}, not 'Recorded.'"
    assert_in_view(page, seen["next"], True, context)


@pytest.mark.parametrize("game", list(GAMES))
def test_four_phones_play_a_whole_game_with_the_next_step_always_in_view(
        game: str, served: RunningServer, new_phone: Callable[[], BrowserContext]) -> None:
    rules = rules_for(game)
    players = max(rules.MIN_PLAYERS, min(PHONES, rules.MAX_PLAYERS))
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]
    created = requests.post(f"{served.base}/api/games", json={"game": game, "players": names, "options": {}}, timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    phones: list[Page] = []
    for seat in range(players):
        context = new_phone()
        login_seat(context, served.base, game_id, seat, created.json()["seats"][seat]["token"])
        page = context.new_page()
        page.goto(f"/g/{game_id}/seat/{seat}", wait_until="commit")  # the phones load side by side ...
        phones.append(page)
    for seat, page in enumerate(phones):
        page.wait_for_load_state()  # ... each wholly loaded (its scripts run) before the first move
        if seat != KEPT_ON:
            set_hidden(page, True)  # on the table, its screen off until it is picked up
    table = Store(served.db_path)  # the physical table: what the players see with their eyes
    stalled = getattr(rules, "stalled", lambda _: False)
    rng = random.Random(short_seed(game, players))
    moves, front = 0, None
    while True:
        version, state = table.current(game_id)
        if rules.outcome(state).over or stalled(state):
            break
        assert moves < MOVE_CAP, f"{game}: no end after {MOVE_CAP} moves"
        candidates = [(seat, move) for seat in range(players)
                      if (move := rules.random_legal_move(state, seat, rng)) is not None]
        assert candidates, f"{game}: nobody may move at version {version}"
        seat, move = rng.choice(candidates)
        page = phones[seat]
        if page is not front:  # the acting phone in the player's hand (a no-op for the one already there)
            if front is not None and front is not phones[KEPT_ON]:
                set_hidden(front, True)  # the phone put down: its screen goes off
            page.bring_to_front()
            if page is not phones[KEPT_ON]:
                set_hidden(page, False)  # picked up: it catches up at once (report() waits for the version)
            front = page
        moves += 1
        report(page, version, move, f"{game} move {moves} ({move['type']}) on seat {seat}")
    assert rules.outcome(state).over or stalled(state)
    print(f"{game}: {moves} moves on {players} phones")  # the figure the seed choice keeps short (pytest -s)
    if rules.outcome(state).over:  # the end: the result leads every phone
        final = str(table.current(game_id)[0])
        for seat, page in enumerate(phones):
            page.bring_to_front()
            set_hidden(page, False)  # every phone picked up: each catches up (kept on, or at once when shown)
            expect(page.locator("#live")).to_have_attribute("data-version", final, timeout=LIVE_WITHIN_MS * 5)
            expect(page.locator("#see-result")).to_be_visible()
            in_view(page, False, f"{game} over, seat {seat}")
