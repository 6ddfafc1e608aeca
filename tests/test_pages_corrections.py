"""The corrections pages (issue 21): the whole history, paged and filtered; a move's choice form filled in with
what was reported; what a refused correction needs, shown in table words; another seat's phone told at once
with one tap to put its move back; actions on another seat asked first; and nothing a seat may not know."""

from __future__ import annotations

import json
import random
import re
from html import unescape as html_unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import GAMES
from companion.web import fix_pages
from tests.store_checks import (
    fillory_score_that_ends_sooner,
    jsmn_card_that_ends_sooner,
)
from tests.test_pages import (
    STANDARD_HANDS,
    deal,
    form,
    new_game,
    play,
    seat_page,
    shown,
    sit,
    store_of,
)

BARONY = {"locations": ["whispering-well", "ruined-tower", "fairy-ring"],
          "spells": ["velocity", "teleport", "charm", "illusion", "portal"]}


def barony(app: Flask) -> dict[str, Any]:
    game = store_of(app).create_game("barony-sorcery", ["Ann", "Ben"], BARONY)
    for seat, move in ((1, {"type": "explore", "location": "Ruined Tower", "reward": 3}),
                       (0, {"type": "explore", "location": "Whispering Well", "reward": 3}),
                       (1, {"type": "explore", "location": "Whispering Well", "reward": 2}),
                       (0, {"type": "explore", "location": "Fairy Ring", "reward": 3})):
        play(app, game, seat, move)
    return game


def page(client: FlaskClient, game: dict[str, Any], seat: int, path: str = "", **args: str) -> str:
    sit(client, game, seat)
    response = client.get(f"/g/{game['id']}/seat/{seat}/fix{path}", query_string=args)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    return shown(response)


def listed(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li class="history-move[^"]*" id="move-(\d+)"', html)]


def test_the_whole_history_is_paged_newest_first_and_filtered_by_player(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(app)
    deal(app, game, STANDARD_HANDS)                       # 9 moves: 1-3 Ann's, 4-6 Ben's, 7-9 Cat's
    monkeypatch.setattr(fix_pages, "PAGE_SIZE", 4)
    first = page(client, game, 0)
    assert listed(first) == [9, 8, 7, 6] and "Page 1 of 3" in first and "Older moves" in first
    assert "Every move (9)" in first
    assert listed(page(client, game, 0, page="3")) == [1]
    assert listed(page(client, game, 0, who="me")) == [3, 2, 1]
    assert listed(page(client, game, 0, who="1")) == [6, 5, 4]
    assert listed(page(client, game, 0, who="7", page="x")) == [9, 8, 7, 6]   # a bad filter or page: the first
    # digits that str.isdigit() calls digits but int() cannot read (superscripts, circled numbers): as bad
    assert listed(page(client, game, 0, who="²", page="①")) == [9, 8, 7, 6]
    assert listed(page(client, game, 0, page="٣")) == [1]                      # an Arabic-Indic 3 is a 3
    # Ann's own moves read in full for her; Ben's as the table sees them (a drawn card is his secret)
    assert "Ann drew a card (only you see: Physical Kids)" in page(client, game, 0, who="me")
    assert "Ben drew a card</p>" in page(client, game, 0, who="1") and "Golem" not in page(client, game, 0, who="1")


def test_a_move_is_offered_on_its_choice_form_filled_in_with_what_was_reported(app: Flask, client: FlaskClient) -> None:
    game = barony(app)
    html = page(client, game, 0, "/3")                    # Ben's exploration, as Ann's phone sees it
    prefill = re.search(r"data-prefill='([^']+)'", html)
    assert prefill and json.loads(prefill.group(1)) == {"type": "explore", "location": "whispering-well", "reward": 2}
    explore = form(html, "fix3-f-explore")               # the form Ben used then: the places he could still reach
    assert re.findall(r'name="location" value="([\w-]+)"', explore) == ["whispering-well", "fairy-ring"]
    assert 'type="text"' not in html and 'name="ingredients[]"' not in html
    assert "Change Ben's move 3?" in html                 # another's move: asked first
    # Ben's form on Ann's phone speaks of Ben, not of "you" (it read "A knight of yours…", "you arrive 2nd")
    assert "A knight of Ben's reached which Mysterious location?" in explore and "Ben arrives 2nd" in explore
    assert "Place Ben's Control token" in explore and not re.search(r"\b(you|your|yours|my)\b", explore, re.I)
    assert re.search(r'<details class="move-details" id="fix3-f-cast-details">', html)   # another kind of move
    mine = page(client, game, 0, "/2")
    assert "data-confirm=\"Change" not in mine


def test_another_seats_move_in_a_game_with_secrets_gets_no_form(app: Flask, client: FlaskClient) -> None:
    game = new_game(app)
    deal(app, game, STANDARD_HANDS)
    html = page(client, game, 0, "/4")                   # Ben's draw: its form would list Ben's hand
    assert 'data-choice' not in html and "Only Ben's phone can change this move" in html
    assert "Golem" not in html and "golem" not in html
    assert 'data-remove="4"' in html and "Ben's phone is told and can put it back" in html
    own = page(client, game, 0, "/1")
    assert 'data-choice' in own and '"card": "physical-kids"' in own


def test_a_refused_correction_shows_the_later_move_in_table_words_with_its_form(app: Flask, client: FlaskClient) -> None:
    game = barony(app)
    change = json.dumps({"move": {"type": "explore", "location": "fairy-ring", "reward": 3}})
    html = page(client, game, 0, "/2/misfit", change=change)
    assert "Ben's later move" in html and "Ben explored the Whispering Well" in html
    assert "no longer fits.</p>" in html                  # another's move: no reason (it may rest on a secret)
    assert "seq" not in re.sub(r"<[^>]+>", "", html) and "drop" not in re.sub(r"<[^>]+>", "", html)
    assert 'data-also="3"' in html and 'data-drop="3"' in html and "Change Ben's move too?" in html
    fixed = json.dumps({"move": {"type": "explore", "location": "fairy-ring", "reward": 3},
                        "also": [{"seq": 3, "move": {"type": "explore", "location": "whispering-well", "reward": 3}}]})
    again = page(client, game, 0, "/2/misfit", change=fixed)
    assert "your later move" in again and "Ann explored the Fairy Ring" in again
    assert "no longer fits. You already have a Control token on the Fairy Ring" in again  # her own: the reason
    dropped = json.dumps({"move": {"type": "explore", "location": "fairy-ring", "reward": 3}, "drop": [3, 4]})
    assert "now fits" in page(client, game, 0, "/2/misfit", change=dropped)
    sit(client, game, 0)
    for bad in ("", "[1]", '{"move": 3}', '{"move": null, "drop": 3}',
                '{"move": null, "also": [{"seq": Infinity, "move": {}}]}', '{"move": null, "drop": [NaN]}',
                '{"move": null, "insert": [{"before": 3, "seat": -Infinity, "move": {}}]}',
                '{"move": null, "also": [{"seq": 1e300, "move": {}}]}', "[" * 1300 + "]" * 1300):
        answer = client.get(f"/g/{game['id']}/seat/0/fix/2/misfit", query_string={"change": bad})
        assert answer.status_code == 400 and "&#39;change&#39;" in answer.get_data(as_text=True), bad[:60]
    assert store_of(app).version(game["id"]) == 4          # nothing written


def test_the_pages_need_the_seat(app: Flask, client: FlaskClient) -> None:
    game = barony(app)
    for path in ("", "/3", "/3/misfit?change=%7B%22move%22%3Anull%7D"):
        assert client.get(f"/g/{game['id']}/seat/0/fix{path}").status_code == 403
    sit(client, game, 0)
    assert client.get(f"/g/{game['id']}/seat/0/fix/99").status_code == 404


def test_the_other_phone_is_told_with_one_tap_to_put_it_back(app: Flask, client: FlaskClient) -> None:
    game = barony(app)
    store = store_of(app)
    store.undo(game["id"], 1, 4, "u1")                    # Ben takes back Ann's move 4
    ann = seat_page(client, game, 0)
    told = re.search(r'<div class="notice warning told" id="told-5".*?</div>\s*</div>', ann, re.S)
    assert told and "Ben took back your move 4" in told.group(0) and 'data-revert="5"' in told.group(0)
    assert "Put it back" in told.group(0)
    assert 'class="notice warning told"' not in seat_page(client, game, 1)   # Ben did it: nothing to tell him
    fixes = page(client, game, 1)
    assert 'data-revert="5"' in fixes and "Put it back" in fixes           # he can undo his take-back too
    store.revert(game["id"], 0, 5, "r1", 5)
    assert 'class="notice warning told"' not in seat_page(client, game, 0)
    assert store.live_moves(game["id"])[-1].seq == 4


def test_a_correction_done_offers_its_undo(app: Flask, client: FlaskClient) -> None:
    game = barony(app)
    store_of(app).correct(game["id"], 0, 4, "c1", 3, {"type": "cast", "spells": ["charm"]})
    html = page(client, game, 0, done="5")
    assert "Ann corrected Ben's move 3; it now reads: Ben cast Charm" in html
    assert re.search(r'<form class="put-back inline-form" data-revert="5"', html) and "Undo this correction" in html
    ben = seat_page(client, game, 1)
    assert "Ann corrected your move 3; it now reads: Ben cast Charm" in ben
    store_of(app).revert(game["id"], 1, 5, "r1", 5)      # Ben puts it back: Ann's page no longer says it stands
    html = page(client, game, 0, done="5")
    assert "That change has since been put back: the moves read as before it." in html
    assert "Recorded." not in html and "Undo this correction" not in html


def test_actions_on_another_seat_are_asked_first(app: Flask, client: FlaskClient) -> None:
    game = barony(app)
    ben = seat_page(client, game, 1)                      # the last move is Ann's: Ben's take-back asks
    assert re.search(r'id="f-undo" data-undo data-confirm="Take back another player\'s move', ben)
    ann = seat_page(client, game, 0)                      # her own: no question
    assert re.search(r'id="f-undo" data-undo>', ann)
    history = page(client, game, 0)
    assert "Remove Ben's move 3" in history and not re.search(r'data-remove="4"\s+data-confirm', history)
    client.set_cookie(f"host_{game['id']}", game["host_token"])
    table = shown(client.get(f"/g/{game['id']}"))
    assert "Release Ben's seat? Ben's phone stops working for it at once" in table


def test_a_correction_that_opens_a_choice_the_rules_require_asks_for_it(app: Flask, client: FlaskClient) -> None:
    """Mandragora's team game: Ann forgot the cursed scroll she took. With it, the rules need her help for her
    partner before Ben's next move; the page asks for it there and the correction puts it in before that move."""
    store = store_of(app)
    game = store.create_game("mandragora", ["Ann", "Ben", "Cat", "Dan"], {"teams": True})
    play(app, game, 0, {"type": "seek", "steps": 3, "scrolls": []})
    play(app, game, 1, {"type": "seek", "steps": 1, "scrolls": []})
    change = {"move": {"type": "seek", "steps": 3, "scrolls": [2]}}
    html = page(client, game, 0, "/1/misfit", change=json.dumps(change))
    need = re.search(r'<div class="misfit-need" data-insert-before="2" data-insert-seat="0">.*?</div>', html, re.S)
    assert need and "The rules now need your choice before that move" in need.group(0)
    assert 'data-move="team_help"' in html and "Give Cat a card of my choice" in html
    answer = store.correct(game["id"], 0, 2, "c1", 1, change["move"],
                           insert=[{"before": 2, "seat": 0, "move": {"type": "team_help", "kind": "none"}}])
    assert answer["inserted"] == [4]
    assert [m.seq for m in store.live_moves(game["id"])] == [1, 4, 2]
    assert store.log(game["id"], None)[-1]["before"] == 2


def test_a_move_removed_by_another_phone_is_told_and_can_be_put_back(app: Flask, client: FlaskClient) -> None:
    game = barony(app)
    store = store_of(app)
    store.correct(game["id"], 0, 4, "c1", 3, None)        # Ann removes Ben's move 3
    assert "Put it back" in page(client, game, 0, done="5")
    ben = seat_page(client, game, 1)
    assert re.search(r"Ann removed your move 3 \(Ben explored the Whispering Well[^<]*</p>", ben)
    store.revert(game["id"], 1, 5, "r1", 5)               # Ben's one tap
    assert [m.seq for m in store.live_moves(game["id"])] == [1, 2, 3, 4]
    assert 'class="notice warning told"' not in seat_page(client, game, 1)


CHOICE_GAMES = sorted(GAMES)  # every front has choices (a typed default: none)
#: words a form uses for the seat that makes the move (its own phone)
SPOKEN_TO = re.compile(r"\b(?:you|your|yours|yourself|my|mine|me)\b|\bI\b", re.I)


def forms_text(html: str, prefix: str) -> str:
    """The words of the choice forms whose ids begin with ``prefix`` (their summaries, labels, hints, options)."""
    parts = re.findall(rf'<details class="move-details" id="{prefix}[^"]*">.*?</details>'
                       rf'|<form[^>]*id="{prefix}[^"]*".*?</form>', html, re.S)
    words = re.sub(r"<[^>]+>", " ", " ".join(re.sub(r"<script.*?</script>", " ", p, flags=re.S) for p in parts))
    return re.sub(r"\s+", " ", words)


@pytest.mark.parametrize("game_id", CHOICE_GAMES)
def test_every_move_of_every_game_opens_on_its_form_filled_in_as_reported(app: Flask, client: FlaskClient,
                                                                         game_id: str) -> None:
    """Random legal moves in each game with choice forms: every move opens for its own seat on the form of its
    kind, each picked value one of the form's options; unchanged, the correction fits; another seat's move gets
    a form only where the game hides nothing."""
    module = GAMES[game_id]
    store = store_of(app)
    players = [f"P{i}" for i in range(module.MIN_PLAYERS)]
    game = store.create_game(game_id, players, {})
    rng = random.Random(21)
    for _ in range(14):
        state = store.current(game["id"])[1]
        candidates = [(s, m) for s in range(len(players)) if (m := module.random_legal_move(state, s, rng)) is not None]
        if not candidates or module.outcome(state).over:
            break
        seat, move = rng.choice(candidates)
        play(app, game, seat, move)
    live = store.live_moves(game["id"])
    assert len(live) >= 5
    for move in live:
        html = page(client, game, move.seat, f"/{move.seq}")
        prefill = re.search(r"data-prefill='([^']+)'", html)
        assert prefill, f"{game_id}: move {move.move} has no form"
        filled = json.loads(html_unescape(prefill.group(1)))
        assert filled["type"] == move.move["type"]
        for name, value in filled.items():
            if isinstance(value, str) and f'name="{name}"' in html and name != "type":
                assert f'value="{value}"' in html, f"{game_id}: {name}={value!r} is no option of the form"
        assert "now fits" in page(client, game, move.seat, f"/{move.seq}/misfit",
                                  change=json.dumps({"move": move.move}))
        other = (move.seat + 1) % len(players)
        theirs = page(client, game, other, f"/{move.seq}")
        assert ('data-choice' in theirs) == (
            not module.SPEC.hidden_information and move.move.get("type") not in module.SPEC.private_moves)
        # another seat's move: its forms speak of its author by name, never as "you" or "my" (the phone is not theirs)
        assert not re.findall(SPOKEN_TO, forms_text(theirs, f"fix{move.seq}-")), f"{game_id}: move {move.move}"
        assert forms_text(html, f"fix{move.seq}-").strip(), f"{game_id}: no form read"  # the look-up reads forms


def test_a_take_back_is_asked_by_seat_not_by_a_name_that_begins_the_same(app: Flask, client: FlaskClient) -> None:
    # "Ann" taking back "Ann Lee"'s move takes back another player's move: she is asked first
    game = store_of(app).create_game("barony-sorcery", ["Ann", "Ann Lee"], BARONY)
    play(app, game, 1, {"type": "explore", "location": "Ruined Tower", "reward": 3})
    ann = seat_page(client, game, 0)
    assert re.search(r'id="f-undo" data-undo data-confirm="Take back another player\'s move', ann)
    ann_lee = seat_page(client, game, 1)
    assert re.search(r'id="f-undo" data-undo>', ann_lee)


def test_a_refused_correction_reads_the_same_whoever_holds_the_card(app: Flask, client: FlaskClient) -> None:
    """The attacker's test on the preview: two games with the same public moves, Ann and Cat holding each other's
    drawn cards. Ben previews his own draw corrected into the card one of them holds: the same page in both,
    naming neither the seat nor the move (which fails would say who holds the card)."""
    pages = []
    for ann, cat in (("Ember", "Djinn"), ("Djinn", "Ember")):
        game = new_game(app)
        deal(app, game, {1: ("Golem", "Cocaine", "Mentors"), 0: (ann, "Time Loop", "Magic Missile"),
                         2: (cat, "Physical Kids", "Hospital")})
        change = json.dumps({"move": {"type": "draw", "card": "ember"}})
        html = page(client, game, 1, "/1/misfit", change=change)
        assert "another player" in html and "data-misfit" not in html and "data-drop" not in html
        assert "Ann" not in html and "Cat" not in html
        pages.append(html.replace(game["id"], "GAME"))
    assert pages[0] == pages[1]


def test_the_preview_of_a_correction_tells_nothing_of_an_end_that_hidden_magicianship_decides(
        app: Flask, client: FlaskClient) -> None:
    """JS&MN: under a card of Marseilles that would have let Ben or Cat defeat the fairy, Ann's preview reads as
    it does under the card as it was, word for word: it stores nothing, so an answer that told the new end would
    let her ask about their hidden magicianship card after card. (It said who defeated the fairy, with what
    magicianship, and ranked everyone's.)"""
    game, seq, ending, defeater, later = jsmn_card_that_ends_sooner(store_of(app), ["Ann", "Ben", "Cat"])
    same = next(m.move for m in store_of(app).live_moves(game["id"]) if m.seq == seq)
    told = page(client, game, 0, f"/{seq}/misfit", change=json.dumps({"move": ending}))
    assert told == page(client, game, 0, f"/{seq}/misfit", change=json.dumps({"move": same}))
    assert "defeated" not in told and "magicianship" not in told


def test_a_correction_that_ends_the_game_sooner_offers_to_remove_every_move_after_the_end(
        app: Flask, client: FlaskClient) -> None:
    """The preview under a correction that takes Ann to 100 VP sooner: the moves after the new end are listed by
    seq (public: the end is), with one button that removes them all with the correction; the corrected game
    then ends there. (It said another player's hidden move no longer fitted, naming none: a dead end.)"""
    game, seq, seat, trait, moves = fillory_score_that_ends_sooner(store_of(app), ["Ann", "Ben"])
    later = [n for n, _, _ in moves]
    change = {"move": {"type": "score", "trait": trait}}
    html = page(client, game, seat, f"/{seq}/misfit", change=json.dumps(change))
    assert "the game ends before move" in html and "100 VP" in html
    assert f'data-drop="{",".join(map(str, later))}"' in html
    assert ", ".join(map(str, later)) in re.sub(r"\s+", " ", html)
    assert "data-confirm=" in html  # other players' moves among them: asked first
    assert "now fits" in page(client, game, seat, f"/{seq}/misfit", change=json.dumps({**change, "drop": later}))
