"""The phone pages through Flask's test client: forms, cookies, seats, live parts, card and rules pages."""

from __future__ import annotations

import html
import random
import re
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from cardgen.catalog import GAMES, content
from companion.rules import SPECS, rules_for
from companion.rules.base import Outcome
from companion.rules.fillory import game as fillory
from companion.store import Store
from companion.web.assets import minified
from companion.web.games.fillory_cards import ability_segments, card_rules, named_by
from companion.web.helpers import token_cookie

FILLORY = content("fillory")
STATIC_DIR = Path(__file__).resolve().parents[1] / "companion" / "static"
#: what every game page loads besides its game's own style sheet
PAGE_ASSETS = ("css/app.css", "js/live.js", "js/signals.js")
#: the most a page may weigh with the style sheet and scripts a phone loads with it (as served, minified): 60 KB
#: until this round's confirmations, put-back notices, 44 px fields and the shared-screen table view added 1 KB;
#: 63 KB since the notice of a move another phone changed leads the seat page (1 KB of js/next-step.js); 64 KB
#: since long names wrap (119 bytes of css/app.css) and a refused live-update stream backs off (288 of js/live.js);
#: 65 KB since taps made before the scripts arrive are held (721 bytes of js/hold-taps.js) and a capped list says
#: what caps it (about 300 of js/choices.js; its long lists' filter moved there from js/live.js, about even); 66 KB
#: since a form whose script never arrived is kept from the browser and says to reload (1,339 bytes of
#: js/hold-taps.js and js/confirm.js: Barony's five-seat page weighed 65,447); 67 KB since a put-back with no answer
#: says "not confirmed" and is sent again with its action id, and one refused says the server's reason with its rule
#: (620 bytes of js/put-back.js; 146 of js/choices.js for a name read apart from its place: Barony's five-seat page
#: weighed 66,699)
PAGE_BUDGET = 67_000


def sent_size(*paths: str) -> int:
    """The bytes of these static files as a phone receives them (minified, as companion.web.assets sends)."""
    kinds = {".css": "text/css", ".js": "text/javascript"}
    return sum(len(minified(kinds[Path(path).suffix], (STATIC_DIR / path).read_bytes())) for path in paths)


# -- helpers ------------------------------------------------------------------------------------

def shown(response: Any) -> str:
    """The page's HTML with entities decoded, so sentences can be compared as people read them."""
    return html.unescape(response.get_data(as_text=True))


def csrf_token(client: FlaskClient, path: str = "/") -> str:
    page = shown(client.get(path))
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, f"no CSRF field on {path}"
    return found.group(1)


def store_of(app: Flask) -> Store:
    return app.extensions["store"]


def new_game(app: Flask, players: tuple[str, ...] = ("Ann", "Ben", "Cat"), first_seat: int = 0,
             held: list[int] | None = None) -> dict[str, Any]:
    """A game whose seats in ``held`` (default: all) are held by the tokens it answers; the others are free."""
    return store_of(app).create_game("fillory", list(players), {"first_seat": first_seat}, held=held)


def sit(client: FlaskClient, game: dict[str, Any], seat: int) -> None:
    client.set_cookie(token_cookie(game["id"], seat), game["seats"][seat]["token"])


def seat_page(client: FlaskClient, game: dict[str, Any], seat: int) -> str:
    """A seat's page as that seat's phone sees it (the seat cookie set first)."""
    sit(client, game, seat)
    response = client.get(f"/g/{game['id']}/seat/{seat}")
    assert response.status_code == 200
    return shown(response)


def table_page(client: FlaskClient, game: dict[str, Any]) -> str:
    response = client.get(f"/g/{game['id']}")
    assert response.status_code == 200
    return shown(response)


def compact_options(page: str, name: str, form_id: str | None = None) -> list[dict[str, Any]]:
    """The options of field ``name`` (in the form ``form_id``, or anywhere) where the page sends its lists once
    as data (<script type="application/json" id="c-list-N">, drawn by js/choice-lists.js; the rows in a list's
    data-only if it keeps some; a value "" is the label's slug): value, label, detail and deps (when...)."""
    import json

    where = form(page, form_id) if form_id else page
    found: list[dict[str, Any]] = []
    for attrs in re.findall(r'<div class="pick-list[^"]*"([^>]*)>', where):
        listed = re.search(r'data-list="([\w-]+)"', attrs)
        field = re.search(r'data-field="([^"]+)"', attrs) or re.search(r'data-name="([^"\[]+)', attrs)
        if not (listed and field and field.group(1) == name):
            continue
        data = re.search(rf'<script type="application/json" id="{listed.group(1)}">(.*?)</script>', page, re.S)
        assert data, f"no list {listed.group(1)}"
        rows = json.loads(data.group(1))
        only = re.search(r'data-only="([\d ]+)"', attrs)
        for i in ([int(i) for i in only.group(1).split()] if only else range(len(rows))):
            row = rows[i] + [""] * (5 - len(rows[i]))
            value = row[0] if row[0] != "" else re.sub(r"[^a-z0-9]+", "-", row[1].lower().replace("'", "")).strip("-")
            found.append({"value": value, "label": row[1], "detail": row[2], "deps": row[4] or {}})
    return found


def form(page: str, form_id: str) -> str:
    """The HTML of the form with this id (the test fails if the page has none)."""
    found = re.search(rf'<form[^>]*id="{form_id}".*?</form>', page, re.S)
    assert found, f"no form #{form_id}"
    return found.group(0)


def play(app: Flask, game: dict[str, Any], seat: int, *moves: dict[str, Any]) -> None:
    store = store_of(app)
    for move in moves:
        store.apply_move(game["id"], seat, store.version(game["id"]), f"t-{store.version(game['id'])}", move)


def deal(app: Flask, game: dict[str, Any], hands: dict[int, tuple[str, ...]]) -> None:
    for seat, cards in hands.items():
        play(app, game, seat, *({"type": "draw", "card": card} for card in cards))


STANDARD_HANDS = {0: ("Physical Kids", "Time Loop", "Magic Missile"), 1: ("Golem", "Cocaine", "Mentors"),
                  2: ("Ember", "Djinn", "Hospital")}


class Inputs(HTMLParser):
    """Collects form controls and the ids that labels point at."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict[str, str | None]] = []
        self.label_for: set[str] = set()
        self.in_label = 0
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "id" in found and found["id"]:
            self.ids.append(str(found["id"]))
        if tag == "label":
            self.in_label += 1
            if found.get("for"):
                self.label_for.add(str(found["for"]))
        if tag in ("input", "select", "textarea") and found.get("type") != "hidden":
            self.controls.append({**found, "wrapped": "yes" if self.in_label else None})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.in_label -= 1


def unlabelled(html: str) -> list[dict[str, str | None]]:
    parser = Inputs()
    parser.feed(html)
    return [c for c in parser.controls if not c["wrapped"] and c.get("id") not in parser.label_for]


# -- home and new game --------------------------------------------------------------------------

def test_home_page_offers_new_game_and_join_with_labelled_inputs(client: FlaskClient) -> None:
    response = client.get("/")
    page = shown(response)
    assert response.status_code == 200
    fillory_form = re.search(r'<form[^>]*id="new-game".*?</form>', page, re.S)
    assert fillory_form and fillory_form.group(0).count('name="player"') == FILLORY.max_players
    assert 'action="/new"' in page and 'action="/join"' in page
    assert unlabelled(page) == []
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]


def test_new_game_gives_this_browser_seat_zero(app: Flask, client: FlaskClient) -> None:
    token = csrf_token(client)
    response = client.post("/new", data={"csrf_token": token, "player": ["Ann", "Ben", "", "", "", ""], "first": "0"})
    assert response.status_code == 303
    game_id = re.fullmatch(r"/g/([0-9a-f]+)/seat/0\?created=1", response.headers["Location"]).group(1)
    cookie = client.get_cookie(token_cookie(game_id, 0))
    assert cookie is not None and cookie.http_only
    assert store_of(app).seat_for_token(game_id, cookie.value) == 0
    assert store_of(app).info(game_id)["claimed"] == [True, False]
    seat_page = client.get(response.headers["Location"])
    assert seat_page.status_code == 200
    assert "Game created" in shown(seat_page)
    store_of(app).claim_seat(game_id, 1)  # Ben joined: nobody is left to show the code to (the page said it on)
    assert "Game created" not in shown(client.get(response.headers["Location"]))


def test_first_player_counts_only_named_rows(app: Flask, client: FlaskClient) -> None:
    token = csrf_token(client)
    response = client.post("/new", data={"csrf_token": token, "player": ["Ann", "", "Cat", "Dan"], "first": "2"})
    game_id = response.headers["Location"].split("/")[2]
    _, state = store_of(app).current(game_id)
    assert state.players == ("Ann", "Cat", "Dan")
    assert state.first_seat == 1  # Cat, the third row, is the second named player


def test_home_page_has_one_form_per_playable_game(client: FlaskClient) -> None:
    from companion.web.home import playable_games

    page = shown(client.get("/"))
    for game in playable_games():
        assert f'<input type="hidden" name="game" value="{game}">' in page
        assert f"Start {rules_for(game).TITLE}" in page


@pytest.mark.parametrize("game", list(SPECS))  # every discovered game, extra ones ($COMPANION_EXTRA_GAMES) too
def test_every_game_is_started_and_played_on_its_pages(app: Flask, client: FlaskClient, game: str) -> None:
    """The home page offers it; its table page and every seat page render, each seat page with a form for every
    one of the rules' choices for that seat (the shared seat forms); every card's page (what its printed QR code
    opens) renders with the card's name."""
    spec = SPECS[game]
    assert f"Start {spec.title}" in shown(client.get("/"))
    created = store_of(app).create_game(game, ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:spec.min_players], {})
    assert client.get(f"/g/{created['id']}").status_code == 200
    _, state = store_of(app).current(created["id"])
    for seat in range(spec.min_players):
        page = seat_page(client, created, seat)
        offered = rules_for(game).choices(state, seat)
        assert all(f'id="{c.form_id}"' in page for c in offered), (seat, [c.form_id for c in offered])
    catalog = content(game)
    for card in catalog.cards:
        answer = client.get(f"/c/{game}/{card.id}")
        assert answer.status_code == 200 and card.name in shown(answer), card.id


def test_new_game_for_an_unknown_game_is_refused_with_a_sentence(client: FlaskClient) -> None:
    response = client.post("/new", data={"csrf_token": csrf_token(client), "game": "chess", "player": ["Ann", "Ben"]})
    assert response.status_code == 400
    assert "There is no game 'chess' to start here" in shown(response)


def test_a_game_without_pages_of_its_own_gets_the_generic_table_and_seat(app: Flask, client: FlaskClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.web import games, seat_context

    monkeypatch.setattr(seat_context, "pages_for", lambda game: games.GENERIC)
    game = new_game(app)
    sit(client, game, 1)
    table = shown(client.get(f"/g/{game['id']}"))
    assert "Scores" in table and "Ann" in table and "No moves yet." in table
    seat = client.get(f"/g/{game['id']}/seat/1")
    assert seat.status_code == 200
    page = shown(seat)
    _, state = store_of(app).current(game["id"])
    offered = rules_for("fillory").choices(state, 1)
    assert offered and "Your move: report it below." in page  # the generic headline and forms: the rules' choices
    assert all(f'id="{c.form_id}"' in page for c in offered), [c.form_id for c in offered]
    assert "Ben" in shown(client.get(f"/g/{game['id']}/seat/1/live"))


@pytest.mark.parametrize("players, first, sentence", [
    (["Ann", "", "", "", "", ""], "0", "Cannot start this game: This game takes 2 to 6 players, not 1."),
    (["Ann", "Ann", "", "", "", ""], "0", "Cannot start this game: Player names must be different."),
    (["Ann", "Ben", "", "", "", ""], "3", "Player 4 goes first but has no name."),
    (["Ann", "Ben", "", "", "", ""], "first", "Pick who goes first from the list."),
])
def test_bad_new_game_form_is_shown_again_with_a_sentence(client: FlaskClient, players: list[str], first: str,
                                                          sentence: str) -> None:
    response = client.post("/new", data={"csrf_token": csrf_token(client), "player": players, "first": first})
    page = shown(response)
    assert response.status_code == 400
    assert sentence in page
    assert 'value="Ann"' in page  # what was typed stays


def test_new_game_without_csrf_token_is_refused_with_a_page(client: FlaskClient) -> None:
    response = client.post("/new", data={"player": ["Ann", "Ben"], "first": "0"})
    page = shown(response)
    assert response.status_code == 400
    assert "CSRF" in page and "Traceback" not in page
    assert "<h1" in page


# -- joining ------------------------------------------------------------------------------------

def test_join_form_redirects_to_the_code_page(app: Flask, client: FlaskClient) -> None:
    code = new_game(app, held=[])["join_code"]
    response = client.get(f"/join?code=%20{code.lower()}%20")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/j/{code}"
    # a code no game has: the start page's form again, with the reason beside the field (tests/test_phone_leads.py)
    assert client.get("/join?code=ZZZZ22").status_code == 404


def test_unknown_join_code_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/j/ZZZZZZ")
    assert response.status_code == 404
    assert "No game has the join code ZZZZZZ." in shown(response)


def test_claiming_a_seat_sets_the_cookie_and_a_taken_seat_is_a_409(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, held=[])
    code = game["join_code"]
    page = shown(client.get(f"/j/{code.lower()}"))
    assert page.count("I am ") == 3
    token = csrf_token(client, f"/j/{code}")
    response = client.post(f"/j/{code}", data={"csrf_token": token, "seat": "1"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/g/{game['id']}/seat/1"
    assert client.get(response.headers["Location"]).status_code == 200
    assert "Continue as Ben" in shown(client.get(f"/j/{code}"))

    other_phone = app.test_client()
    again = other_phone.post(f"/j/{code}", data={"csrf_token": csrf_token(other_phone, f"/j/{code}"), "seat": "1"})
    assert again.status_code == 409
    assert "Ben's seat was just taken by another phone." in shown(again)


@pytest.mark.parametrize("seat, status, sentence", [
    ("", 400, "Pick a seat from the list."), ("7", 400, "This game has no seat 8."), ("-1", 400, "no seat 0"),
])
def test_claiming_a_bad_seat_is_refused(app: Flask, client: FlaskClient, seat: str, status: int,
                                        sentence: str) -> None:
    code = new_game(app, held=[])["join_code"]
    response = client.post(f"/j/{code}", data={"csrf_token": csrf_token(client, f"/j/{code}"), "seat": seat})
    assert response.status_code == status
    assert sentence in shown(response)


# -- table and seat -----------------------------------------------------------------------------

def qr_text(page: str) -> str:
    """Decode the page's inline SVG QR code (a path of one-module-high runs, ``M x y h n v1 h-n z``) with zxing."""
    svg = re.search(r'<svg class="qr".*?</svg>', page, re.S).group(0)
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    path = re.search(r' d="([^"]*)"', svg).group(1)
    runs = re.findall(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z", path)
    assert "".join(f"M{x} {y}h{n}v1h-{m}z" for x, y, n, m in runs) == path, "the path holds only such runs"
    scale = 8
    image = Image.new("L", (size * scale, size * scale), 255)
    for x, y, n, _ in runs:
        image.paste(0, (int(x) * scale, int(y) * scale, (int(x) + int(n)) * scale, (int(y) + 1) * scale))
    found = zxingcpp.read_barcodes(image)
    assert found, "the QR code did not decode"
    return str(found[0].text)


def test_table_page_shows_every_zone_scores_and_a_join_qr(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    deal(app, game, STANDARD_HANDS)
    play(app, game, 0, {"type": "draw", "card": "Romance"}, {"type": "play", "card": "Physical Kids"},
         {"type": "summon", "card": "Quentin", "to": "zone"}, {"type": "score", "trait": "Student"})
    response = client.get(f"/g/{game['id']}")
    page = shown(response)
    assert response.status_code == 200
    assert "Ann's zone" in page and "Ben's zone" in page and "Cat's zone" in page
    assert 'href="/c/fillory/quentin"' in page and 'href="/c/fillory/physical-kids"' in page
    assert "Neutral zone <span class=\"count\">(12)</span>" in page
    assert "Student ×2: 4" in page and "= 4: 4" not in page  # the score breakdown's cause, its points once
    assert "Ann scored the trait Student" in page
    assert "Physical Kids" in page and "Golem" not in page  # hands stay secret on the table
    assert qr_text(page) == f"http://localhost/j/{game['join_code']}"


def test_table_live_part_carries_the_version(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    play(app, game, 1, {"type": "draw", "card": "Golem"})
    response = client.get(f"/g/{game['id']}/live")
    assert response.status_code == 200
    assert response.headers["X-Game-Version"] == "1"
    assert response.headers["Cache-Control"] == "no-store"
    assert "<html" not in shown(response)
    assert "Ben drew a card" in shown(response)


def test_unknown_game_pages_are_404_pages(client: FlaskClient) -> None:
    for path in ("/g/nope", "/g/nope/live", "/g/nope/seat/0", "/g/nope/seat/zero"):
        response = client.get(path)
        assert response.status_code == 404, path
        page = shown(response)
        assert "<h1" in page and "Traceback" not in page


def test_seat_page_needs_that_seats_token(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    response = client.get(f"/g/{game['id']}/seat/1")
    assert response.status_code == 403
    assert (f"This phone does not hold Ben's seat. Join the game with its code {game['join_code']}"
            in shown(response))
    sit(client, game, 0)
    assert client.get(f"/g/{game['id']}/seat/1").status_code == 403
    assert client.get(f"/g/{game['id']}/seat/1/live").status_code == 403
    assert client.get(f"/g/{game['id']}/seat/5").status_code == 404
    page = client.get(f"/g/{game['id']}/seat/0")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    # the seat's scripts send moves with its HttpOnly cookie and the page's CSRF token: no copy of the token
    assert game["seats"][0]["token"] not in shown(page) and 'data-csrf="' in shown(page)


def test_seat_page_shows_my_hand_only_and_labelled_forms(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    deal(app, game, STANDARD_HANDS)
    play(app, game, 0, {"type": "draw", "card": "Romance"}, {"type": "play", "card": "Romance"},
         {"type": "decline"})
    sit(client, game, 0)
    page = shown(client.get(f"/g/{game['id']}/seat/0/live"))
    hand = page.split('id="hand-title"')[1].split("</section>")[0]
    assert "Time Loop" in hand and "Magic Missile" in hand and "Golem" not in hand
    for form_id in ('id="f-trick"', 'id="f-score"', 'id="f-end"', 'id="f-undo"'):
        assert form_id in page
    assert unlabelled(page) == []
    cards = {o["value"]: o for o in compact_options(page, "card", "f-trick")}
    traits = {o["value"]: o for o in compact_options(page, "trait", "f-trick")}
    assert {"magic-missile", "time-loop"} <= set(cards) and "romance" not in cards  # the played card left the hand
    assert "magic-missile" in traits["Spell"]["deps"]["when"]["card"] and "time-loop" in traits["Time"]["deps"]["when"]["card"]


def test_waiting_seat_gets_no_move_forms(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    deal(app, game, STANDARD_HANDS)
    sit(client, game, 1)
    page = shown(client.get(f"/g/{game['id']}/seat/1/live"))
    assert "Ann's turn (draw step). Your turn comes later." in page
    # no move form; only the undo every seat has (any seat may take back the last move)
    assert re.findall(r'<form class="move[^"]*" id="([\w-]+)"', page) == ["f-undo"]


# -- card pages ---------------------------------------------------------------------------------

@pytest.mark.parametrize("card", FILLORY.cards, ids=lambda card: card.id)
def test_ability_segments_read_as_the_ability_sentence(card: Any) -> None:
    segments = ability_segments(FILLORY, card)
    assert "".join(s.text for s in segments) == FILLORY.ability_text(card)
    for segment in segments:
        if segment.kind == "card":
            assert FILLORY.card(segment.target).name == segment.text
        elif segment.kind == "trait":
            assert FILLORY.trait(segment.target).name == segment.text


def test_card_page_links_targets_rules_and_namers(client: FlaskClient) -> None:
    response = client.get("/c/fillory/QUENTIN")
    page = shown(response)
    assert response.status_code == 200
    assert "<h1 id=\"card-title\">Quentin</h1>" in page and "card 1 of 110" in page
    for target in ("julia", "alice", "penny", "elliot"):
        assert f'href="/c/fillory/{target}"' in page
    for rule in ("fillory.summon", "fillory.ability.target", "fillory.trick.character", "fillory.trick.fillory",
                 "fillory.score.no-character", "fillory.setup.neutral"):
        assert f'href="/rules/fillory#{rule}"' in page
    assert "fillory.banish" not in page
    assert "Cards that name Quentin" in page and 'href="/c/fillory/arcane-sigil"' in page


def test_card_page_shows_the_rulebook_notes(client: FlaskClient) -> None:
    page = shown(client.get("/c/fillory/mercenaries"))
    assert "printed “Creatures”, read as “Creature”" in page
    assert 'href="/rules?q=Creature&game=fillory"' in page


def test_card_rules_and_namers_come_from_the_data() -> None:
    death = FILLORY.card("Death")
    assert [r.id for r in card_rules(FILLORY, death)][:4] == ["fillory.action.play", "fillory.ability.when",
                                                              "fillory.ability.target", "fillory.banish"]
    assert ("fillory.trick.threat" in [r.id for r in card_rules(FILLORY, death)])
    knife_namers = [(card.name, action) for card, action in named_by(FILLORY, FILLORY.card("The Beast"))]
    assert ("Moonstone Knife", "banish") in knife_namers and ("Stop Time", "summon") in knife_namers


@pytest.mark.parametrize("path, sentence", [
    ("/c/fillory/no-such-card", "Magicians of Fillory has no card 'no-such-card'."),
    ("/c/chess/pawn", "There is no game called 'chess'."),
])
def test_unknown_card_or_game_is_a_404_page(client: FlaskClient, path: str, sentence: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert sentence in shown(response)


# -- rules search -------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_each_game_rules_page_anchors_every_rule_entry(client: FlaskClient, game: str) -> None:
    page = shown(client.get(f"/rules/{game}"))
    parser = Inputs()
    parser.feed(page)
    assert {rule.id for rule in content(game).rules} <= set(parser.ids)
    assert unlabelled(page) == []
    # each entry says whether it is ours where the rulebook is silent (the pages showed no provenance)
    for rule in content(game).rules:
        entry = re.search(rf'<li id="{re.escape(rule.id)}".*?</li>', page, re.S)
        assert entry is not None
        assert ('<span class="tag">authored</span>' in entry.group(0)) == (rule.provenance == "authored"), rule.id
        assert (f"Our reading: {rule.reading}." in entry.group(0)) == bool(rule.reading), rule.id


def test_rules_page_links_every_game_and_stays_light(client: FlaskClient) -> None:
    response = client.get("/rules")
    page = shown(response)
    for game in GAMES:
        assert f'href="/rules/{game}"' in page and f"({len(content(game).rules)} rules)" in page
    assert len(response.data) < 20_000
    assert client.get("/rules?game=fillory").headers["Location"] == "/rules/fillory"
    assert client.get("/rules/chess").status_code == 404


def test_rule_links_go_to_the_rule_list_of_their_game(app: Flask) -> None:
    from companion.web.lookup import rule_url

    with app.test_request_context():
        for game in GAMES:
            for rule in content(game).rules:
                assert rule_url(rule.id) == f"/rules/{game}#{rule.id}"


def test_rules_search_lists_rules_and_cards(client: FlaskClient) -> None:
    page = shown(client.get("/rules?q=banish&game=fillory"))
    results = page.split('id="results-title"')[1].split("</section>")[0]
    assert 'href="/rules/fillory#fillory.banish"' in results
    assert 'href="/c/fillory/' in results
    assert "<mark>" in results


def test_rules_search_for_an_unknown_game_is_a_400_page(client: FlaskClient) -> None:
    response = client.get("/rules?q=x&game=chess")
    assert response.status_code == 400
    assert f"Unknown game 'chess'. Pick one of: {', '.join(GAMES)}." in shown(response)


def test_pages_render_every_step_of_a_whole_game_and_the_winner(app: Flask, client: FlaskClient) -> None:
    """A seeded random game played through the store: the acting phone's page renders at every step."""
    game = new_game(app)
    for seat in range(3):
        sit(client, game, seat)
    rng = random.Random(1)
    store = store_of(app)
    moves = 0
    while True:
        _, state = store.current(game["id"])
        if state.phase == "over":
            break
        seat = rng.choice(fillory.acting_seats(state))
        part = client.get(f"/g/{game['id']}/seat/{seat}/live")
        assert part.status_code == 200
        if moves % 15 == 0:
            assert unlabelled(shown(part)) == []
        play(app, game, seat, fillory.random_legal_move(state, seat, rng))
        moves += 1
    winner = state.players[state.winner]
    table = shown(client.get(f"/g/{game['id']}"))
    assert f"<strong>{winner}</strong> wins with {state.vp(state.winner)} VP!" in table
    seat_page = shown(client.get(f"/g/{game['id']}/seat/0/live"))
    assert f"The game is over: {winner} won." in seat_page
    assert 'class="move"' not in seat_page
    assert moves > 100


def test_transform_with_no_two_places_to_swap_says_it_would_do_nothing(app: Flask, client: FlaskClient) -> None:
    # every Character starts in the neutral zone: one place, so Transform has nothing to swap
    game = new_game(app, ("Ann", "Ben"))
    deal(app, game, {0: ("Flight of Geese", "Time Loop", "Magic Missile"), 1: ("Golem", "Cocaine", "Mentors")})
    play(app, game, 0, {"type": "draw", "card": "Romance"}, {"type": "play", "card": "Romance"},
         {"type": "decline"})
    sit(client, game, 0)
    page = shown(client.get(f"/g/{game['id']}/seat/0/live"))
    assert "No two Characters in different places are where this trick reaches; it would do nothing." in page
    assert not compact_options(page, "targets")
    # and the move the form then sends (no targets) is accepted: the card is discarded, nothing swaps
    play(app, game, 0, {"type": "trick", "card": "Flight of Geese", "trait": "Transform"})
    state = shown(client.get(f"/api/games/{game['id']}"))
    assert '"flight-of-geese"' in state.split('"discard"')[1].split("]")[0]


def test_a_game_at_a_dead_end_says_so_on_the_table(app: Flask, client: FlaskClient) -> None:
    """Seeded random two-player games until one reaches the dead end; its moves replayed through the store."""
    rules = rules_for("fillory")
    for seed in range(120):
        rng = random.Random(seed)
        state, moves = rules.setup(["Ann", "Ben"], {}, rng), []
        for _ in range(3000):
            seats = rules.acting_seats(state)
            if not seats or rules.stalled(state):
                break
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            move = rules.random_legal_move(state, seat, rng) or {}
            state = rules.apply(state, seat, move)
            moves.append((seat, move))
        if rules.stalled(state):
            break
    else:
        pytest.fail("no seeded game reached the dead end")
    game = new_game(app, ("Ann", "Ben"))
    for seat, move in moves:
        play(app, game, seat, move)
    page = shown(client.get(f"/g/{game['id']}/live"))
    assert "Dead end:" in page and "nobody can reach 100 VP" in page
    leader = max(rules.score(state), key=lambda row: row["total"])
    assert f"{leader['name']} leads with {leader['total']} VP" in page


def test_pages_and_assets_travel_compressed_but_the_json_api_does_not(client: FlaskClient) -> None:
    import gzip

    plain = client.get("/rules/fillory").get_data()
    packed = client.get("/rules/fillory", headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.get_data()) == plain and len(packed.get_data()) < len(plain) / 2
    style = client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip, deflate"})
    assert style.headers["Content-Encoding"] == "gzip"
    source = (STATIC_DIR / "css" / "app.css").read_text(encoding="utf-8")
    sent = gzip.decompress(style.get_data()).decode("utf-8")
    plain_style = client.get("/static/css/app.css")
    assert sent == plain_style.get_data(as_text=True)  # the same minified sheet either way
    plain_style.close()
    assert "/*" in source and "/*" not in sent and len(sent) < 0.9 * len(source)  # comments and indentation gone

    def bare(css: str) -> str:  # no comments, no white space, no ";" closing a block
        return re.sub(r"\s+", "", re.sub(r"/\*.*?\*/", "", css, flags=re.S)).replace(";}", "}")
    assert bare(source) == bare(sent)  # every rule kept
    style.close()
    again = client.get("/static/css/app.css", headers={"If-None-Match": style.headers["ETag"],
                                                       "Accept-Encoding": "gzip, deflate"})
    assert again.status_code == 304  # the browser keeps its copy
    again.close()
    created = client.post("/api/games", json={"game": "fillory", "players": ["Ann", "Ben"]},
                          headers={"Accept-Encoding": "gzip, deflate"})
    assert "Content-Encoding" not in created.headers and created.get_json()["id"]


def test_pages_are_sent_without_the_templates_indentation(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    table = client.get(f"/g/{game['id']}").get_data(as_text=True)
    seat = seat_page(client, game, 0)  # the deal: every card to pick from
    for page in (table, seat, client.get("/").get_data(as_text=True)):
        assert "\n" in page and not re.search(r"\n[ \t]", page)
    # was 38 KB with the indentation; the join QR's size follows the random join code (2.3-2.5 KB), so it
    # is left out of the weight
    without_qr = re.sub(r'<svg class="qr".*?</svg>', "", seat, flags=re.S)
    assert len(compact_options(seat, "card")) >= 90 and len(without_qr) < 20_000


def test_a_finished_game_invites_nobody(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(app)
    sit(client, game, 0)
    assert "Join this game" in shown(client.get(f"/g/{game['id']}")) and 'class="qr"' in seat_page(client, game, 0)
    rules = rules_for("fillory")
    monkeypatch.setattr(rules, "outcome", lambda state: Outcome(over=True, winner=0, winners=(0,), reason="Ann won"))
    assert "Join this game" not in shown(client.get(f"/g/{game['id']}"))
    assert 'class="qr"' not in seat_page(client, game, 0)


def test_a_range_of_a_minified_file_is_answered_whole(client: FlaskClient) -> None:
    whole = client.get("/static/js/live.js")
    ranged = client.get("/static/js/live.js", headers={"Range": "bytes=0-99"})
    assert ranged.status_code == 200 and ranged.get_data() == whole.get_data()  # the offsets on disk differ
    assert "Accept-Ranges" not in whole.headers
    icon = client.get("/static/favicon.svg", headers={"Range": "bytes=0-9"})
    assert icon.status_code == 206 and len(icon.get_data()) == 10  # files sent as they are keep their ranges
    for response in (whole, ranged, icon):
        response.close()


def test_your_games_lists_only_the_seats_this_phone_really_holds(app: Flask, client: FlaskClient) -> None:
    older = new_game(app)
    time.sleep(0.005)  # creation times are kept to the millisecond: "newest first" needs two of them
    newer, other = new_game(app, ("Dee", "Eve")), new_game(app, ("Zed", "Yan"))
    sit(client, older, 1)
    sit(client, newer, 0)
    client.set_cookie(token_cookie(other["id"], 0), other["seats"][1]["token"])  # another seat's token
    client.set_cookie(token_cookie("no-such-game", 0), "x" * 32)
    client.set_cookie("seat_" + older["id"] + "_99", older["seats"][0]["token"])
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-store" and "Cookie" in response.headers["Vary"]
    page = response.get_data(as_text=True)
    links = re.findall(r'<a class="my-game" href="([^"]+)"', page)
    assert links == [f"/g/{newer['id']}/seat/0", f"/g/{older['id']}/seat/1"]   # newest first
    assert "Magicians of Fillory <span class=\"sub\">as Ben</span>" in page and "with Ann, Cat" in page
    assert other["id"] not in page and "Zed" not in page

    stranger = app.test_client()   # another phone: no cookies, no list
    assert 'id="your-games"' not in stranger.get("/").get_data(as_text=True)


def test_the_join_link_focuses_the_code_field_and_new_game_forms_are_folded(client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)
    joining = client.get("/join").get_data(as_text=True)
    assert " autofocus" not in home and 'placeholder="ABC234" autofocus>' in joining
    assert "<details class=\"new-game\" id=" in home and "<details class=\"new-game\" open" not in home
    assert home.index('id="join"') < home.index('id="new-title"')
