"""The test every game's rules module passes (OpenSpiel's random_sim_test, our way).

Seeded random playouts with the module's own ``random_legal_move`` must never crash, must end
(with a winner, or — for games that have one — in a dead end the module reports), must survive a
JSON round trip at every step, and ``view`` must never show a seat what it may not know: the view
of a seat does not change when the cards hidden from it are rearranged. A new game adds one entry
to HIDDEN_REARRANGERS: how to rearrange what a viewer cannot see.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from types import ModuleType
from typing import Any, Callable

import pytest

from companion.rules import GAMES, IllegalMove, Outcome

MOVE_CAP = 4000
SEEDS = range(6)


def _fillory_rearrange(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """Swap a card in another seat's hand with a card of the deck (or of another hidden hand)."""
    hidden_hands = [f"hand:{s}" for s in range(len(state.players)) if s != viewer]
    in_hands = [i for i, loc in enumerate(state.locations) if loc in hidden_hands]
    others = [i for i, loc in enumerate(state.locations)
              if loc == "deck" or (loc in hidden_hands)]
    if not in_hands:
        return None
    first = rng.choice(in_hands)
    choices = [i for i in others if state.locations[i] != state.locations[first]]
    if not choices:
        return None
    second = rng.choice(choices)
    places = list(state.locations)
    places[first], places[second] = places[second], places[first]
    return replace(state, locations=tuple(places))


def _nothing_hidden(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """Barony: Sorcery keeps no secrets (every seat sees the whole state): nothing to rearrange."""
    return None


def _mandragora_rearrange(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """Rewrite another seat's private hand note, and its revealed colours while not everyone has revealed."""
    others = [s for s in range(len(state.players)) if s != viewer]
    notes, reveals = list(state.hand_notes), list(state.reveals)
    seat = rng.choice(others)
    notes[seat] = tuple(reversed(notes[seat] or ())) + ("mandrake",) if rng.random() < 0.5 else None
    if not all(r is not None for r in reveals):
        hidden = [s for s in others if reveals[s] is not None]
        if hidden:
            reveals[rng.choice(hidden)] = ("white",)
    changed = replace(state, hand_notes=tuple(notes), reveals=tuple(reveals))
    return None if changed == state else changed


def _jsmn_rearrange(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """Before the end, change another seat's private ledger: a feat in front of it (or a completed one) for a
    feat nobody holds, and the spells it has played for others: its magicianship changes, its view must not."""
    from companion.rules.jsmn.state import FEATS, SPELLS

    if state.phase == "over":
        return None
    others = [s for s in range(len(state.players)) if s != viewer and (state.seats[s].feats or state.seats[s].completed)]
    if not others:
        return None
    seat = rng.choice(others)
    here = state.seats[seat]
    free = [f for f in FEATS if f not in state.feats_out()]
    if not free:
        return None
    if here.completed and rng.random() < 0.5:
        completed = (rng.choice(free),) + here.completed[1:]
        changed = state.with_seat(seat, completed=completed)
    else:
        changed = state.with_seat(seat, feats=((rng.choice(free), here.feats[0][1]),) + here.feats[1:]) \
            if here.feats else state.with_seat(seat, completed=(rng.choice(free),) + here.completed[1:])
    if here.spells_played:
        spells = tuple(rng.choice(list(SPELLS)) for _ in here.spells_played)
        changed = changed.with_seat(seat, spells_played=spells)
    return None if changed == state else changed


#: Per game: rearrange what ``viewer`` cannot see (None when nothing is hidden from it).
HIDDEN_REARRANGERS: dict[str, Callable[[Any, int | None, random.Random], Any]] = {
    "fillory": _fillory_rearrange,
    "barony-sorcery": _nothing_hidden,
    "mandragora": _mandragora_rearrange,
    "jsmn": _jsmn_rearrange,
}

#: Fewest moves per seeded game on average. Barony: Sorcery tracks only the expansion's explorations
#: and casts (at most 15 Control tokens and 30 Magic tokens' worth of casts a game), so its games are short.
MIN_MOVES_PER_GAME: dict[str, int] = {"fillory": 100, "barony-sorcery": 10, "mandragora": 30, "jsmn": 80}


def _play(module: ModuleType, players: int, seed: int, on_step: Callable[[Any, int, dict[str, Any], Any], None]) -> Any:
    rng = random.Random(seed)
    names = [f"Player {i + 1}" for i in range(players)]
    state = module.setup(names, {}, random.Random(seed))
    for _ in range(MOVE_CAP):
        if module.outcome(state).over or getattr(module, "stalled", lambda s: False)(state):
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
    rearrange = HIDDEN_REARRANGERS[module.GAME_ID]
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
    assert moves > MIN_MOVES_PER_GAME.get(game, 100) * len(SEEDS)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_declares_the_shared_interface(game: str) -> None:
    module = GAMES[game]
    for name in ("GAME_ID", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "MOVE_TYPES", "setup", "apply", "view",
                 "score", "outcome", "advice", "redact_move", "describe_move", "state_to_json",
                 "state_from_json", "random_legal_move"):
        assert hasattr(module, name), f"{game} lacks {name}"
    assert module.GAME_ID == game
    assert game in HIDDEN_REARRANGERS, f"add {game} to HIDDEN_REARRANGERS"
    assert 1 <= module.MIN_PLAYERS <= module.MAX_PLAYERS
    assert module.MOVE_TYPES and all(isinstance(text, str) and text for text in module.MOVE_TYPES.values())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_is_declared_once_by_its_spec(game: str) -> None:
    """The spec (what shared code reads) agrees with the rules and the content: declared, not sniffed."""
    from cardgen.catalog import content
    from companion.rules import SPECS

    spec, module = SPECS[game], GAMES[game]
    assert spec.id == module.GAME_ID == game and spec.rules_module == module.__name__
    found = content(game)
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
