"""A printed card's QR code reports the move (issue 16), through Flask's test client: the part of a card page
that offers this phone's seat the moves it may make with the card (companion/web/card_moves.py), generic over
the rules modules' choices. The browser tests are tests/e2e/test_card_moves.py."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from test_pages import form, shown, sit

from cardgen.catalog import content
from cardgen.catalog.versions import card_version
from companion.rules import GAMES, rules_for
from companion.rules.choices import sample_move, satisfied
from companion.store import Store
from companion.web.card_moves import moves_with
from companion.web.helpers import token_cookie

BOOK = "spellbook-red-3"
NONE_HELD = "No move can be reported from this card: this phone holds no seat in a game of Mandragora in progress."


def store_of(app: Flask) -> Store:
    return app.extensions["store"]


def play(app: Flask, game: dict[str, Any], seat: int, *moves: dict[str, Any]) -> None:
    store = store_of(app)
    for move in moves:
        version = store.version(game["id"])
        store.apply_move(game["id"], seat, version, f"t-{version}", move)


def casting_game(app: Flask, players: list[str] | None = None) -> dict[str, Any]:
    """A Mandragora game where Ann (seat 0) holds three cards on her turn: she may cast."""
    game = store_of(app).create_game("mandragora", players or ["Ann", "Ben"], {})
    play(app, game, 0, {"type": "seek", "steps": 3})
    play(app, game, 1, {"type": "seek", "steps": 2})
    return game


def moves_part(client: FlaskClient, card: str = BOOK, query: str = "") -> str:
    response = client.get(f"/c/mandragora/{card}/moves{query}")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-store" and "Cookie" in response.headers["Vary"]
    return shown(response)


def checked(html: str, name: str) -> list[str]:
    return re.findall(rf'<input type="radio" name="{name}" value="([^"]+)"[^>]*\schecked', html)


def test_the_card_page_is_the_same_for_every_phone_and_names_its_moves_part(app: Flask, client: FlaskClient) -> None:
    bare = client.get(f"/c/mandragora/{BOOK}").get_data()
    game = casting_game(app)
    sit(client, game, 0)
    seated = client.get(f"/c/mandragora/{BOOK}").get_data()
    assert seated == bare  # what a phone may do is asked by its script, never cached with the card
    page = bare.decode()
    assert f'data-src="/c/mandragora/{BOOK}/moves"' in page and "js/card-moves.js" in page
    assert page.index('id="card-moves"') < page.index('class="card-face"')  # above the card's facts


def test_no_seat_says_why_nothing_can_be_reported(app: Flask, client: FlaskClient) -> None:
    assert moves_part(client).strip() == f'<p class="card-moves-none hint">{NONE_HELD}</p>'
    other = store_of(app).create_game("fillory", ["Ann", "Ben"], {})
    sit(client, other, 0)  # a seat in a game of another kind does not count
    assert NONE_HELD in moves_part(client)


def test_a_seated_phone_on_its_turn_may_cast_with_the_spellbook(app: Flask, client: FlaskClient) -> None:
    game = casting_game(app)
    sit(client, game, 0)
    part = moves_part(client)
    assert "Report with this card" in part and "Ann, Mandragora" in part
    assert f'data-game="{game["id"]}"' in part and 'data-csrf="' in part   # the seat's token stays in its cookie
    assert game["seats"][0]["token"] not in part
    assert f'data-after-move="/g/{game["id"]}/seat/0"' in part and 'data-version="2"' in part
    cast = form(part, "m-cast")
    assert re.findall(r'name="book" value="([^"]+)"', cast) == [BOOK]  # the card, picked: one tap
    assert checked(cast, "book") == [BOOK]
    assert 'data-tags="red"' in cast  # its colour still decides which ingredients the form offers
    assert 'data-repeat="red"' in cast and 'name="power"' in cast and 'name="spell"' in cast
    note = form(part, "m-note")  # the private hand note, with this card ticked
    assert re.search(rf'data-repeat="{BOOK}" checked', note)
    assert "m-seek" not in part  # seeking names no card


def test_a_card_the_seat_cannot_use_now_says_so(app: Flask, client: FlaskClient) -> None:
    game = casting_game(app)
    sit(client, game, 1)  # Ben: not his turn, and no hand note form offers a spell card
    part = moves_part(client, "levitation-1")
    assert "Nothing to report with this card now: none of the moves Ben may make now uses it." in part
    assert f'href="/g/{game["id"]}/seat/1"' in part


def test_the_choices_narrowed_to_the_card_are_still_the_rules_choices(app: Flask) -> None:
    """Every move a player can build from a card page's form is one the seat page's form allows, with the card."""
    rules = rules_for("mandragora")
    game = casting_game(app)
    state = store_of(app).current(game["id"])[1]
    offered = rules.choices(state, 0)
    rng = random.Random(16)
    found = 0
    for card in content("mandragora").cards:
        for move in moves_with(offered, "mandragora", card.id):
            original = next(c for c in offered if c.move == move.choice.move)
            for _ in range(20):
                sample = sample_move(move.choice, rng)
                if sample is None:
                    continue
                found += 1
                assert satisfied(original, sample), sample
                pinned = next(f for f in move.choice.fields if f.name == move.pinned)
                if pinned.kind == "one":
                    assert sample[move.pinned] == card.id, sample
                else:  # a list the player edits: the card is ticked beforehand
                    assert card.id in pinned.default, pinned
    assert found > 100


def test_several_live_games_ask_which_newest_first(app: Flask, client: FlaskClient) -> None:
    old = casting_game(app, ["Ann", "Ben"])
    time.sleep(0.005)  # creation times are kept to the millisecond
    new = casting_game(app, ["Cid", "Ann"])
    sit(client, old, 0)
    sit(client, new, 1)
    part = moves_part(client)
    assert "Report with this card in which game?" in part and "m-cast" not in part
    links = re.findall(r'href="(/c/mandragora/[^"]+)"', part)
    assert links == [f"/c/mandragora/{BOOK}?g={new['id']}&s=1", f"/c/mandragora/{BOOK}?g={old['id']}&s=0"]
    assert "Ann with Cid" in part and "Ann with Ben" in part
    picked = moves_part(client, query=f"?g={old['id']}&s=0")
    assert f'data-game="{old["id"]}"' in picked and "m-cast" in picked
    assert f"moves/live?g={old['id']}&s=0" in picked  # live updates keep the seat picked
    assert "in which game?" in moves_part(client, query="?g=nonsense&s=0")  # an unknown pick asks again


def test_a_stale_print_still_reports_and_says_the_card_changed(app: Flask, client: FlaskClient) -> None:
    game = casting_game(app)
    sit(client, game, 0)
    current = card_version(content("mandragora").find_card(BOOK))
    older = "0" * len(current) if current != "0" * len(current) else "1" * len(current)
    part = moves_part(client, query=f"?v={older}")
    assert "This card has changed since your print: the move uses the card as it is now." in part
    assert "m-cast" in part
    assert "has changed" not in moves_part(client, query=f"?v={current}")


def test_the_live_part_follows_the_game(app: Flask, client: FlaskClient) -> None:
    game = casting_game(app)
    sit(client, game, 0)
    live = client.get(f"/c/mandragora/{BOOK}/moves/live")
    assert live.headers["X-Game-Version"] == "2" and "m-cast" in live.get_data(as_text=True)
    assert 'data-live' not in live.get_data(as_text=True)  # the part only, swapped inside the frame
    play(app, game, 0, {"type": "seek", "steps": 1})
    live = client.get(f"/c/mandragora/{BOOK}/moves/live")
    assert live.headers["X-Game-Version"] == "3" and "m-cast" not in live.get_data(as_text=True)
    assert "m-note" in live.get_data(as_text=True)  # a note may be written at any time
    assert "none of the moves Ann may make now uses it" in shown(client.get("/c/mandragora/levitation-1/moves/live"))
    store_of(app).release_seat(game["id"], 0)  # the host frees the seat: the token stops working
    assert NONE_HELD in shown(client.get(f"/c/mandragora/{BOOK}/moves/live"))


def normalised(part: str, game: dict[str, Any]) -> str:
    for key in (game["id"], game["join_code"], *(s["token"] for s in game["seats"])):
        part = part.replace(key, "X")
    return re.sub(r'data-csrf="[^"]*"', 'data-csrf="X"', part)  # the page's CSRF token: random for each session


def test_a_card_in_another_hand_looks_like_any_card_this_seat_cannot_use(app: Flask) -> None:
    """Same public moves, different secrets (Ben's private hand note names the spellbook, or another, or
    nothing): Ann's card-page part is byte for byte the same, for the book Ben holds and for one he does not."""
    answers: dict[str, set[str]] = {}
    for ben_note in ([BOOK], ["spellbook-green-1"], []):
        game = store_of(app).create_game("mandragora", ["Ann", "Ben"], {})
        play(app, game, 0, {"type": "seek", "steps": 3})
        play(app, game, 1, {"type": "seek", "steps": 2}, {"type": "note_hand", "cards": ben_note})
        client = app.test_client()
        client.set_cookie(token_cookie(game["id"], 0), game["seats"][0]["token"])
        for card in (BOOK, "spellbook-green-1", "spellbook-purple-2"):
            answers.setdefault(card, set()).add(normalised(moves_part(client, card), game))
    assert all(len(seen) == 1 for seen in answers.values()), answers
    assert "m-cast" in next(iter(answers[BOOK]))  # and they are forms, not only the same refusal


def test_every_game_with_choices_offers_its_card_options_on_the_card_page(app: Flask) -> None:
    """Generic: for each rules module with choices, any option naming a card shows on that card's page part."""
    for name in GAMES:
        rules = rules_for(name)  # every front has choices (a typed default: none)
        players = ["Ann", "Ben", "Cid"][:max(rules.MIN_PLAYERS, 2)]
        game = store_of(app).create_game(name, players, {})
        state = store_of(app).current(game["id"])[1]
        cards = {o.card[1] for c in rules.choices(state, 0) for f in c.fields for o in f.options
                 if o.card and o.card[0] == name}
        client = app.test_client()
        client.set_cookie(token_cookie(game["id"], 0), game["seats"][0]["token"])
        for card in sorted(cards)[:5]:
            response = client.get(f"/c/{name}/{card}/moves")
            assert response.status_code == 200, (name, card)
            assert "data-choice" in response.get_data(as_text=True), (name, card)


def test_a_fillory_card_in_the_other_hand_looks_like_one_in_the_deck(app: Flask) -> None:
    """Ben's secret draws differ (Golem in his hand, or not): Ann's card-page part for Golem, and for a card
    nobody drew, is the same, on her draw and on his."""
    parts: dict[str, set[str]] = {}
    taken = {"golem", "romance", "cocaine", "mentors", "physical-kids", "time-loop", "magic-missile"}
    for first in ("golem", None):
        game = store_of(app).create_game("fillory", ["Ann", "Ben"], {"first_seat": 0})
        if first is None:  # another card still in the deck (not in the neutral zone)
            draw = rules_for("fillory").choices(store_of(app).current(game["id"])[1], 0)[0]
            first = next(o.value for o in draw.fields[0].options if o.value not in taken)
        ben_draws = [first, "cocaine", "mentors"]
        play(app, game, 0, *({"type": "draw", "card": c} for c in ("physical-kids", "time-loop", "magic-missile")))
        play(app, game, 1, *({"type": "draw", "card": c} for c in ben_draws))
        client = app.test_client()
        client.set_cookie(token_cookie(game["id"], 0), game["seats"][0]["token"])
        for card in ("golem", "romance"):
            response = client.get(f"/c/fillory/{card}/moves")
            parts.setdefault(card, set()).add(normalised(shown(response), game))
        for card in ("golem", "romance"):  # Ben's phone sees nothing to report for either, on Ann's turn
            other = app.test_client()
            other.set_cookie(token_cookie(game["id"], 1), game["seats"][1]["token"])
            assert "Nothing to report with this card now" in shown(other.get(f"/c/fillory/{card}/moves"))
    assert all(len(seen) == 1 for seen in parts.values()), parts
    assert 'value="golem"' in next(iter(parts["golem"])) and "f-draw" in next(iter(parts["golem"]))


def test_a_jsmn_feat_in_another_hand_looks_like_a_free_one(app: Flask) -> None:
    """Ben's secret starting feats differ (Speak with the Wind in his hand, or not): Ann's card-page part for
    that feat is the same before she reports her own (the form lists every feat, only the scanned one ticked:
    the scan is her pick, issue 25)."""
    from test_pages_jsmn import STARTING

    wind, other = "speak-with-the-wind", ["send-ravens-as-messengers", "grow-a-hedge-in-a-night",
                                          "make-the-trees-march"]
    parts: set[str] = set()
    for ben in (STARTING[1], other):
        game = store_of(app).create_game("jsmn", ["Ann", "Ben", "Cid"], {})
        play(app, game, 1, {"type": "starting_feats", "feats": ben})
        client = app.test_client()
        client.set_cookie(token_cookie(game["id"], 0), game["seats"][0]["token"])
        parts.add(normalised(moves_part_of(client, "jsmn", wind), game))
    assert len(parts) == 1
    (part,) = parts
    assert 'id="j-start"' in part and part.count(" checked") == 1 and f'value="{wind}" checked>' in part


def moves_part_of(client: FlaskClient, game: str, card: str) -> str:
    response = client.get(f"/c/{game}/{card}/moves")
    assert response.status_code == 200
    return shown(response)
