"""Mandragora's phone pages through Flask's test client: the new-game options, the table, the seat forms
that follow the rules' state, secrets kept to their own seat, escaping, and the page weight."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

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
    table_page,
    unlabelled,
)

from cardgen.catalog import content
from companion.rules import IllegalMove, rules_for
from companion.store import Store
from tests.test_pages import PAGE_BUDGET

GAME = content("mandragora")
FOUR = ["Ann", "Ben", "Cid", "Dee"]


def store_of(app: Flask) -> Store:
    return app.extensions["store"]


def new_game(app: Flask, players: list[str] | None = None, **options: Any) -> dict[str, Any]:
    return store_of(app).create_game("mandragora", players or FOUR, options)


def play(app: Flask, game: dict[str, Any], seat: int, *moves: dict[str, Any]) -> None:
    store = store_of(app)
    for move in moves:
        version = store.version(game["id"])
        store.apply_move(game["id"], seat, version, f"t-{version}", move)


def has_form(page: str, form_id: str) -> bool:
    return f'id="{form_id}"' in page


class Inputs(HTMLParser):
    """Every input of some HTML with the words of the label around it and the attributes of its fieldset."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[dict[str, Any]] = []
        self.fieldsets: list[dict[str, str | None]] = []
        self.label: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "fieldset":
            self.fieldsets.append(dict(attrs))
        elif tag == "label":
            self.label = {"words": [], "attrs": dict(attrs), "inputs": []}
        elif tag == "input":
            item = {**dict(attrs), "fieldset": self.fieldsets[-1] if self.fieldsets else {}, "label": ""}
            self.found.append(item)
            if self.label is not None:
                self.label["inputs"].append(item)

    def handle_endtag(self, tag: str) -> None:
        if tag == "fieldset" and self.fieldsets:
            self.fieldsets.pop()
        elif tag == "label" and self.label is not None:
            words = [w.strip() for w in self.label["words"] if w.strip()]
            for item in self.label["inputs"]:
                item["label"] = self.label["attrs"].get("aria-label") or " ".join(words)
                item["name_shown"] = self.label["attrs"].get("aria-label") or (words[0] if words else "")
            self.label = None

    def handle_data(self, data: str) -> None:
        if self.label is not None:
            self.label["words"].append(data)


def inputs(html: str, name: str, kind: str = "radio") -> list[dict[str, Any]]:
    parser = Inputs()
    parser.feed(html)
    return [i for i in parser.found if (i.get("data-field") or i.get("name")) == name and i.get("type") == kind]


def radios(html: str, name: str) -> list[str]:
    """The values of a form's radio buttons called ``name``, in page order."""
    return [str(i.get("value")) for i in inputs(html, name)]


def picks(html: str, name: str) -> list[tuple[str, str]]:
    """(value, the name it is shown with) of each radio button called ``name``."""
    return [(str(i.get("value")), i.get("name_shown") or i["label"]) for i in inputs(html, name)]


def labelled(html: str, name: str) -> list[tuple[str, str]]:
    """(value, every word of its label) of each radio button called ``name``."""
    return [(str(i.get("value")), i["label"]) for i in inputs(html, name)]


def whole_numbers(html: str, name: str) -> bool:
    """Whether the page sends the values of ``name`` as numbers (data-type="int" on it or its fieldset)."""
    found = inputs(html, name)
    return bool(found) and all("int" in (i.get("data-type"), i["fieldset"].get("data-type")) for i in found)


def field_of(html: str, legend: str) -> str:
    """The fieldset of a form whose legend is ``legend`` (with the fieldsets inside it)."""
    start = html.index(f"<legend>{legend}</legend>")
    start = html.rindex("<fieldset", 0, start)
    depth, at = 0, start
    for match in re.finditer(r"<(/?)fieldset", html[start:]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            at = start + match.end()
            break
    return html[start:at]


def field_for(html: str, spell: str) -> str:
    """The fields a cast form shows only for ``spell`` (hidden and disabled until it is picked)."""
    found = re.findall(rf'<fieldset[^>]*data-when=\'{{"spell": \["{spell}"\]}}\' hidden disabled>.*?</fieldset>', html,
                       re.S)
    assert found, f"no fields for {spell}"
    return "".join(found)


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def view_of(app: Flask, game: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    _, state = store_of(app).current(game["id"])
    return dict(rules_for("mandragora").view(state, seat))


# -- new game -------------------------------------------------------------------------------------

def test_home_offers_mandragora_with_team_and_circle_options(client: FlaskClient) -> None:
    page = shown(client.get("/"))
    mandragora = form(page, "new-mandragora")
    assert 'name="game" value="mandragora"' in mandragora
    assert mandragora.count('name="player"') == GAME.max_players
    assert 'name="teams"' in mandragora and "Team variant: 2 against 2" in mandragora
    assert "Only with 4 players" in mandragora
    assert 'value="suggested" checked' in mandragora and 'value="random"' in mandragora
    assert "Who goes first? (whoever most resembles a sorcerer)" in mandragora
    assert unlabelled(page) == []


def test_a_team_game_with_a_shuffled_circle_from_the_home_page(app: Flask, client: FlaskClient) -> None:
    response = client.post("/new", data={"csrf_token": csrf_token(client), "game": "mandragora", "player": FOUR,
                                         "first": "1", "teams": "1", "circle": "random"})
    assert response.status_code == 303
    game_id = response.headers["Location"].split("/")[2]
    _, state = store_of(app).current(game_id)
    assert state.teams is True and state.first_seat == 1 and state.players == tuple(FOUR)
    assert state.circle[0] == GAME.start_shop.id and sorted(state.circle) == sorted(GAME.circle_order)
    plain = client.post("/new", data={"csrf_token": csrf_token(client), "game": "mandragora",
                                      "player": ["Ann", "Ben", "", ""], "first": "0", "circle": "suggested"})
    _, state = store_of(app).current(plain.headers["Location"].split("/")[2])
    assert state.teams is False and state.circle == GAME.circle_order


@pytest.mark.parametrize("players, extra, sentence", [
    (["Ann", "Ben", "Cid", ""], {"teams": "1"},
     "Cannot start this game: The team variant is for exactly 4 sorcerers, not 3."),
    (FOUR, {"circle": "hexagon"}, "Pick the suggested shop circle or let the companion shuffle it."),
    (["Ann", "", "", ""], {}, "Cannot start this game: This game takes 2 to 4 players, not 1."),
])
def test_a_bad_mandragora_form_comes_back_with_a_sentence(client: FlaskClient, players: list[str],
                                                          extra: dict[str, str], sentence: str) -> None:
    response = client.post("/new", data={"csrf_token": csrf_token(client), "game": "mandragora", "player": players,
                                         "first": "0", **extra})
    page = shown(response)
    assert response.status_code == 400 and sentence in page
    mandragora = form(page, "new-mandragora")
    assert 'value="Ann"' in mandragora
    if extra.get("teams"):
        assert 'id="mandragora-teams" checked' in mandragora


# -- the table ------------------------------------------------------------------------------------

def test_the_table_shows_the_circle_stacks_deck_and_sorcerers(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, teams=True)
    play(app, game, 0, {"type": "seek", "steps": 3, "scrolls": [2]}, {"type": "team_help", "kind": "none"})
    page = table_page(client, game)
    words = text_of(page)
    shops = re.findall(r'<li class="m-shop m-(day|night)( m-here)?">\s*<span class="m-shop-name">([^<]+)</span>', page)
    assert [name for _, _, name in shops] == [GAME.shop(s).name for s in GAME.circle_order]
    assert [time for time, _, _ in shops] == [GAME.shop(s).time for s in GAME.circle_order]
    here = [name for _, mark, name in shops if mark]
    assert here == [GAME.shop(GAME.circle_order[3]).name]
    view = view_of(app, game)
    assert f"{view['deck_count']} cards in the deck" in words and view["deck_count"] == 82 - 4 - 9 - 3
    assert "Moonlit Well ☾ night 0 cards Assistant here" in words
    assert "Herb Garden ☀ day 1 card start tile" in words
    assert "Value 1: 5 left — Banishment ×2, Transfer, Substitution, Levitation" in words
    assert "Value 5: 3 left — Replication, Disappearance, Purification" in words
    ann = re.search(r'<li class="player-score m-player[^"]*" id="sorcerer-0">.*?</li>\s*(?=<li|</ul>)', page, re.S)
    assert ann is not None
    ann_text = text_of(ann.group(0))
    assert "2 curses" in ann_text and "partner Cid" in ann_text
    assert "Curse marker (−2)" in ann_text and "Scrolls: Cursed scroll (2 curses)" in ann_text
    assert "Teams" in words and "Ann & Cid" in words and "Ben & Dee" in words
    assert "Ann sent the Assistant 3 shops and took the cards there, one of them a cursed scroll (2 curses)." in words
    assert "Turn 2 · Ben" in words


def test_cast_spells_show_with_their_book_values_and_scores(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    play(app, game, 0, {"type": "seek", "steps": 3})
    play(app, game, 1, {"type": "seek", "steps": 3})
    play(app, game, 0, {"type": "cast", "book": "spellbook-red-3", "ingredients": ["mandrake"], "power": 1,
                        "spell": "levitation", "shop": 1})
    words = text_of(table_page(client, game))
    assert "Levitation 1 on Red Spellbook (3) ▲ +4" in words
    assert "Levitation 1 + Red Spellbook 3: 4" in words
    seat = text_of(seat_page(client, game, 0))
    assert "Your spells (1)" in seat and "Levitation 1 on Red Spellbook (3)" in seat


# -- seat forms follow the rules ------------------------------------------------------------------

def test_the_turn_seat_gets_seek_with_its_range_and_others_wait(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    page = seat_page(client, game, 0)
    seek = form(page, "m-seek")
    steps = [(i["value"], json.loads(i["data-also"])["shop"]) for i in inputs(seek, "steps")]
    assert whole_numbers(seek, "steps")
    assert steps == [(str(i), GAME.circle_order[i]) for i in (1, 2, 3)]
    steps = [number for number, _ in steps]
    names = [GAME.shop(GAME.circle_order[i]).name for i in (1, 2, 3)]
    assert [label.partition(" → ")[2] for _, label in picks(seek, "steps")] == names
    assert [label.partition(" → ")[0] for _, label in picks(seek, "steps")] == ["1 shop", "2 shops", "3 shops"]
    scrolls = inputs(seek, "scrolls", "number")
    assert [i["data-repeat"] for i in scrolls] == ["1", "2", "3"]
    assert all(i["fieldset"].get("data-type") == "int" for i in scrolls)
    assert not has_form(page, "m-cast")        # one mandrake: no spellbook and ingredient yet
    assert not has_form(page, "m-drop") and not has_form(page, "m-decline") and not has_form(page, "m-reveal")
    assert "Your turn: send the Assistant to seek, or cast a spell." in page
    assert unlabelled(page) == []
    other = seat_page(client, game, 1)
    assert not has_form(other, "m-seek") and "Ann's turn. Your turn comes later." in other
    assert has_form(other, "m-note")           # a note may be written any time


def test_the_cast_form_offers_books_ingredients_powers_and_spell_effects(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    play(app, game, 0, {"type": "seek", "steps": 3, "scrolls": [1]})
    play(app, game, 1, {"type": "seek", "steps": 2})
    play(app, game, 0, {"type": "seek", "steps": 3})
    play(app, game, 1, {"type": "seek", "steps": 1})
    page = seat_page(client, game, 0)
    cast = form(page, "m-cast")
    assert 'data-move="cast" data-lists="ingredients"' in cast
    books = picks(cast, "book")
    assert books[0] == ("mandrake", "Mandrake as the spellbook (worth 0)")
    assert "spellbook-blue" not in cast         # blue is out of a 2-player game
    assert ("spellbook-black", "3") in books and ("spellbook-red-0", "0") in books   # by colour, then value
    rows = re.findall(r'<legend class="row-name">([^<]+)</legend>', field_of(cast, "Spellbook"))
    assert rows == ["Black (pentagram)", "Green (leaf)", "Purple (crystal)", "Red (flame)", "Yellow (flower)"]
    assert len(books) == 1 + 16 + 1       # a mandrake, four books of each colour but blue, the black book
    assert re.search(r'name="ingredients" data-repeat="yellow"[^>]*value="0"', cast)
    assert 'data-repeat="blue"' not in cast
    wild = [i for i in inputs(cast, "ingredients", "number") if i["data-repeat"] == "mandrake"]
    assert [(i["max"], i["label"]) for i in wild] == [("1", "A mandrake as an ingredient wild: any colour; one mandrake a spell")]
    assert re.findall(r'name="spell" value="([a-z]+)"', cast) == [s.id for s in GAME.spells]
    banish = field_for(cast, "banishment")
    assert "Banish which of your scrolls?" in banish
    assert picks(banish, "scroll") == [("scroll-one-curse-1", "Cursed scroll (1 curse)")]
    assert picks(field_for(cast, "transfer"), "to") == [("1", "Ben")]
    assert radios(field_for(cast, "substitution"), "from") == ["1"]
    levitation = field_for(cast, "levitation")
    # the shops' ids, as the seek form sends (the log line then names the shop, not "shop 3")
    assert radios(levitation, "shop") == [shop["id"] for shop in view_of(app, game)["shops"] if shop["cards"]]
    assert not whole_numbers(levitation, "shop") and 'data-filter' in levitation   # ten shops: search as you type
    assert picks(levitation, "scroll")[0] == ("", "No: it goes into my hand")
    assert unlabelled(page) == []


def test_a_used_up_power_and_a_cast_book_leave_the_form(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    play(app, game, 0, {"type": "seek", "steps": 3})
    play(app, game, 1, {"type": "seek", "steps": 3})
    play(app, game, 0, {"type": "cast", "book": "spellbook-red-3", "ingredients": ["mandrake"], "power": 1,
                        "spell": "levitation", "shop": 1})
    play(app, game, 1, {"type": "seek", "steps": 3})
    play(app, game, 0, {"type": "seek", "steps": 3})
    play(app, game, 1, {"type": "seek", "steps": 3})
    cast = form(seat_page(client, game, 0), "m-cast")
    assert "spellbook-red-3" not in cast and "spellbook-red-2" in cast
    assert ("1", "1 4 cards left") in labelled(cast, "power")
    assert 'data-repeat="mandrake"' in cast     # six mandrakes are still out of spells


def test_the_curse_tie_and_the_team_option_go_to_the_right_seats(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, teams=True)
    play(app, game, 0, {"type": "seek", "steps": 1, "scrolls": [1]})
    ann = seat_page(client, game, 0)
    team = form(ann, "m-team")
    assert re.findall(r'name="kind" value="(\w+)"', team) == ["give", "receive", "exchange", "none"]
    assert "Give Cid a card of my choice" in team and "You received cursed scrolls" in ann
    assert not has_form(ann, "m-seek")          # the choice comes first
    cid = seat_page(client, game, 2)
    assert not has_form(cid, "m-team") and "Waiting for Ann to choose how to help Cid." in cid
    play(app, game, 0, {"type": "team_help", "kind": "none"})
    play(app, game, 1, {"type": "seek", "steps": 1, "scrolls": [1]}, {"type": "team_help", "kind": "give"})
    play(app, game, 2, {"type": "seek", "steps": 1, "scrolls": [1]})
    assert view_of(app, game)["pending"] == {"kind": "curse_marker", "chooser": 1, "candidates": [0, 2],
                                             "title": "Ben gives the Curse marker to Ann or Cid"}
    ben = seat_page(client, game, 1)
    curse = form(ben, "m-curse")
    assert radios(curse, "to") == ["0", "2"] and whole_numbers(curse, "to")
    assert "A tie for the most curses" in ben
    cid = seat_page(client, game, 2)
    assert not has_form(cid, "m-curse") and not has_form(cid, "m-seek") and not has_form(cid, "m-team")
    assert "Waiting for Ben to pass the Curse marker." in cid
    words = text_of(table_page(client, game))
    assert ("Waiting for Ben to pass the Curse marker to one of the sorcerers tied for the most curses: "
            "Ann, Cid.") in words


def drive_to_countdown(app: Flask, game: dict[str, Any]) -> None:
    """Seek until the item deck runs out, resolving every choice on the way (the cheapest legal answers)."""
    for _ in range(200):
        view = view_of(app, game)
        if view["countdown"] is not None:
            return
        pending = view["pending"]
        if pending and pending["kind"] == "curse_marker":
            play(app, game, pending["chooser"], {"type": "pass_curse_marker", "to": pending["candidates"][0]})
        elif pending:
            play(app, game, pending["seat"], {"type": "team_help", "kind": "none"})
        else:
            seat = view["turn"]["seat"]
            try:
                play(app, game, seat, {"type": "seek", "steps": 3})
            except IllegalMove:   # only scrolls are left where the Assistant lands
                cards = view["shops"][(view["assistant"] + 3) % len(view["shops"])]["cards"]
                play(app, game, seat, {"type": "seek", "steps": 3, "scrolls": [1] * cards})
    raise AssertionError("the deck never ran out")


def finish(app: Flask, game: dict[str, Any]) -> None:
    """Every seat drops out in turn."""
    while view_of(app, game)["phase"] == "play":
        play(app, game, view_of(app, game)["turn"]["seat"], {"type": "drop_out"})


def test_the_countdown_drop_out_and_the_reckoning(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    drive_to_countdown(app, game)
    view = view_of(app, game)
    marker_seat = view["countdown"]["seat"]
    assert view["countdown"]["marker"] == "III" and view["turn"]["seat"] == marker_seat
    words = text_of(table_page(client, game))
    assert f"Countdown III: three rounds left, starting with {FOUR[marker_seat]}." in words
    assert "0 cards in the deck" in words
    page = seat_page(client, game, view["turn"]["seat"])
    assert has_form(page, "m-drop") and "You may also drop out now." in page
    assert "Countdown III: three rounds left" in page
    finish(app, game)
    assert view_of(app, game)["phase"] == "reckoning"
    ann = seat_page(client, game, 0)
    reveal = form(ann, "m-reveal")
    offered = re.findall(r'name="colours\[\]" value="(\w+)"', reveal)
    assert "blue" not in offered and "white" in offered      # no blue card in a 2-player game
    assert 'data-lists="colours"' in reveal and "The game has ended: tick the colours left in your hand." in ann
    assert "The game has ended." in text_of(table_page(client, game))


def test_hand_notes_and_colours_stay_on_their_own_seat(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    play(app, game, 0, {"type": "note_hand", "cards": ["mandrake"]})
    ann = seat_page(client, game, 0)
    assert "Noted: mandrake" in ann
    mandrakes = [i for i in inputs(form(ann, "m-note"), "cards", "number") if i["data-repeat"] == "mandrake"]
    assert [(i["min"], i["value"], i["label"]) for i in mandrakes] == [("0", "1", "Mandrakes white")]
    ben = seat_page(client, game, 1)
    assert "Noted:" not in ben and "No note yet." in ben
    assert "Noted:" not in table_page(client, game)
    drive_to_countdown(app, game)
    finish(app, game)
    hands = [p["hand_count"] for p in view_of(app, game)["players"]]
    colours = {0: ["purple", "white"][: max(1, min(2, hands[0]))], 1: ["green"]}
    play(app, game, 0, {"type": "reveal_hand", "colours": colours[0] if hands[0] else []})
    ann, ben, table = seat_page(client, game, 0), seat_page(client, game, 1), table_page(client, game)
    mine = re.search(r'<p class="m-hand" id="my-hand-colours">(.*?)</p>', ann, re.S)
    assert mine and "Purple (crystal)" in text_of(mine.group(1))
    others_view = re.search(r'<li id="other-0">(.*?)</li>', ben, re.S)
    assert others_view and "not revealed yet" not in others_view.group(1) and "hand:" not in others_view.group(1)
    assert "Colours left in hand" not in table and "Your revealed hand" not in ben
    play(app, game, 1, {"type": "reveal_hand", "colours": colours[1] if hands[1] else []})
    table = text_of(table_page(client, game))
    assert view_of(app, game)["over"]
    assert "Colours left in hand: ◆ Purple (crystal)" in table and "Green (leaf)" in table
    assert re.search(r"🏆 .* (wins|win|share the win)", table)


def test_the_final_team_totals_and_winner(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, teams=True)
    drive_to_countdown(app, game)
    finish(app, game)
    for seat in range(4):
        hand = view_of(app, game)["players"][seat]["hand_count"]
        play(app, game, seat, {"type": "reveal_hand", "colours": ["white"] if hand else []})
    view = view_of(app, game)
    assert view["over"]
    scores = {row["seat"]: row["total"] for row in rules_for("mandragora").score(store_of(app).current(game["id"])[1])}
    words = text_of(table_page(client, game))
    team_totals = [scores[0] + scores[2], scores[1] + scores[3]]
    assert f"Ann & Cid {team_totals[0]} points" in words and f"Ben & Dee {team_totals[1]} points" in words
    winners = {0: "Ann & Cid", 1: "Ben & Dee"}
    if team_totals[0] != team_totals[1]:
        best = 0 if team_totals[0] > team_totals[1] else 1
        assert f"🏆 {winners[best]} win with {max(team_totals)} point" in words
    else:
        assert "🏆" in words


def test_names_are_escaped_everywhere(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ['<b>Ann</b> & "Co"', "Ben<script>"])
    play(app, game, 0, {"type": "seek", "steps": 1, "scrolls": [1]})
    for response in (client.get(f"/g/{game['id']}"), client.get(f"/g/{game['id']}/live")):
        raw = response.get_data(as_text=True)
        assert "<b>Ann</b>" not in raw and "Ben<script>" not in raw
        assert "&lt;b&gt;Ann&lt;/b&gt; &amp; &#34;Co&#34;" in raw and "Ben&lt;script&gt;" in raw
    sit(client, game, 1)
    raw = client.get(f"/g/{game['id']}/seat/1").get_data(as_text=True)
    assert "Ben<script>" not in raw and "<b>Ann</b>" not in raw and "Ben&lt;script&gt;" in raw


def test_seat_and_table_pages_weigh_within_the_page_budget(app: Flask, client: FlaskClient) -> None:
    """HTML plus the stylesheet and script a phone loads with it (as served: minified, the way
    bench/bench_pages.py weighs pages), in heavy states: a seat on its turn with the cast form, a hand
    note and advice; a waiting seat; the table at the countdown."""
    game = new_game(app, teams=True)   # every seat held from the start: no invitation QR code on the seat pages
    for _ in range(3):
        for seat in range(4):
            play(app, game, seat, {"type": "seek", "steps": 3})
    play(app, game, 0, {"type": "note_hand", "cards": ["mandrake", "yellow", "yellow", "spellbook-yellow-2"]})
    assets = sent_size(*PAGE_ASSETS, "css/mandragora.css", "js/choices.js", "css/choices.css")
    turn = seat_page(client, game, 0)
    assert has_form(turn, "m-cast") and "m-advice" in turn
    assert "/static/js/choices.js" in turn and "/static/css/choices.css" in turn  # counted above: the choice forms
    pages = [turn, seat_page(client, game, 1), table_page(client, game)]
    drive_to_countdown(app, game)
    pages.append(table_page(client, game))
    for page in pages:
        weight = len(page.encode()) + assets
        assert weight < PAGE_BUDGET, weight
        assert not re.search(r'(src|href|action)="(https?:)?//', page)   # nothing from another origin


def test_the_note_gives_advice_that_fills_the_forms_on_that_seat_only(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    for _ in range(2):
        play(app, game, 0, {"type": "seek", "steps": 3})
        play(app, game, 1, {"type": "seek", "steps": 3})
    play(app, game, 0, {"type": "note_hand", "cards": ["mandrake", "spellbook-red-2", "red"]})
    ann = seat_page(client, game, 0)
    assert "Noted: mandrake, Red Spellbook (2), Red ingredient" in ann
    advice = re.search(r'<ol class="m-advice">.*?</ol>', ann, re.S)
    assert advice
    buttons = re.findall(r"data-fill='([^']+)' data-fill-form=\"(m-\w+)\"", advice.group(0))
    assert buttons[0] == ('{"book": "spellbook-red-2", "ingredients": ["red", "mandrake"], "power": 2, '
                          '"spell": "banishment", "type": "cast"}', "m-cast")
    assert {form_id for _, form_id in buttons} == {"m-cast"}
    assert "Send the Assistant" in advice.group(0)   # seek advice too, without a button
    assert "4 points" in advice.group(0)
    cast = form(ann, "m-cast")
    assert labelled(cast, "book")[1] == ("spellbook-red-2", "Red Spellbook (2) in your note")   # first after a mandrake
    ben = seat_page(client, game, 1)
    assert "m-advice" not in ben and "Noted:" not in ben and "in your note" not in ben


def test_replication_offers_the_extra_turn_or_giving_it_up(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    while view_of(app, game)["players"][0]["hand_count"] < 4:
        play(app, game, 0, {"type": "seek", "steps": 3})
        play(app, game, 1, {"type": "seek", "steps": 1})
    play(app, game, 0, {"type": "cast", "book": "mandrake", "ingredients": ["green"] * 3, "power": 3,
                        "spell": "replication"})
    ann = seat_page(client, game, 0)
    assert has_form(ann, "m-decline") and has_form(ann, "m-seek")
    assert "Extra turn from Replication: seek, cast, or give it up." in ann
    assert "extra turn (Replication)" in text_of(table_page(client, game))
    assert not has_form(seat_page(client, game, 1), "m-decline")
    play(app, game, 0, {"type": "decline_extra_turn"})
    assert not has_form(seat_page(client, game, 0), "m-decline")
    assert "Ben's turn" in seat_page(client, game, 0)


def test_team_effects_target_only_the_other_team(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, teams=True)
    play(app, game, 0, {"type": "seek", "steps": 1, "scrolls": [1]}, {"type": "team_help", "kind": "receive"})
    for seat in (1, 2, 3):
        play(app, game, seat, {"type": "seek", "steps": 3})
    cast = form(seat_page(client, game, 0), "m-cast")
    assert picks(field_for(cast, "transfer"), "to") == [("1", "Ben"), ("3", "Dee")]
    substitution = field_for(cast, "substitution")
    assert "Cid" not in substitution and labelled(substitution, "from")[0] == ("1", "Ben 2 in hand")
    assert ("replication", "Replication Immediate · values left: 3, 4, 5 · play again right away (or give it up)") \
        in labelled(cast, "spell")


def test_any_seat_may_take_back_the_last_move(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ["Ann", "Ben"])
    play(app, game, 0, {"type": "seek", "steps": 2, "shop": GAME.circle_order[2]})
    for seat in (0, 1):
        undo = form(seat_page(client, game, seat), "f-undo")
        assert f"Last move: Ann sent the Assistant 2 shops to the {GAME.shop(GAME.circle_order[2]).name}" in undo


def test_the_undo_names_the_move_it_takes_back_behind_many_private_notes(app: Flask, client: FlaskClient) -> None:
    """The seat page shows only the newest log lines; the undo's words come from the store's own rule (the
    last live move that is not a private note), not from those lines: ten notes after the seek, more than
    the page shows, still leave the seek to take back, on every seat's page."""
    game = new_game(app, ["Ann", "Ben"])
    play(app, game, 0, {"type": "seek", "steps": 2, "shop": GAME.circle_order[2]})
    for _ in range(10):
        play(app, game, 1, {"type": "note_hand", "cards": ["mandrake"]})
    for seat in (0, 1):
        undo = form(seat_page(client, game, seat), "f-undo")
        assert f"Last move: Ann sent the Assistant 2 shops to the {GAME.shop(GAME.circle_order[2]).name}" in undo
    store_of(app).undo(game["id"], 1, store_of(app).version(game["id"]), "u-1")
    assert 'id="f-undo"' not in seat_page(client, game, 0)  # the seek is gone: nothing left to take back
