"""The games' rules, found by discovery: every game declares a :class:`GameSpec` (see :mod:`.spec`).

``SPECS`` maps each game id to its spec; ``GAMES`` maps it to the game's public front (its rules module,
a :class:`~.front.Rules`, imported on first use); ``rules_for(game)`` and ``spec_for(game)`` look one up, refusing an unknown game.
Nothing here names a game: a new game is a new package ``companion/rules/<game>/`` (or an entry point, or
an extra module given to :func:`add_games`).
"""

from __future__ import annotations

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


@lru_cache(maxsize=None)
def _data_problem(game: str, data_dir: str) -> str | None:
    from cardgen.catalog import (  # the card-data layer, imported only when data is checked
        DataError,
        game_folder,
    )

    spec = SPECS[game]
    folder = game_folder(game, Path(data_dir))
    if not folder.is_dir():  # a data folder of one's own may hold some games only (cardgen check skips the rest)
        return f"{spec.title} is not served: {data_dir} has no folder {folder.name}/ for it."
    try:
        spec.content(Path(data_dir))
    except DataError as error:
        return f"{spec.title} is unavailable: its data in {data_dir} is broken. {error}"
    return None


def unavailable_games(data_dir: str | Path) -> dict[str, str]:
    """Per game whose content does not load from ``data_dir``: why (the loader names file, record and field).
    A broken game is left out; the others are served. Checked once per game and folder in a process."""
    problems = {game: _data_problem(game, str(data_dir)) for game in SPECS}
    return {game: problem for game, problem in problems.items() if problem is not None}


def spec_for(game: str) -> GameSpec:
    try:
        return SPECS[game]
    except (KeyError, TypeError):
        raise SetupError(f"unknown game '{game}' (known: {', '.join(SPECS)})") from None


def rules_for(game: str) -> Rules:
    return spec_for(game).rules()


__all__ = ["GAMES", "SPECS", "GameSpec", "IllegalMove", "MoveSpec", "Outcome", "Rules", "SetupError", "add_games",
           "discover", "rules_for", "spec_for", "unavailable_games"]
