"""Quick score calculators under ``/api/calc/<game>``: one module per game, no game state needed.

Each module adds its routes to the API blueprint (``companion.web.api.bp``, so they share its error
handlers, its JSON error shape and its CSRF exemption) and exposes, for the OpenAPI document:

- ``REQUEST_MODELS``: the pydantic request bodies it validates with
- ``OPENAPI_PATHS``: ``{"/api/calc/<game>": {"post": {...}}}``

To add a calculator: write ``calc/<game>.py`` and list it in ``CALCULATORS`` below.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from . import barony_sorcery, fillory, jsmn, mandragora

CALCULATORS: tuple[ModuleType, ...] = (fillory, mandragora, barony_sorcery, jsmn)


def request_models() -> tuple[Any, ...]:
    return tuple(model for module in CALCULATORS for model in module.REQUEST_MODELS)


def openapi_paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for module in CALCULATORS:
        paths.update(module.OPENAPI_PATHS)
    return paths
