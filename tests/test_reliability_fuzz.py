"""Schemathesis against a real server: requests generated from the served ``/api/openapi.json``.

For every operation in the document, Schemathesis generates requests that fit the schema and
requests that break it; a share of them are aimed at a real game of every registered game (its id,
a seat token, its join code, its current version, a real move type) so they get past the 404 and
reach the rules. Every answer must be documented (status, content type, body schema), never a 5xx,
every 4xx in the one error shape, and every schema-breaking request refused with a 4xx.
tests/test_api.py already fuzzes bodies through the test client; this goes through gunicorn and
lets the published contract drive the requests.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterator

import pytest
import requests
import schemathesis
from game_traits import games_from_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from companion.rules import GAMES
from companion.served import RunningServer, running_server
from companion.web.openapi import openapi_document
from companion.web.photo import games_with_photo

GAMES_WITH_PHOTO = games_with_photo()

pytestmark = pytest.mark.served

#: the operations that change a game (its moves, corrections, seats; a new game, a join) get the most cases: the
#: rules and the store are behind them; reads, calculators, photos and search get half as many. (The whole run's
#: share, to keep it inside ten minutes: ``FUZZ_SHARE=4`` gives a soak of four times as many.)
EXAMPLES_PER_OPERATION = 100
EXAMPLES_PER_READ_OR_TOOL = 50
#: a run for some games only (a game just added, say): ``FUZZ_GAMES`` (comma-separated ids)
#: are the games the cases are aimed at, with ``FUZZ_SHARE`` of the examples (or more than all: a soak); unset,
#: every discovered game, all
AIMED = games_from_env("FUZZ_GAMES", GAMES)
SHARE = float(os.environ.get("FUZZ_SHARE", "1"))


def examples_for(label: str) -> int:
    method, path = label.split(" ", 1)
    changes_a_game = method == "POST" and ("{game_id}" in path or path in ("/api/games", "/api/join"))
    return max(10, round(SHARE * (EXAMPLES_PER_OPERATION if changes_a_game else EXAMPLES_PER_READ_OR_TOOL)))
#: gunicorn's limit_request_line: a longer request line is refused (414, gunicorn's own page) before the app.
REQUEST_LINE_LIMIT = 4094


def negative_data_rejected(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schemathesis's ``negative_data_rejection``, with a 413 taken as the refusal it is: a schema-breaking body
    of more than the 64 KB taken (a list far over its ``maxItems``, say) is refused by its size before its
    schema is read (found by this fuzz test: schemathesis's list of refusals has no 413)."""
    if response.status_code == 413:
        return None
    return negative_data_rejection(ctx, response, case)


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, negative_data_rejected]
#: Every documented operation that takes input (the document itself takes none).
OPERATIONS = sorted(f"{method.upper()} {path}" for path, methods in openapi_document()["paths"].items()
                    for method in methods if path != "/api/openapi.json")


@dataclass(frozen=True)
class RealGame:
    game: str
    id: str
    join_code: str
    tokens: tuple[str, ...]
    move_types: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    server: RunningServer
    schema: Any  # schemathesis.BaseSchema, loaded from the server
    games: tuple[RealGame, ...]


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    with running_server(tmp_path_factory.mktemp("fuzz"), ("--workers", "2", "--threads", "4"),
                        secret_key="fuzz-test-key") as server:
        games = []
        for name, rules in sorted(GAMES.items()):
            players = [f"Player {seat + 1}" for seat in range(rules.MIN_PLAYERS)]
            created = requests.post(server.base + "/api/games", json={"game": name, "players": players},
                                    timeout=60).json()
            games.append(RealGame(name, created["id"], created["join_code"],
                                  tuple(seat["token"] for seat in created["seats"]), tuple(sorted(rules.MOVE_TYPES))))
        schema = schemathesis.openapi.from_url(server.base + "/api/openapi.json")
        yield Target(server, schema, tuple(games))


@dataclass(frozen=True)
class Aim:
    """How a generated case is pointed at a real game before it is sent (game None: sent as generated)."""

    game: RealGame | None
    current_version: bool = False
    move_type: str | None = None
    seat: int | None = None
    lower_case_code: bool = False


def aims(games: tuple[RealGame, ...]) -> st.SearchStrategy[Aim]:
    """Three in four cases aimed at a real game: its version, one of its move types, a seat (or one too many)."""
    def at(game: RealGame | None) -> st.SearchStrategy[Aim]:
        if game is None:
            return st.just(Aim(None))
        return st.builds(Aim, st.just(game), st.booleans(), st.none() | st.sampled_from(game.move_types),
                         st.none() | st.integers(0, len(game.tokens)), st.booleans())

    return st.sampled_from([None, *games * 3]).flatmap(at)


def point_at(case: Any, aim: Aim, server: RunningServer, session: requests.Session) -> None:
    """Rewrite a generated case towards ``aim.game``: its id, token, join code, version (read over ``session``, the
    cases' own kept-alive connection), move type."""
    game = aim.game
    if game is None:
        return
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game.id
    body = case.body
    if not isinstance(body, dict):
        return
    if case.path == "/api/games" and isinstance(body.get("game"), str):
        body["game"] = game.game
    if case.path == "/api/join" and isinstance(body.get("code"), str):
        body["code"] = game.join_code.lower() if aim.lower_case_code else game.join_code
    if aim.seat is not None and isinstance(body.get("seat"), int):
        body["seat"] = aim.seat
    if aim.current_version and isinstance(body.get("version"), int):
        body["version"] = session.get(f"{server.base}/api/games/{game.id}/version", timeout=60).json()["version"]
    if aim.move_type is not None and isinstance(body.get("move"), dict):
        body["move"]["type"] = aim.move_type


def check_error_shape(response: requests.Response) -> None:
    if response.status_code < 400:
        return
    body = response.json()
    assert isinstance(body, dict) and set(body) >= {"ok", "error", "rule", "status"}, body
    assert body["ok"] is False and body["status"] == response.status_code, body
    # a sentence: capitalised, as far as its first letter has a capital (a name may begin with "ª")
    assert isinstance(body["error"], str) and body["error"] and body["error"][:1] == body["error"][:1].upper(), body
    assert body["rule"] is None or isinstance(body["rule"], str), body


def test_every_documented_operation_is_fuzzed(target: Target) -> None:
    loaded = sorted(result.ok().label for result in target.schema.get_all_operations())
    assert loaded == OPERATIONS, "the served document and openapi_document() differ"


@pytest.mark.parametrize("label", OPERATIONS)
def test_generated_requests_get_documented_answers_and_never_a_5xx(target: Target, label: str) -> None:
    operation = target.schema.find_operation_by_label(label)
    assert operation is not None
    game_routes = "{game_id}" in operation.path
    aimed = tuple(game for game in target.games if game.game in AIMED)
    assert len(aimed) == len(AIMED), f"FUZZ_GAMES names a game not discovered: {AIMED}"
    tokens = [token for game in aimed for token in game.tokens] if game_routes else []
    headers: list[dict[str, str]] = [{}, *({"Authorization": f"Bearer {token}"} for token in tokens)]
    # schema-fitting cases may be aimed at a real game; schema-breaking ones go as generated (aiming could
    # mend them), only their game id may be a real one
    positive = [st.tuples(operation.as_strategy(generation_mode=GenerationMode.POSITIVE, headers=h),
                          aims(aimed)) for h in headers]
    negative = [st.tuples(operation.as_strategy(generation_mode=GenerationMode.NEGATIVE, headers=h), st.just(Aim(None)))
                for h in headers]
    if game_routes:
        negative += [st.tuples(operation.as_strategy(generation_mode=GenerationMode.NEGATIVE,
                                                     path_parameters={"game_id": game.id}), st.just(Aim(None)))
                     for game in aimed]
    statuses: dict[int, int] = {}
    session = requests.Session()

    @settings(max_examples=examples_for(label), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                     HealthCheck.data_too_large])
    @given(case_and_aim=st.one_of(positive + negative))
    def send(case_and_aim: tuple[Any, Aim]) -> None:
        case, aim = case_and_aim
        point_at(case, aim, target.server, session)
        response = case.call(base_url=target.server.base, session=session, timeout=60)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        request_line = f"{response.request.method} {response.request.path_url} HTTP/1.1"
        if len(request_line) > REQUEST_LINE_LIMIT:  # a query string of kilobytes: no phone sends one
            assert response.status_code == 414
            return
        case.validate_response(response, checks=CHECKS)
        check_error_shape(response)

    send()
    session.close()
    assert sum(statuses.values()) >= examples_for(label) // 2, statuses


@pytest.mark.parametrize("method, path, body, status, sentence", [
    # found by this fuzz test: a seat number beyond SQLite's integers was a 500
    # a number beyond 64 bits is read as a double (as orjson reads it): refused as beyond the numbers taken
    ("POST", "/api/join", {"code": "ABCDEF", "seat": 525260265998140112371712}, 400,
     "A number in the request body is beyond ±9,007,199,254,740,991 (2^53 − 1), the largest whole number a "
     "phone counts exactly"),
    # found by this fuzz test: a repeated query parameter was read as its first value, an empty one as none
    ("GET", "/api/games/{id}/log?since=&since=2", None, 400, "'since' must be given once"),
    ("GET", "/api/games/{id}/log?since=", None, 400, "'since' must be a whole number of at least 0 and at most 999999999"),
    ("GET", "/api/search?q=x&limit=2&limit=3", None, 400, "'limit' must be given once"),
    # found by this fuzz test: a code's corner that was not an (x, y) pair was a 500
    ("POST", "/api/photo/" + GAMES_WITH_PHOTO[0] + "/score", {"cards": [{"card": "0", "corners": [[], [], [], []]}]},
     400, "'cards[0].corners[0]' needs at least 2 item(s)."),
])
def test_what_fuzzing_found_stays_fixed(target: Target, method: str, path: str, body: Any, status: int,
                                        sentence: str) -> None:
    url = target.server.base + path.replace("{id}", target.games[0].id)
    response = requests.request(method, url, json=body, timeout=60)
    assert response.status_code == status
    expected = sentence[:1].upper() + sentence[1:]
    expected += "" if expected.endswith((".", "!", "?", "…")) else "."  # the one message style
    assert response.json() == {"ok": False, "error": expected, "rule": None, "status": status}


def test_the_server_logged_no_error(target: Target) -> None:
    log = target.server.log()
    assert "Traceback" not in log and "[ERROR]" not in log


def test_every_seat_choosing_operation_documents_another_seats_token(target: Target) -> None:
    """Found by this fuzz test: the audit answered 403 to another seat's token without documenting it. Every
    operation that takes a seat token and names a seat in its body documents the 403, and it is served."""
    document = openapi_document()
    schemas = document["components"]["schemas"]
    choosing = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            ref = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            model = schemas.get(ref.get("$ref", "").rsplit("/", 1)[-1], {})
            if {"seatToken": []} in operation.get("security", []) and "seat" in model.get("properties", {}):
                choosing.append((method, path))
                assert "403" in operation["responses"], (method, path)
    assert ("post", "/api/games/{game_id}/audit") in choosing
    game = next(game for game in target.games if game.game in GAMES_WITH_PHOTO)
    response = requests.post(f"{target.server.base}/api/games/{game.id}/audit", json={"cards": [], "seat": 1},
                             headers={"Authorization": f"Bearer {game.tokens[0]}"}, timeout=60)
    assert response.status_code == 403 and "not seat 1" in response.json()["error"], response.text
