"""What a game declares to the card-data layer, and how shared code finds the declarations.

Each game's package ``cardgen/catalog/<game>/`` declares one :class:`GameCatalog` as ``CATALOG``;
:func:`discover` finds every subpackage of a package that declares one, so adding a game means adding
its package and editing no shared module. The print kit does the same in ``cardgen/render/<game>/``
(:class:`cardgen.render.registry.PrintKit`, declared as ``KIT``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Protocol, TypeVar

import tomli

#: comma-separated module names of games outside the tree (each declaring ``CATALOG``, and ``KIT`` and
#: ``SPEC`` where it has them), read by the card-data layer, the print kit and the companion alike
EXTRA_GAMES_ENV = "COMPANION_EXTRA_GAMES"


_BOM = b"\xef\xbb\xbf"


def parse_toml(data: bytes) -> dict[str, Any]:
    """A data file's bytes parsed as TOML, read as UTF-8 with a leading byte-order mark allowed (Notepad and
    some other Windows editors write one; TOML itself does not allow it). Raises UnicodeDecodeError for bytes
    that are not UTF-8 and tomli.TOMLDecodeError for text that is not TOML."""
    return tomli.loads(data.removeprefix(_BOM).decode("utf-8"))


def extra_modules_from_env() -> tuple[str, ...]:
    """The extra games' module names from :data:`EXTRA_GAMES_ENV`."""
    return tuple(name.strip() for name in os.environ.get(EXTRA_GAMES_ENV, "").split(",") if name.strip())


@dataclass(frozen=True)
class GameFacts:
    """What a game's ``game.toml`` says of it that code needs before (or without) loading its content:
    its name and player counts. Read from the data, never repeated in code (:func:`read_facts`)."""

    id: str
    title: str
    min_players: int
    max_players: int


def read_facts(game: str, folder: Path) -> GameFacts:
    """``title``, ``min_players`` and ``max_players`` from ``folder/game.toml``. A file that cannot be read
    gives the id as the title and 1..10 players (the loader then reports the problem, naming the file)."""
    try:
        data = parse_toml((folder / "game.toml").read_bytes())
    except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError):
        data = {}

    def number(key: str, default: int) -> int:
        value = data.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10 else default

    title = data.get("title")
    return GameFacts(id=game, title=title.strip() if isinstance(title, str) and title.strip() else game,
                     min_players=number("min_players", 1), max_players=number("max_players", 10))


@dataclass(frozen=True)
class GameCatalog:
    """One game in the card-data layer.

    ``id`` is the game's id and the name of its data folder (``data/<id>/``); ``load`` reads and validates
    that folder (raising :class:`~cardgen.catalog.base.DataError`); ``counted`` the content's collections
    ``cardgen check`` counts, in the order it lists them; ``commands`` the game's own ``cardgen``
    sub-commands (click commands, e.g. a balance check), which ``cardgen`` adds beside its shared ones;
    ``data`` the game's own data folder, for a game outside the tree that keeps its data beside its code
    (None: ``<data folder>/<id>``). Its title and player counts are its data's (:attr:`facts`).
    """

    id: str
    load: Callable[[Path], Any]
    counted: tuple[str, ...] = ()
    commands: tuple[Any, ...] = ()
    data: Path | None = None

    def folder(self, root: Path) -> Path:
        """The game's data folder when the data folder is ``root``: ``root/<id>``, unless the game keeps its
        own (``data``) and ``root`` has no folder for it."""
        given = Path(root) / self.id
        return self.data if self.data is not None and not given.is_dir() else given

    @property
    def facts(self) -> GameFacts:
        """Title and players from the game's ``game.toml`` in the default data folder."""
        from cardgen.catalog import (  # the package's data folder and cached reader
            data_dir,
            facts_in,
        )

        return facts_in(self.id, self.folder(data_dir()))

    @property
    def title(self) -> str:
        return self.facts.title


class _Declaration(Protocol):
    @property
    def id(self) -> str: ...


DeclT = TypeVar("DeclT", bound=_Declaration)


def discover(package: ModuleType, attribute: str, kind: type[DeclT]) -> dict[str, DeclT]:
    """Every subpackage of ``package`` that declares ``attribute`` as a ``kind``, by declared id, in the
    order of the subpackages' names. A subpackage without the attribute is not a game (a helper package)
    and is skipped; a declaration of the wrong type or a second one for the same id is an error."""
    found: dict[str, DeclT] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        declared = getattr(module, attribute, None)
        if declared is None:
            continue
        if not isinstance(declared, kind):
            raise TypeError(f"{module.__name__}.{attribute} is a {type(declared).__name__}, not a {kind.__name__}")
        if declared.id in found:
            raise ValueError(f"{module.__name__} declares game '{declared.id}' a second time")
        found[declared.id] = declared
    return found


def declared_by(modules: Iterable[str], attribute: str, kind: type[DeclT]) -> dict[str, DeclT]:
    """The ``attribute`` declarations of the named modules (games outside the tree); a module without one
    (a game with nothing to print) is skipped, one of the wrong type is an error."""
    found: dict[str, DeclT] = {}
    for name in modules:
        declared = getattr(importlib.import_module(name), attribute, None)
        if declared is None:
            continue
        if not isinstance(declared, kind):
            raise TypeError(f"{name}.{attribute} is a {type(declared).__name__}, not a {kind.__name__}")
        found[declared.id] = declared
    return found


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for a game's front ``package``: each name of ``exports`` (submodule -> the names
    it defines) is imported from its submodule when it is first asked for, then kept in the front.

    Discovery imports every game's front to read its declaration, so a front holds only the declaration:
    its records, loader and faces are imported by whoever uses them (``cardgen --changed-since`` after one
    game's data changed imports that game's, not every game's)."""
    where = {name: submodule for submodule, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        submodule = where.get(name)
        if submodule is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{submodule}"), name)
        setattr(sys.modules[package], name, value)
        return value
    return __getattr__


class imported_when_called:  # noqa: N801 - used as a function
    """``module.name`` (a function), imported at its first call (see :func:`lazy_exports`); :meth:`target`
    imports it now (a build imports every document's code before it forks its processes)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def target(self) -> Callable[..., Any]:
        found: Callable[..., Any] = getattr(importlib.import_module(self.module), self.name)
        return found

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.target()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.module}.{self.name}, imported when called>"


__all__ = ["EXTRA_GAMES_ENV", "GameCatalog", "GameFacts", "declared_by", "discover", "extra_modules_from_env",
           "imported_when_called", "lazy_exports", "parse_toml", "read_facts"]
