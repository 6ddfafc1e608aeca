"""Barony: Sorcery's phone pages through Flask's test client: the new-game options, the table and seat parts,
forms that offer only what the rules allow now, escaping, labels and page weight."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_pages import (
    STATIC_DIR,
    csrf_token,
    sent_size,
    shown,
    sit,
    store_of,
    unlabelled,
)

from cardgen.catalog import content
from companion.rules.barony_sorcery import game as rules
from companion.web.games import pages_for
from tests.test_pages import PAGE_BUDGET

GAME = content("barony-sorcery")
SPELLS = ["velocity", "teleport", "tornado", "charm", "abundance"]
PLACES = ["standing-stones", "whispering-well", "ruined-tower", "fairy-ring", "forgotten-shrine"]
MAX_PAGE_BYTES = PAGE_BUDGET


def new_game(app: Flask, players: tuple[str, ...] = ("Ann", "Ben", "Cat"),
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    chosen = {"spells": SPELLS, "locations": PLACES[:rules.MYSTERIOUS_BY_PLAYERS[len(players)]]}
    return store_of(app).create_game("barony-sorcery", list(players), chosen if options is None else options)


def play(app: Flask, game: dict[str, Any], seat: int, *moves: dict[str, Any]) -> None:
    store = store_of(app)
    for move in moves:
        version = store.version(game["id"])
        store.apply_move(game["id"], seat, version, f"t-{version}", move)


def view(app: Flask, game: dict[str, Any]) -> dict[str, Any]:
    _, state = store_of(app).current(game["id"])
    return rules.view(state, None)


def text(page: str) -> str:
    """What a reader sees: tags dropped, white space collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def form_html(page: str, form_id: str) -> str:
    found = re.search(rf'<form[^>]*id="{form_id}".*?</form>', page, re.S)
    assert found, f"no form {form_id}"
    return found.group(0)


def radio_values(page: str, form_id: str, name: str) -> list[str]:
    return re.findall(rf'name="{re.escape(name)}" value="([^"]+)"', form_html(page, form_id))


def confirm_all(app: Flask, game: dict[str, Any], seats: int) -> None:
    for seat in range(seats):
        play(app, game, seat, {"type": "confirm_totals"})


def post_new(client: FlaskClient, **fields: Any) -> Any:
    data = {"csrf_token": csrf_token(client), "game": "barony-sorcery", "player": ["Ann", "Ben", "Cat", "", ""],
            **fields}
    return client.post("/new", data=data)


# -- new game -------------------------------------------------------------------------------------

def test_home_offers_barony_without_a_first_player_and_with_its_checklist(client: FlaskClient) -> None:
    page = shown(client.get("/"))
    form = form_html(page, "new-barony-sorcery")
    assert 'name="first"' not in form  # the companion does not referee Barony's turns
    assert form.count('name="player"') == GAME.max_players
    assert sorted(re.findall(r'name="bs-spell" value="([^"]+)"', form)) == sorted(s.id for s in GAME.spells)
    assert sorted(re.findall(r'name="bs-location" value="([^"]+)"', form)) == sorted(loc.id for loc in GAME.locations)
    rows = re.findall(r'<tr><th scope="row">(\d)</th><td>(\d+)</td><td>(\d)</td><td>(\d+)', form)
    assert rows == [("2", "18", "3", "15"), ("3", "27", "4", "23"), ("4", "36", "5", "31"), ("5", "45", "5", "36")]
    assert "at least two spaces apart" in form and "No starting city next to a Mysterious location" in form
    assert unlabelled(page) == []


def test_new_game_with_the_spells_and_locations_the_table_chose(app: Flask, client: FlaskClient) -> None:
    response = post_new(client, **{"bs-spells": "chosen", "bs-spell": ["charm", "velocity", "portal", "sanctuary",
                                                                         "tornado"],
                                   "bs-locations": "chosen", "bs-location": ["fairy-ring", "ruined-tower",
                                                                             "standing-stones", "forgotten-shrine"]})
    assert response.status_code == 303, shown(response)
    game_id = re.search(r"/g/([0-9a-f]+)/seat/0", response.headers["Location"]).group(1)
    _, state = store_of(app).current(game_id)
    assert state.spells == ("velocity", "tornado", "charm", "portal", "sanctuary")  # card order
    assert state.locations == ("standing-stones", "ruined-tower", "fairy-ring", "forgotten-shrine")
    assert store_of(app).info(game_id)["players"] == ["Ann", "Ben", "Cat"]


def test_new_game_drawn_at_random_takes_5_spells_and_the_locations_for_the_player_count(
        app: Flask, client: FlaskClient) -> None:
    response = post_new(client, **{"player": ["Ann", "Ben", "", "", ""]})
    assert response.status_code == 303
    game_id = re.search(r"/g/([0-9a-f]+)/seat/0", response.headers["Location"]).group(1)
    _, state = store_of(app).current(game_id)
    assert len(state.spells) == 5 and len(set(state.spells)) == 5
    assert len(state.locations) == 3


@pytest.mark.parametrize(("fields", "sentence"), [
    ({"bs-spells": "chosen", "bs-spell": ["velocity", "teleport", "charm", "abundance"]},
     "Tick the 5 spells your table drew: you ticked 4. Or let the companion draw them at random."),
    ({"bs-spells": "chosen", "bs-spell": ["velocity", "teleport", "charm", "abundance", "nonsense"]},
     "Tick the 5 spells your table drew: you ticked 4."),
    ({"bs-spells": "chosen", "bs-spell": ["velocity", "velocity", "charm", "abundance", "portal"]},
     "Tick the 5 spells your table drew: you ticked 4."),
    ({"bs-locations": "chosen", "bs-location": ["fairy-ring", "ruined-tower", "standing-stones"]},
     "With 3 players the board holds 4 tiles with a Mysterious location: you ticked 3. "
     "Or let the companion pick them."),
    ({"bs-spells": "some"}, "Pick whether the companion draws the spells or you tick the ones your table has."),
    ({"player": ["Ann", "", "", "", ""]}, "Cannot start this game: This game takes 2 to 5 players, not 1."),
])
def test_bad_choices_give_a_400_page_with_a_sentence(app: Flask, client: FlaskClient, fields: dict[str, Any],
                                                     sentence: str) -> None:
    response = post_new(client, **fields)
    page = shown(response)
    assert response.status_code == 400
    error = re.search(r'id="barony-sorcery-form-error"><p>(.*?)</p>', page, re.S)
    assert error and sentence in error.group(1)
    assert "Traceback" not in page
    assert store_of(app).game_id_for_code("AAAAAA") is None


def test_a_refused_form_keeps_what_was_ticked(client: FlaskClient) -> None:
    page = shown(post_new(client, **{"bs-spells": "chosen", "bs-spell": ["velocity", "charm"]}))
    form = form_html(page, "new-barony-sorcery")
    assert re.search(r'name="bs-spells" value="chosen" checked', form)
    assert sorted(re.findall(r'name="bs-spell" value="([a-z]+)" checked', form)) == ["charm", "velocity"]
    assert 'value="Ann"' in form and 'value="Cat"' in form


# -- table ----------------------------------------------------------------------------------------

def test_table_shows_spells_locations_tokens_and_supply_from_the_view(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    play(app, game, 0, {"type": "explore", "location": "ruined-tower"})
    play(app, game, 2, {"type": "explore", "location": "ruined-tower"})
    play(app, game, 0, {"type": "cast", "spells": ["Velocity", "Teleport"]})
    page = shown(client.get(f"/g/{game['id']}"))
    facts = view(app, game)
    spells = re.findall(r'<li class="bs-spell bs-(\w+)">.*?class="bs-spell-name">(\w+)</a>.*?</li>', page, re.S)
    assert spells == [(s["category"], s["name"]) for s in facts["spells"]]
    words = text(page)
    assert "Movement (cyan, winged boot)" in words and "Recruitment (maroon, banner)" in words
    assert "Construction (orange, tower) · costs 2 Magic tokens" not in words  # no Construction spell costs 2 here
    assert "Movement (cyan, winged boot) · costs 2 Magic tokens" in words  # Tornado
    tower = re.search(r'id="place-ruined-tower">(.*?)(?=<li class="bs-place|</ul>)', page, re.S)
    assert tower
    assert re.findall(r"<li>(\w+): (\w+) <span class=\"tag\">\+(\d) Magic", tower.group(0)) == [
        ("1st", "Ann", "3"), ("2nd", "Cat", "2")]
    assert "Next visitor: 1 Magic token." in tower.group(0)
    assert facts["supply"] == 27 and "Supply: <strong>27</strong> of 30 Magic tokens" in page
    ann = text(re.search(r'<span class="player-name">Ann</span>.*?</li>', page, re.S).group(0))
    assert "1 Magic token ·" in ann and "4 Control tokens left" in ann and "3 from Control tokens" in ann
    assert "In play:" in page
    assert "27 Territory tiles for 3 players" in page and "tile 3 (Ruined Tower)" in page
    assert "Ann cast Velocity and Teleport (2 Magic tokens)." in page
    live = client.get(f"/g/{game['id']}/live")
    assert live.headers["X-Game-Version"] == str(store_of(app).version(game["id"]))
    assert 'id="place-ruined-tower"' in shown(live)


def test_a_full_location_and_the_winner_with_the_breakdown(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    for seat in (1, 0, 2):
        play(app, game, seat, {"type": "explore", "location": "fairy-ring"})
    play(app, game, 1, {"type": "explore", "location": "standing-stones"})
    play(app, game, 2, {"type": "end_game"})
    page = shown(client.get(f"/g/{game['id']}"))
    assert "Full: 3 Control tokens, no more Magic." in page
    assert "Waiting for the base-game points of\nAnn, Ben, Cat." in page  # the indentation taken out
    play(app, game, 0, {"type": "base_points", "points": 49})
    play(app, game, 1, {"type": "base_points", "points": 47})
    play(app, game, 2, {"type": "base_points", "points": 12})
    page = shown(client.get(f"/g/{game['id']}"))
    assert "Checking the totals:" in page and 'id="verdict"' not in page  # the table reviews them first
    assert page.count("has not confirmed yet") == 3
    play(app, game, 1, {"type": "confirm_totals"})
    page = shown(client.get(f"/g/{game['id']}"))
    assert page.count("has not confirmed yet") == 2 and page.count("confirmed the totals") == 1
    play(app, game, 0, {"type": "confirm_totals"})
    play(app, game, 2, {"type": "confirm_totals"})
    page = shown(client.get(f"/g/{game['id']}"))
    assert re.search(r'<strong id="verdict">Ben wins with 53 points!</strong>', page)
    ben = re.search(r'<li class="player-score won">\s*<div class="player-head">\s*<span class="player-name">Ben</span>'
                    r'.*?</li>\s*</ul>', page, re.S)
    assert ben, "Ben's row is marked as the winner"
    assert re.findall(r"<li>([^<]+): (\d+)</li>", ben.group(0)) == [
        ("Base game (entered)", "47"), ("Control token on the Standing Stones", "3"),
        ("Control token on the Fairy Ring", "3")]
    assert "<strong>Total: 53</strong>" in ben.group(0)


def test_a_tie_is_a_shared_win(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, {"type": "end_game"})
    play(app, game, 0, {"type": "base_points", "points": 30})
    play(app, game, 1, {"type": "base_points", "points": 30})
    confirm_all(app, game, 2)
    page = shown(client.get(f"/g/{game['id']}"))
    assert "Ann and Ben share the win with 30 points each." in page
    assert page.count('class="player-score won"') == 2


# -- seat -----------------------------------------------------------------------------------------

def test_seat_offers_only_the_locations_it_may_still_explore_with_their_reward(app: Flask,
                                                                                client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben", "Cat", "Dee"))
    for seat in (1, 2, 3):
        play(app, game, seat, {"type": "explore", "location": "fairy-ring"})  # full
    play(app, game, 0, {"type": "explore", "location": "standing-stones"})
    play(app, game, 1, {"type": "explore", "location": "ruined-tower"})
    play(app, game, 1, {"type": "cast", "spells": ["velocity"]})
    sit(client, game, 0)
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    explore = form_html(page, "f-explore")
    assert radio_values(page, "f-explore", "location") == ["whispering-well", "ruined-tower", "forgotten-shrine"]
    offered = dict(re.findall(r'value="([a-z-]+)" data-also=\'\{"reward": (\d)\}\'>', explore))
    assert offered == {"whispering-well": "3", "ruined-tower": "2", "forgotten-shrine": "3"}
    assert "<span>Ruined Tower<small>+2 Magic tokens · you arrive 2nd · tile 3" in explore
    cast = form_html(page, "f-cast")
    # Ann's 3 Magic tokens pay for every spell in play; each is a printed card, named (never its id)
    assert re.findall(r'name="spells\[\]" value="(\w+)"><span>(\w+)<small>(\d) Magic', cast) == [
        (s, GAME.spell(s).name, str(GAME.spell(s).cost)) for s in SPELLS]
    assert "You have 3 Magic tokens" in cast and 'data-max="2"' in cast  # two spells of one category at most
    assert 'id="f-end"' in page and 'id="f-points"' not in page
    assert 'checked' not in form_html(page, "f-end") + explore + cast  # nothing preselected
    advice = [a["text"] for a in rules.advice(store_of(app).current(game["id"])[1], 0)]
    shown_advice = re.findall(r"<li>([^<]+)</li>", re.search(r'<ol class="bs-advice".*?</ol>', page, re.S).group(0))
    assert shown_advice == advice[:10]
    assert 'id="f-undo"' in page  # any seat may take back the last move (issue 12)
    assert unlabelled(page) == []


def test_the_cast_form_offers_only_the_spells_the_seat_can_pay_for(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, {"type": "explore", "location": "standing-stones"})
    play(app, game, 0, {"type": "cast", "spells": ["tornado"]})   # 3 - 2: one token left
    sit(client, game, 0)
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    assert radio_values(page, "f-cast", "spells[]") == ["velocity", "teleport", "charm", "abundance"]
    sit(client, game, 1)
    page = shown(client.get(f"/g/{game['id']}/seat/1"))
    assert 'id="f-cast"' not in page and 'id="f-explore"' in page  # no Magic token: nothing to cast


def test_a_seat_with_every_location_visited_or_full_gets_no_explore_choice(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben"))
    for place in PLACES[:3]:
        play(app, game, 0, {"type": "explore", "location": place, "reward": 3})
    sit(client, game, 0)
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    assert 'name="location"' not in page
    assert "No location is left for you to explore" in page
    assert "Last move: Ann explored the Ruined Tower, placed a Control token and took 3 Magic tokens." in page


def test_with_two_players_a_location_both_visited_offers_no_reward(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, {"type": "explore", "location": "ruined-tower"})
    play(app, game, 1, {"type": "explore", "location": "ruined-tower"})
    facts = view(app, game)["locations"][2]
    assert facts["id"] == "ruined-tower" and facts["next_reward"] == 0 and facts["everyone_visited"]
    page = shown(client.get(f"/g/{game['id']}"))
    tower = re.search(r'id="place-ruined-tower">(.*?)(?=<li class="bs-place|</ul>)', page, re.S).group(0)
    assert "Next visitor" not in tower and "Every player has a Control token here" in tower


def test_scoring_then_the_review_of_every_total_then_nothing(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, {"type": "explore", "location": "ruined-tower"})
    play(app, game, 1, {"type": "end_game"})
    sit(client, game, 0)
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    assert 'id="f-explore"' not in page and 'id="f-cast"' not in page and 'id="f-end"' not in page
    points = form_html(page, "f-points")
    assert 'data-move="base_points"' in points and 'name="points" data-type="int"' in points
    assert "Enter my points" in points and 'value=' not in points and unlabelled(page) == []
    play(app, game, 0, {"type": "base_points", "points": 21})
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    assert 'value="21"' in form_html(page, "f-points") and "Correct my points" in page
    assert "Waiting for Ben; you may correct yours until then." in page
    play(app, game, 1, {"type": "base_points", "points": 2})
    # the review: every phone shows every total; nothing ends until every seat confirms
    for seat in (0, 1):
        sit(client, game, seat)
        page = shown(client.get(f"/g/{game['id']}/seat/{seat}"))
        review = re.search(r'<table class="bs-review">.*?</table>', page, re.S).group(0)
        rows = [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
                for row in re.findall(r'<tr id="review-\d">(.*?)</tr>', review)]
        assert rows == [["Ann", "21", "3", "24", "no"], ["Ben", "2", "0", "2", "no"]]
        confirm = form_html(page, "f-confirm")
        assert "These totals are right" in confirm and "irreversible" in confirm
        assert radio_values(page, "f-send-back", "seat") == ["0", "1"]
        assert "checked" not in form_html(page, "f-send-back")
    play(app, game, 0, {"type": "send_back", "seat": 1})  # Ben meant 20, not 2
    sit(client, game, 1)
    page = shown(client.get(f"/g/{game['id']}/seat/1"))
    assert "enter your base-game points" in page and 'id="f-confirm"' not in page
    assert "Ann sent Ben's base-game points back to be entered again." in page
    play(app, game, 1, {"type": "base_points", "points": 20})
    play(app, game, 1, {"type": "confirm_totals"})
    page = shown(client.get(f"/g/{game['id']}/seat/1"))
    assert 'id="f-confirm"' not in page and "You confirmed the totals. Waiting for Ann to confirm." in page
    sit(client, game, 0)
    assert 'id="f-confirm"' in shown(client.get(f"/g/{game['id']}/seat/0"))
    play(app, game, 0, {"type": "confirm_totals"})
    page = shown(client.get(f"/g/{game['id']}/seat/0/live"))
    assert "<form" not in page.replace('<form class="move undo-form"', "")
    assert "The game is over" in page and "Ann wins with 24 points!" in page


def test_names_are_escaped_on_table_and_seat(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ("<b>Ann</b>", "Ben & Co"))
    store_of(app).release_seat(game["id"], 1)   # Ben has not joined: the seat page invites him by name
    play(app, game, 0, {"type": "explore", "location": "standing-stones"})
    sit(client, game, 0)
    for path in (f"/g/{game['id']}", f"/g/{game['id']}/seat/0"):
        raw = client.get(path).get_data(as_text=True)
        assert "<b>Ann</b>" not in raw and "&lt;b&gt;Ann&lt;/b&gt;" in raw
        assert "Ben & Co" not in raw and "Ben &amp; Co" in raw


def loaded_assets(page: str) -> list[str]:
    """The style sheets and scripts a page loads from this server (as paths under static/)."""
    found = re.findall(r'<(?:link[^>]*href|script[^>]*src)="/static/([^"?]+)', page)
    return [path for path in found if (STATIC_DIR / path).suffix in (".css", ".js")]


def test_pages_stay_light_with_their_assets_and_labelled(app: Flask, client: FlaskClient) -> None:
    """HTML plus every style sheet and script the page loads, as served (minified), in heavy states: a seat of
    five in play with every spell castable, a seat in the review of five totals, and the table."""
    game = new_game(app, ("Ann", "Ben", "Cat", "Dee", "Eve"), {})
    for seat in range(5):
        play(app, game, seat, {"type": "explore", "location": view(app, game)["locations"][seat]["id"]})
        play(app, game, seat, {"type": "explore", "location": view(app, game)["locations"][(seat + 1) % 5]["id"]})
    sit(client, game, 0)
    weights = {}
    paths = ["/", f"/g/{game['id']}", f"/g/{game['id']}/seat/0"]
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        weights[path] = len(response.data) + sent_size(*loaded_assets(page))
        assert unlabelled(shown(response)) == []
        assert not re.search(r'(src|href)="https?://', page)  # nothing external
    seat = client.get(f"/g/{game['id']}/seat/0").get_data(as_text=True)
    assert {"js/choices.js", "css/choices.css", "css/barony_sorcery.css"} <= set(loaded_assets(seat))
    assert "js/forms.js" not in loaded_assets(seat)  # Barony's forms are the shared renderer's
    play(app, game, 0, {"type": "end_game"})
    for seat_no in range(5):
        play(app, game, seat_no, {"type": "base_points", "points": 40 + seat_no})
    review = client.get(f"/g/{game['id']}/seat/0")
    assert 'id="f-confirm"' in review.get_data(as_text=True)
    weights["review"] = len(review.data) + sent_size(*loaded_assets(review.get_data(as_text=True)))
    assert all(weight < MAX_PAGE_BYTES for weight in weights.values()), weights


def test_the_plugin_is_registered_without_a_first_player_question() -> None:
    pages = pages_for("barony-sorcery")
    assert pages.playable and not pages.asks_first_seat
    assert pages.table_template == "pages/barony_sorcery/_table_live.html"


def test_the_seat_that_moved_last_can_undo_and_the_location_is_offered_again(app: Flask,
                                                                             client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, {"type": "explore", "location": "ruined-tower"})
    sit(client, game, 0)
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    assert 'data-undo' in form_html(page, "f-undo") and "ruined-tower" not in radio_values(page, "f-explore",
                                                                                           "location")
    bearer = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    answer = client.post(f"/api/games/{game['id']}/undo", headers=bearer,
                         json={"version": store_of(app).version(game["id"]), "action_id": "undo-1"})
    assert answer.status_code == 200, answer.get_json()
    page = shown(client.get(f"/g/{game['id']}/seat/0"))
    assert "ruined-tower" in radio_values(page, "f-explore", "location")
    assert view(app, game)["players"][0]["magic"] == 0


def test_no_phone_says_your_move_while_explorations_are_reported_then_those_waited_for_do(app: Flask) -> None:
    """The companion keeps no Barony turn order: while knights explore and spells are cast, every phone may
    report and none says "Your move" (issue 25: every phone did, all game long); once the base game ends, a
    phone says it while its points are missing, and in the review while its confirmation is."""
    game = new_game(app)

    def says(seat: int) -> bool:
        client = app.test_client()
        sit(client, game, seat)
        page = shown(client.get(f"/g/{game['id']}/seat/{seat}"))
        assert ('<h2 id="moves-title">Your move</h2>' in page) == ("data-your-move" in page)
        if "data-your-move" not in page and 'id="f-explore"' in page:
            assert '<h2 id="moves-title">Report a move</h2>' in page
        return "data-your-move" in page

    assert [says(s) for s in range(3)] == [False, False, False]
    play(app, game, 1, {"type": "explore", "location": "fairy-ring"})
    assert [says(s) for s in range(3)] == [False, False, False]
    play(app, game, 2, {"type": "end_game"})
    assert [says(s) for s in range(3)] == [True, True, True]
    play(app, game, 0, {"type": "base_points", "points": 40})
    assert [says(s) for s in range(3)] == [False, True, True]
    play(app, game, 1, {"type": "base_points", "points": 30})
    play(app, game, 2, {"type": "base_points", "points": 20})
    assert [says(s) for s in range(3)] == [True, True, True]  # the review: each confirms
    play(app, game, 2, {"type": "confirm_totals"})
    assert [says(s) for s in range(3)] == [True, True, False]
