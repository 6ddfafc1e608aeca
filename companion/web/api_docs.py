"""The API's own description: ``GET /api/openapi.json``, the OpenAPI 3.1 document (:mod:`.openapi`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Response, jsonify

from .api_helpers import api_blueprint
from .openapi import openapi_document

bp = api_blueprint("api_docs", __name__)


@lru_cache(maxsize=1)
def _openapi() -> dict[str, Any]:
    return openapi_document()


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(_openapi())
