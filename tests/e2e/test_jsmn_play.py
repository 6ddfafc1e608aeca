"""A 3-player game of Jonathan Strange & Mr Norrell on three phones and a table view, through a confrontation.

The host creates it on the home page (magicians, difficulty, whose disc is on top), the others join by code
in their own browser contexts. The key moves go through the seat pages' forms — every magician's starting
feats, the first year's Card of Marseilles with the rows laid out, a study action, magic with a card found by
searching the discard list, the end of a turn with its discards, and Ann's end of turn in 1811 that defeats the fairy; the long
middle goes through the JSON API with the seats' tokens, following the scripted game of test_pages_jsmn.
No seat's magicianship shows on another phone or on the table before the end; then every ledger does.
"""

from __future__ import annotations

from typing import Any, Callable

from playwright.sync_api import BrowserContext, Page, expect
from test_pages_jsmn import BOOK_ORDER, NAMED_ROW, STARTING, acting_seat, next_move

from cardgen.catalog import content

from .conftest import Api, login_seat, screenshot
from .phone import (
    LIVE_WITHIN_MS,
    caught_up,
    hosted_game,
    join_by_code,
    recorded,
    seat_tokens,
    set_hidden,
    use,
)
from .test_accessibility import blocking_violations

NAMES = ["Ann", "Ben", "Cid"]
GAME = content("jsmn")


def view_as(api: Api, game_id: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = api.http.get(f"{api.base}/api/games/{game_id}", headers=headers, timeout=5)
    assert answer.status_code == 200, answer.text
    return dict(answer.json()["state"])


def last_move(api: Api, game_id: str, token: str) -> dict[str, Any]:
    entries = api.http.get(f"{api.base}/api/games/{game_id}/log", headers={"Authorization": f"Bearer {token}"},
                           timeout=5).json()["entries"]
    return dict(entries[-1]["move"])


def play_turn_on_the_phone(page: Page, api: Api, game_id: str, token: str) -> None:
    """One whole scripted turn through the seat page's forms: action, magic, spells, the end with discards."""
    while True:
        view = view_as(api, game_id, token)
        if view["phase"] != "turn" or view["turn"]["seat"] != view["you"]:
            return
        move = next_move(view)
        use(page, api, game_id)
        if move["type"] == "choose_action":
            form = page.locator("#j-action")
            form.locator(f"input[value={move['action']}]").check()
            form.get_by_role("button", name="Take this action").click()
        elif move["type"] == "still_waters":
            page.locator("#j-still").get_by_role("button", name="Still the waters").click()
        elif move["type"] == "magic":
            form = page.locator("#j-magic")
            card = form.locator("fieldset", has_text="Card you discard")
            if card.get_by_label("Find by name").count():   # a long list: search it, Enter picks the only match
                card.get_by_label("Find by name").fill(GAME.card(move["card"]).name)
                card.get_by_label("Find by name").press("Enter")
            else:
                card.locator(f"input[value={move['card']}]").check()
            expect(form.locator(f"input[value={move['card']}]")).to_be_checked()
            form.locator(f"input[value={move['feat']}]").check()
            form.get_by_role("button", name="Do magic").click()
        elif move["type"] == "cast_spell":
            page.locator("#j-cast-details > summary").click()
            form = page.locator("#j-cast")
            form.locator(f"input[value={move['spell']}]").check()
            form.get_by_role("button", name="Cast").click()
        elif move["type"] == "end_turn":
            form = page.locator("#j-end")
            discard = move["discard"]
            if discard["invitations"] + discard["introductions"]:
                form.get_by_label("Invitations discarded").fill(str(discard["invitations"]))
                form.get_by_label("Introductions discarded").fill(str(discard["introductions"]))
            form.get_by_role("button", name="End my turn").click()
        else:
            api.move(game_id, token, move)
            continue
        recorded(page)
        sent = last_move(api, game_id, token)
        if move["type"] == "end_turn" and not sum(move["discard"].values()):
            assert sent == {"type": "end_turn"}, sent  # no discard: nothing to count
        else:
            assert sent == move, (sent, move)


def test_three_phones_through_a_confrontation(new_phone: Callable[[], BrowserContext], api: Api,
                                              server: str) -> None:
    # -- the host starts the game on the home page ----------------------------------------------
    host = new_phone()
    ann = host.new_page()
    ann.goto("/")
    ann.locator("#jsmn-new-section > summary").click()
    form = ann.locator("#new-jsmn")
    for number, name in enumerate(NAMES, 1):
        form.get_by_label(f"Player {number}", exact=True).fill(name)
    form.get_by_label("Whose disc is on top of the stack on the wax seal? (plays first in 1806)").select_option(
        label="Ann")
    form.get_by_label("Player 2's magician").select_option("strange")
    form.get_by_label("Player 3's magician").select_option("segundus")
    form.get_by_label("0: usual").check()
    form.get_by_role("button", name="Start Jonathan Strange & Mr Norrell").click()
    code, game_id = hosted_game(ann)
    table = host.new_page()
    table.goto(f"/g/{game_id}")
    expect(table.locator("#j-year")).to_have_text("1806")
    expect(table.locator("#j-fairy")).to_have_text("0")

    # -- the other two join by code, each on their own phone -------------------------------------
    phones = [ann] + [join_by_code(new_phone, code, game_id, seat, name) for seat, name in enumerate(NAMES[1:], 1)]
    tokens = seat_tokens(phones, game_id)

    # -- every magician reports the three feats dealt, on their own phone --------------------------
    for seat, page in enumerate(phones):
        start = use(page, api, game_id).locator("#j-start")
        for feat in STARTING[seat]:
            start.locator(f"input[value={feat}]").check()
        start.get_by_role("button", name="Report my three feats").click()
        recorded(page)
    ben, cid = phones[1], phones[2]
    feat_name = GAME.card(STARTING[0][0]).name
    expect(ann.locator("#my-ledger")).to_contain_text(feat_name)
    for other in (ben, cid):
        caught_up(other, api, game_id)
        expect(other.locator("#my-ledger")).not_to_contain_text(feat_name)
    caught_up(table, api, game_id)
    expect(table.locator("body")).not_to_contain_text(feat_name)

    # -- Ben reveals 1806's card of Marseilles with the rows laid out at setup (nothing preselected) --
    year = use(ben, api, game_id).locator("#j-year")
    year.locator("input[value=the-juggler]").check()
    # the three rows take the first three books of BOOK_ORDER (the rest stay in the box)
    for slot, book in zip(("nearest the prestige track", "in the middle", "nearest the fairy track"), BOOK_ORDER, strict=False):
        year.locator("fieldset", has_text=f"Book of magic laid out {slot}").locator(f"input[value={book}]").check()
    for named in NAMED_ROW:
        year.locator(f"input[value={named}]").check()
    year.get_by_role("button", name="Start the year").click()
    recorded(ben)
    expect(table.locator("#j-card")).to_contain_text("Le Bateleur", timeout=LIVE_WITHIN_MS)
    expect(table.locator("#j-card")).to_contain_text("Birds (bird in flight)")
    expect(table.locator("#j-fairy")).to_have_text("1")
    expect(table.locator("#j-order li").first).to_contain_text("Ann")

    # -- 1806 on the phones: a study action, magic from the filled card list, the end of each turn ---
    for seat in view_as(api, game_id, None)["order"]:
        play_turn_on_the_phone(phones[seat], api, game_id, tokens[seat])
    assert view_as(api, game_id, None)["phase"] == "preparation"
    ann_view = view_as(api, game_id, tokens[0])
    secret = [f["name"] for f in ann_view["players"][0]["ledger"]["feats"]]
    assert any(f["tokens"] for f in ann_view["players"][0]["ledger"]["feats"])   # magic was done

    # -- the long middle through the API, up to Ann's turn in 1811 --------------------------------
    # the phones and the table lie on the table with their screens off meanwhile (no stream, no swap per move)
    # and catch up when they come back on: the live swap itself is checked above and below
    for page in (*phones, table):
        set_hidden(page, True)
    while True:
        public = view_as(api, game_id, None)
        seat = acting_seat(public)
        view = view_as(api, game_id, tokens[seat])
        if public["year"] == 1811 and public["phase"] == "turn" and seat == 0:
            break
        api.move(game_id, tokens[seat], next_move(view))
    for page in (*phones, table):
        set_hidden(page, False)
    expect(table.locator("#j-year")).to_have_text("1811", timeout=LIVE_WITHIN_MS)
    expect(table.locator("#j-banner")).to_contain_text("raven year")
    expect(table.locator("#j-fairy")).to_have_text(str(public["fairy"]))
    order = [NAMES[s] for s in public["order"]]
    expect(table.locator("#j-order li")).to_have_count(3)
    for index, name in enumerate(order):
        expect(table.locator("#j-order li").nth(index)).to_contain_text(name)
    for page in (ben, cid, table):   # Ann's ledger is on her phone only
        caught_up(page, api, game_id)
        expect(page.locator("body")).not_to_contain_text("Your magicianship is")
        ledger = page.locator("#my-ledger")
        for name in secret:
            if ledger.count():
                expect(ledger).not_to_contain_text(name)
    expect(table.locator(".j-ledger")).to_have_count(0)
    screenshot(table, "jsmn-table-1811")

    # -- Ann's turn in 1811 on her phone: her total reaches the fairy when she ends it ------------
    use(ann, api, game_id)
    expect(ann.locator("#my-ledger")).to_contain_text("Magicianship:")
    while (move := next_move(view_as(api, game_id, tokens[0])))["type"] != "end_turn":
        api.move(game_id, tokens[0], move)
    use(ann, api, game_id)
    expect(ann.locator("#j-end .hint")).to_contain_text("you defeat him and the game ends.")
    assert blocking_violations(ann) == []   # the seat page with its forms
    screenshot(ann, "jsmn-seat-confront")
    ann.locator("#j-end").get_by_role("button", name="End my turn").click()
    recorded(ann)

    # -- the defeat is announced: every ledger is revealed, the winner with what decided it --------
    final = view_as(api, game_id, None)
    assert final["over"] and final["defeated_by"] == 0
    expect(table.locator("#j-confront")).to_contain_text(f"Ann defeated the fairy (strength {final['fairy']})",
                                                          timeout=LIVE_WITHIN_MS)
    expect(table.locator("#verdict")).to_have_text("Ann is the greatest magician of the age!")
    expect(table.locator("#j-reason")).to_have_text(final["result"])
    expect(table.locator(".j-ledger")).to_have_count(3)
    for player in final["players"]:
        expect(table.locator(f"#magician-{player['seat']} .jm-total")).to_have_text(
            f"Magicianship: {player['ledger']['magicianship']}")
    for page in (ben, cid):
        caught_up(page, api, game_id)
        expect(page.locator("#headline")).to_have_text("The game is over: every ledger is revealed on the table.")
    table.bring_to_front()
    assert blocking_violations(table) == []
    screenshot(table, "jsmn-table-over")


def test_an_invitation_and_the_discards_at_the_end_of_a_turn_on_a_phone(new_phone: Callable[[], BrowserContext],
                                                                        api: Api, server: str) -> None:
    """The engagement form (one introduction, one feat, the second feat left at "none") and the end of turn
    with its discards as an object: what the phone sends is exactly the move the rules expect."""
    answer = api.http.post(f"{server}/api/games", json={"game": "jsmn", "players": NAMES, "options": {}}, timeout=5)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    game_id, tokens = game["id"], [seat["token"] for seat in game["seats"]]
    for seat in range(3):
        api.move(game_id, tokens[seat], {"type": "starting_feats", "feats": STARTING[seat]})
    api.move(game_id, tokens[1], next_move(view_as(api, game_id, tokens[1])))   # 1806: the rows and a card
    api.move(game_id, tokens[0], {"type": "still_waters"})
    phone = new_phone()
    login_seat(phone, server, game_id, 0, tokens[0])
    ann = phone.new_page()
    ann.goto(f"/g/{game_id}/seat/0")
    ball = next(c for c in GAME.invitations if c.location == "padua")
    move = ann.locator("#j-move")
    move.get_by_label("Find by name").fill("Padua")
    move.get_by_label("Find by name").press("Enter")
    move.get_by_role("button", name="Move").click()
    recorded(ann)
    engage = ann.locator("#j-engage")
    engage.locator(f"input[value={ball.id}]").check()
    engage.locator("fieldset", has_text="Introductions drawn").get_by_label("1", exact=True).check()
    engage.get_by_label("Find by name").fill("Grow a Hedge")
    engage.get_by_label("Find by name").press("Enter")
    # two takes in all: two introductions leave no feat, and the feats' line says which pick caps it
    drawn = engage.locator("fieldset", has_text="Introductions drawn")
    drawn.get_by_label("2", exact=True).check()
    expect(engage.locator(".c-count:not([hidden])")).to_have_text("Pick none here (Introductions drawn: 2).")
    drawn.get_by_label("1", exact=True).check()
    expect(engage.locator(".c-count:not([hidden])")).to_have_count(0)
    engage.get_by_role("button", name="Fulfil it").click()
    recorded(ann)
    assert last_move(api, game_id, tokens[0]) == {"type": "engage", "card": ball.id, "introductions": 1,
                                                  "feats": ["grow-a-hedge-in-a-night"]}
    expect(ann.locator("#my-ledger")).to_contain_text("Grow a Hedge in a Night")
    end = ann.locator("#j-end")
    expect(end).to_contain_text("must discard 1 to keep five")   # 1 invitation, 3 introductions, 2 drawn
    end.get_by_label("Invitations discarded").fill("0")
    end.get_by_label("Introductions discarded").fill("1")
    end.get_by_role("button", name="End my turn").click()
    recorded(ann)
    assert last_move(api, game_id, tokens[0]) == {"type": "end_turn", "discard": {"invitations": 0,
                                                                                   "introductions": 1}}
    me = view_as(api, game_id, tokens[0])["players"][0]
    assert (me["invitations"], me["introductions"]) == (3, 2)
