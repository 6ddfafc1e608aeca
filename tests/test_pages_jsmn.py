"""Jonathan Strange & Mr Norrell's phone pages through Flask's test client: the new-game options and their
refusals, the table and seat parts against the view, forms that follow the state, magicianship kept to its
own seat until the end, escaping, labels and page weight.

``next_move`` plays a scripted, deterministic game (also used by the browser test): Ann, Ben and Cid do magic
greedily with study actions, cast magicianship spells, and Ann defeats the fairy in 1811.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, Mapping

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_pages import (
    PAGE_ASSETS,
    csrf_token,
    form,
    seat_page,
    sent_size,
    shown,
    sit,
    store_of,
    table_page,
    unlabelled,
)

from cardgen.catalog import content
from companion.rules.jsmn import game as rules
from companion.web.games import pages_for
from tests.test_pages import PAGE_BUDGET

GAME = content("jsmn")
STATIC = Path(__file__).resolve().parents[1] / "companion" / "static"
ASSETS = sent_size(*PAGE_ASSETS, "css/jsmn.css", "js/choices.js", "js/choice-lists.js", "css/choices.css")  # the choice forms
NAMES = ["Ann", "Ben", "Cid"]
MAGICIANS = ["norrell", "strange", "segundus"]

# -- a scripted game --------------------------------------------------------------------------------

BOOK_ORDER = [b.id for b in GAME.books]
NAMED_ROW = ["davey", "vinculus"]
YEARS = ["the-juggler", "the-popess", "the-empress", "the-emperor", "the-hermit", "the-wheel-of-fortune",
         "strength", "the-hanged-man", "the-moon", "the-star", "the-tower", "the-world"]
STARTING = [["find-the-kings-roads", "call-the-raven-kings-name", "open-the-way-to-faerie"],
            ["send-ravens-as-messengers", "speak-with-the-wind", "make-the-trees-march"],
            ["move-a-mountain-pass", "raise-a-ship-of-rain", "wake-the-stone-saints"]]
MAGIC_SPELLS = [s.id for s in GAME.spells if s.magicianship]
STUDY = {a.id: a.study for a in GAME.actions if a.study}
INVITATION_OF = {e.id: next(c.id for c in GAME.invitations if c.element == e.id) for e in GAME.elements}
INTRODUCTION_OF = {e.id: next(c.id for c in GAME.introductions if c.element == e.id) for e in GAME.elements}


def placements(me: Mapping[str, Any], elements: list[str], supply: Mapping[str, int] | None) -> list[tuple[str, str]]:
    """(element, feat) pairs a token could go on now, from the seat's own ledger (the supply is shown only
    once the game is over: 13 tokens of each element do not run out in this scripted game)."""
    return [(element, feat["id"]) for feat in me["ledger"]["feats"] for element, need in feat["requires"].items()
            if element in elements and feat["tokens"].count(element) < need and (supply is None or supply[element] > 0)]


def next_move(view: Mapping[str, Any]) -> dict[str, Any]:
    """The scripted move of the seat whose view this is (it must be that seat's move)."""
    seat = view["you"]
    me = view["players"][seat]
    if view["phase"] == "setup":
        return {"type": "starting_feats", "feats": STARTING[seat]}
    if view["phase"] == "preparation":
        year = len(view["marseilles_revealed"])
        move: dict[str, Any] = {"type": "new_year", "marseilles": YEARS[year]}
        return move | ({"books": BOOK_ORDER[:3], "named": NAMED_ROW} if year == 0 else {"book": BOOK_ORDER[2 + year]})
    turn, card = view["turn"], view["marseilles"]
    if turn["pending_connexions"]:
        free = [c.id for c in GAME.connexion_types if c.id not in me["connexions"]]
        return {"type": "connexion", "connexion": "pupil" if "pupil" in free else free[0]}
    if turn["step"] == "action":
        gains = {action: len(placements(me, sorted({*card["elements"], *study}), view["supply"]))
                 for action, study in STUDY.items() if action not in me["covered"]}
        best = max(gains, key=lambda a: gains[a], default=None)
        return {"type": "choose_action", "action": best} if best and gains[best] else {"type": "still_waters"}
    places = placements(me, view["available_elements"], view["supply"])
    if places and me["hand_size"]:
        element, feat = places[0]
        card_id = INVITATION_OF[element] if me["invitations"] else INTRODUCTION_OF[element]
        return {"type": "magic", "card": card_id, "feat": feat}
    if me["spells"]:
        played = {s["id"] for s in me["ledger"]["spells_played"]}
        left = [s for s in MAGIC_SPELLS[2 * seat:2 * seat + 2] if s not in played]
        return {"type": "cast_spell", "spell": left[0]} if left else {"type": "discard_spell"}
    excess = max(0, me["hand_size"] + card["invitations"] - 5)
    invitations = min(excess, me["invitations"] + card["invitations"])
    return {"type": "end_turn", "discard": {"invitations": invitations, "introductions": excess - invitations}}


def acting_seat(view: Mapping[str, Any]) -> int:
    if view["phase"] == "setup":
        return next(p["seat"] for p in view["players"] if not p["started"])
    return view["order"][0] if view["phase"] == "preparation" else view["turn"]["seat"]


# -- helpers ----------------------------------------------------------------------------------------

def new_game(app: Flask, names: list[str] | None = None, **options: Any) -> dict[str, Any]:
    # every seat is held from the start (whoever got the tokens): no invitation QR code on the seat pages
    return store_of(app).create_game("jsmn", names or NAMES, {"magicians": MAGICIANS, **options})


def state_of(app: Flask, game: dict[str, Any]) -> Any:
    return store_of(app).current(game["id"])[1]


def play(app: Flask, game: dict[str, Any], seat: int, move: dict[str, Any]) -> None:
    store = store_of(app)
    version = store.version(game["id"])
    store.apply_move(game["id"], seat, version, f"t-{version}", move)


def script(app: Flask, game: dict[str, Any], until: Any = None, limit: int = 200) -> Any:
    """Play the scripted game until ``until(state)`` holds (or the end); the state reached."""
    for _ in range(limit):
        state = state_of(app, game)
        if state.phase == "over" or (until is not None and until(state)):
            return state
        seat = acting_seat(rules.view(state, None))
        play(app, game, seat, next_move(rules.view(state, seat)))
    raise AssertionError("the scripted game did not get there")


def offered(page: str, form_id: str, name: str) -> list[Any]:
    """The values a field of a choice form offers: its picks, or the rows of the list it names (sent once per
    page as data, the rows in its data-only if it keeps some; a value "" is the label's slug)."""
    html = form(page, form_id)
    found = re.search(rf'data-list="([\w-]+)"(?: data-only="([\d ]+)")? data-name="{re.escape(name)}(?:\[\])?"', html)
    if found is None:
        return re.findall(rf'name="{re.escape(name)}(?:\[\])?" value="([^"]*)"', html)
    data = re.search(rf'<script type="application/json" id="{found.group(1)}">(.*?)</script>', page, re.S).group(1)
    rows = json.loads(data)
    keep = [int(i) for i in found.group(2).split()] if found.group(2) else range(len(rows))
    return [rows[i][0] or re.sub(r"[^a-z0-9]+", "-", rows[i][1].lower().replace("'", "")).strip("-") for i in keep]


def forms_on(page: str) -> list[str]:
    return [f for f in re.findall(r'<form class="move[^"]*" id="([\w-]+)"', page) if f != "f-undo"]


def text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def outside_lists(page: str) -> str:
    """The page without the lists of every feat a seat may take (the same for everyone: names, not secrets)."""
    return re.sub(r'<script type="application/json".*?</script>', "", page, flags=re.S)


def post_new(client: FlaskClient, **fields: Any) -> Any:
    data = {"csrf_token": csrf_token(client), "game": "jsmn", "player": ["Ann", "Ben", "Cid", ""], "first": "0",
            **{f"jsmn-magician-{row}": m.id for row, m in enumerate(GAME.magicians, 1)}, **fields}
    return client.post("/new", data=data)


# -- new game -------------------------------------------------------------------------------------

def test_home_offers_jsmn_with_magicians_and_where_the_fairy_starts(client: FlaskClient) -> None:
    page = shown(client.get("/"))
    new = form(page, "new-jsmn")
    assert new.count('name="player"') == GAME.max_players
    for row, magician in enumerate(GAME.magicians, 1):
        select = re.search(rf'<select id="jsmn-magician-{row}".*?</select>', new, re.S)
        assert select and f'<option value="{magician.id}" selected>{magician.name}</option>' in select.group(0)
    assert re.findall(r'name="jsmn-difficulty" value="(\d)"', new) == ["0", "4", "8"]
    assert "Whose disc is on top of the stack on the wax seal? (plays first in 1806)" in new
    assert unlabelled(page) == []


def test_a_new_game_with_its_magicians_difficulty_and_first_disc(app: Flask, client: FlaskClient) -> None:
    response = post_new(client, **{"jsmn-magician-1": "redruth", "jsmn-magician-2": "strange",
                                   "jsmn-magician-3": "norrell", "jsmn-difficulty": "4", "first": "2"})
    assert response.status_code == 303, shown(response)
    game_id = re.search(r"/g/([0-9a-f]+)/seat/0", response.headers["Location"]).group(1)
    state = store_of(app).current(game_id)[1]
    assert [s.magician for s in state.seats] == ["redruth", "strange", "norrell"]
    assert (state.difficulty, state.fairy, state.order()[0]) == (4, 4, 2)
    page = shown(client.get(response.headers["Location"]))
    assert "Miss Redruth" in page and 'id="j-fairy">4<' in page


@pytest.mark.parametrize(("fields", "sentence"), [
    ({"jsmn-magician-1": "strange", "jsmn-magician-2": "strange"},
     "Jonathan Strange is picked twice: each player needs a different magician."),
    ({"jsmn-magician-3": "merlin"}, "Pick a magician for Cid (player 3)."),
    ({"jsmn-difficulty": "6"}, "Pick where the fairy starts: 0 (usual), 4 (experienced) or 8 (foolhardy)."),
    ({"jsmn-difficulty": "hard"}, "Pick where the fairy starts: 0 (usual), 4 (experienced) or 8 (foolhardy)."),
    ({"player": ["Ann", "", "", ""]}, "Cannot start this game:"),
])
def test_a_refused_new_game_says_why_and_keeps_the_choices(app: Flask, client: FlaskClient, fields: dict[str, Any],
                                                           sentence: str) -> None:
    response = post_new(client, **fields)
    page = shown(response)
    assert response.status_code == 400
    error = re.search(r'id="jsmn-form-error"><p>(.*?)</p>', page, re.S)
    assert error and sentence in error.group(1), error and error.group(1)
    new = form(page, "new-jsmn")
    for name, value in fields.items():
        if name.startswith("jsmn-magician") and value != "merlin":
            assert re.search(rf'id="{name}".*?<option value="{value}" selected>', new, re.S)
    assert "Traceback" not in page


def test_the_plugin_is_registered_with_its_stylesheet() -> None:
    pages = pages_for("jsmn")
    assert pages.playable and pages.stylesheet == "css/jsmn.css" and pages.asks_first_seat
    assert (STATIC / "css/jsmn.css").exists()


# -- table ----------------------------------------------------------------------------------------

def test_the_table_shows_year_fairy_card_order_and_magicians_as_the_view_says(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    state = script(app, game, lambda s: s.year == 1808 and s.turn is not None and s.turn.step != "action")
    view = rules.view(state, None)
    page = table_page(client, game)
    assert view["fairy"] == 1 + 2 + 2   # the first three cards of Marseilles
    assert 'id="j-year">1808<' in page and 'id="j-fairy">5<' in page
    assert "raven year" not in page   # 1808 is no raven year
    card = GAME.card(view["marseilles"]["id"])
    assert f"Card of Marseilles: <strong>{card.name}</strong> ({card.english}) · fairy +{card.strength} · draw " \
           f"{card.invitations} invitations" in page
    for element in card.elements:
        symbol = GAME.element(element).symbol_name
        assert f"{GAME.element(element).name} ({symbol})</span>" in page   # word and symbol, never colour alone
    order = re.search(r'<ol class="j-order" id="j-order">(.*?)</ol>', page, re.S).group(1)
    rows = re.findall(r"<strong>(\w+)</strong> · (\d+) prestige · ([\w ]+)", order)
    expected = [(NAMES[s], view["players"][s]["prestige"]) for s in view["order"]]
    assert [(name, int(p)) for name, p, _ in rows] == expected
    stacked = [p["stack"] for p in (view["players"][s] for s in view["order"])]
    assert [where for _, _, where in rows] == ["on top" if n == 0 else f"{n} below the top" for n in stacked]
    turn = view["turn"]
    action = GAME.action(turn["action"]).name if turn["action"] != "still" else "Still the waters"
    step = "visits" if turn["step"] == "visits" else "doing magic"
    assert f'<p id="j-turn" data-turn>Turn: <strong>{NAMES[turn["seat"]]}</strong>, {step} ({action}; moves ' \
           f'{turn["moves"]}/2, engagements {turn["engagements"]}/2)</p>' in page
    for p in view["players"]:
        row = re.search(rf'id="magician-{p["seat"]}">(.*?)</li>', page, re.S).group(1)
        assert f"<strong>{p['prestige']}</strong> prestige" in row and p["magician_name"] in row
        covered = ", ".join(GAME.action(a).name for a in p["covered"]) or "none"
        assert f"Covered: {covered}" in row
        assert f"{p['feats_in_front']} feat" in row and f"{p['feats_completed']} completed" in row
    assert "j-ledger" not in page and "Magicianship:" not in page   # secret until the end
    assert all(b["name"] in page for b in view["book_row"]) and "Davey" in page and "Vinculus" in page
    assert '<p class="hint" id="j-revealed">Cards of Marseilles revealed: Le Bateleur, La Papesse, ' \
           f'{GAME.card("the-empress").name}.</p>' in page
    assert unlabelled(page) == []


def test_the_defeat_the_reveal_and_the_winner_with_the_tie_break(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    state = script(app, game)
    view = rules.view(state, None)
    assert view["over"] and view["defeated_by"] == 0 and view["year"] == 1811
    page = table_page(client, game)
    assert f'<p id="j-confront"><strong>Ann defeated the fairy</strong> (strength {view["fairy"]}).</p>' in page
    assert '<strong id="verdict">Ann is the greatest magician of the age!</strong>' in page
    assert f'<p class="j-reason" id="j-reason">{view["result"]}</p>' in page
    assert "Ann has the most magicianship" in view["result"]
    ledgers = re.findall(r'id="magician-(\d)">.*?<p class="jm-total">Magicianship: <strong>(\d+)</strong>', page, re.S)
    assert [(int(s), int(m)) for s, m in ledgers] == [(p["seat"], p["ledger"]["magicianship"]) for p in view["players"]]
    for p in view["players"]:
        for row in p["ledger"]["breakdown"]:
            assert f"{row['cause']}: +{row['points']}" in page
    assert 'class="player-score won" id="magician-0"' in page
    for seat in range(3):
        mine = seat_page(client, game, seat)
        assert "The game is over: every ledger is revealed on the table." in mine
        assert forms_on(mine) == []


def test_an_undefeated_fairy_after_1817_reigns_and_with_difficulty_everyone_loses(app: Flask) -> None:
    from companion.web.games.jsmn import verdict
    players = [{"seat": s, "name": n} for s, n in enumerate(NAMES)]
    # at difficulty 0 nobody is the greatest magician, but nobody loses either (rule jsmn.end.reign)
    assert verdict({"over": True, "players": players, "winners": [], "reign": True, "difficulty": 0}) == \
        "The fairy reigns over England: nobody is the greatest magician of the age."
    assert verdict({"over": True, "players": players, "winners": [1], "reign": True, "difficulty": 0}) == \
        "The fairy reigns over England: nobody is the greatest magician of the age. Best among you: Ben."
    # everyone loses only with advanced difficulty (rule jsmn.difficulty.advanced)
    assert verdict({"over": True, "players": players, "winners": [], "reign": True, "difficulty": 4}) == \
        "The fairy reigns over England: with advanced difficulty everyone loses."
    assert verdict({"over": True, "players": players, "winners": [0, 2], "reign": False}) == \
        "Ann and Cid share the title of greatest magician of the age."
    assert verdict({"over": False}) is None


# -- seat -----------------------------------------------------------------------------------------

def test_setup_and_preparation_forms(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    ann = seat_page(client, game, 0)
    start = form(ann, "j-start")
    assert sorted(offered(ann, "j-start", "feats")) == sorted(f.id for f in GAME.feats)
    assert 'data-lists="feats"' in start and 'data-kind="many"' in start and forms_on(ann) == ["j-start"]
    assert " checked" not in start   # nothing preselected on an irreversible choice
    play(app, game, 0, next_move(rules.view(state_of(app, game), 0)))
    ann = seat_page(client, game, 0)
    assert "Waiting for Ben, Cid to report their starting feats." in ann and "j-start" not in ann
    script(app, game, lambda s: s.phase == "preparation")
    for seat in range(3):   # any seat may report the year's preparation
        page = seat_page(client, game, seat)
        year = form(page, "j-year")
        assert offered(page, "j-year", "marseilles") == [c.id for c in GAME.marseilles]
        for slot in range(3):   # one pick per place in the row, nothing preselected
            assert offered(page, "j-year", f"books.{slot}") == [b.id for b in GAME.books]
        assert offered(page, "j-year", "named") == [n.id for n in GAME.named_connexions]
        assert 'data-name="book"' not in year and " checked" not in year
    script(app, game, lambda s: s.phase == "preparation" and s.marseilles)
    page = seat_page(client, game, 1)
    left = rules.view(state_of(app, game), 1)["marseilles_left"]
    assert offered(page, "j-year", "marseilles") == left and "the-juggler" not in left
    assert offered(page, "j-year", "book") and not offered(page, "j-year", "books.0")


def test_turn_forms_follow_the_step_and_only_the_seat_on_turn_gets_them(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    state = script(app, game, lambda s: s.phase == "turn")
    seat = state.turn.seat
    page = seat_page(client, game, seat)
    assert forms_on(page) == ["j-action", "j-still"]
    assert offered(page, "j-action", "action") == [*(a.id for a in GAME.actions), "unique"]
    others = [s for s in range(3) if s != seat]
    for other in others:
        assert forms_on(seat_page(client, game, other)) == []
        assert f"{NAMES[seat]} is playing (choosing an action)." in seat_page(client, game, other)
    play(app, game, seat, {"type": "choose_action", "action": "study-rain-hills"})
    page = seat_page(client, game, seat)
    assert forms_on(page)[:2] == ["j-move", "j-magic"] and forms_on(page)[-1] == "j-end"
    assert "j-action" not in page and "j-engage" not in page   # no location yet: nothing to attend
    assert len(offered(page, "j-move", "to")) == len(GAME.map.occupiable)   # the first move goes anywhere
    available = set(rules.view(state_of(app, game), seat)["available_elements"])
    assert {"rain", "hills"} <= available
    cards = {c.id: c.element for c in (*GAME.invitations, *GAME.introductions)}
    discards = offered(page, "j-magic", "card")
    assert discards and {cards[c] for c in discards} <= available   # only cards whose element a feat takes
    assert set(offered(page, "j-magic", "feat")) <= set(STARTING[seat])
    play(app, game, seat, {"type": "move", "to": "padua"})
    page = seat_page(client, game, seat)
    engage = form(page, "j-engage")
    here = {c.id for c in GAME.invitations if c.location == "padua"} | \
        {c.id for c in GAME.introductions if c.location == "padua"}
    assert set(offered(page, "j-engage", "card")) == here
    assert "Fulfil an engagement in Padua (0 of 2 done)" in engage
    assert set(offered(page, "j-engage", "feats")) == {f.id for f in GAME.feats} - set(STARTING[seat])
    # a study action covers its symbol at the end of the turn: not offered again next year
    script(app, game, lambda s: s.phase == "turn" and s.year == 1807 and s.turn.seat == seat)
    page = seat_page(client, game, seat)
    assert "study-rain-hills" not in offered(page, "j-action", "action")
    assert "covered: Study rain and hills" in page


def test_the_end_of_turn_form_counts_the_discards_and_warns_of_the_confrontation(app: Flask,
                                                                               client: FlaskClient) -> None:
    game = new_game(app)
    state = script(app, game, lambda s: s.year == 1811 and s.turn is not None and s.turn.step != "action")
    seat = state.turn.seat
    view = rules.view(state, seat)
    me = view["players"][seat]
    page = seat_page(client, game, seat)
    end = form(page, "j-end")
    total = me["ledger"]["magicianship"]
    assert f"Your {total} against his {view['fairy']}" in end
    assert ("you defeat him and the game ends." in end) == (total >= view["fairy"])
    excess = max(0, me["hand_size"] + view["marseilles"]["invitations"] - 5)
    if excess and total < view["fairy"]:
        assert 'name="discard.invitations" data-type="int"' in end and f"must discard {excess}" in end
    for other in (s for s in range(3) if s != seat):
        assert "Your " + str(total) + " against" not in seat_page(client, game, other)


def test_a_connexion_space_asks_for_a_free_connexion_first(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    seat = script(app, game, lambda s: s.phase == "turn").turn.seat
    person = next(c for c in GAME.introductions if c.prestige >= GAME.tracks.connexion_spaces[0])
    play(app, game, seat, {"type": "still_waters"})
    play(app, game, seat, {"type": "move", "to": person.location})
    play(app, game, seat, {"type": "engage", "card": person.id})
    state = state_of(app, game)
    assert state.turn.pending == 1
    page = seat_page(client, game, seat)
    assert forms_on(page)[:2] == ["j-conn", "j-named"]
    assert "j-end" not in page and "j-magic" not in page
    free = [c.id for c in GAME.connexion_types if c.id not in state.seats[seat].connexions]
    assert offered(page, "j-conn", "connexion") == free
    named = form(page, "j-named")
    assert offered(page, "j-named", "named") == list(state.named_row)
    assert 'data-when=\'{"named": ["davey"]}\'' in named and offered(page, "j-named", "reveal")


# -- secrets ----------------------------------------------------------------------------------------

def test_magicianship_shows_on_its_own_seat_only_until_the_end(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    state = script(app, game, lambda s: s.year == 1810 and s.phase == "turn")
    pages = {seat: seat_page(client, game, seat) for seat in range(3)}
    pages[None] = table_page(client, game)
    pages["live"] = shown(client.get(f"/g/{game['id']}/live"))
    for seat in range(3):
        view = rules.view(state, seat)
        ledger = view["players"][seat]["ledger"]
        # the spells a seat cast are not secret: played for their effect, named in every log
        secret = {f["name"] for f in ledger["feats"]} | {f["name"] for f in ledger["completed"]}
        assert secret and ledger["completed"]
        mine = re.search(r'id="my-ledger">(.*?)</section>', pages[seat], re.S).group(1)
        assert f"Magicianship: <strong>{ledger['magicianship']}</strong>" in mine
        assert all(name in mine for name in secret)
        for viewer, page in pages.items():
            if viewer != seat:
                shown_names = {name for name in secret if name in outside_lists(page)}
                assert not shown_names, (seat, viewer, shown_names)


def test_names_are_escaped_on_table_and_seat(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["<b>Ann</b>", "Ben & Co", "Cid"])
    script(app, game, lambda s: s.phase == "turn")
    sit(client, game, 0)
    for path in (f"/g/{game['id']}", f"/g/{game['id']}/seat/0", f"/g/{game['id']}/seat/0/live"):
        raw = client.get(path).get_data(as_text=True)
        assert "<b>Ann</b>" not in raw and "&lt;b&gt;Ann&lt;/b&gt;" in raw
        assert "Ben & Co" not in raw and "Ben &amp; Co" in raw


# -- weight and labels --------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [9, 11])
def test_every_page_of_a_random_game_is_labelled_and_within_the_page_budget(app: Flask, client: FlaskClient, seed: int) -> None:
    """HTML plus the stylesheets and script a phone loads with it, at every step of a random 3-player game
    (a seat on its turn may hold books, spells, the Street Magician and an invitation where it stands)."""
    game = new_game(app)
    rng = random.Random(seed)
    heaviest = 0
    for step in range(400):
        state = state_of(app, game)
        if state.phase == "over":
            break
        offered = [(s, m) for s in range(3) if (m := rules.random_legal_move(state, s, rng)) is not None]
        play(app, game, *rng.choice(offered))
        for path in (f"/g/{game['id']}", *(f"/g/{game['id']}/seat/{s}" for s in range(3))):
            sit(client, game, int(path[-1])) if "seat" in path else None
            response = client.get(path)
            assert response.status_code == 200
            heaviest = max(heaviest, len(response.data))
            if "seat" in path:
                assert all(f"/static/{asset}".encode() in response.data   # counted in ASSETS
                           for asset in ("js/choices.js", "js/choice-lists.js", "css/choices.css"))
            if step % 25 == 0:
                page = shown(response)
                assert unlabelled(page) == [], path
                assert not re.search(r'(src|href|action)="(https?:)?//', page)   # nothing from elsewhere
    assert state_of(app, game).phase == "over"
    assert heaviest + ASSETS < PAGE_BUDGET, heaviest + ASSETS
