"""Request bodies of the JSON API (pydantic models) and the OpenAPI 3.1 document built from them.

The same models validate requests in :mod:`companion.web.api` and describe them here, so the
document cannot drift from what the server accepts. A test checks every API route is documented.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.rules.fields import a_quoted

#: Far above any game's table size; keeps a seat number inside what SQLite can store.
MAX_SEAT = 99


#: a seat token a phone proposes (made in its page with crypto.getRandomValues): 32 to 128 URL-safe characters
SEAT_TOKEN = r"^[A-Za-z0-9_-]{32,128}$"
_PROPOSED = ("optional: the seat token this phone will use, made by the phone (32 to 128 of A-Z a-z 0-9 _ -) "
             "and kept for its retries: {what} sent again with the same token answers the same seat, so a lost "
             "answer costs nothing; a token stored before is refused (409). Without it the server makes one")

#: an action id: any text but control characters (a NUL, which PostgreSQL cannot store, among them)
ACTION_ID = r"^[^\x00-\x1f\x7f]+$"


class RequestBody(BaseModel):
    """Strict JSON: no unknown fields, no "3" for 3, no true for 1."""

    model_config = ConfigDict(extra="forbid", strict=True)


class NewGameRequest(RequestBody):
    game: str = Field(min_length=1, max_length=40, description="a game's id (its spec's id, as in data/<id>/)")
    players: list[str] = Field(min_length=1, max_length=12, description="player names in seat order")
    options: dict[str, Any] = Field(default_factory=dict, description="game options, e.g. {\"first_seat\": 1}")


class MoveRequest(RequestBody):
    version: int = Field(ge=0, description="the version the phone last saw")
    action_id: str = Field(min_length=1, max_length=100, pattern=ACTION_ID,
                           description="unique per action; a retry repeats it with the same request, and the same id with "
                                       "another request is refused (422); no control characters")
    move: dict[str, Any] = Field(description="the move, e.g. {\"type\": \"draw\", \"card\": \"Quentin\"}")
    seat: int | None = Field(default=None, ge=0, description="optional: the seat the phone believes it holds")


class UndoRequest(RequestBody):
    version: int = Field(ge=0)
    action_id: str = Field(min_length=1, max_length=100, pattern=ACTION_ID,
                           description="unique per action; a retry repeats it, and the same id with another "
                                       "request is refused (422); no control characters")
    seat: int | None = Field(default=None, ge=0, description="optional: the seat the phone believes it holds")


class LaterCorrection(RequestBody):
    seq: int = Field(ge=1, description="a later live move")
    move: dict[str, Any] = Field(description="that move as it should have been reported")


class PutIn(RequestBody):
    before: int = Field(ge=1, description="the live move it comes before (after the corrected move)")
    seat: int = Field(ge=0, le=MAX_SEAT, description="the seat whose move it is")
    move: dict[str, Any] = Field(description="the move")


class CorrectRequest(RequestBody):
    version: int = Field(ge=0, description="the version the phone last saw")
    action_id: str = Field(min_length=1, max_length=100, pattern=ACTION_ID,
                           description="unique per action; a retry repeats it with the same request, and the same id with "
                                       "another request is refused (422); no control characters")
    seq: int = Field(ge=1, description="the seq of the live move to replace (as in the log)")
    move: dict[str, Any] | None = Field(description="the move as it should have been reported; null removes it")
    drop: list[int] = Field(default_factory=list, max_length=100,
                            description="later moves (seqs) to remove in the same correction")
    seat: int | None = Field(default=None, ge=0, description="optional: the seat the phone believes it holds")
    also: list[LaterCorrection] = Field(default_factory=list, max_length=100,
                                        description="later moves to correct in the same correction")
    insert: list[PutIn] = Field(default_factory=list, max_length=20,
                                description="moves the rules now need before a later move, put in by this correction")


class RevertRequest(RequestBody):
    version: int = Field(ge=0, description="the version the phone last saw")
    action_id: str = Field(min_length=1, max_length=100, pattern=ACTION_ID,
                           description="unique per action; a retry repeats it with the same request, and the same id with "
                                       "another request is refused (422); no control characters")
    entry: int = Field(ge=1, description="the seq of the undo or correct entry (as in the log) to cancel")
    drop: list[int] = Field(default_factory=list, max_length=100,
                            description="later moves (seqs) to remove in the same change")
    seat: int | None = Field(default=None, ge=0, description="optional: the seat the phone believes it holds")


class RenameRequest(RequestBody):
    name: str = Field(min_length=1, max_length=40, description="the player's new name")


class HandoverRequest(RequestBody):
    code: str = Field(min_length=1, max_length=20, description="the one-time hand-over code, any case")
    token: str | None = Field(default=None, pattern=SEAT_TOKEN, description=_PROPOSED.format(what="the code"))


class JoinRequest(RequestBody):
    code: str = Field(min_length=1, max_length=20, description="the 6-character join code, any case")
    seat: int = Field(ge=0, le=MAX_SEAT, description="the seat to claim, counted from 0")
    token: str | None = Field(default=None, pattern=SEAT_TOKEN,
                              description=_PROPOSED.format(what="the join code and seat"))


def _field_name(location: tuple[int | str, ...]) -> str:
    name = ""
    for part in location:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    return name or "body"


def validation_sentence(error: ValidationError) -> str:
    """The first validation problem as a sentence that names the field."""
    first = error.errors(include_url=False)[0]
    name = _field_name(tuple(first["loc"]))
    ctx = first.get("ctx") or {}
    kind = first["type"]
    sentences = {
        "missing": f"the request needs {a_quoted(name)} field",
        "extra_forbidden": f"'{name}' is not a field of this request",
        "int_type": f"'{name}' must be a whole number",
        "string_type": f"'{name}' must be text",
        "list_type": f"'{name}' must be a list",
        "dict_type": f"'{name}' must be an object",
        "model_type": "the request body must be a JSON object",
        "greater_than_equal": f"'{name}' must be at least {ctx.get('ge')}",
        "less_than_equal": f"'{name}' must be at most {ctx.get('le')}",
        "string_too_short": f"'{name}' must not be empty",
        "string_too_long": f"'{name}' must be at most {ctx.get('max_length')} characters",
        "too_short": f"'{name}' needs at least {ctx.get('min_length')} item(s)",
        "too_long": f"'{name}' takes at most {ctx.get('max_length')} items",
        **({"string_pattern_mismatch": f"'{name}' must not hold control characters (a tab, a line break, a NUL…)"}
           if ctx.get("pattern") == ACTION_ID else {}),
    }
    return sentences.get(kind, f"'{name}': {first['msg']}")


# -- the document --------------------------------------------------------------------------

REQUEST_MODELS: tuple[type[RequestBody], ...] = (NewGameRequest, MoveRequest, UndoRequest, CorrectRequest,
                                                  LaterCorrection, PutIn, RevertRequest, RenameRequest, HandoverRequest, JoinRequest)

_ERROR = {"type": "object", "required": ["ok", "error", "rule", "status"], "properties": {
    "ok": {"const": False}, "error": {"type": "string", "description": "a sentence for the player"},
    "rule": {"type": ["string", "null"], "description": "the rule that forbids it: <game>.<area>.<rule>"},
    "status": {"type": "integer"}, "version": {"type": "integer", "description": "409 only: the current version"},
    "seq": {"type": "integer", "description": "a refused correction or undo: the later move that no longer fits"},
    "pending": {"type": "object", "description": "refused because the rules wait for a choice first: "
                "{seat, move, choice, rule, title}, the choice to make (or, for a correction, to put in)"},
    "after_end": {"type": "array", "items": {"type": "integer"}, "description": "a refused correction, undo or "
                  "put-back that would end the game before `seq`: every move after that end (whoever made it), to "
                  "send again as `drop` to remove them with it"},
    "others": {"type": "boolean", "description": "with `after_end`: other seats made some of those moves"},
    "said": {"type": "string", "description": "a refused move or correction whose error names a field or a "
             "part of the request: the same refusal in table words, as a page shows it (a field by its form's label)"},
}}
_CARD_IDS = {"type": "array", "items": {"type": "string"}}
_VIEW = {"type": "object", "description": "the rules module's view(state, seat): hands only for the viewer; "
         "each game adds the fields of its own table (its page in docs/games/)",
         "properties": {"game": {"type": "string"},
                        "phase": {"type": "string", "description": "some games: the stage of play"},
                        "turn": {"type": "object", "description": "some games: whose turn it is ({seat, ...})"},
                        "pending": {"type": ["object", "null"], "description": "some games: a choice the rules "
                                    "wait for ({seat, move, choice, rule, title})"},
                        "players": {"type": "array"}, "you": {"type": ["integer", "null"]},
                        "over": {"type": "boolean"}, "winner": {"type": ["integer", "null"]},
                        "winners": {"type": "array", "items": {"type": "integer"},
                                    "description": "some games: every winning seat"}}}
_SCHEMAS: dict[str, Any] = {
    "Error": _ERROR,
    "View": _VIEW,
    "GameCreated": {"type": "object", "properties": {
        "id": {"type": "string"}, "game": {"type": "string"}, "join_code": {"type": "string"},
        "version": {"type": "integer"},
        "host_token": {"type": "string", "description": "the creating phone's token: release seats with it"},
        "seats": {"type": "array", "items": {"type": "object", "properties": {
            "seat": {"type": "integer"}, "name": {"type": "string"}, "token": {"type": "string"}}}}}},
    "Game": {"type": "object", "properties": {
        "id": {"type": "string"}, "game": {"type": "string"}, "version": {"type": "integer"},
        "join_code": {"type": "string", "description": "the code the table joins with (public at the table)"},
        "state": {"$ref": "#/components/schemas/View"}, "scores": {"type": "array", "items": {"type": "object"}},
        "over": {"type": "boolean"}, "winner": {"type": ["integer", "null"]},
        "winners": {"type": "array", "items": {"type": "integer"},
                    "description": "every winning seat (a shared win has several; winner is then null)"},
        "players": {"type": "array", "items": {"type": "string"}},
        "claimed": {"type": "array", "items": {"type": "boolean"}}}},
    "MoveAccepted": {"type": "object", "properties": {
        "ok": {"const": True}, "version": {"type": "integer"}, "seq": {"type": "integer"},
        "state": {"$ref": "#/components/schemas/View"}}},
    "LogEntry": {"type": "object", "properties": {
        "seq": {"type": "integer"}, "seat": {"type": "integer"}, "kind": {"enum": ["move", "undo", "correct", "seat", "revert"]},
        "move": {"type": "object"}, "text": {"type": "string"},
        "undone": {"type": "boolean", "description": "a move taken back or removed by a correction"},
        "corrected": {"type": "boolean", "description": "a move a later correction replaced"},
        "author": {"type": "integer", "description": "undo, correct and revert entries: the seat whose move it changed"},
        "touched": {"type": "array", "items": {"type": "integer"},
                    "description": "undo and correct entries: every seat whose move it changed (the move's, and those "
                                   "of the moves corrected, removed or put in with it); each may put it back"},
        "before": {"type": "integer", "description": "a move a correction put in: the move it comes before"},
        "put_back": {"type": "boolean", "description": "an undo or correction a later revert entry cancelled"},
        "at": {"type": "string"}}},
    "SearchResult": {"type": "object", "properties": {
        "kind": {"enum": ["rule", "card"]}, "id": {"type": "string"}, "game": {"type": "string"},
        "title": {"type": "string"}, "snippet": {"type": "string"}, "snippet_html": {"type": "string"},
        "url": {"type": "string"}}},
}


def json_body(schema: dict[str, Any] | str, description: str) -> dict[str, Any]:
    ref = {"$ref": f"#/components/schemas/{schema}"} if isinstance(schema, str) else schema
    return {"description": description, "content": {"application/json": {"schema": ref}}}


def errors(*statuses: int) -> dict[str, Any]:
    reasons = {400: "malformed request (the sentence names the field)",
               401: "missing, unknown, released or handed-over seat token",
               403: "the token is for another seat (or is not the host's)", 404: "unknown game, code or seat",
               409: "stale version, taken seat, or a seat nobody holds",
               422: "the rules refuse it (rule names why; a correction also names the move's seq)",
               429: "past a rate limit (docs/serving.md); Retry-After says when to try again",
               503: "the server process holds as many live-update streams as it may (docs/serving.md); ask for the "
                    "version instead, and for a stream again after Retry-After"}
    return {str(s): json_body("Error", reasons[s]) for s in statuses}


def request_body(model: type[RequestBody]) -> dict[str, Any]:
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"required": True, "content": {"application/json": {"schema": schema}}}


_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_SEAT = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}}
_SEAT_ANSWER = json_body({"type": "object", "properties": {"ok": {"const": True}, "version": {"type": "integer"},
                                                          "seq": {"type": "integer"}}}, "logged")
_BEARER: list[dict[str, list[str]]] = [{"seatToken": []}]
_OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"seatToken": []}]


def _paths() -> dict[str, Any]:
    return {
        "/api/games": {"post": {
            "summary": "Set up a new game; returns every seat's token", "requestBody": request_body(NewGameRequest),
            "responses": {"201": json_body("GameCreated", "created"), **errors(400, 422, 429)}}},
        "/api/games/{game_id}": {"get": {
            "summary": "The game as one seat (with its bearer token) or the public table sees it",
            "parameters": [_GAME_ID, {"name": "If-None-Match", "in": "header", "schema": {"type": "string"}}],
            "security": _OPTIONAL_BEARER,
            "responses": {"200": json_body("Game", "the game; ETag header set"),
                          "304": {"description": "unchanged since the ETag sent"}, **errors(401, 404)}}},
        "/api/games/{game_id}/version": {"get": {
            "summary": "The current version only (cheapest poll)", "parameters": [_GAME_ID],
            "responses": {"200": json_body({"type": "object", "properties": {"version": {"type": "integer"}}}, "version"),
                          **errors(404)}}},
        "/api/games/{game_id}/events": {"get": {
            "summary": "Server-sent events (with Accept: text/event-stream; else the first event only): `event: version` with {\"version\": n} now, at every change and every "
                       "15 s; the stream ends after 5 minutes (EventSource reconnects)", "parameters": [_GAME_ID],
            "responses": {"200": {"description": "an event stream",
                                  "content": {"text/event-stream": {"schema": {
                                      "type": "object", "description": "one event",
                                      "properties": {"event": {"const": "version"},
                                                     "data": {"type": "string",
                                                              "description": "JSON: {\"version\": n}"}}}}}},
                          **errors(404, 429, 503)}}},
        "/api/games/{game_id}/log": {"get": {
            "summary": "Log entries after `since`, moves redacted for the viewer",
            "parameters": [_GAME_ID, {"name": "since", "in": "query",
                                           "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999}}],
            "security": _OPTIONAL_BEARER,
            "responses": {"200": json_body({"type": "object", "properties": {"entries": {
                "type": "array", "items": {"$ref": "#/components/schemas/LogEntry"}}}}, "entries"),
                **errors(400, 401, 404)}}},
        "/api/games/{game_id}/moves": {"post": {
            "summary": "Report a move for the token's seat", "parameters": [_GAME_ID], "security": _BEARER,
            "requestBody": request_body(MoveRequest),
            "responses": {"200": json_body("MoveAccepted", "applied (or the first answer to a retried action_id)"),
                          **errors(400, 401, 403, 404, 409, 422, 429)}}},
        "/api/games/{game_id}/undo": {"post": {
            "summary": "Take back the last live move (any seat; private notes are passed over)",
            "parameters": [_GAME_ID], "security": _BEARER, "requestBody": request_body(UndoRequest),
            "responses": {"200": json_body("MoveAccepted", "undo entry appended"),
                          **errors(400, 401, 403, 404, 409, 422, 429)}}},
        "/api/games/{game_id}/correct": {"post": {
            "summary": "Replace (or, with move null, remove) live move `seq` and replay every later move",
            "parameters": [_GAME_ID], "security": _BEARER, "requestBody": request_body(CorrectRequest),
            "responses": {"200": json_body("MoveAccepted", "correct entry appended"),
                          **errors(400, 401, 403, 404, 409, 422, 429)}}},
        "/api/games/{game_id}/revert": {"post": {
            "summary": "Cancel an undo or correction: put back the move taken back or removed, undo a correction "
                       "(the seat that made the change or the seat whose move it changed)",
            "parameters": [_GAME_ID], "security": _BEARER, "requestBody": request_body(RevertRequest),
            "responses": {"200": json_body("MoveAccepted", "revert entry appended"),
                          **errors(400, 401, 403, 404, 409, 422, 429)}}},
        "/api/games/{game_id}/seats/{seat}/release": {"post": {
            "summary": "The host frees a seat: its token stops working, the seat can be joined again",
            "parameters": [_GAME_ID, _SEAT], "security": [{"hostToken": []}],
            "responses": {"200": _SEAT_ANSWER, **errors(401, 403, 404, 409)}}},
        "/api/games/{game_id}/seats/{seat}/handover": {"post": {
            "summary": "A one-time code (and link) another phone uses to take this seat over",
            "parameters": [_GAME_ID, _SEAT], "security": _BEARER,
            "responses": {"200": json_body({"type": "object", "properties": {
                "code": {"type": "string"}, "link": {"type": "string"}, "expires": {"type": "string"}}}, "code"),
                **errors(401, 403, 404, 429)}}},
        "/api/games/{game_id}/seats/{seat}/rename": {"post": {
            "summary": "A new name for the seat's player (its own token or the host's)",
            "parameters": [_GAME_ID, _SEAT], "security": [{"seatToken": []}, {"hostToken": []}],
            "requestBody": request_body(RenameRequest),
            "responses": {"200": _SEAT_ANSWER, **errors(400, 401, 403, 404, 422)}}},
        "/api/handover": {"post": {
            "summary": "Take over a seat with its one-time hand-over code; the old phone's token stops working "
                       "(the same code sent again with the token it proposed answers the seat again)",
            "requestBody": request_body(HandoverRequest),
            "responses": {"200": json_body({"type": "object", "properties": {
                "id": {"type": "string"}, "seat": {"type": "integer"}, "token": {"type": "string"}}}, "seat token"),
                **errors(400, 404, 409, 429)}}},
        "/api/join": {"post": {
            "summary": "Claim a free seat with the join code (a held seat is never taken; a seat held by the "
                       "token proposed is answered again)",
            "requestBody": request_body(JoinRequest),
            "responses": {"200": json_body({"type": "object", "properties": {
                "id": {"type": "string"}, "seat": {"type": "integer"}, "token": {"type": "string"}}}, "seat token"),
                **errors(400, 404, 409, 429)}}},
        "/api/search": {"get": {
            "summary": "Full-text search over rule entries and cards",
            "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}},
                           {"name": "game", "in": "query", "schema": {"type": "string"}},
                           {"name": "prefer", "in": "query", "schema": {"type": "string"},
                            "description": "the asking page's game: its entries come first"},
                           {"name": "limit", "in": "query",
                            "schema": {"type": "integer", "minimum": 1, "maximum": 50}}],
            "responses": {"200": json_body({"type": "object", "properties": {"results": {
                "type": "array", "items": {"$ref": "#/components/schemas/SearchResult"}}}}, "results"),
                **errors(400), "404": json_body("Error", "a game this server's data folder leaves out"),
                "503": json_body("Error", "a game whose data is broken (the sentence names file, record and field)")}}},
        "/api/openapi.json": {"get": {
            "summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1 document"}}}},
    }


def _with_body_limits(paths: dict[str, Any]) -> dict[str, Any]:
    """Every operation that takes a body may be answered 413 (over ``MAX_CONTENT_LENGTH``) or 408 (not sent in
    time) before the route reads it (:mod:`.limits`)."""
    for methods in paths.values():
        for operation in methods.values():
            if "requestBody" in operation:
                responses = operation["responses"]
                responses.setdefault("413", json_body("Error", "the request body is over 64 KB"))
                responses.setdefault("408", json_body("Error", "the request body did not arrive in time"))
    return paths


def openapi_document() -> dict[str, Any]:
    from companion.web import calc  # the calculators document themselves
    from companion.web.photo import views as photo  # so does score by photo

    schemas = dict(_SCHEMAS)
    for model in REQUEST_MODELS + calc.request_models() + photo.request_models():
        schemas[model.__name__] = model.model_json_schema(ref_template="#/components/schemas/{model}")
    return {
        "openapi": "3.1.0",
        "info": {"title": "Spellbook Table companion API", "version": "1",
                 "description": "Phones report the moves of a physical card game; the server checks them "
                                "against the rules and keeps the log. Errors share one shape (Error)."},
        "paths": _with_body_limits({**_paths(), **calc.openapi_paths(), **photo.openapi_paths()}),
        "components": {"schemas": schemas, "securitySchemes": {
            "seatToken": {"type": "http", "scheme": "bearer",
                          "description": "a seat token from /api/games, /api/join or /api/handover"},
            "hostToken": {"type": "http", "scheme": "bearer",
                          "description": "the host_token /api/games answered to the phone that created the game"}}},
    }
