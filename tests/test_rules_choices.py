"""Every game's ``choices(state, seat)`` against its own ``apply``, over random games (hypothesis).

- Every move built from a choice the way a player fills in its form (:func:`sample_move`) is accepted,
  or refused only by a rule the choice names in ``checks`` (a relation between picks the form leaves
  to the server).
- Every legal move the game's own random player makes (``random_legal_move``), written the way the
  form writes it, lies inside the choices.
- Choices never depend on a secret: the choices of a seat are identical in two states that differ
  only in what is hidden from that seat (the rearranger each game declares, tests/game_traits.py, the same as
  the shared view test); a legal move is written the way the form writes it by the game's declared ``form_move``.
"""

from __future__ import annotations

import json
import random
import re
from types import ModuleType
from typing import Any

import pytest
from game_traits import traits_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import GAMES, IllegalMove
from companion.rules.base import no_choices
from companion.rules.choices import (
    Choice,
    find,
    for_another,
    sample_move,
    spoken_of,
    to_json,
)

CHOICE_GAMES = sorted(game for game, module in GAMES.items() if module.choices is not no_choices)
SAMPLES = 3
MOVE_CAP = 400


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
    declared = traits_for(game)  # tests/game_traits.py
    rearrange, form_move = declared.rearrange_hidden, declared.form_move
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
                _said_of_another(offered)
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


#: words a form uses for the seat that makes the move, on its own phone
SPOKEN_TO = re.compile(r"\b(?:you|your|yours|yourself|my|mine|me)\b|\bI\b", re.I)
WORDS = frozenset({"label", "title", "hint", "detail", "group", "short"})


def _without_words(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_words(v) for k, v in value.items() if k not in WORDS}
    if isinstance(value, list):
        return [_without_words(v) for v in value]
    return value


def _said_of_another(offered: list[Choice]) -> None:
    """A seat's forms shown on another phone (a correction of its move) name it and never say "you" or "my";
    the moves they send are the same."""
    theirs = for_another(offered, "Zed")
    assert _without_words(to_json(theirs)) == _without_words(to_json(offered))
    for choice in theirs:
        words = [choice.label, choice.title, choice.hint] + [
            w for f in choice.fields for w in (f.label, f.hint, f.none_label, *(
                x for o in f.options for x in (o.label, o.detail, o.group, o.short)))]
        for text in words:
            assert not SPOKEN_TO.search(text), f"{choice.form_id} on another phone: {text!r}"


def test_another_seats_form_names_that_seat_with_its_verbs_agreeing() -> None:
    said = {"A knight of yours reached which place?": "A knight of Zed's reached which place?",
            "+3 tokens · you arrive 2nd": "+3 tokens · Zed arrives 2nd",
            "Place my Control token": "Place Zed's Control token",
            "Which card did you draw?": "Which card did Zed draw?",
            "Which card do you play into your zone?": "Which card does Zed play into Zed's zone?",
            "The three cards you were dealt": "The three cards Zed was dealt",
            "Hand limit 8: you hold 9.": "Hand limit 8: Zed holds 9.",
            "You have 2 tokens": "Zed has 2 tokens",
            "The card I just drew": "The card Zed just drew",
            "The card I discard for this trick": "The card Zed discards for this trick",
            "It stays with you unless you pass.": "It stays with Zed unless Zed passes.",
            "Every action you could take": "Every action Zed could take",
            "When you do magic, birds are available to you.": "When Zed does magic, birds are available to Zed.",
            "No: it goes into my hand": "No: it goes into Zed's hand"}
    assert {text: spoken_of(text, "Zed") for text in said} == said
    assert spoken_of("Draw a card", "Zed") == "Draw a card"


@pytest.mark.parametrize("game", CHOICE_GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), players_index=st.integers(0, 2))
def test_choices_build_legal_moves_cover_legal_moves_and_keep_secrets(game: str, seed: int,
                                                                      players_index: int) -> None:
    module = GAMES[game]
    players = [module.MIN_PLAYERS, (module.MIN_PLAYERS + module.MAX_PLAYERS) // 2, module.MAX_PLAYERS][players_index]
    counts = _play_and_check(game, players, seed)
    enough = min(10, traits_for(game).min_moves_per_game)  # a short game (as it declares) builds fewer
    assert counts["built"] > enough and counts["inside"] > enough


def test_an_irreversible_choice_has_no_preselected_answer() -> None:
    from companion.rules.choices import Field, Option

    with pytest.raises(ValueError, match="no preselected answer"):
        Choice("drop_out", "Drop out", (Field("x", "X", options=(Option(1, "one"),), default=1),), irreversible=True)
