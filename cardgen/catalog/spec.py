"""What a game declares to the card-data layer, and how shared code finds the declarations.

Each game's package ``cardgen/catalog/<game>/`` declares one :class:`GameCatalog` as ``CATALOG``;
:func:`discover` finds every subpackage of a package that declares one, so adding a game means adding
its package and editing no shared module. The print kit does the same in ``cardgen/render/<game>/``
(:class:`cardgen.render.registry.PrintKit`, declared as ``KIT``).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Protocol, TypeVar


@dataclass(frozen=True)
class GameCatalog:
    """One game in the card-data layer.

    ``id`` is the game's id and the name of its data folder (``data/<id>/``); ``title`` its name;
    ``load`` reads and validates that folder (raising :class:`~cardgen.catalog.base.DataError`);
    ``counted`` the content's collections ``cardgen check`` counts, in the order it lists them;
    ``commands`` the game's own ``cardgen`` sub-commands (click commands, e.g. a balance check), which
    ``cardgen`` adds beside its shared ones.
    """

    id: str
    title: str
    load: Callable[[Path], Any]
    counted: tuple[str, ...] = ()
    commands: tuple[Any, ...] = ()


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


__all__ = ["GameCatalog", "discover"]
