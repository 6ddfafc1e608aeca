"""Every game's ``choices(state, seat)`` against its own ``apply``, over random games (hypothesis).

- Every move built from a choice the way a player fills in its form (:func:`sample_move`) is accepted,
  or refused only by a rule the choice names in ``checks`` (a relation between picks the form leaves
  to the server).
- Every legal move the game's own random player makes (``random_legal_move``), written the way the
  form writes it, lies inside the choices.
- Choices never depend on a secret: the choices of a seat are identical in two states that differ
  only in what is hidden from that seat (``HIDDEN_REARRANGERS``, the same as the shared view test).
"""

from __future__ import annotations

import json
import random
from types import ModuleType
from typing import Any, Callable, Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import GAMES, IllegalMove
from companion.rules.choices import Choice, find, sample_move, to_json

from test_rules_shared import HIDDEN_REARRANGERS

CHOICE_GAMES = sorted(game for game, module in GAMES.items() if hasattr(module, "choices"))
SAMPLES = 3
MOVE_CAP = 400


def _mandragora_form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the seat's form writes it: scrolls and levitated scrolls by their curses, the spell by
    id, a shop by its place in the circle, lists in the form's order. None: a move no form writes."""
    from companion.rules.mandragora.state import CARD, GAME, INGREDIENT_COLOURS, MANDRAKE

    out = dict(move)
    kind = move["type"]
    if kind == "seek":
        out["scrolls"] = sorted(s if isinstance(s, int) else CARD[s].curses for s in move.get("scrolls", []))
        if not out["scrolls"]:
            out.pop("scrolls")
        out["shop"] = state.circle[(state.assistant + move["steps"]) % len(state.circle)]
    elif kind == "cast":
        order = [*INGREDIENT_COLOURS, MANDRAKE]
        out["ingredients"] = sorted(move["ingredients"], key=order.index)
        out["spell"] = GAME.spell(move["spell"]).id
        if out["spell"] == "levitation":
            if isinstance(move.get("shop"), str):
                out["shop"] = state.circle.index(move["shop"])
            if isinstance(move.get("scroll"), str):
                out["scroll"] = CARD[move["scroll"]].curses
    elif kind == "note_hand":
        return None   # a note may name ingredient cards by id; the form counts them by colour
    return out


def _jsmn_form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the seat's form writes it: the picks of a list in the form's order (feats as the catalog
    lists them, the named connexions too); the books laid out keep their order (one pick per place in the row)."""
    from companion.rules.jsmn.state import FEATS, NAMED

    out = dict(move)
    if move["type"] == "new_year" and state.marseilles:   # the rows are asked in the first year only
        out.pop("books", None)
        out.pop("named", None)
    order = {**{f: i for i, f in enumerate(FEATS)}, **{n: i for i, n in enumerate(NAMED)}}
    for name in ("feats", "named"):
        if isinstance(out.get(name), list) and not (move["type"] == "use_book"):
            out[name] = sorted(out[name], key=order.__getitem__)
    return out


def _fillory_form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the seat's form writes it: no discard list when nothing is discarded."""
    out = dict(move)
    if out["type"] == "end_turn" and not out.get("discard"):
        out.pop("discard", None)
    return out


def _barony_form_move(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """A legal move as the Barony seat's form writes it: spells by id in card order, a location by id with
    the reward it pays (the form sends it)."""
    from companion.rules.barony_sorcery.cast import SPELL_ORDER, spell_of

    out = dict(move)
    if move["type"] == "cast":
        out["spells"] = sorted((spell_of(s).id for s in move["spells"]), key=SPELL_ORDER.__getitem__)
    return out


#: Per game: a legal move written the way its form writes it (None: no form writes moves like it).
FORM_MOVES: dict[str, Callable[[Any, int, Mapping[str, Any]], dict[str, Any] | None]] = {
    "mandragora": _mandragora_form_move,
    "jsmn": _jsmn_form_move,
    "fillory": _fillory_form_move,
    "barony-sorcery": _barony_form_move,
}


def _built_moves_are_legal(module: ModuleType, state: Any, seat: int, offered: list[Choice],
                           rng: random.Random) -> int:
    tried = 0
    for choice in offered:
        for _ in range(SAMPLES):
            move = sample_move(choice, rng)
            if move is None:
                continue
            tried += 1
            try:
                module.apply(state, seat, move)
            except IllegalMove as error:
                assert error.rule in choice.checks, f"{choice.form_id} built {move}, refused: {error}"
    return tried


def _play_and_check(game: str, players: int, seed: int) -> dict[str, int]:
    module = GAMES[game]
    rng = random.Random(seed)
    state = module.setup([f"P{i}" for i in range(players)], {}, random.Random(seed))
    counts = {"built": 0, "inside": 0, "secret_checks": 0}
    rearrange = HIDDEN_REARRANGERS[game]
    form_move = FORM_MOVES[game]
    for step in range(MOVE_CAP):
        if module.outcome(state).over:
            break
        for seat in range(players):
            offered = module.choices(state, seat)
            json.dumps(to_json(offered))
            if step % 3 == seat % 3:
                counts["built"] += _built_moves_are_legal(module, state, seat, offered, rng)
            if step % 5 == 0:
                other = rearrange(state, seat, rng)
                if other is not None:
                    counts["secret_checks"] += 1
                    assert to_json(module.choices(other, seat)) == to_json(offered), \
                        f"seat {seat}'s choices depend on a secret"
        candidates = [(s, m) for s in range(players) if (m := module.random_legal_move(state, s, rng)) is not None]
        if not candidates:
            break
        seat, move = rng.choice(candidates)
        written = form_move(state, seat, move)
        if written is not None:
            assert find(module.choices(state, seat), written) is not None, f"legal {written} is not offered"
            counts["inside"] += 1
        state = module.apply(state, seat, move)
    return counts


@pytest.mark.parametrize("game", CHOICE_GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players_index=st.integers(0, 2))
def test_choices_build_legal_moves_cover_legal_moves_and_keep_secrets(game: str, seed: int,
                                                                      players_index: int) -> None:
    module = GAMES[game]
    players = [module.MIN_PLAYERS, (module.MIN_PLAYERS + module.MAX_PLAYERS) // 2, module.MAX_PLAYERS][players_index]
    counts = _play_and_check(game, players, seed)
    assert counts["built"] > 10 and counts["inside"] > 10


def test_an_irreversible_choice_has_no_preselected_answer() -> None:
    from companion.rules.choices import Field, Option

    with pytest.raises(ValueError, match="no preselected answer"):
        Choice("drop_out", "Drop out", (Field("x", "X", options=(Option(1, "one"),), default=1),), irreversible=True)
