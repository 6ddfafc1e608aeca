"""A 4-sorcerer team game of Mandragora played to its final scores on four phones and a table view.

The host creates it on the home page, the others join by code in their own browser contexts; the
key moves go through the seat pages' forms (a seek with a cursed scroll, the team option, passing
the Curse marker on a tie, a Banishment on the caster's own scroll, dropping out, every hand
revealed on its own phone); the long middle (the seeks that empty the deck) goes through the JSON
API with the seats' tokens. Hand colours never show on another phone before every hand is revealed.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from playwright.sync_api import BrowserContext, expect

from .conftest import Api, screenshot
from .phone import (
    LIVE_WITHIN_MS,
    caught_up,
    hosted_game,
    join_by_code,
    mark_page,
    recorded,
    seat_tokens,
    set_hidden,
    use,
)
from .test_accessibility import blocking_violations

NAMES = ["Ann", "Ben", "Cid", "Dee"]


def game_view(api: Api, game_id: str) -> dict[str, Any]:
    return dict(api.http.get(f"{api.base}/api/games/{game_id}", timeout=5).json())


def seek_until_the_deck_is_empty(api: Api, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Every seat seeks 3 shops on its turn, answering each choice the cheapest legal way."""
    for _ in range(150):
        game = game_view(api, game_id)
        state = game["state"]
        if state["countdown"] is not None:
            return game
        pending = state["pending"]
        if pending and pending["kind"] == "curse_marker":
            api.move(game_id, tokens[pending["chooser"]], {"type": "pass_curse_marker", "to": pending["candidates"][0]})
        elif pending:
            api.move(game_id, tokens[pending["seat"]], {"type": "team_help", "kind": "none"})
        else:
            seat = state["turn"]["seat"]
            there = state["shops"][(state["assistant"] + 3) % len(state["shops"])]["cards"]
            answer = api.http.post(f"{api.base}/api/games/{game_id}/moves",
                                   headers={"Authorization": f"Bearer {tokens[seat]}"},
                                   json={"version": game["version"], "action_id": f"deck-{game['version']}",
                                         "move": {"type": "seek", "steps": 3}}, timeout=5)
            if answer.status_code == 422:  # only cursed scrolls are left where the Assistant lands
                api.move(game_id, tokens[seat], {"type": "seek", "steps": 3, "scrolls": [1] * there})
            else:
                assert answer.status_code == 200, answer.text
    raise AssertionError("the deck never ran out")


def test_a_team_game_to_the_final_scores_on_four_phones(new_phone: Callable[[], BrowserContext], api: Api,
                                                        server: str) -> None:
    # -- the host starts a team game on the home page -------------------------------------------
    host = new_phone()
    ann = host.new_page()
    ann.goto("/")
    ann.locator("#mandragora-new-section > summary").click()
    form = ann.locator("#new-mandragora")
    for number, name in enumerate(NAMES, 1):
        form.get_by_label(f"Player {number}", exact=True).fill(name)
    form.get_by_label("Who goes first? (whoever most resembles a sorcerer)").select_option(label="Ann")
    form.get_by_label("Team variant: 2 against 2").check()
    form.get_by_role("button", name="Start Mandragora").click()
    code, game_id = hosted_game(ann)
    table = host.new_page()
    table.goto(f"/g/{game_id}")
    expect(table.locator("#teams-title")).to_be_visible()

    # -- the other three join by code, each on their own phone ----------------------------------
    phones = [ann] + [join_by_code(new_phone, code, game_id, seat, name) for seat, name in enumerate(NAMES[1:], 1)]
    tokens = seat_tokens(phones, game_id)
    ann, ben, cid, dee = phones

    # -- Ann seeks one shop and finds a 1-curse scroll; she takes a card from her partner ---------
    use(ann, api, game_id)
    seek = ann.locator("#m-seek")
    seek.locator("label.pick", has_text="1 shop →").click()
    seek.get_by_label("Scrolls with 1 curse").fill("1")
    seek.get_by_role("button", name="Seek").click()
    recorded(ann)
    log = api.http.get(f"{server}/api/games/{game_id}/log", timeout=5).json()["entries"]
    shop = game_view(api, game_id)["state"]["shops"][1]
    assert log[-1]["move"] == {"type": "seek", "steps": 1, "shop": shop["id"], "scrolls": [1]}  # counts as a list
    assert log[-1]["text"].startswith(f"Ann sent the Assistant 1 shop to the {shop['name']}")
    team = ann.locator("#m-team")
    expect(ann.locator("#headline")).to_contain_text("you may help your partner Cid")
    team.locator("label.pick", has_text="Take a card Cid chooses").click()
    team.get_by_role("button", name="Confirm").click()
    recorded(ann)
    expect(table.locator("#sorcerer-0")).to_contain_text("Curse marker (−2)", timeout=LIVE_WITHIN_MS)
    expect(table.locator("#sorcerer-0")).to_contain_text("2 cards in hand")

    # -- Ben and Cid find scrolls too: a three-way tie, and Ben (holding the marker) chooses ------
    api.move(game_id, tokens[1], {"type": "seek", "steps": 1, "scrolls": [1]})
    api.move(game_id, tokens[1], {"type": "team_help", "kind": "none"})
    api.move(game_id, tokens[2], {"type": "seek", "steps": 1, "scrolls": [1]})
    expect(table.locator(".banner .pending")).to_contain_text("Waiting for Ben to pass the Curse marker",
                                                              timeout=LIVE_WITHIN_MS)
    use(ben, api, game_id)
    curse = ben.locator("#m-curse")
    curse.locator("label.pick", has_text="Cid").click()
    curse.get_by_role("button", name="Pass the Curse marker").click()
    recorded(ben)
    expect(table.locator("#sorcerer-2")).to_contain_text("Curse marker (−2)", timeout=LIVE_WITHIN_MS)
    api.move(game_id, tokens[2], {"type": "team_help", "kind": "none"})
    api.move(game_id, tokens[3], {"type": "seek", "steps": 1})

    # -- Ann notes her hand privately, takes the advice, and casts Banishment on her own scroll -----
    use(ann, api, game_id)
    ann.locator("#m-note-details > summary").click()
    note = ann.locator("#m-note")
    note.get_by_label("Red (flame) ingredients").fill("1")
    note.get_by_label("Mandrakes").fill("1")
    note.get_by_role("button", name="Save my note").click()
    recorded(ann)
    expect(ann.locator("#my-note")).to_have_text("Noted: Red ingredient, mandrake")
    caught_up(cid, api, game_id)
    expect(cid.locator("body")).not_to_contain_text("Red ingredient")   # the note is Ann's secret
    ann.locator(".m-advice li", has_text="on a mandrake with red").get_by_role(
        "button", name="Fill in the cast form").click()
    cast = ann.locator("#m-cast")
    expect(cast).to_be_visible()
    expect(cast.locator("input[name=book][value=mandrake]")).to_be_checked()
    expect(cast.get_by_label("Red (flame) ingredients")).to_have_value("1")
    expect(cast.locator("input[name=power][value='1']")).to_be_checked()
    expect(cast.locator("input[name=spell][value=banishment]")).to_be_checked()
    expect(cast.get_by_role("group", name="Banish which of your scrolls?")).to_be_visible()
    expect(cast.get_by_role("group", name="Give which of your scrolls?")).to_be_hidden()   # Transfer's field
    expect(cast.locator("input[name=ingredients][data-repeat=mandrake]")).to_be_hidden()  # one mandrake a spell
    expect(cast.locator("input[name=ingredients][data-repeat=yellow]")).to_be_visible()   # any colour on a mandrake
    screenshot(ann, "mandragora-seat-cast")
    assert blocking_violations(ann) == []   # the seat page with every form open
    cast.get_by_role("button", name="Cast").click()
    recorded(ann)
    ann_row = table.locator("#sorcerer-0")
    expect(ann_row).to_contain_text("Banishment 1 on Mandrake", timeout=LIVE_WITHIN_MS)
    expect(ann_row).to_contain_text("0 curses")
    log = api.http.get(f"{server}/api/games/{game_id}/log", timeout=5).json()["entries"]
    assert log[-1]["move"] == {"type": "cast", "book": "mandrake", "ingredients": ["red"], "power": 1,
                               "spell": "banishment", "scroll": "scroll-one-curse-1"}

    # -- the long middle: seeks through the API until the deck runs out ---------------------------
    # the phones and the table lie on the table with their screens off meanwhile (no stream, no swap per move)
    # and catch up when they come back on: the live swap itself is checked above and below
    for page in (*phones, table):
        set_hidden(page, True)
    game = seek_until_the_deck_is_empty(api, game_id, tokens)
    for page in (*phones, table):
        set_hidden(page, False)
    countdown = game["state"]["countdown"]
    marker_seat = countdown["seat"]
    expect(table.locator(".m-countdown")).to_contain_text(f"Countdown III: three rounds left, starting with "
                                                          f"{NAMES[marker_seat]}", timeout=LIVE_WITHIN_MS)
    expect(table.locator(".m-circle")).to_be_visible()
    table.bring_to_front()
    screenshot(table, "mandragora-table-countdown")

    # -- everyone drops out on their own phone, in turn order ---------------------------------------
    while (state := game_view(api, game_id)["state"])["phase"] == "play":
        if state["pending"]:
            pending = state["pending"]
            chooser = pending["chooser"] if pending["kind"] == "curse_marker" else pending["seat"]
            move = ({"type": "pass_curse_marker", "to": pending["candidates"][0]}
                    if pending["kind"] == "curse_marker" else {"type": "team_help", "kind": "none"})
            api.move(game_id, tokens[chooser], move)
            continue
        page = use(phones[state["turn"]["seat"]], api, game_id)
        page.locator("#m-drop").get_by_role("button", name="Drop out").click()
        recorded(page)
    expect(table.locator(".banner")).to_contain_text("The game has ended.", timeout=LIVE_WITHIN_MS)

    # -- each sorcerer reveals the colours left in hand on their own phone --------------------------
    revealed: dict[int, list[str]] = {}
    for seat, page in enumerate(phones):
        use(page, api, game_id)
        reveal = page.locator("#m-reveal")
        hand = game_view(api, game_id)["state"]["players"][seat]["hand_count"]
        boxes = reveal.locator("input[type=checkbox]")
        chosen = [boxes.nth(i).get_attribute("value") or "" for i in range(min(hand, 2))]
        for value in chosen:
            reveal.locator(f"input[value={value}]").check()
        reveal.get_by_role("button", name="Reveal my hand").click()
        recorded(page)
        revealed[seat] = chosen
        if seat < 3:   # not everyone has revealed: these colours are on this phone only
            expect(page.locator("#my-hand-colours")).to_be_visible()
            for other in phones[seat + 1:]:
                caught_up(other, api, game_id)
                expect(other.locator(f"#other-{seat}")).not_to_contain_text("hand:")
                expect(other.locator("#my-hand-colours")).to_have_count(0)
            caught_up(table, api, game_id)
            expect(table.locator(f"#sorcerer-{seat} .m-hand")).to_have_count(0)

    # -- the table: team totals and the winner --------------------------------------------------------
    final = game_view(api, game_id)
    assert final["over"] is True
    totals = {row["seat"]: row["total"] for row in final["scores"]}
    team_totals = [totals[0] + totals[2], totals[1] + totals[3]]
    teams = table.locator(".m-teams li")
    expect(teams.nth(0)).to_contain_text(f"Ann & Cid {team_totals[0]} points", timeout=LIVE_WITHIN_MS)
    expect(teams.nth(1)).to_contain_text(f"Ben & Dee {team_totals[1]} points")
    winner = table.locator(".banner.winner")
    if team_totals[0] != team_totals[1]:
        best = "Ann & Cid" if team_totals[0] > team_totals[1] else "Ben & Dee"
        expect(winner).to_contain_text(f"{best} win with {max(team_totals)} point")
    else:
        expect(winner).to_contain_text(re.compile(r"win the tie|share the win"))
    for seat, colours in revealed.items():
        row = table.locator(f"#sorcerer-{seat} .m-hand")
        if colours:
            expect(row).to_be_visible()
        else:
            expect(row).to_contain_text("none")
    assert blocking_violations(table) == []
    assert blocking_violations(ann) == []
    table.bring_to_front()
    screenshot(table, "mandragora-table-over")


def test_counts_typed_before_a_seat_is_claimed_survive_the_swap_and_are_sent(
        new_phone: Callable[[], BrowserContext], api: Api, server: str) -> None:
    """A seat claimed while the host types swaps the host's page in place (a claim is no move, so the
    version stays); the counts typed into the seek form (all named "scrolls", one per curse count) and the
    pick above them must come through the swap and be what the move sends."""
    host = new_phone()
    ann = host.new_page()
    ann.goto("/")
    ann.locator("#mandragora-new-section > summary").click()
    form = ann.locator("#new-mandragora")
    for number, name in enumerate(NAMES[:2], 1):
        form.get_by_label(f"Player {number}", exact=True).fill(name)
    form.get_by_label("Who goes first? (whoever most resembles a sorcerer)").select_option(label="Ann")
    form.get_by_role("button", name="Start Mandragora").click()
    code, game_id = hosted_game(ann)
    invite = ann.locator(".invite[data-claimed]")
    expect(invite).to_have_attribute("data-claimed", "1,0")   # only the host's seat is taken
    mark_page(ann)
    seek = ann.locator("#m-seek")
    seek.locator("label.pick", has_text="1 shop →").click()
    seek.get_by_label("Scrolls with 1 curse").fill("1")
    join_by_code(new_phone, code, game_id, 1, NAMES[1])
    expect(invite).to_have_count(0, timeout=LIVE_WITHIN_MS)   # Ann's page swapped: every seat is taken
    assert ann.evaluate("window.__noReload") == "still here"  # a swap, not a reload
    expect(seek.locator("label.pick", has_text="1 shop →").locator("input")).to_be_checked()
    expect(seek.get_by_label("Scrolls with 1 curse")).to_have_value("1")
    expect(seek.get_by_label("Scrolls with 2 curses")).to_have_value("0")   # the shop holds one card
    seek.get_by_role("button", name="Seek").click()
    recorded(ann)
    log = api.http.get(f"{server}/api/games/{game_id}/log", timeout=5).json()["entries"]
    assert log[-1]["move"]["scrolls"] == [1]
