"""Issue 21, generated: every field of every move type, by type and range, through the HTTP API.

For every discovered game and every move type its rules declare (``SPEC.moves``, with each field's kind), a
random game is played until a legal move of that type is found; then each declared field of that move is
replaced in turn by a wrong kind (an object, a list of objects, a text, a fraction, a truth value, null, a huge
number, a negative, a 10,000-character text, a nested list) and sent as a move, as the correction of that move,
as a later move corrected with an earlier one (``also``) and as a move put in by a correction (``insert``).
Every answer is 2xx or 4xx; a refused one changes nothing; and after each accepted one every reader of the
game — the game and log APIs, the table, the seat pages, the corrections pages (history, one move's form, what
a correction would break), the result page and its JSON and BG Stats exports — answers 2xx or 4xx and agrees
with the state (``check_readers`` of test_timeline_props).

CI runs a seeded sample of (field, wrong kind, way in) per move type; ``FIELD_SEEDS=20 FIELD_ALL=1`` runs every
combination over more seeds. The figures are printed with ``-s``.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from typing import Any, Iterator

import pytest
from flask import Flask

from companion.rules import GAMES, IllegalMove
from companion.store.states import _applied
from companion.web import create_app
from companion.web.helpers import token_cookie
from tests.test_timeline_props import Game, check_readers

#: the wrong kinds a field is given, by name
WRONG: dict[str, Any] = {
    "object": {"x": "y"}, "list of objects": [{"x": 1}], "text": "quentin", "fraction": 1.5, "truth value": True,
    "null": None, "huge number": 10**30, "negative": -7, "long text": "x" * 10_000, "nested list": ["a", ["b"]],
}
WAYS = ("move", "correct", "also", "insert")
SEEDS = [int(s) for s in os.environ.get("FIELD_SEEDS_LIST", "").split(",") if s] or list(
    range(int(os.environ.get("FIELD_SEEDS", "1"))))
#: every (field, wrong kind, way) of each move type; else this many, sampled
ALL = os.environ.get("FIELD_ALL") == "1"
SAMPLE = 5
#: moves played to find a move type before giving up on this game (it is looked for in another)
LONGEST = 400
SEEN: Counter[str] = Counter()
#: what a refusal shown on a page never says: the API's names of a move's fields and a correction's parts
API_WORDS = re.compile(r"\b[Ff]ield\b|\bseq\b|send its|, got [a-z]+\b|\b(str|int|dict|NoneType)\b")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("fields") / "f.sqlite3"),
                      "SECRET_KEY": "test-secret-key"})
    yield app
    app.extensions["store"].close()


def get_routes(app: Flask) -> list[str]:
    return sorted(r.rule for r in app.url_map.iter_rules() if "GET" in (r.methods or ()) and "game_id" in r.arguments
                  and r.arguments <= {"game_id", "seat", "seq"})


def pages_answer(game: Game, routes: list[str], change: dict[str, Any] | None, rng: random.Random,
                 seats: list[int] | None = None) -> None:
    """Every GET route of one game (each seat, a few live seqs, and the change on /misfit) answers 2xx/4xx."""
    seqs = [m.seq for m in game.store.live_moves(game.id)]
    picked = sorted(set(rng.sample(seqs, min(2, len(seqs))) + seqs[-1:])) or [1]
    for rule in routes:
        for seat in range(len(game.tokens)) if seats is None else seats:
            for seq in picked if "<int:seq>" in rule else [0]:
                path = rule.replace("<game_id>", game.id).replace("<int:seat>", str(seat)).replace(
                    "<int:seq>", str(seq))
                if path.endswith("/misfit") and change is not None:
                    path += "?change=" + json.dumps(change)
                response = game.client.get(path, headers={"Authorization": f"Bearer {game.tokens[seat]}"})
                SEEN[f"page {response.status_code // 100}xx"] += 1
                assert response.status_code < 500, (path, response.get_data(as_text=True)[:400])


def found_at(name: str, move_type: str, rng: random.Random, app: Flask) -> tuple[Game, int, int, dict[str, Any]] | None:
    """A new game played at random (through the store) until ``move_type`` is a legal move for some seat:
    that game, the seat, the seq the move would get, and the move. None if it did not come."""
    rules = GAMES[name]
    game = Game(app.test_client(), name, rng.randint(rules.MIN_PLAYERS, min(rules.MAX_PLAYERS, 4)))
    for _ in range(LONGEST):
        state = game.state()
        seats = rng.sample(range(len(game.tokens)), len(game.tokens))
        for seat in seats:   # the move type wanted, if a seat's rules sample it here (a few tries each)
            for _ in range(4):
                move = rules.random_legal_move(state, seat, rng)
                if move is not None and move.get("type") == move_type:
                    return game, seat, game.store.version(game.id) + 1, move
        if game.finished():
            return None
        step = game.random_move(state, rng)
        if step is None:
            return None
        version = game.store.version(game.id)
        game.store.apply_move(game.id, step[0], version, f"g{version}", step[1])
    return None


def send(game: Game, seat: int, way: str, move: dict[str, Any], seq: int, wrong: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Send ``wrong`` (``move`` with one field replaced) the given way; ``seq``: where ``move`` is (or would be)."""
    live = {m.seq: m for m in game.store.live_moves(game.id)}
    if way == "move":
        return game.post(seat, "moves", {"move": wrong}), {"move": wrong}
    if way == "correct":
        body: dict[str, Any] = {"seq": seq, "move": wrong}
    else:
        earlier = [s for s in live if s < seq]
        if not earlier:   # no earlier move to correct with it: the move itself, corrected as it was
            body = {"seq": seq, "move": move}
        else:
            first = live[max(earlier)]
            body = {"seq": first.seq, "move": first.move}
        if way == "also" and earlier:
            body["also"] = [{"seq": seq, "move": wrong}]
        elif way == "insert":
            body["insert"] = [{"before": seq, "seat": seat, "move": wrong}]
        elif way == "also":
            body = {"seq": seq, "move": move, "also": [{"seq": seq, "move": wrong}]}
    author = live[body["seq"]].seat if body["seq"] in live else seat
    return game.post(author, "correct", body), {k: v for k, v in body.items() if k != "seq"}


def check_move_type(app: Flask, name: str, spec: Any, seed: int, routes: list[str]) -> None:
    rng = random.Random(f"fields-{name}-{spec.type}-{seed}")
    found = None
    for _ in range(3):
        found = found_at(name, spec.type, rng, app)
        if found is not None:
            break
    if found is None:   # a type random play did not reach (e.g. only after a rare event): sent where the game is
        SEEN[f"{name} not reached: {spec.type}"] += 1
        rules = GAMES[name]
        game = Game(app.test_client(), name, rules.MIN_PLAYERS)
        found = game, 0, 1, {"type": spec.type}
    game, seat, seq, move = found
    for s, token in enumerate(game.tokens):   # this phone holds every seat: the seat pages answer it
        game.client.set_cookie(token_cookie(game.id, s), token)
    SEEN[f"{name} types"] += 1
    fields = list(spec.kinds) or ["junk"]   # a type without fields: a field it does not have
    cases = [(f, k, w) for f in fields for k in WRONG for w in WAYS]
    if not ALL:
        cases = rng.sample(cases, min(SAMPLE, len(cases)))
    cases.sort(key=lambda case: case[2] != "move")   # sent as moves first, where the move is legal
    declared = {f for m in GAMES[name].SPEC.moves for f in m.kinds} | {"type", "drop", "also", "insert", "seq"}
    played = False
    for field, kind, way in cases:
        if way != "move" and not played:   # the move itself, now in the log, for the ways that rewrite it
            version = game.store.version(game.id)
            try:
                game.store.apply_move(game.id, seat, version, f"t{version}", move)
            except IllegalMove:   # a type not reached (sent bare): the rewrites name the last move, or none
                pass
            seq, played = max(1, game.store.version(game.id)), True
        wrong = {**move, field: WRONG[kind]}
        before = game.store.version(game.id), json.dumps(game.client.get(f"/api/games/{game.id}/log").get_json())
        response, change = send(game, seat, way, move, seq, wrong)
        SEEN[f"{way} {response.status_code}"] += 1
        if response.status_code == 422:   # the rules' refusal, as a page shows it: in table words
            refused = response.get_json()
            said = refused.get("said", refused["error"])
            assert not API_WORDS.search(said) and not any(f"'{f}'" in said for f in declared), (refused, wrong)
            SEEN["refusals in table words" if "said" in refused else "refusals already in table words"] += 1
        if response.status_code >= 300:   # refused: nothing changed
            assert (game.store.version(game.id), json.dumps(
                game.client.get(f"/api/games/{game.id}/log").get_json())) == before, (way, field, kind)
            continue
        SEEN[f"accepted {name} {spec.type}.{field}={kind} ({way})"] += 1
        check_readers(game)
        pages_answer(game, routes, change, rng)
        if way == "move":   # the move (with that field) is in the log: the other ways rewrite it
            seq, played = game.store.version(game.id), True
    check_readers(game)
    pages_answer(game, routes, {"move": {**move, fields[0]: WRONG["object"]}}, rng,
                 None if ALL else [rng.randrange(len(game.tokens))])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_field_of_every_move_type_refused_or_read_by_every_page(app: Flask, name: str) -> None:
    routes = get_routes(app)
    for seed in SEEDS:
        for spec in GAMES[name].SPEC.moves:
            check_move_type(app, name, spec, seed, routes)
    print(name, dict(sorted(SEEN.items())))
    assert SEEN[f"{name} types"] == len(SEEDS) * len(GAMES[name].SPEC.moves)


@pytest.mark.parametrize("name", sorted(n for n, r in GAMES.items() if r.SPEC.private_moves))
def test_a_private_note_corrected_with_a_wrong_field_is_refused(app: Flask, name: str) -> None:
    """A private note that no longer fits after a change is passed over (it was advice); but the note a
    correction writes is checked like any move: with a wrong field it is refused and nothing is stored (the
    correction of a hand note to {"cards": 1.5} was stored, and passed over by every reader)."""
    spec = next(m for m in GAMES[name].SPEC.moves if m.private_note and m.kinds)
    rng = random.Random(f"note-{name}")
    found = next((f for _ in range(5) if (f := found_at(name, spec.type, rng, app)) is not None), None)
    assert found is not None, f"random play never offered a {spec.type}"
    game, seat, _, move = found
    version = game.store.version(game.id)
    game.store.apply_move(game.id, seat, version, "note", move)
    seq = game.store.version(game.id)
    for field in spec.kinds:
        for kind in ("fraction", "object", "list of objects", "truth value"):
            before = game.client.get(f"/api/games/{game.id}/log").get_json()
            response = game.post(seat, "correct", {"seq": seq, "move": {**move, field: WRONG[kind]}})
            assert response.status_code == 422, (field, kind, response.get_json())
            assert game.client.get(f"/api/games/{game.id}/log").get_json() == before
    check_readers(game)


#: a value of each field kind that passes its type and range check
FITTING = {"text": "x", "texts": [], "number": 0, "seat": 0, "text_or_number": 0, "texts_or_numbers": [],
           "text_or_texts": "x", "counts": {}}


def test_a_correction_stores_its_move_as_a_move_is_stored(app: Flask) -> None:
    """A move is stored less the declared fields the rules did not read here; a correction's move is stored
    the same way (it kept what was sent, so a field nothing read, such as a count of introductions on a card
    that draws none, stayed in the log). In every game where random play meets such a field."""
    trimmed: Counter[str] = Counter()
    for name, rules in sorted(GAMES.items()):
        rng = random.Random(f"kept-{name}")
        game = Game(app.test_client(), name, rules.MIN_PLAYERS)
        for _ in range(60):
            before = game.state()
            found = game.random_move(before, rng)
            if found is None:
                break
            seat, move = found
            version = game.store.version(game.id)
            game.store.apply_move(game.id, seat, version, f"k{version}", move)
            seq = game.store.version(game.id)
            spec = rules.SPEC.move(move["type"])
            for field in [f for f in spec.kinds if f not in move]:
                sent = {**move, field: FITTING[spec.kinds[field]]}
                expected = _applied(rules, before, seat, sent, name)
                if isinstance(expected, Exception) or field in expected[2]:
                    continue   # refused, or read: not this test's case
                response = game.post(seat, "correct", {"seq": seq, "move": sent})
                if response.status_code != 200:
                    continue
                stored = {m.seq: m.move for m in game.store.live_moves(game.id)}[seq]
                assert stored == expected[2], (field, stored)
                log = [e for e in game.store.log(game.id, None) if e["kind"] == "correct"][-1]
                assert field not in log["move"]["move"], log
                trimmed[name] += 1
        check_readers(game)
    print(dict(trimmed))
    assert sum(trimmed.values()) > 0, "no correction carried a field the rules did not read"
