"""Magicians of Fillory's choices (companion/rules/fillory/choices.py) and the seat page drawn from them:
the end-of-turn discard count, the Threat trick's card list, no trait chosen for the player, names and card
pages on every card option, secrets (same public moves, different hidden hands: the same choices and the
same forms on the page), and the page weight of a 6-player game."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_pages import (
    PAGE_ASSETS,
    compact_options,
    form,
    new_game,
    play,
    seat_page,
    sent_size,
    sit,
    store_of,
    table_page,
)

from cardgen.catalog import content
from companion.rules import finished
from companion.rules.choices import Choice, Field, find, satisfied, to_json
from companion.rules.fillory import game as fillory
from companion.rules.fillory.state import CARD_INDEX, CARDS, FilloryState
from tests.test_pages import PAGE_BUDGET

NAMES = {card.id: card.name for card in CARDS}
SEAT_ASSETS = sent_size(*PAGE_ASSETS, "js/choice-lists.js", "js/choices.js", "css/choices.css")
TABLE_ASSETS = sent_size(*PAGE_ASSETS)


def at(state: FilloryState, **places: str) -> FilloryState:
    """The state with these cards (by id) moved to these places."""
    locations = list(state.locations)
    for card, place in places.items():
        locations[CARD_INDEX[card.replace("_", "-")]] = place
    return replace(state, locations=tuple(locations))


def dealt(players: int = 2) -> FilloryState:
    state = fillory.setup([f"P{i}" for i in range(players)])
    deck = [c.id for c, loc in zip(CARDS, state.locations, strict=True) if loc == "deck"]
    for seat in range(players):
        for card in deck[seat * 3:seat * 3 + 3]:
            state = fillory.apply(state, seat, {"type": "draw", "card": card})
    return state


def turn_step(state: FilloryState, step: str, hand: list[str], seat: int = 0) -> FilloryState:
    """Seat ``seat`` at ``step`` of its turn, holding exactly ``hand`` (the rest of its old hand back in the deck)."""
    old = [c.id for c, loc in zip(CARDS, state.locations, strict=True) if loc == f"hand:{seat}"]
    state = at(state, **{**{c: "deck" for c in old}, **{c: f"hand:{seat}" for c in hand}})
    return replace(state, turn_seat=seat, step=step, extra_action=False, pending=None)


def offered(state: FilloryState, seat: int, move: str) -> Choice:
    found = [c for c in fillory.choices(state, seat) if c.move == move]
    assert found, f"no {move} offered"
    return found[0]


def field_of(choice: Choice, name: str, when: str | None = None) -> Field:
    return next(f for f in choice.fields if f.name == name and (when is None or when in f.when.get("trait", ())))


HAND7 = ["golem", "cocaine", "mentors", "ember", "djinn", "hospital", "romance"]


# -- the end of the turn ---------------------------------------------------------------------------

@pytest.mark.parametrize("held", [0, 3, 5, 6, 7])
def test_the_end_of_the_turn_discards_exactly_the_cards_over_five(held: int) -> None:
    state = turn_step(dealt(), "end", HAND7[:held])
    end = offered(state, 0, "end_turn")
    excess = max(0, held - 5)
    if not excess:
        assert end.fields == ()   # nothing to tick: one tap ends the turn
        assert fillory.apply(state, 0, {"type": "end_turn"}).turn_seat == 1
        return
    (discard,) = end.fields
    assert (discard.kind, discard.min, discard.max) == ("many", excess, excess)
    assert [o.value for o in discard.options] == sorted(HAND7[:held], key=lambda c: NAMES[c].casefold())
    assert satisfied(end, {"type": "end_turn", "discard": HAND7[:excess]})
    assert not satisfied(end, {"type": "end_turn", "discard": HAND7[:excess + 1]})   # the rules refuse it too
    assert not satisfied(end, {"type": "end_turn", "discard": HAND7[:excess - 1]})


# -- the Threat trick picks the card from a list --------------------------------------------------------

def test_the_threat_trick_names_the_opponent_and_their_phone_says_which_card() -> None:
    state = turn_step(dealt(3), "trick", ["marina", "golem"])
    state = at(state, **{c.id: "deck" for c, loc in zip(CARDS, state.locations, strict=True) if loc == "hand:2"})  # P2: empty
    trick = offered(state, 0, "trick")
    seats = field_of(trick, "target_seat", "Threat")
    assert [(o.value, o.label) for o in seats.options] == [(1, "P1"), (2, "P2")]
    # no card to pick: only P1's phone knows P1's hand, and the opponent's field says so; no empty field
    # "What the trick reaches… Nothing to pick." follows it (there was one)
    assert "their phone then says which" in seats.hint
    assert [f.name for f in trick.fields if "Threat" in f.when.get("trait", ())] == ["target_seat"]
    move = {"type": "trick", "card": "marina", "trait": "Threat", "target_seat": 1}
    assert find(fillory.choices(state, 0), move) is not None
    after = fillory.apply(state, 0, move)
    asked = fillory.choices(after, 1)
    assert [c.move for c in asked] == ["lose_card"]
    ben = next(c.id for c, loc in zip(CARDS, after.locations, strict=True) if loc == "hand:1")
    assert ben in {o.value for o in asked[0].fields[0].options}
    assert find(asked, {"type": "lose_card", "card": ben}) is not None
    assert fillory.apply(after, 1, {"type": "lose_card", "card": ben}).where(ben) == "discard"
    assert satisfied(trick, {"type": "trick", "card": "marina", "trait": "Threat", "target_seat": 2})  # nothing to take


def words(page: str) -> str:
    """A page's text as read (no tags, one space between words)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def test_a_threat_trick_asks_the_victims_phone_in_its_own_words_and_the_thief_fills_in_no_empty_field(
        app: Flask, client: FlaskClient) -> None:
    """The thief's form showed an empty field ("What the trick reaches… Nothing to pick.") after the opponent; the
    victim's own phone read "Waiting for Ben to say which card…" and "Ann's turn (score step). Your turn comes
    later." right above its "Your move" (audit 5)."""
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, *({"type": "draw", "card": c} for c in ("golem", "joe", "magic-missile")))
    play(app, game, 1, *({"type": "draw", "card": c} for c in ("mike", "death", "stanley")))
    play(app, game, 0, {"type": "draw", "card": "niffin"}, {"type": "play", "card": "golem"}, {"type": "decline"})
    trick = form(seat_page(client, game, 0), "f-trick")
    threat = [f for f in re.findall(r"<fieldset.*?</fieldset>", trick, re.S) if "Threat" in f and "data-when" in f]
    assert threat and all("Nothing to pick" not in f and "What the trick reaches" not in f for f in threat), threat
    assert "their phone then says which one" in trick
    play(app, game, 0, {"type": "trick", "card": "niffin", "trait": "Threat", "target_seat": 1})
    ben = words(seat_page(client, game, 1))
    assert "Waiting for you to say which card the Threat trick took from your hand" in ben
    assert "Waiting for Ben" not in ben and "Your turn comes later" not in ben
    assert "Ann's Threat trick took a card from your hand: say which one below" in ben
    ann = words(seat_page(client, game, 0))
    assert "Waiting for Ben to say which card the Threat trick took from their hand" in ann
    assert "Waiting for Ben to say which card" in words(table_page(client, game))


def test_the_trick_card_itself_and_the_drawn_card_are_options_that_copy_another_field() -> None:
    state = turn_step(dealt(), "trick", ["magic-missile", "golem"])
    trick = offered(state, 0, "trick")
    place = field_of(trick, "place", "Spell")
    drawn = next(o for o in place.options if o.copies)
    assert drawn.copies == "draw" and drawn.label == "The card I just drew"
    card = next(c.id for c, loc in zip(CARDS, state.locations, strict=True) if loc == "deck")
    move = {"type": "trick", "card": "magic-missile", "trait": "Spell", "draw": card, "place": card}
    assert satisfied(trick, move)
    assert fillory.apply(state, 0, move).where(card) == "zone:0"
    assert not satisfied(trick, {**move, "place": "magic-missile"})  # the trick card is discarded, not placed



def test_the_character_trick_with_only_its_own_card_left_to_draw_offers_the_hand_or_the_zone() -> None:
    """Deck and discard pile empty: the card discarded for the trick is the only one to draw, and the form lets the
    player put it into the hand or the zone (it offered the hand alone, and the server refused the zone)."""
    state = turn_step(dealt(), "trick", ["pete", "golem"])
    state = at(state, **{c.id: "neutral" for c, loc in zip(CARDS, state.locations, strict=True)
                         if loc in ("deck", "discard")})
    trick = offered(state, 0, "trick")
    hand, zone = field_of(trick, "to_hand", "Character"), field_of(trick, "to_zone", "Character")
    assert not hand.required and not zone.required and "one of the two" in hand.hint
    assert [o.copies for o in hand.options] == [o.copies for o in zone.options] == ["card"]   # the card itself
    assert "fillory.trick.character-last" in trick.checks
    for key, place in (("to_hand", "hand:0"), ("to_zone", "zone:0")):
        move = {"type": "trick", "card": "pete", "trait": "Character", key: "pete"}
        assert satisfied(trick, move) and fillory.apply(state, 0, move).where("pete") == place
    # with two cards to draw both fields are asked, and the one-card rule is no check of the form
    two = offered(turn_step(dealt(), "trick", ["pete", "golem"]), 0, "trick")
    assert field_of(two, "to_hand", "Character").required and field_of(two, "to_zone", "Character").required
    assert "fillory.trick.character-last" not in two.checks


def test_a_card_whose_traits_have_no_trick_can_still_be_discarded_for_one_from_the_phone() -> None:
    state = turn_step(dealt(), "trick", ["cocaine", "golem"])
    trick = offered(state, 0, "trick")
    card = field_of(trick, "card")
    assert {o.value: o.detail for o in card.options}["cocaine"] == "no trick"
    drugs = next(o for o in field_of(trick, "trait").options if o.value == "Drugs")
    assert drugs.when == {"card": ("cocaine",)} and "nothing else happens" in drugs.detail
    move = {"type": "trick", "card": "cocaine", "trait": "Drugs"}
    assert satisfied(trick, move) and find(fillory.choices(state, 0), move) is not None
    assert fillory.apply(state, 0, move).where("cocaine") == "discard"

# -- no answer chosen for the player ------------------------------------------------------------------

def test_the_score_form_ticks_no_trait(app: Flask, client: FlaskClient) -> None:
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, *({"type": "draw", "card": c} for c in ("Physical Kids", "Time Loop", "Magic Missile")))
    play(app, game, 1, *({"type": "draw", "card": c} for c in ("Golem", "Cocaine", "Mentors")))
    play(app, game, 0, {"type": "draw", "card": "Romance"}, {"type": "play", "card": "Physical Kids"},
         {"type": "summon", "card": "Quentin", "to": "zone"})
    page = seat_page(client, game, 0)
    score = offered(store_of(app).current(game["id"])[1], 0, "score")
    assert score.irreversible and all(f.default is None for f in score.fields)
    assert len(score.fields[0].options) >= 1
    scoring = form(page, "f-score")
    assert "checked" not in scoring and "irreversible" in scoring
    assert compact_options(page, "trait", "f-score")[0]["value"] == "Student"  # best first


# -- names and card pages -----------------------------------------------------------------------------

def test_every_card_option_is_named_and_points_at_its_card_page() -> None:
    rng = random.Random(5)
    state = fillory.setup([f"P{i}" for i in range(4)])
    seen = 0
    for _ in range(500):
        if fillory.outcome(state).over:
            break
        for seat in range(4):
            for choice in fillory.choices(state, seat):
                for f in choice.fields:
                    for option in f.options:
                        if isinstance(option.value, str) and option.value in CARD_INDEX:
                            seen += 1
                            assert option.card == ("fillory", option.value) and option.label == NAMES[option.value]
                        else:
                            assert option.card is None and not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", option.label)
        moves = [(s, m) for s in range(4) if (m := fillory.random_legal_move(state, s, rng)) is not None]
        seat, move = rng.choice(moves)
        state = fillory.apply(state, seat, move)
    assert seen > 1000


# -- secrets ----------------------------------------------------------------------------------------

def _moves_section(page: str) -> str:
    found = re.search(r'<section class="panel moves".*?</section>', page, re.S)
    assert found
    return found.group(0)


def test_different_hidden_hands_give_the_same_choices_and_the_same_forms(app: Flask, client: FlaskClient) -> None:
    """Ben's hand is Golem, Cocaine, Mentors in one game and Ember, Djinn, Hospital in the other (and Ben took a
    Threat victim's card in both): Ann's choices and her page's forms are the same to the byte."""
    pages, choices = [], []
    for ben in (("Golem", "Cocaine", "Mentors"), ("Ember", "Djinn", "Hospital")):
        game = new_game(app, ("Ann", "Ben"))
        play(app, game, 0, *({"type": "draw", "card": c} for c in ("Marina", "Time Loop", "Magic Missile")))
        play(app, game, 1, *({"type": "draw", "card": c} for c in ben))
        play(app, game, 0, {"type": "draw", "card": "Romance"}, {"type": "play", "card": "Romance"},
             {"type": "decline"})
        sit(client, game, 0)
        pages.append(_moves_section(client.get(f"/g/{game['id']}/seat/0/live").get_data(as_text=True)))
        choices.append(to_json(fillory.choices(store_of(app).current(game["id"])[1], 0)))
    assert choices[0] == choices[1] and pages[0] == pages[1]
    assert 'id="f-trick"' in pages[0] and '"Ember"' in pages[0] and '"Golem"' in pages[0]  # both hands' cards listed


# -- page weight --------------------------------------------------------------------------------------

def test_six_player_seat_pages_and_the_finished_table_stay_within_the_page_budget(app: Flask, client: FlaskClient) -> None:
    """HTML plus the style sheets and scripts a phone loads with it: every seat at the deal, the seat on its
    move after every move of a seeded 6-player game (tricks with every list), and the table once it is over."""
    game = new_game(app, tuple(f"Player{i}" for i in range(6)))
    store = store_of(app)
    rng = random.Random(4)
    heaviest: dict[str, int] = {}

    def weigh(seat: int, key: str) -> None:
        sit(client, game, seat)
        page = client.get(f"/g/{game['id']}/seat/{seat}")
        assert page.status_code == 200 and b"/static/js/choices.js" in page.data and b"/js/choice-lists.js" in page.data
        heaviest[key] = max(heaviest.get(key, 0), len(page.data))

    for seat in range(6):
        weigh(seat, "deal")
    for _ in range(3000):
        state = store.current(game["id"])[1]
        if finished(fillory, state):  # won, or a dead end
            break
        seat, move = rng.choice([(s, m) for s in range(6) if (m := fillory.random_legal_move(state, s, rng))])
        play(app, game, seat, move)
        state = store.current(game["id"])[1]
        if state.phase == "play" and (state.step == "trick" or (state.step in ("draw", "ability")
                                                                and state.turn_number % 5 == 0)):
            weigh(state.turn_seat, state.step)   # the trick step carries the most lists
    assert finished(fillory, store.current(game["id"])[1]) and set(heaviest) >= {"deal", "draw", "trick"}
    table = len(client.get(f"/g/{game['id']}").data)
    for step, size in heaviest.items():
        assert size + SEAT_ASSETS <= PAGE_BUDGET, (step, size + SEAT_ASSETS)
    assert table + TABLE_ASSETS <= PAGE_BUDGET, table + TABLE_ASSETS


def test_declining_an_ability_that_has_a_target_cites_our_reading(app: Flask) -> None:
    """The companion accepts a decline even where the ability has a target (the rulebook says a played card's
    ability is activated): the form cited fillory.ability.when, a rulebook entry, as if the rulebook allowed it.
    It cites its own entry, marked authored, with the reading said."""
    game = new_game(app, ("Ann", "Ben"))
    play(app, game, 0, *({"type": "draw", "card": c} for c in ("golem", "joe", "magic-missile")))
    play(app, game, 1, *({"type": "draw", "card": c} for c in ("mike", "death", "stanley")))
    play(app, game, 0, {"type": "draw", "card": "niffin"}, {"type": "play", "card": "golem"})
    offered = {c.move: c for c in fillory.choices(store_of(app).current(game["id"])[1], 0)}
    assert {"summon", "decline"} <= set(offered) or {"banish", "decline"} <= set(offered)  # a target exists
    entry = content("fillory").rule(offered["decline"].rule)
    assert entry.provenance == "authored" and "skip" in entry.reading
