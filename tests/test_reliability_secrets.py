"""No phone learns another seat's secrets, over a real server, for every registered game.

Seeded random games (each rules module's ``random_legal_move``) are played through the API. At several
points before the end, every route a phone can reach is read as every seat and as the public table:
``GET /api/games/<id>`` with and without a token, the log, the table page and its live part, and each
seat's page and live part with that seat's own cookie. Two kinds of check:

- Direct: a seat's secrets (Fillory: the ids and names of cards in another seat's hand that this
  viewer never saw anywhere) appear in no JSON value and no log line; every log entry is the move
  as the rules module redacts it for that viewer (a draw by someone else shows no card).
- Twin game: a second game is played with the same moves except that one hidden card of one seat
  is exchanged with a card that never left the deck. Every route, read by anyone but that seat,
  must answer exactly the same in both games; the seat's own page must differ (it shows its hand).
  Whatever a page prints, this proves that nothing on it depends on that hidden card. The same for the
  part a scanned card's page shows (``/c/<game>/<card>/moves``: the moves this phone's seat may make with
  that card), for both swapped cards, as every other seat.

Each game declares its :class:`~game_traits.SecretModel` (tests/game_traits.py): what a viewer must never
see, and how to swap a hidden thing for another; no game is listed here. A seat page asked for with another seat's cookie is refused.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from http.cookiejar import DefaultCookiePolicy
from typing import Any, Callable, Iterator

import pytest
import requests
from game_traits import NO_SECRETS, Moves, SecretModel, strings_in, traits_for

from cardgen.catalog import content
from companion.rules import GAMES, SPECS
from companion.served import RunningServer, running_server
from companion.store import Store
from companion.web.helpers import token_cookie

pytestmark = pytest.mark.served

SEED = 11


def kept_alive() -> requests.Session:
    """The test's phones' one connection, kept alive (a new connection for each of the file's thousands of
    requests cost the server and the test a quarter more CPU). It keeps no cookie the server sets: a request
    sends only the cookies it names, as each one did with a connection of its own. It reads no proxy or .netrc
    from the environment (``trust_env``): requests looked both up for each of those requests, about a tenth of
    the test process's own CPU, for a server on 127.0.0.1 that no proxy stands before."""
    session = requests.Session()
    session.trust_env = False
    session.cookies.set_policy(DefaultCookiePolicy(allowed_domains=[]))
    return session


PHONES = kept_alive()


def swap_strings(value: Any, swap: dict[str, str]) -> Any:
    if isinstance(value, str):
        return swap.get(value, value)
    if isinstance(value, dict):
        return {key: swap_strings(v, swap) for key, v in value.items()}
    if isinstance(value, list):
        return [swap_strings(v, swap) for v in value]
    return value


# -- what each game keeps secret: each game declares its SecretModel (tests/game_traits.py) ----------


def model_for(game: str) -> SecretModel:
    return traits_for(game).secret_model or NO_SECRETS


# -- a game on the server -------------------------------------------------------------------------

@dataclass
class ServedGame:
    server: RunningServer
    game: str
    id: str
    join_code: str
    tokens: list[str]

    @classmethod
    def create(cls, server: RunningServer, game: str, players: int) -> ServedGame:
        response = PHONES.post(server.base + "/api/games", timeout=60, json={
            "game": game, "players": [f"Player {seat + 1}" for seat in range(players)], "options": {}})
        assert response.status_code == 201, response.text
        body = response.json()
        return cls(server, game, body["id"], body["join_code"], [s["token"] for s in body["seats"]])

    def post_move(self, seat: int, version: int, move: dict[str, Any]) -> None:
        response = PHONES.post(f"{self.server.base}/api/games/{self.id}/moves", timeout=60,
                                 headers={"Authorization": f"Bearer {self.tokens[seat]}"},
                                 json={"version": version, "action_id": f"a{version}", "move": move})
        assert response.status_code == 200, (seat, move, response.text)

    def get(self, path: str, viewer: int | None, cookie_seat: int | None = None,
            token: str | None = None) -> requests.Response:
        """GET as the phone of ``viewer`` (None: a phone holding no seat): its bearer token and cookie."""
        headers, cookies = {}, {}
        if viewer is not None:
            headers["Authorization"] = f"Bearer {token or self.tokens[viewer]}"
            cookie = token_cookie(self.id, viewer if cookie_seat is None else cookie_seat)
            cookies[cookie] = token or self.tokens[viewer]
        return PHONES.get(self.server.base + path.format(id=self.id), headers=headers, cookies=cookies, timeout=60)

    def routes(self, viewer: int | None) -> dict[str, str]:
        """Every route this viewer's phone can read, by name, as text."""
        paths = {"api game": "/api/games/{id}", "api log": "/api/games/{id}/log", "table": "/g/{id}",
                 "table live": "/g/{id}/live"}
        if viewer is not None:
            paths |= {"seat": f"/g/{{id}}/seat/{viewer}", "seat live": f"/g/{{id}}/seat/{viewer}/live"}
        answers = {}
        for name, path in paths.items():
            response = self.get(path, viewer)
            assert response.status_code == 200, (name, viewer, response.text[:300])
            answers[name] = response.text
        return answers

    def normalised(self, text: str) -> str:
        """The text with what differs between any two games (id, code, tokens, QR, CSRF token, times) taken out."""
        text = text.replace(self.id, "{game}").replace(self.join_code, "{code}")
        for seat, token in enumerate(self.tokens):
            text = text.replace(token, f"{{token {seat}}}")
        text = re.sub(r'<svg class="qr".*?</svg>', "{qr}", text, flags=re.S)
        text = re.sub(r'data-csrf="[^"]*"', 'data-csrf="{csrf}"', text)  # random for each new session
        return re.sub(r'"at": ?"[^"]*"', '"at": "{time}"', text)


def mentions(text: str, name: str, all_names: set[str]) -> bool:
    """Whether ``text`` names ``name`` as a word (not as part of a longer name)."""
    for longer in sorted((n for n in all_names if name in n and n != name), key=len, reverse=True):
        text = text.replace(longer, "")
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("secrets"), ("--workers", "2", "--threads", "4"),
                        secret_key="secrets-test-key") as running:
        yield running
    assert not PHONES.cookies, "the phones' connection kept a cookie: later requests would have sent it"
    PHONES.close()


def check_direct(game: ServedGame, history: list[Any], moves: Moves, answers: dict[int | None, dict[str, str]]) -> int:
    """No viewer's JSON or log line holds another seat's secret; log entries are redacted for their viewer."""
    rules, model = GAMES[game.game], model_for(game.game)
    all_names = {card.name for card in getattr(content(game.game), "cards", ())}
    checked = 0
    for viewer, routes in answers.items():
        secrets = model.secrets(history, moves, viewer)
        checked += len(secrets)
        state = json.loads(routes["api game"])
        for player in state["state"]["players"]:
            if player["seat"] != viewer:
                assert player.get("hand") is None, f"seat {viewer} sees seat {player['seat']}'s hand"
        entries = json.loads(routes["api log"])["entries"]
        assert len(entries) == len(moves)
        for entry, (actor, move) in zip(entries, moves, strict=True):
            assert entry["seat"] == actor and entry["move"] == rules.redact_move(move, actor, viewer), entry
            hidden = model.hidden_fields.get(str(move.get("type")))
            if actor != viewer and hidden is not None:
                assert entry["move"][hidden] is None, entry  # e.g. a draw by someone else shows no card
        leaked = secrets & (strings_in(state) | strings_in(entries))
        assert not leaked, f"{viewer} is shown {sorted(leaked)}"
        for entry in entries:
            named = {name for name in model.names(secrets) if mentions(entry["text"], name, all_names)}
            assert not named, f"{viewer} reads {sorted(named)} in {entry['text']!r}"
    return checked


def check_everyone_sees_the_same(answers: dict[int | None, dict[str, str]]) -> int:
    """For a game without secrets: every viewer's game JSON (but for "you") and log equal the table's."""
    def shown(routes: dict[str, str]) -> tuple[Any, Any]:
        game = json.loads(routes["api game"])
        game["state"].pop("you")
        return game, json.loads(routes["api log"])["entries"]

    table = shown(answers[None])
    for viewer, routes in answers.items():
        assert shown(routes) == table, f"seat {viewer} is shown another game than the table"
    return len(answers) - 1


def test_every_registered_game_says_what_it_keeps_secret() -> None:
    assert all(model_for(game).hides_anything or not SPECS[game].hidden_information for game in GAMES), \
        "a game that keeps secrets declares its SecretModel (tests/game_traits.py)"


def random_game(server: RunningServer, game: str, players: int, seed: str,
                checkpoints: tuple[int, ...]) -> Iterator[tuple[ServedGame, list[Any], Moves]]:
    """The one driver of both tests: a seeded random game played through the API, yielding (game, states
    from set-up on, moves) at each checkpoint reached before the end."""
    rules = GAMES[game]
    played = ServedGame.create(server, game, players)
    table = Store(server.db_path)
    rng = random.Random(seed)
    moves: Moves = []
    history = [table.current(played.id)[1]]
    try:
        for checkpoint in checkpoints:
            while len(moves) < checkpoint and not rules.outcome(history[-1]).over:
                candidates = [(s, m) for s in range(players)
                              if (m := rules.random_legal_move(history[-1], s, rng)) is not None]
                seat, move = rng.choice(candidates)
                played.post_move(seat, len(moves), move)
                moves.append((seat, move))
                history.append(table.current(played.id)[1])
            if rules.outcome(history[-1]).over:
                return
            yield played, history, moves
    finally:
        table.close()


@pytest.mark.parametrize("game, players", [(game, size) for game in sorted(GAMES)
                                           for size in sorted({GAMES[game].MIN_PLAYERS,
                                                               min(4, GAMES[game].MAX_PLAYERS)})])
def test_no_route_shows_a_seat_what_another_seat_hides(server: RunningServer, game: str, players: int) -> None:
    model = model_for(game)
    checkpoints_seen, secrets_checked, twins, card_parts = 0, 0, 0, 0
    for played, history, moves in random_game(server, game, players, f"{SEED}-{players}",
                                              traits_for(game).secret_checkpoints):
        checkpoints_seen += 1
        viewers: list[int | None] = [None, *range(players)]
        answers = {viewer: played.routes(viewer) for viewer in viewers}
        secrets_checked += check_direct(played, history, moves, answers)
        if not model.hides_anything:
            secrets_checked += check_everyone_sees_the_same(answers)

        # the owner of the swapped secret turns with the checkpoints; a seat with nothing to swap passes it on
        owner, swap = next(((o, sw) for k in range(players) if (sw := model.twin_swap(
            history, moves, o := (checkpoints_seen + k) % players)) is not None), (0, None))
        if swap is None:
            continue
        twin = ServedGame.create(server, game, players)
        for version, (seat, move) in enumerate(moves):
            twin.post_move(seat, version, swap_strings(move, swap))
        twins += 1
        for viewer in viewers:
            theirs = twin.routes(viewer)
            for route, text in answers[viewer].items():
                same = played.normalised(text) == twin.normalised(theirs[route])
                if viewer != owner or route.startswith("table"):
                    assert same, f"{route} as {viewer} depends on what seat {owner} hides ({swap})"
                elif route in model.owner_sees_on:  # the owner's own hand: the twin really differs
                    assert not same, f"the twin game did not change seat {owner}'s own {route}"
        # a printed card's QR code scanned by another seat: the swapped cards' move parts read the same
        card_game = game.replace("_", "-")  # the card pages' game id (barony_sorcery is barony-sorcery)
        for viewer in (v for v in viewers if v is not None and v != owner):
            for card in sorted({*swap, *swap.values()}):
                path = f"/c/{card_game}/{card}/moves"
                ours, theirs_part = played.get(path, viewer), twin.get(path, viewer)
                assert ours.status_code == theirs_part.status_code, (path, viewer)
                assert played.normalised(ours.text) == twin.normalised(theirs_part.text), \
                    f"{path} as {viewer} depends on what seat {owner} hides ({swap})"
                card_parts += ours.status_code == 200
    if model.hides_anything:
        assert card_parts > 0, "no swapped card has a card page to scan"
        assert checkpoints_seen >= 2 and twins >= 2, (checkpoints_seen, twins)
    else:
        assert checkpoints_seen >= 1 and twins == 0, (checkpoints_seen, twins)
    assert secrets_checked > 0


def one_character_off(token: str) -> str:
    """The token with its last character changed (a fixed replacement would be no change at all in one
    token of 64, whose last character it already is)."""
    return token[:-1] + ("x" if token[-1] != "x" else "y")


def test_a_seat_page_is_refused_to_any_other_seat(server: RunningServer) -> None:
    for game in sorted(GAMES):
        players = min(3, GAMES[game].MAX_PLAYERS)
        played = ServedGame.create(server, game, players)
        other = ServedGame.create(server, game, players)
        for path in ("/g/{id}/seat/0", "/g/{id}/seat/0/live"):
            refusals = [
                played.get(path, None),                                  # no cookie
                *(played.get(path, seat, cookie_seat=0)                  # seat 1's token under seat 0's cookie
                  for seat in range(1, players)),
                played.get(path, 0, token=other.tokens[0]),              # seat 0 of another game
                played.get(path, 0, token=one_character_off(played.tokens[0])),
            ]
            for refused in refusals:
                assert refused.status_code == 403, (path, refused.status_code)
                assert "Traceback" not in refused.text and played.tokens[0] not in refused.text
            assert played.get(path, 0).status_code == 200
        for path in ("/api/games/{id}", "/api/games/{id}/log"):
            wrong = played.get(path, 0, token=other.tokens[0])
            assert wrong.status_code == 401
            assert wrong.json()["error"] == "That seat token does not belong to this game."


# -- a spectator's whole sequence of answers, move answers and refusals ----------------------------

def leaves(value: Any) -> int:
    """How many public fields (leaf values) a JSON answer holds: what the comparison covers."""
    if isinstance(value, dict):
        return sum(leaves(v) for v in value.values())
    if isinstance(value, list):
        return sum(leaves(v) for v in value)
    return 1


def named_apart(text: str, swap: dict[str, str], names: Callable[[set[str]], set[str]], first: bool) -> str:
    """The text with the two swapped secrets (ids and names) written as {X} and {Y}: in the first game X is
    the secret the owner holds, in the twin the same placeholder stands for the other one."""
    pair = sorted(swap)[:2]
    x, y = (pair[0], pair[1]) if first else (pair[1], pair[0])
    for label, secret in (("{X}", x), ("{Y}", y)):
        for word in sorted({secret, *names({secret})}, key=len, reverse=True):
            text = text.replace(word, label)
    return text


def post(game: ServedGame, seat: int, version: int, move: dict[str, Any], action_id: str) -> requests.Response:
    return PHONES.post(f"{game.server.base}/api/games/{game.id}/moves", timeout=60,
                         headers={"Authorization": f"Bearer {game.tokens[seat]}"},
                         json={"version": version, "action_id": action_id, "move": move})


SEQUENCE_ROUTES = ("/api/games/{id}", "/api/games/{id}/version", "/api/games/{id}/log", "/api/games/{id}/events",
                   "/g/{id}", "/g/{id}/live")
SEAT_ROUTES = ("/g/{id}/seat/{seat}", "/g/{id}/seat/{seat}/live")
#: pages are read after every move of the first PAGES_EVERY_MOVE, then every PAGES_EVERY-th move (JSON routes always)
PAGES_EVERY_MOVE, PAGES_EVERY = 12, 5


def read_alike(first: ServedGame, twin: ServedGame, viewer: int | None, when: str, owner: int,
               pages: bool) -> int:
    """Every route ``viewer`` can read, from both games: equal texts (normalised) and ETags; its public fields."""
    paths = [p for p in SEQUENCE_ROUTES if pages or p.startswith("/api")]
    if viewer is not None and pages:
        paths += [p.replace("{seat}", str(viewer)) for p in SEAT_ROUTES]
    fields = 0
    for path in paths:
        seen = (first.get(path, viewer), twin.get(path, viewer))
        assert seen[0].status_code == seen[1].status_code == 200, (path, viewer, seen[0].text[:200])
        assert first.normalised(seen[0].text) == twin.normalised(seen[1].text), \
            f"{path} as {viewer} {when} depends on what seat {owner} hides"
        assert seen[0].headers.get("ETag") == seen[1].headers.get("ETag"), (path, viewer, when)
        if path.startswith("/api") and not path.endswith("/events"):
            fields += leaves(seen[0].json())
        elif path.endswith("/events"):
            fields += 1
        else:
            fields += seen[0].text.count("<")      # a page: one public field per element
    return fields


def compare_sequences(server: RunningServer, game: str, players: int, moves: Moves, swap: dict[str, str],
                      owner: int) -> tuple[int, int, int]:
    """Two fresh games get the same public moves, one with the owner's secret swapped. After every move the
    spectator and every other seat read every route (state, version, log, events, table page and live part,
    their own seat page and live part; ETags too), and every move answer to a seat other than the owner is
    compared. Then another seat takes the last move back (its answer and every route after it compared), and
    every move of the owner that names the secret is sent by each other seat to both games, naming the
    secret the owner holds in one game and a free card in the other: the refusals must read the same.
    A probe that both games take (a secret any seat may name: ``SecretModel.others_refused`` False) has its
    answers compared, and ends the probing: the games now differ from the recorded moves.
    Returns (public fields compared, refusals compared, probes taken alike)."""
    model = model_for(game)
    first, twin = ServedGame.create(server, game, players), ServedGame.create(server, game, players)
    viewers: list[int | None] = [None, *(s for s in range(players) if s != owner)]
    fields = 0
    for version, (seat, move) in enumerate(moves):
        answers = (post(first, seat, version, move, f"m{version}"),
                   post(twin, seat, version, swap_strings(move, swap), f"m{version}"))
        assert [a.status_code for a in answers] == [200, 200], [a.text[:200] for a in answers]
        if seat != owner:
            assert first.normalised(answers[0].text) == twin.normalised(answers[1].text), \
                f"the answer to seat {seat}'s move {version + 1} depends on what seat {owner} hides"
            fields += leaves(answers[0].json())
        pages = version < PAGES_EVERY_MOVE or version % PAGES_EVERY == 0 or version == len(moves) - 1
        for viewer in viewers:
            fields += read_alike(first, twin, viewer, f"after move {version + 1}", owner, pages)
    # any seat may take back the last move: the answers and everything read after it must not differ
    undoer = viewers[1]
    assert undoer is not None
    undone = [PHONES.post(f"{g.server.base}/api/games/{g.id}/undo", timeout=60,
                            headers={"Authorization": f"Bearer {g.tokens[undoer]}"},
                            json={"version": len(moves), "action_id": "undo"}) for g in (first, twin)]
    assert [u.status_code for u in undone] == [200, 200], [u.text[:200] for u in undone]
    assert first.normalised(undone[0].text) == twin.normalised(undone[1].text), "the undo answer differs"
    fields += leaves(undone[0].json())
    for viewer in viewers:
        fields += read_alike(first, twin, viewer, "after the undo", owner, True)
    version = len(moves) + 1
    refusals = 0
    probes = [move for seat, move in moves if seat == owner and strings_in(move) & set(swap)]
    for n, probe in enumerate(probes):
        for seat in range(players):
            if seat == owner:
                continue
            # as recorded (the owner's secret in the first game, a free card in the twin), then swapped
            for k, (one, other) in enumerate(((probe, probe), (swap_strings(probe, swap), swap_strings(probe, swap)),
                                              (probe, swap_strings(probe, swap)))):
                answers = (post(first, seat, version, one, f"probe{n}-{seat}-{k}"),
                           post(twin, seat, version, other, f"probe{n}-{seat}-{k}"))
                assert answers[0].status_code == answers[1].status_code, (probe, [a.text[:200] for a in answers])
                texts = [g.normalised(a.text) for g, a in zip((first, twin), answers, strict=True)]
                if k == 2:   # each names the secret its owner holds: compare with the two written as {X}, {Y}
                    texts = [named_apart(t, swap, model.names, g is first) for g, t in zip((first, twin), texts, strict=True)]
                what = "answer to" if answers[0].status_code == 200 else "refusal of"
                assert texts[0] == texts[1], \
                    f"seat {seat}'s {what} {one} depends on what seat {owner} hides: {texts[0]} / {texts[1]}"
                if answers[0].status_code == 200:
                    return fields, refusals, 1  # taken in both alike: the games now differ from the recorded moves
                refusals += 1
    return fields, refusals, 0


COUNTS: dict[str, dict[str, int]] = {}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_spectator_and_a_seat_see_the_same_sequence_whatever_another_seat_hides(server: RunningServer,
                                                                                  game: str) -> None:
    rules, model = GAMES[game], model_for(game)
    players = rules.MIN_PLAYERS if rules.MIN_PLAYERS > 1 else 2
    compared = fields = refusals = taken = 0
    for _, history, moves in random_game(server, game, players, f"{SEED}-sequence-{players}",
                                         traits_for(game).secret_checkpoints[:2]):
        owner, swap = next(((o, sw) for k in range(players) if (sw := model.twin_swap(
            history, moves, o := (compared + k) % players)) is not None), (0, None))
        if swap is None:
            continue
        more_fields, more_refusals, more_taken = compare_sequences(server, game, players, list(moves), swap, owner)
        fields, refusals, compared = fields + more_fields, refusals + more_refusals, compared + 1
        taken += more_taken
    COUNTS[game] = {"sequences": compared, "public fields": fields, "refusals": refusals, "probes taken": taken}
    print(f"\n{game}: {COUNTS[game]}")
    if model.hides_anything:  # probes compared: refusals, or (a secret any seat may name) the answers taking it
        assert compared >= 1 and fields > 0 and (refusals if model.others_refused else taken) > 0, COUNTS[game]
    else:
        assert compared == 0
