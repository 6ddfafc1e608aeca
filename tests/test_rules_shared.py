"""The test every game's rules module passes (OpenSpiel's random_sim_test, our way).

Seeded random playouts with the module's own ``random_legal_move`` must never crash, must end
(with a winner, or — for games that have one — in a dead end the module reports), must survive a
JSON round trip at every step, and ``view`` must never show a seat what it may not know: the view
of a seat does not change when the cards hidden from it are rearranged. How to rearrange what a viewer
cannot see, and how long its games last, each game declares (tests/game_traits.py); no game is listed here.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from types import ModuleType
from typing import Any, Callable

import pytest
from game_traits import nothing_hidden, traits_for

from cardgen.catalog import content
from cardgen.catalog.base import RuleEntry
from companion.rules import GAMES, SPECS, IllegalMove, Outcome
from companion.rules.base import SILENT_RULEBOOK, as_read
from companion.web.results import is_finished

MOVE_CAP = 4000
SEEDS = range(6)


def _play(module: ModuleType, players: int, seed: int, on_step: Callable[[Any, int, dict[str, Any], Any], None]) -> Any:
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    state = module.setup(names, {}, random.Random(seed))
    for _ in range(MOVE_CAP):
        if is_finished(module, state):
            return state
        candidates = [(s, m) for s in range(players) if (m := module.random_legal_move(state, s, rng)) is not None]
        assert candidates, "a game that is not over must let someone move"
        seat, move = rng.choice(candidates)
        after = module.apply(state, seat, move)
        on_step(state, seat, move, after)
        state = after
    raise AssertionError(f"{module.GAME_ID}: no end after {MOVE_CAP} moves (seed {seed}, {players} players)")


def _round_trips(module: ModuleType, state: Any) -> None:
    data = json.loads(json.dumps(module.state_to_json(state)))
    assert module.state_from_json(data) == state


def _view_hides_secrets(module: ModuleType, state: Any, rng: random.Random) -> None:
    rearrange = traits_for(module.GAME_ID).rearrange_hidden
    for viewer in [None, *range(len(state.players))]:
        seen = module.view(state, viewer)
        json.dumps(seen)
        for player in seen.get("players", []):
            if player.get("seat") != viewer:
                assert player.get("hand") is None, f"seat {viewer} sees seat {player.get('seat')}'s hand"
        other = rearrange(state, viewer, rng)
        if other is not None:
            assert module.view(other, viewer) == seen, f"the view of seat {viewer} depends on hidden cards"


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("players_index", [0, 1, 2])
def test_seeded_playouts_end_round_trip_and_never_leak(game: str, players_index: int) -> None:
    module = GAMES[game]
    players = [module.MIN_PLAYERS, (module.MIN_PLAYERS + module.MAX_PLAYERS) // 2, module.MAX_PLAYERS][players_index]
    check_rng = random.Random(players)
    moves = 0

    def on_step(before: Any, seat: int, move: dict[str, Any], after: Any) -> None:
        nonlocal moves
        moves += 1
        _round_trips(module, after)
        assert isinstance(module.describe_move(move, seat, list(after.players)), str)
        for viewer in [None, *range(players)]:
            json.dumps(module.redact_move(move, seat, viewer))
        assert module.redact_move(move, seat, seat) == move
        if moves % 7 == 0:  # the leak check is the slow part: every seventh position is plenty
            _view_hides_secrets(module, after, check_rng)
        with pytest.raises(IllegalMove):  # a move from no valid seat is refused, whatever it is
            module.apply(after, players, move)

    for seed in SEEDS:
        final = _play(module, players, seed, on_step)
        _round_trips(module, final)
        result = module.outcome(final)
        assert isinstance(result, Outcome)
        totals = module.score(final)
        assert [row["seat"] for row in totals] == list(range(players))
        assert all(row["total"] == sum(b["points"] for b in row["breakdown"]) for row in totals)
        if result.over:  # a sole winner, a shared win (winner None, several seats in winners), or nobody
            # (winner None, no winners: JS&MN's fairy reigns), and then the reason says why
            assert (result.winner in result.winners if result.winner is not None
                    else len(result.winners) > 1 or (result.winners == () and bool(result.reason)))
            assert result.reason
            with pytest.raises(IllegalMove):
                module.apply(final, result.winner, {"type": "end_turn"})
    assert moves > traits_for(game).min_moves_per_game * len(SEEDS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_end_says_why_and_says_when_the_rule_that_settled_it_is_our_reading(game: str) -> None:
    """A finished game (over, or at a dead end) always has a reason: a dead end had none, so the result page and
    its exports had no sentence. The rule an outcome names must exist, and when it is the project's own reading
    (provenance authored: a tie-break or shared win the rulebook does not give, a dead end) the reason says so, in
    the rule's own words; a rule from the rulebook adds nothing."""
    module = GAMES[game]
    for players in sorted({module.MIN_PLAYERS, module.MAX_PLAYERS}):
        for seed in SEEDS:
            final = _play(module, players, seed, lambda *_: None)
            result = module.outcome(final)
            assert result.reason, (game, players, seed)
            if result.rule is None:
                assert "(our reading" not in result.reason
                continue
            entry = content(game).rule(result.rule)
            if entry.provenance == "authored":
                assert result.reason.endswith(f" (our reading: {entry.reading or SILENT_RULEBOOK})")
            else:
                assert "(our reading" not in result.reason


def test_a_reason_says_when_an_authored_rule_settled_it() -> None:
    ours = RuleEntry(id="g.end.tie", game="g", title="Tie", text="…", provenance="authored",
                     reading="the rulebook gives no tie-break")
    assert as_read("Ann and Ben share the win", ours) == \
        "Ann and Ben share the win (our reading: the rulebook gives no tie-break)"
    assert as_read("Ann wins", replace(ours, reading="")) == f"Ann wins (our reading: {SILENT_RULEBOOK})"
    assert as_read("Ann wins", replace(ours, provenance="rulebook")) == "Ann wins"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_declares_the_shared_interface(game: str) -> None:
    module = GAMES[game]
    for name in ("GAME_ID", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "MOVE_TYPES", "setup", "apply", "view",
                 "score", "outcome", "advice", "redact_move", "describe_move", "state_to_json",
                 "state_from_json", "random_legal_move", "choices", "stalled"):
        assert hasattr(module, name), f"{game} lacks {name}"
    assert module.GAME_ID == game
    assert not SPECS[game].hidden_information or traits_for(game).rearrange_hidden is not nothing_hidden, \
        f"{game} keeps secrets: declare how to rearrange them (tests/game_traits.py)"
    assert 1 <= module.MIN_PLAYERS <= module.MAX_PLAYERS
    assert module.MOVE_TYPES and all(isinstance(text, str) and text for text in module.MOVE_TYPES.values())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_is_declared_once_by_its_spec(game: str) -> None:
    """The spec (what shared code reads) agrees with the rules and the content: declared, not sniffed."""
    from cardgen.catalog import data_dir

    spec, module = SPECS[game], GAMES[game]
    assert spec.id == module.GAME_ID == game and spec.rules_module == module.__name__
    found = spec.content(data_dir())  # the game's own loader (None: a game with no content files)
    if found is not None:
        assert (spec.title, spec.min_players, spec.max_players) == (found.title, found.min_players, found.max_players)
    assert (module.TITLE, module.MIN_PLAYERS, module.MAX_PLAYERS) == (spec.title, spec.min_players, spec.max_players)
    assert module.MOVE_TYPES == spec.move_types and module.OPTIONS == dict(spec.options)
    for name in ("setup", "apply", "view", "score", "outcome"):  # a submodule never shadows the front
        assert callable(getattr(module, name)), f"{game}.{name} is not the front's function"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_base_refuses_a_field_the_move_does_not_declare(game: str) -> None:
    module = GAMES[game]
    state = module.setup([f"Player {i + 1}" for i in range(module.MIN_PLAYERS)], {}, random.Random(0))
    kind = next(iter(module.MOVE_TYPES))
    with pytest.raises(IllegalMove) as refused:
        module.apply(state, 0, {"type": kind, "colour_of_the_sky": "blue"})
    assert refused.value.message.startswith(f"The '{kind}' move has no field 'colour_of_the_sky'; it takes ")
    assert refused.value.rule is None and refused.value.seat == 0
    assert refused.value.move == {"type": kind, "colour_of_the_sky": "blue"}


def _junk(value: Any) -> Any:
    """The value with a text in it made too long (by spaces a lenient game would trim), or None if it holds none."""
    if isinstance(value, str):
        return value + " " * 101
    if isinstance(value, list):
        for i, item in enumerate(value):
            if (bad := _junk(item)) is not None:
                return [*value[:i], bad, *value[i + 1:]]
    return None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_field_that_does_not_hold_its_kind_is_refused_before_the_game_looks_at_it(game: str) -> None:
    """The attacker's oracle: a legal move with one text padded past its length, sent at random points of random
    games. Were the game's own checks first, a game that trims the text would refuse it in words that depend on
    the state (a card in a hidden hand: "not in the deck"), else fall through to the length check. The base
    refuses every such move for the field, without a rule, whatever the state holds."""
    module = GAMES[game]
    tried = 0
    rng = random.Random(7)
    for seed in range(3):

        def probe(state: Any, seat: int, move: dict[str, Any], _after: Any) -> None:
            nonlocal tried
            fields = [(name, bad) for name, value in move.items() if name != "type" and (bad := _junk(value)) is not None]
            if not fields or rng.random() > 0.3:
                return
            name, bad = rng.choice(fields)
            with pytest.raises(IllegalMove) as refused:
                module.apply(state, seat, {**move, name: bad})
            assert refused.value.rule is None and refused.value.message.startswith(f"Field '{name}' of the "), \
                refused.value.message
            tried += 1

        _play(module, module.MIN_PLAYERS, seed, probe)
    assert tried >= 10


def test_a_field_of_the_wrong_kind_is_told_its_kind_and_a_bound_only_when_it_passes_one() -> None:
    # a value of another type is told the kind alone: the store's sanity bounds are not the game's range, and the
    # field may be one the move needs ("or left out" was said of every field)
    from companion.rules.fields import wrong_field
    from companion.rules.spec import NUMBER, SEAT, TEXT, TEXTS

    said = {kind: wrong_field({"type": "x", "f": value}, {"f": kind}) for kind, value in
            ((NUMBER, "40"), (SEAT, "1"), (TEXT, 3), (TEXTS, "a"))}
    assert said == {NUMBER: "Field 'f' of the 'x' move must be a whole number",
                    SEAT: "Field 'f' of the 'x' move must be a seat number (a whole number)",
                    TEXT: "Field 'f' of the 'x' move must be a text",
                    TEXTS: "Field 'f' of the 'x' move must be a list of texts"}
    assert wrong_field({"type": "x", "f": 20_000}, {"f": NUMBER}) == \
        "Field 'f' of the 'x' move must be a whole number from -10,000 to 10,000"
    assert wrong_field({"type": "x", "f": "y" * 101}, {"f": TEXT}) == \
        "Field 'f' of the 'x' move must be a text of at most 100 characters"
