"""Issue 21: "every message in table words, never field names". A refusal of a move or correction carries,
beside the API's ``error`` (which names fields for API clients), ``said``: the sentence a page shows, with each
field named by the label of the form the asking seat answered, and no API word ("field 'targets'", "'drop'
names move 5", "must be str, got int"). The pages' scripts show ``said``; the corrections page's reasons are said
the same way."""

from __future__ import annotations

import json
import random
import re
from typing import Iterator

import pytest
from flask import Flask

from companion.rules import GAMES
from companion.web import create_app
from companion.web.helpers import token_cookie
from companion.web.table_words import table_words

API_WORDS = re.compile(r"\b[Ff]ield\b|'(drop|also|insert)'|\bseq\b|, got [a-z]+\b|\b(str|int|dict|NoneType)\b")


@pytest.mark.parametrize(("message", "labels", "fields", "said"), [
    ("field 'targets' must list exactly two cards", {"targets": "Which two Characters swap places?"}, (),
     "The answer to “Which two Characters swap places?” must list exactly two cards."),
    ("Field 'points' must be from 0 to 999, got 1000", {"points": "Your base-game points"}, (),
     "“Your base-game points” must be from 0 to 999, got 1000."),
    ("Field 'location' must be str, got int", {}, (), "The location must be a name, not a whole number."),
    ("The 'explore' move needs a 'location' field", {}, (), "This move needs the location."),
    ("'drop' names move 5, which is not a live move after move 3", {}, (),
     "Move 5 is no longer in the game after move 3, so it cannot be removed with this change."),
    ("'also' names move 7, which is not a live move after move 2", {}, (),
     "Move 7 is no longer in the game after move 2, so it cannot be corrected with this change."),
    ("Your move 4 would no longer fit: 'named' must name the 2 different cards laid out at setup", {},
     ("named", "to"), "Your move 4 would no longer fit: the named must name the 2 different cards laid out at setup."),
    ("The 'end_game' move has no field 'junk'; it takes no other field", {}, (),
     "This move holds the junk, which it does not take: reload the page and send it again."),
    ("Field 'to_zone' of the 'trick' move must be a text", {}, (),
     "The to zone must be a text."),
    ("Banishment takes no 'from' field", {"from": "Draw a card from whose hand?"}, (),
     "Banishment takes no answer to “Draw a card from whose hand?”."),
    ("the trick move needs a 'target' field (the card it banishes)", {}, (),
     "This move needs the target (the card it banishes)."),
    ("It is Ben's turn, not Ann's", {}, ("to",), "It is Ben's turn, not Ann's."),
])
def test_a_refusal_in_table_words(message: str, labels: dict[str, str], fields: tuple[str, ...], said: str) -> None:
    assert table_words(message, labels, fields) == said
    assert not API_WORDS.search(said)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("words") / "w.sqlite3"),
                      "SECRET_KEY": "test-secret-key"})
    yield app
    app.extensions["store"].close()


def test_a_refused_field_is_named_by_its_form_label_over_http(app: Flask) -> None:
    """In every discovered game, a legal move with a field its form asks for set to an object: refused 422, the
    API's error names the field, and ``said`` names it by the form's label (the asking seat's own form)."""
    client = app.test_client()
    named_by_label = {name: 0 for name in GAMES}
    for name, rules in sorted(GAMES.items()):
        rng = random.Random(f"words-{name}")
        created = client.post("/api/games", json={"game": name, "players": ["Ann", "Ben", "Cat"][:max(2, rules.MIN_PLAYERS)]})
        assert created.status_code == 201
        body = created.get_json()
        game_id, tokens = body["id"], [s["token"] for s in body["seats"]]
        store = app.extensions["store"]
        for _ in range(40):   # a few points of a game: the first legal move with a labelled field
            state = store.current(game_id)[1]
            seat, move = next(((s, m) for s in range(len(tokens))
                               if (m := rules.random_legal_move(state, s, rng)) is not None), (None, None))
            if seat is None or move is None:
                break
            labels = {f.name: f.label for c in rules.choices(state, seat) if c.move == move["type"] for f in c.fields}
            asked = [f for f in rules.SPEC.move(move["type"]).kinds if f in labels]
            for field in asked:
                refused = client.post(f"/api/games/{game_id}/moves",
                                      json={"version": store.version(game_id), "action_id": f"w{rng.random()}",
                                            "move": {**move, field: {"x": "y"}}},
                                      headers={"Authorization": f"Bearer {tokens[seat]}"})
                assert refused.status_code == 422, refused.get_json()
                answer = refused.get_json()
                said = answer.get("said", answer["error"])
                assert not API_WORDS.search(said) and f"'{field}'" not in said, answer
                if f"'{field}'" in answer["error"]:
                    assert f"“{labels[field]}”" in said, answer
                    named_by_label[name] += 1
            store.apply_move(game_id, seat, store.version(game_id), f"m{store.version(game_id)}", move)
    assert all(named_by_label.values()), named_by_label   # the label, not the name, in every game (at least once)


def test_the_corrections_page_says_a_refused_change_in_table_words(app: Flask) -> None:
    """What a correction would break, asked with a change the rules refuse (a field the move does not take, a
    type the game has not): the corrections page says it in table words, not the API's."""
    client = app.test_client()
    store = app.extensions["store"]
    for name, rules in sorted(GAMES.items()):
        rng = random.Random(f"misfit-{name}")
        created = client.post("/api/games", json={"game": name, "players": ["Ann", "Ben", "Cat"][:max(2, rules.MIN_PLAYERS)]})
        body = created.get_json()
        game_id, tokens = body["id"], [s["token"] for s in body["seats"]]
        for seat, token in enumerate(tokens):
            client.set_cookie(token_cookie(game_id, seat), token)
        state = store.current(game_id)[1]
        seat, move = next((s, m) for s in range(len(tokens)) if (m := rules.random_legal_move(state, s, rng)) is not None)
        store.apply_move(game_id, seat, 0, "first", move)
        for change, api in (({"move": {**move, "zz_extra": 1}}, "zz_extra"), ({"move": {"type": "zz-junk"}}, "knows:")):
            page = client.get(f"/g/{game_id}/seat/{seat}/fix/1/misfit?change=" + json.dumps(change))
            assert page.status_code == 200
            text = re.sub(r"<[^>]+>", " ", page.get_data(as_text=True))
            assert "reload the page" in text and api not in text and not API_WORDS.search(text), (name, text[:600])
