"""Jonathan Strange & Mr Norrell's ``choices(state, seat)``: the points the shared hypothesis test
(test_rules_choices.py) does not name — no preselected answer on an irreversible choice, magic and book forms
that list only the feats that can take the element, names never ids, card options that name their card, and
choices (and the seat page's forms) that are the same whatever another seat holds in secret.
"""

from __future__ import annotations

import random
import re

from flask import Flask
from flask.testing import FlaskClient
from test_pages import seat_page, store_of
from test_pages_jsmn import offered

from companion.rules.choices import Choice, find, to_json
from companion.rules.jsmn import game as rules
from companion.rules.jsmn.state import (
    BOOKS,
    FEAT_NEEDS,
    FEATS,
    INTRODUCTIONS,
    INVITATIONS,
    JsmnState,
    replace,
)

NAMES = ["Ann", "Ben", "Cid"]
STARTING = [["find-the-kings-roads", "call-the-raven-kings-name", "open-the-way-to-faerie"],
            ["send-ravens-as-messengers", "speak-with-the-wind", "make-the-trees-march"],
            ["move-a-mountain-pass", "raise-a-ship-of-rain", "wake-the-stone-saints"]]
ROWS = {"books": ["the-magus", "the-sworn-book-of-honorius", "the-compound-of-alchymy"], "named": ["davey", "vinculus"]}
IDS = set(FEATS) | set(BOOKS) | set(INVITATIONS) | set(INTRODUCTIONS)


def by_id(offered: list[Choice], form_id: str) -> Choice:
    return next(c for c in offered if c.form_id == form_id)


def started(players: int = 3) -> JsmnState:
    state = rules.setup(NAMES[:players], {"magicians": ["norrell", "strange", "segundus"][:players]})
    for seat in range(players):
        state = rules.apply(state, seat, {"type": "starting_feats", "feats": STARTING[seat]})
    return state


def in_turn(action: str = "study-rain-hills") -> tuple[JsmnState, int]:
    state = rules.apply(started(), 1, {"type": "new_year", "marseilles": "the-juggler", **ROWS})
    seat = state.turn.seat
    return rules.apply(state, seat, {"type": "choose_action", "action": action}), seat


def test_the_first_year_preselects_nothing_and_the_starting_feats_are_a_searchable_list_of_33() -> None:
    state = rules.setup(NAMES, {})
    start = by_id(rules.choices(state, 0), "j-start")
    feats = start.fields[0]
    assert start.irreversible and feats.default is None and (feats.min, feats.max) == (3, 3)
    assert len(feats.options) == 33 and feats.searchable
    assert all(o.card == ("jsmn", o.value) for o in feats.options)
    state = started()
    year = by_id(rules.choices(state, 2), "j-year")
    assert year.irreversible and all(f.default is None for f in year.fields)
    assert [f.name for f in year.fields] == ["marseilles", "books.0", "books.1", "books.2", "named"]
    move = {"type": "new_year", "marseilles": "the-juggler", **ROWS}
    assert find([year], move) is year
    assert rules.apply(state, 2, move).book_row == tuple(ROWS["books"])   # the row keeps the order picked


def test_magic_and_book_forms_list_only_the_feats_that_take_the_element() -> None:
    state, seat = in_turn()
    here = state.seats[seat]
    state = replace(state.with_seat(seat, books=("the-magus",)), book_row=state.book_row[1:])
    magic = by_id(rules.choices(state, seat), "j-magic")
    cards, feats = magic.fields
    available = set(state.available_elements())
    assert {o.tags[0] for o in cards.options} <= available   # only cards whose element a feat takes now
    for option in feats.options:
        takes = option.when["card"]
        assert set(takes) <= available and all(FEAT_NEEDS[option.value][e] for e in takes)
    for fid, _ in here.feats:   # a feat that takes none of the available elements is never offered
        if not set(FEAT_NEEDS[fid]) & available:
            assert fid not in [o.value for o in feats.options]
    offered = {c.form_id for c in rules.choices(state, seat)}
    magus = BOOKS["the-magus"]
    room = sum(FEAT_NEEDS[f].get(magus.element, 0) for f, _ in here.feats)
    assert ("j-book" in offered) == (magus.element in available and room >= 2)
    if "j-book" in offered:
        book = by_id(rules.choices(state, seat), "j-book")
        double = next(f for f in book.fields if f.name == "feats.0" and f.when == {"book": ("match-double",)})
        assert all(FEAT_NEEDS[o.value].get(magus.element) for o in double.options)


def test_options_show_names_never_ids_and_cards_name_their_card() -> None:
    rng = random.Random(5)
    state = rules.setup(NAMES, {})
    seen = 0
    for _ in range(300):
        if state.phase == "over":
            break
        for seat in range(3):
            for choice in rules.choices(state, seat):
                for f in choice.fields:
                    for o in f.options:
                        seen += 1
                        assert o.label not in IDS and not re.fullmatch(r"[a-z]+(-[a-z]+)+", o.label), o.label
                        if isinstance(o.value, str) and o.value in IDS:
                            assert o.card == ("jsmn", o.value)
        moves = [(s, m) for s in range(3) if (m := rules.random_legal_move(state, s, rng)) is not None]
        state = rules.apply(state, *rng.choice(moves))
    assert seen > 1000


def test_advice_says_names_not_ids() -> None:
    state = rules.apply(started(), 1, {"type": "new_year", "marseilles": "the-juggler", **ROWS})
    text = " ".join(a["text"] for a in rules.advice(state, state.turn.seat))
    assert "study-rain-hills" not in text and "Study rain and hills" in text
    state, seat = in_turn()
    text = " ".join(a["text"] for a in rules.advice(state, seat))
    assert "Rain" in text and " rain," not in text


def _other_hidden_feats(state: JsmnState, seat: int) -> JsmnState:
    """The same public moves, another seat holding different secret feats."""
    other = (seat + 1) % 3
    mine = {f for f, _ in state.seats[seat].feats}
    free = [f for f in FEATS if f not in state.feats_out() and f not in mine]
    return state.with_seat(other, feats=tuple((f, ()) for f in free[:3]))


def test_secrets_never_change_the_choices() -> None:
    state, seat = in_turn()
    other = _other_hidden_feats(state, seat)
    assert other != state and rules.view(other, seat) == rules.view(state, seat)
    assert to_json(rules.choices(other, seat)) == to_json(rules.choices(state, seat))


def _forms(page: str) -> str:
    found = re.search(r'<section class="panel moves".*?</section>', page, re.S)   # lists and forms
    assert found is not None
    return re.sub(r'name="csrf_token" value="[^"]*"', "", found.group(0))


def test_a_feat_in_another_hand_looks_like_a_free_one_on_the_seat_page(app: Flask, client: FlaskClient) -> None:
    """Two games with the same public moves; Ben was dealt other feats (one of them the feat Ann might take):
    Ann's forms are the same bytes, and the held feat is offered like any free one."""
    store = store_of(app)
    held = "grow-a-hedge-in-a-night"
    pages = []
    for ben in (STARTING[1], [held, *STARTING[1][1:]]):
        game = store.create_game("jsmn", NAMES, {"magicians": ["norrell", "strange", "segundus"]})
        moves = [(0, {"type": "starting_feats", "feats": STARTING[0]}), (1, {"type": "starting_feats", "feats": ben}),
                 (2, {"type": "starting_feats", "feats": STARTING[2]}),
                 (1, {"type": "new_year", "marseilles": "the-juggler", **ROWS}),
                 (0, {"type": "still_waters"}), (0, {"type": "move", "to": "padua"})]
        for seat, move in moves:
            version = store.version(game["id"])
            store.apply_move(game["id"], seat, version, f"t-{version}", move)
        pages.append(_forms(seat_page(client, game, 0)))
    assert pages[0] == pages[1]
    takeable = offered(pages[0], "j-engage", "feats")
    assert held in takeable and "find-the-kings-roads" not in takeable   # Ann's own is not


def test_with_every_action_covered_only_stilling_the_waters_is_offered() -> None:
    from companion.rules.jsmn.state import ACTION_IDS

    state = rules.apply(started(), 1, {"type": "new_year", "marseilles": "the-juggler", **ROWS})
    seat = state.turn.seat
    covered = replace(state, seats=tuple(s.__class__(**{**s.__dict__, "covered": tuple(ACTION_IDS)}) if i == seat else s
                                         for i, s in enumerate(state.seats)))
    offered = rules.choices(covered, seat)
    assert [c.move for c in offered] == ["still_waters"]  # no "Take this action" with nothing to pick
    assert offered[0].rule == "jsmn.action.covered" and offered[0].primary
    after = rules.apply(covered, seat, {"type": "still_waters"})
    assert after.seats[seat].covered == ()


def test_the_cast_form_leaves_out_a_magicianship_spell_in_front_of_another_magician() -> None:
    """Which spell a seat casts is public (every log names it), so the form no longer offers a magicianship
    spell another magician already has face up in front of them, which the rules would refuse."""
    state, seat = in_turn()
    other = (seat + 1) % 3
    mine = state.with_seat(seat, spells=1)
    spells = [o.value for o in by_id(rules.choices(mine, seat), "j-cast").fields[0].options]
    assert "agrippas-ring" in spells
    played = mine.with_seat(other, spells_played=("agrippas-ring",))
    spells = [o.value for o in by_id(rules.choices(played, seat), "j-cast").fields[0].options]
    assert "agrippas-ring" not in spells and "dees-shew-stone" in spells
