"""The OpenAPI document (``GET /api/openapi.json``, which docs/companion.md sends API clients to) describes the
answers as they are: every field an answer carries is a property of its documented schema (at its top level and
in the items of its lists), and the view's schema names only what every game's view holds, or says which games."""

from __future__ import annotations

import io
from typing import Any

import pytest
import zxingcpp
from flask.testing import FlaskClient
from PIL import Image

from companion.rules import GAMES
from companion.web.photo import games_with_photo


def _document(client: FlaskClient) -> dict[str, Any]:
    return dict(client.get("/api/openapi.json").get_json())


def _resolved(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _answer_schema(document: dict[str, Any], path: str, method: str, status: str) -> dict[str, Any]:
    response = document["paths"][path][method]["responses"][status]
    return _resolved(document, response["content"]["application/json"]["schema"])


def undocumented(document: dict[str, Any], answer: Any, schema: dict[str, Any], where: str = "") -> list[str]:
    """The fields of ``answer`` its ``schema`` does not name: at the top level, and in the items of its lists
    (a documented object without properties, such as a game's own view, is not looked into)."""
    schema = _resolved(document, schema)
    properties = schema.get("properties")
    if not isinstance(answer, dict) or not properties:
        return []
    missing = [f"{where}{key}" for key in answer if key not in properties]
    for key, value in answer.items():
        if key in properties and isinstance(value, list) and value and isinstance(value[0], dict):
            items = _resolved(document, properties[key]).get("items", {})
            missing += undocumented(document, value[0], items, f"{where}{key}[].")
    return missing


def _png_with_a_code(text: str) -> bytes:
    code = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode)
    image = Image.fromarray(code.to_image(scale=8)).convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_field_of_the_answers_is_in_the_openapi_document(client: FlaskClient, game: str) -> None:
    document = _document(client)
    rules = GAMES[game]
    names = ["Ann", "Ben", "Cat", "Dan"][:rules.MIN_PLAYERS]
    created = client.post("/api/games", json={"game": game, "players": names, "options": {}})
    assert created.status_code == 201
    new = created.get_json()
    token = new["seats"][0]["token"]
    answers: list[tuple[Any, str, str, str]] = [(new, "/api/games", "post", "201")]
    answers.append((client.get(f"/api/games/{new['id']}", headers={"Authorization": f"Bearer {token}"}).get_json(),
                    "/api/games/{game_id}", "get", "200"))
    answers.append((client.post(f"/api/games/{new['id']}/seats/0/handover",
                                headers={"Authorization": f"Bearer {token}"}).get_json(),
                    "/api/games/{game_id}/seats/{seat}/handover", "post", "200"))
    answers.append((client.get(f"/api/games/{new['id']}/log?since=0").get_json(), "/api/games/{game_id}/log",
                    "get", "200"))
    answers.append((client.get("/api/search", query_string={"q": "the", "game": game}).get_json(), "/api/search",
                    "get", "200"))
    missing = {path: undocumented(document, answer, _answer_schema(document, path, method, status))
               for answer, path, method, status in answers}
    assert {path: fields for path, fields in missing.items() if fields} == {}


@pytest.mark.parametrize("game", games_with_photo())
def test_every_field_of_a_photo_reading_is_in_the_openapi_document(client: FlaskClient, game: str) -> None:
    """A photo's reading, with a code that is no card (listed under ``unread``)."""
    photo = client.post(f"/api/photo/{game}", data=_png_with_a_code("https://example.org/no-card-here"),
                        content_type="image/png")
    assert photo.status_code == 200 and photo.get_json()["unread"], photo.get_json()
    document = _document(client)
    path = f"/api/photo/{game}"
    assert undocumented(document, photo.get_json(), _answer_schema(document, path, "post", "200")) == []


def test_the_view_schema_names_what_every_games_view_holds_or_says_which_games(client: FlaskClient) -> None:
    """``View`` is every game's own ``view(state, seat)``: a property it names that some game's view lacks is
    described as belonging to some games only, never listed as if every view had it."""
    views = {}
    for game, rules in GAMES.items():
        new = client.post("/api/games", json={"game": game, "players": ["Ann", "Ben", "Cat", "Dan"][:rules.MIN_PLAYERS],
                                              "options": {}}).get_json()
        views[game] = set(client.get(f"/api/games/{new['id']}").get_json()["state"])
    view = _document(client)["components"]["schemas"]["View"]
    unsaid = [name for name, schema in view["properties"].items()
              if not all(name in keys for keys in views.values())
              and "some games" not in str(schema.get("description", ""))]
    assert unsaid == [], f"View names {unsaid} as if every game's view had them: {views}"
