"""The games' rules, found by discovery: every game declares a :class:`GameSpec` (see :mod:`.spec`).

``SPECS`` maps each game id to its spec; ``GAMES`` maps it to the game's public front (its rules module,
a :class:`~.front.Rules`, imported on first use); ``rules_for(game)`` and ``spec_for(game)`` look one up, refusing an unknown game.
Nothing here names a game: a new game is a new package ``companion/rules/<game>/`` (or an entry point, or
an extra module given to :func:`add_games`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Mapping, MutableMapping

from .base import IllegalMove, Outcome, SetupError
from .front import Rules
from .spec import GameSpec, MoveSpec, discover


class _Specs(MutableMapping[str, GameSpec]):
    """Game id -> spec, discovered on first use (a game outside the tree may import this package: its own
    module is imported by the discovery, after this package is)."""

    def __init__(self) -> None:
        self._found: dict[str, GameSpec] | None = None

    def _all(self) -> dict[str, GameSpec]:
        if self._found is None:
            self._found = discover()
        return self._found

    def __getitem__(self, game: str) -> GameSpec:
        return self._all()[game]

    def __setitem__(self, game: str, spec: GameSpec) -> None:
        self._all()[game] = spec

    def __delitem__(self, game: str) -> None:
        del self._all()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


SPECS: MutableMapping[str, GameSpec] = _Specs()


class _Fronts(Mapping[str, Rules]):
    """Game id -> the game's rules module, imported on first use (listing games imports no rules)."""

    def __getitem__(self, game: str) -> Rules:
        return SPECS[game].rules()

    def __iter__(self) -> Iterator[str]:
        return iter(SPECS)

    def __len__(self) -> int:
        return len(SPECS)

    def __contains__(self, game: object) -> bool:
        return game in SPECS


GAMES: Mapping[str, Rules] = _Fronts()


def add_games(modules: Iterable[str]) -> list[GameSpec]:
    """Discover the specs of extra modules (a game outside this tree) and add them, with their catalogs
    (``CATALOG``, for their content and card pages); returns them."""
    from cardgen.catalog import add_catalogs

    modules = list(modules)
    add_catalogs(modules)
    added = discover(modules)
    for game, spec in added.items():
        if SPECS.get(game, spec) is not spec:
            raise ValueError(f"two games have the id '{game}'")
        SPECS[game] = spec
    return [added[g] for g in added]


@dataclass(frozen=True)
class Unserved:
    """Why a game is not served from a data folder.

    ``detail`` is for the operator (the command's warning, the server's log): it names the folder, or the
    file, record and field. ``public`` is what any phone is told: the game by its name, and for broken data
    the file, record and field *within* the data folder, never the server's own paths. ``broken``: its data is
    there but does not load (503: to be mended), rather than the data folder holding no folder for it (the
    operator chose to leave it out: nothing to wait for, so pages answer 404 and the API 422, as for a game
    it does not know)."""

    public: str
    detail: str
    broken: bool

    def __str__(self) -> str:
        return self.public


def _title(game: str) -> str:
    """The game's name, read from the project's own data when the served folder has none for it."""
    from cardgen.catalog import DEFAULT_DATA_DIR, DataError, game_facts

    spec = SPECS[game]
    try:
        return game_facts(game, DEFAULT_DATA_DIR).title
    except (DataError, OSError, ValueError):
        return spec.title


def within_data(text: str, data_dir: str | Path) -> str:
    """``text`` with the data folder's own path left out (``/srv/mydata/<game>/cards.toml`` → ``<game>/cards.toml``)."""
    if not str(data_dir):
        return text
    for root in {str(data_dir), os.path.abspath(data_dir), os.path.realpath(data_dir)}:
        text = text.replace(root.rstrip(os.sep) + os.sep, "")
    return text


@lru_cache(maxsize=None)
def _data_problem(game: str, data_dir: str) -> Unserved | None:
    from cardgen.catalog import (  # the card-data layer, imported only when data is checked
        DataError,
        game_folder,
    )

    spec = SPECS[game]
    folder = game_folder(game, Path(data_dir))
    if not folder.is_dir():  # a data folder of one's own may hold some games only (cardgen check skips the rest)
        title = _title(game)
        return Unserved(f"{title} is not served here.",
                        f"{title} is not served: {data_dir} has no folder {folder.name}/ for it.", False)
    try:
        spec.content(Path(data_dir))
    except DataError as error:
        return Unserved(f"{spec.title} is unavailable here: its data is broken. {within_data(str(error), data_dir)}",
                        f"{spec.title} is unavailable: its data in {data_dir} is broken. {error}", True)
    return None


def unavailable_games(data_dir: str | Path) -> dict[str, Unserved]:
    """Per game whose content does not load from ``data_dir``: why (the loader names file, record and field).
    A broken game is left out; the others are served. Checked once per game and folder in a process."""
    problems = {game: _data_problem(game, str(data_dir)) for game in SPECS}
    return {game: problem for game, problem in problems.items() if problem is not None}


def finished(rules: Rules, state: object) -> bool:
    """Whether a game can never change again: over, or at a dead end (``GameSpec.can_stall``) that nobody wins.
    What every reader of a game's end asks (its pages and result, the API's ``over``, the exports, the purge)."""
    return bool(rules.SPEC.can_stall and rules.stalled(state)) or rules.outcome(state).over


def spec_for(game: str) -> GameSpec:
    try:
        return SPECS[game]
    except (KeyError, TypeError):
        raise SetupError(f"unknown game '{game}' (known: {', '.join(SPECS)})") from None


def rules_for(game: str) -> Rules:
    return spec_for(game).rules()


__all__ = ["GAMES", "SPECS", "GameSpec", "IllegalMove", "MoveSpec", "Outcome", "Rules", "SetupError", "Unserved",
           "add_games", "discover", "finished", "rules_for", "spec_for", "unavailable_games",
           "within_data"]
