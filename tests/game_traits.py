"""What the shared tests need to know about a game, declared by the game, never listed in a shared test.

Each shared test iterates the discovered games (``companion.rules.SPECS``) and reads a game's
:class:`GameTraits` with :func:`traits_for`. A game declares them in one of two places:

- ``TEST_TRAITS = GameTraits(...)`` in its own rules module (a game outside the tree, such as the
  test game under ``tests/``, whose module is test code anyway);
- ``TRAITS = GameTraits(...)`` in ``tests/game_tests/<game id with _ for ->.py`` (the games in the tree,
  whose rules packages hold no test code).

A game that declares nothing gets the defaults, which suit a game without secrets.
"""

from __future__ import annotations

import importlib
import os
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

Rearranger = Callable[[Any, "int | None", random.Random], Any]


def nothing_hidden(state: Any, viewer: int | None, rng: random.Random) -> Any:
    """The rearranger of a game that keeps no secrets (every seat sees the whole state): nothing to rearrange."""
    return None


#: a game's moves as played: (seat, move) in order (tests/test_reliability_secrets.py)
Moves = list[tuple[int, dict[str, Any]]]


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


# -- what each game keeps secret (tests/test_reliability_secrets.py) ------------------------------------

@dataclass(frozen=True)
class SecretModel:
    #: (states from set-up on, moves, viewer) -> the strings that viewer must never be shown
    secrets: Callable[[list[Any], Moves, int | None], set[str]]
    #: (states, moves, seat) -> a relabelling of strings in moves that changes only what ``seat`` hides
    twin_swap: Callable[[list[Any], Moves, int], dict[str, str] | None]
    #: names of the secrets, to look for in log sentences
    names: Callable[[set[str]], set[str]]
    #: False for a game with no secrets: no twin game, and every viewer must be shown the same state
    hides_anything: bool = True
    #: the owner's routes that must show the swapped secret (a game on the generic pages shows it only in the API)
    owner_sees_on: tuple[str, ...] = ("api game", "seat")
    #: move type -> the field another seat's log entry shows as null (Fillory: a draw's card)
    hidden_fields: Mapping[str, str] = field(default_factory=dict)
    #: another seat's move naming the secret is refused (Fillory: a card in the owner's hand) and the refusals
    #: are compared; False for a secret any seat may name (the test game's plan of a free card): the answers
    #: taking it are compared instead
    others_refused: bool = True


def _no_secrets(history: list[Any], moves: Moves, viewer: int | None) -> set[str]:
    return set()


def _no_twin(history: list[Any], moves: Moves, seat: int) -> dict[str, str] | None:
    return None


def _no_names(secrets: set[str]) -> set[str]:
    return set()


#: The model of a game that keeps nothing secret: no secret strings, no hidden thing to swap in a twin game;
#: instead every viewer must be shown the same state (but for "you") and the same log.
NO_SECRETS = SecretModel(_no_secrets, _no_twin, _no_names, hides_anything=False)


def as_written(state: Any, seat: int, move: Mapping[str, Any]) -> dict[str, Any] | None:
    """The form writer of a game whose forms write every move as its rules take it."""
    return dict(move)


@dataclass(frozen=True)
class GameTraits:
    #: (state, viewer, rng) -> the state with something ``viewer`` cannot see changed, or None when nothing
    #: is hidden from it now (tests/test_rules_shared.py: the viewer's view must not change)
    rearrange_hidden: Rearranger = nothing_hidden
    #: fewest moves a seeded random game lasts on average (tests/test_rules_shared.py)
    min_moves_per_game: int = 1
    #: acknowledged moves per round before the crash test pulls the plug (three rounds must fit in a game
    #: played by phones of every seat at once; tests/test_reliability_crash.py)
    crash_acks_per_round: int = 40
    #: acknowledged moves and stale-version refusals a whole game raced by two phones a seat gives at least
    #: (tests/test_reliability_concurrency.py)
    race_min_acknowledged: int = 50
    race_min_stale_refusals: int = 10
    #: (state, seat, legal move) -> the move as the seat's form writes it, None for a move no form writes
    #: (tests/test_rules_choices.py)
    form_move: Callable[[Any, int, Mapping[str, Any]], dict[str, Any] | None] = as_written
    #: what a viewer must never see and how to swap a hidden thing (None: the game keeps no secrets)
    secret_model: SecretModel | None = None
    #: moves played when the secrets test reads every route (the ones after the end are passed over)
    secret_checkpoints: tuple[int, ...] = (8, 70, 150)
    #: label key -> what its German sentence prints on this game's deck (tests/test_labels.py: the sentences
    #: the faces build round the data come from the labels; a game whose faces build none declares nothing)
    label_sentences: Mapping[str, str] = field(default_factory=dict)


def traits_for(game: str) -> GameTraits:
    """The traits ``game`` declares (see the module's docstring), else the defaults."""
    from companion.rules import (
        SPECS,  # imported here: a game's own module may import this one
    )

    spec = SPECS[game]
    front = importlib.import_module(spec.rules_module)
    declared = getattr(front, "TEST_TRAITS", None)
    if declared is None:
        try:
            declared = importlib.import_module(f"game_tests.{game.replace('-', '_')}").TRAITS
        except ModuleNotFoundError as missing:
            if missing.name != f"game_tests.{game.replace('-', '_')}":
                raise
            declared = GameTraits()
    assert isinstance(declared, GameTraits), f"{game}: its test traits are not a GameTraits"
    return declared


def games_from_env(variable: str, discovered: Any) -> tuple[str, ...]:
    """The games a run is narrowed to by ``variable`` (comma-separated ids: ``FUZZ_GAMES``, ``CRASH_GAMES``); unset,
    every one of ``discovered``."""
    return tuple(sorted(game for game in os.environ.get(variable, "").split(",") if game)) or tuple(sorted(discovered))
