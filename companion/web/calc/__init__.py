"""Quick score calculators under ``/api/calc/<game>``: one module per game, no game state needed.

Each module owns a blueprint ``bp`` made by :func:`companion.web.api_helpers.api_blueprint` (the API's JSON
error shape; ``create_app`` registers every calculator's blueprint and exempts it from CSRF) and exposes, for
the OpenAPI document:

- ``REQUEST_MODELS``: the pydantic request bodies it validates with
- ``OPENAPI_PATHS``: ``{"/api/calc/<game>": {"post": {...}}}``

To add a calculator: write a module (this folder's ``<game>.py`` for the games in this tree) and name it in
the game's spec (``GameSpec.calculator_module``); the calculators of every discovered game are imported
here, and :func:`blueprints` gives ``create_app`` their blueprints. Nothing here lists games.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from flask import Blueprint

from companion.rules import SPECS


def calculators() -> tuple[ModuleType, ...]:
    """Every discovered game's calculator, games added by ``EXTRA_GAMES`` included (asked each time: an app
    may add games after this module was first imported); a game whose data is broken has none (its routes
    answer 404)."""
    from cardgen.catalog import DataError

    found = []
    for spec in SPECS.values():
        if spec.calculator_module is not None:
            try:
                found.append(importlib.import_module(spec.calculator_module))
            except DataError:
                continue
    return tuple(found)


def request_models() -> tuple[Any, ...]:
    return tuple(model for module in calculators() for model in module.REQUEST_MODELS)


def openapi_paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for module in calculators():
        paths.update(module.OPENAPI_PATHS)
    return paths


def blueprints() -> tuple[Blueprint, ...]:
    """Every calculator's blueprint, for ``create_app`` to register."""
    return tuple(module.bp for module in calculators())
