"""The photo audit of every game that has one: a planted mis-report is listed with the one-tap correction that
fixes it (the seat's own move, replaced or removed), the correction is accepted and the audit then agrees; where
no single correction can fix a difference the answer says so; and no answer depends on another seat's secret."""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest
from flask.testing import FlaskClient

from cardgen.catalog import content
from companion.rules import rules_for
from companion.rules.base import IllegalMove
from companion.web.photo import SeatMove, games_with_photo, hook

AUDIT_GAMES = [game for game in games_with_photo() if hook(game).audit is not None]  # type: ignore[union-attr]


# -- playing a tracked game through the API ---------------------------------------------------------------

class Table:
    """A game created through the API and played with the rules' random legal moves, each sent by its seat."""

    def __init__(self, client: FlaskClient, game: str, players: list[str], seed: int) -> None:
        self.client, self.game, self.rng = client, game, random.Random(seed)
        self.rules = rules_for(game)
        self.created = client.post("/api/games", json={"game": game, "players": players}).get_json()
        self.id = self.created["id"]
        self.store = client.application.extensions["store"]

    def token(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.created['seats'][seat]['token']}"}

    def state(self) -> Any:
        info = self.store.info(self.id)
        return self.store.state_at(self.id, info["version"])[1]

    def version(self) -> int:
        return int(self.store.info(self.id)["version"])

    def send(self, seat: int, move: dict[str, Any]) -> Any:
        version = self.version()
        return self.client.post(f"/api/games/{self.id}/moves", headers=self.token(seat),
                                json={"version": version, "action_id": f"m{version}-{seat}", "move": move})

    def step(self) -> tuple[int, dict[str, Any]] | None:
        """One random legal move of whichever seat may move; None when nobody can."""
        state = self.state()
        for seat in self.rng.sample(range(len(self.created["seats"])), len(self.created["seats"])):
            move = self.rules.random_legal_move(state, seat, self.rng)
            if move:
                done = self.send(seat, move)
                assert done.status_code == 200, done.get_json()
                return seat, move
        return None

    def audit(self, seat: int, cards: list[str]) -> dict[str, Any]:
        answer = self.client.post(f"/api/games/{self.id}/audit", headers=self.token(seat), json={"cards": cards})
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()  # type: ignore[no-any-return]

    def correct(self, seat: int, fix: dict[str, Any]) -> Any:
        return self.client.post(f"/api/games/{self.id}/correct", headers=self.token(seat),
                                json={"version": self.version(), "action_id": f"fix{self.version()}", **fix})


def _play_until(table: Table, done: Callable[[int, dict[str, Any]], bool], limit: int = 400) -> bool:
    """Random moves until ``done(seat, move)`` after one; False if the game ends first."""
    for _ in range(limit):
        step = table.step()
        if step is None:
            return False
        if done(*step):
            return True
    return False


def _table_until(client: FlaskClient, game: str, done: Callable[[Table, int, dict[str, Any]], bool]) -> Table:
    """A game played until ``done(table, seat, move)`` (trying playouts one after another)."""
    for seed in range(20):
        table = Table(client, game, ["Ann", "Ben"], seed)
        def reached(seat: int, move: dict[str, Any], table: Table = table) -> bool:
            return done(table, seat, move)

        if _play_until(table, reached):
            return table
    pytest.fail("no playout reached the point the test needs")


# -- Mandragora --------------------------------------------------------------------------------------------

MANDRAGORA = content("mandragora")


def _front(view: dict[str, Any], seat: int) -> list[str]:
    mine = next(player for player in view["players"] if player["seat"] == seat)
    return [spell["spell"] for spell in mine["spells"]] + list(mine["scrolls"])


def test_mandragora_a_mis_tapped_spell_is_fixed_in_one_tap_then_a_spell_never_cast_is_taken_back(
        client: FlaskClient) -> None:
    """Ann's last cast is reported with the wrong spell card: the audit names both cards and offers move N with the
    card the photo shows; once fixed it agrees. Then a photo without that spell: the last move, so taking it back
    is offered, and after it the app agrees with a photo of what is left."""
    from companion.rules.mandragora.cast import EFFECT_FIELDS

    rules = rules_for("mandragora")

    def swappable(table: Table, seat: int, move: dict[str, Any]) -> bool:
        if seat != 0 or move["type"] != "cast":
            return False
        view = rules.view(table.state(), 0)
        cast = MANDRAGORA.card(view["players"][0]["spells"][-1]["spell"])
        return cast.spell not in EFFECT_FIELDS and any(
            MANDRAGORA.card(card).spell not in (*EFFECT_FIELDS, cast.spell)
            for stack in view["spell_stacks"] if stack["value"] == cast.value for card in stack["cards"])

    table = _table_until(client, "mandragora", swappable)
    view = rules.view(table.state(), 0)
    cast = view["players"][0]["spells"][-1]
    other = next(card for stack in view["spell_stacks"] if stack["value"] == cast["value"] for card in stack["cards"]
                 if MANDRAGORA.card(card).spell not in (*EFFECT_FIELDS, MANDRAGORA.card(cast["spell"]).spell))
    photo = [card for card in _front(view, 0) if card != cast["spell"]] + [other]
    was, now = MANDRAGORA.label(MANDRAGORA.card(cast["spell"])), MANDRAGORA.label(MANDRAGORA.card(other))

    body = table.audit(0, photo)
    assert body["agree"] is False and len(body["differences"]) == 1
    difference = body["differences"][0]
    assert difference["text"] == (f"The app thinks {now} is still in the stack of power {cast['value']} and {was} "
                                  f"in front of you; the photo shows {now} in front of you, not {was}.")
    assert difference["fix_label"] == f"Move {difference['fix']['seq']} cast {now}, not {was}"
    assert difference["fix"]["move"]["spell"] == other and difference["no_fix"] is None
    fixed = table.correct(0, difference["fix"])
    assert fixed.status_code == 200, fixed.get_json()
    assert table.audit(0, photo)["agree"] is True, table.audit(0, photo)

    without = [card for card in photo if card != other]
    body = table.audit(0, without)
    [taken_back] = body["differences"]
    assert taken_back["text"] == f"The app thinks {now} is in front of you; the photo does not show it."
    assert taken_back["fix"] == {"seq": difference["fix"]["seq"], "move": None}
    assert taken_back["fix_label"] == f"You never cast {now}: take back move {difference['fix']['seq']}"
    assert table.correct(0, taken_back["fix"]).status_code == 200
    assert table.audit(0, without)["agree"] is True


def test_mandragora_identical_copies_agree_and_an_older_cast_says_why_it_cannot_be_taken_back(
        client: FlaskClient) -> None:
    casts: set[int] = set()

    def cast_then_more(table: Table, seat: int, move: dict[str, Any]) -> bool:
        """Ann has cast and Ben moved after it (the game went on)."""
        if seat == 0 and move["type"] == "cast":
            casts.add(id(table))
            return False
        return id(table) in casts and seat == 1 and move["type"] in ("seek", "cast")

    table = _table_until(client, "mandragora", cast_then_more)
    view = table.rules.view(table.state(), 0)
    front = _front(view, 0)
    cast = view["players"][0]["spells"][-1]["spell"]
    # a copy with the same face (another card of the same spell and value, or scroll of as many curses) is that card
    twins = {card: next((other.id for other in MANDRAGORA.cards if other.id != card and other.id not in front
                         and MANDRAGORA.label(other) == MANDRAGORA.label(MANDRAGORA.card(card))), card)
             for card in front}
    assert any(twins[card] != card for card in front)
    assert table.audit(0, [twins[card] for card in front])["agree"] is True
    [difference] = table.audit(0, [card for card in front if card != cast])["differences"]
    assert difference["fix"] is None and difference["move"] is not None
    assert "ended your turn and the game went on from it" in difference["no_fix"]


# -- Jonathan Strange & Mr Norrell ---------------------------------------------------------------------------

JSMN = content("jsmn")


def test_jsmn_a_mis_tapped_starting_feat_is_fixed_in_one_tap(client: FlaskClient) -> None:
    table = Table(client, "jsmn", ["Ann", "Ben"], seed=5)
    for seat in (0, 1):
        move = table.rules.random_legal_move(table.state(), seat, table.rng)
        assert move is not None and move["type"] == "starting_feats"
        assert table.send(seat, move).status_code == 200
    state = table.state()
    view = table.rules.view(state, 0)
    held = {feat for seat in state.seats for feat, _ in seat.feats}
    mine = [feat["id"] for feat in view["players"][0]["ledger"]["feats"]]
    free = next(card.id for card in JSMN.cards if card.kind == "feat" and card.id not in held)
    photo = [free, *mine[1:]]
    [difference] = table.audit(0, photo)["differences"]
    was, now = JSMN.label(JSMN.card(mine[0])), JSMN.label(JSMN.card(free))
    assert difference["text"] == (f"The app does not have {now} in front of you or anywhere you can see and {was} "
                                  f"in front of you; the photo shows {now} in front of you, not {was}.")
    assert difference["fix_label"] == f"Move {difference['fix']['seq']} took {now}, not {was}"
    assert table.correct(0, difference["fix"]).status_code == 200
    assert table.audit(0, photo)["agree"] is True
    # a starting feat cannot simply be removed: three are reported together
    [missing] = table.audit(0, photo[1:])["differences"]
    assert missing["fix"] is None and "correct it on the corrections page" in missing["no_fix"]


def test_jsmn_a_swapped_feat_carries_the_later_moves_that_work_on_it() -> None:
    audit = hook("jsmn").audit  # type: ignore[union-attr]
    feats = [card.id for card in JSMN.cards if card.kind == "feat"]
    view = {"book_row": [], "named_row": [], "players": [
        {"seat": 0, "name": "Ann", "books": [], "named": [],
         "ledger": {"feats": [{"id": feats[0]}, {"id": feats[1]}, {"id": feats[2]}], "completed": []}}]}
    moves = [SeatMove(1, {"type": "starting_feats", "feats": feats[:3]}),
             SeatMove(9, {"type": "magic", "card": "x", "feat": feats[0]}),
             SeatMove(12, {"type": "use_book", "book": "b", "card": "y", "feats": [feats[0], feats[2]]}),
             SeatMove(14, {"type": "magic", "card": "z", "feat": feats[1]})]
    [difference] = audit(view, 0, [feats[5], feats[1], feats[2]], moves)  # type: ignore[misc]
    assert difference.fix == {"seq": 1, "move": {"type": "starting_feats", "feats": [feats[5], *feats[1:3]]},
                              "also": [{"seq": 9, "move": {"type": "magic", "card": "x", "feat": feats[5]}},
                                       {"seq": 12, "move": {"type": "use_book", "book": "b", "card": "y",
                                                            "feats": [feats[5], feats[2]]}}]}


# -- every game with an audit -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", AUDIT_GAMES)
def test_every_difference_offers_a_correction_or_says_why_none_fixes_it(game: str) -> None:
    """Random playouts, random photos: every difference carries either a correction of one of this seat's own
    moves (with its label) or a sentence saying why no single correction fixes it."""
    rules, audit = rules_for(game), hook(game).audit  # type: ignore[union-attr]
    ids = [card.id for card in content(game).cards]
    rng = random.Random(game)
    offered = 0
    for seed in range(3):
        state = rules.setup(["Ann", "Ben", "Cat"], {}, random.Random(seed))
        moves: list[SeatMove] = []
        for number in range(1, 120):
            found = next(((s, m) for s in range(3) if (m := rules.random_legal_move(state, s, random.Random(number)))),
                         None)
            if found is None:
                break
            seat, move = found
            state = rules.apply(state, seat, move)
            if seat == 0:
                moves.append(SeatMove(number, move))
        view = rules.view(state, 0)
        front = [d.card for d in audit(view, 0, [], moves)]  # type: ignore[misc]
        for _ in range(10):
            photo = rng.sample(front, rng.randint(0, len(front))) + rng.sample(ids, rng.randint(0, 3))
            for difference in audit(view, 0, photo, moves):  # type: ignore[misc]
                assert (difference.fix is None) != (difference.no_fix is None), difference
                assert (difference.fix is None) == (difference.fix_label is None), difference
                if difference.fix is not None:
                    offered += 1
                    assert difference.fix["seq"] in {made.seq for made in moves}
    assert offered, "no random photo gave a correction to offer"


def _secret_twin(game: str, seed: int, moves: int) -> tuple[Any, Any, list[SeatMove], int]:
    """Two playouts with the same public moves: wherever another seat made a move with a secret, the twin makes
    another move that reads the same to the others (a random legal one whose redaction is the same). Seat 0's own
    moves are the same in both. Returns both states, seat 0's moves and how many secrets differ."""
    rules = rules_for(game)
    first = rules.setup(["Ann", "Ben", "Cat"], {}, random.Random(seed))
    second = first
    own: list[SeatMove] = []
    differ = 0
    rng = random.Random(seed + 1)
    for number in range(1, moves):
        found = next(((s, m) for s in rng.sample(range(3), 3) if (m := rules.random_legal_move(first, s, rng))), None)
        if found is None:
            break
        seat, move = found
        twin = move
        if seat != 0 and rules.redact_move(move, seat, 0) != move:
            for _ in range(40):
                other = rules.random_legal_move(second, seat, rng)
                if other and other != move and rules.redact_move(other, seat, 0) == rules.redact_move(move, seat, 0):
                    twin = other
                    differ += 1
                    break
        try:
            later = rules.apply(second, seat, twin)
        except IllegalMove:  # the twin's secrets made this move impossible there: the playouts end here
            break
        first, second = rules.apply(first, seat, move), later
        if seat == 0:
            own.append(SeatMove(number, move))
    return first, second, own, differ


@pytest.mark.parametrize("game", AUDIT_GAMES)
def test_no_audit_answer_depends_on_another_seats_secret(game: str) -> None:
    """The same public moves, other seats' secrets different (their hands, notes, feats...): seat 0's audit
    answers are the same whatever its photo shows, cards of the others' secrets included."""
    rules, audit = rules_for(game), hook(game).audit  # type: ignore[union-attr]
    ids = [card.id for card in content(game).cards]
    rng = random.Random(f"{game}-photos")
    differing = 0
    for seed in range(6):
        first, second, own, differ = _secret_twin(game, seed, 80)
        if not differ or first == second:
            continue
        differing += 1
        views = [rules.view(state, 0) for state in (first, second)]
        front = [d.card for d in audit(views[0], 0, [], own)]  # type: ignore[misc]
        for _ in range(12):
            photo = rng.sample(front, rng.randint(0, len(front))) + rng.sample(ids, rng.randint(1, 6))
            answers = [[d.to_json() for d in audit(view, 0, photo, own)] for view in views]  # type: ignore[misc]
            assert answers[0] == answers[1], photo
    assert differing, "no playout gave another seat a secret to differ in"


def test_mandragora_fills_the_spellbook_under_each_spell_from_the_seats_own_casts_only() -> None:
    """What the seat page fills in for the spellbooks the photo cannot see: this seat's casts (each spell card as
    cast, an identical copy as its twin), never another seat's."""
    known_under = hook("mandragora").known_under  # type: ignore[union-attr]
    assert known_under is not None
    twins = [card.id for card in MANDRAGORA.cards if card.kind == "spell"
             and MANDRAGORA.label(card) == MANDRAGORA.label(MANDRAGORA.card("banishment-1"))]
    assert len(twins) == 2
    view = {"players": [
        {"seat": 0, "spells": [{"spell": twins[0], "book": "spellbook-red-2"},
                               {"spell": twins[1], "book": "spellbook-green-0"},
                               {"spell": "swiftness-3", "book": "mandrake"}]},
        {"seat": 1, "spells": [{"spell": "levitation-2", "book": "spellbook-blue-1"}]}]}
    known = known_under(view, 0)
    assert known[twins[0]] == "spellbook-red-2" and known[twins[1]] == "spellbook-green-0"
    assert known["swiftness-3"] == "mandrake-1"
    assert "levitation-2" not in known and "spellbook-blue-1" not in known.values()
    assert known_under(view, 1) == {card.id: "spellbook-blue-1" for card in MANDRAGORA.cards
                                    if MANDRAGORA.label(card) == MANDRAGORA.label(MANDRAGORA.card("levitation-2"))}
