"""One JSON error body everywhere: ``{"code", "status", "message", "details"}``.

Views fail with ``fail(status, message, **details)``. Routing errors (404, 405 with its ``Allow``
header), oversized bodies (413) and marshmallow validation errors (422, field messages in
``details``) take the same shape, and so does anything unexpected (500, logged).
"""

from __future__ import annotations

import http
import json
from collections.abc import Callable
from typing import Any, NoReturn

import marshmallow as ma
from flask import Flask, current_app, g, has_request_context, jsonify, request
from flask_smorest import abort
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, InternalServerError

from server import i18n


class ErrorSchema(ma.Schema):
    code = ma.fields.Integer(required=True, metadata={"description": "The HTTP status code"})
    status = ma.fields.String(required=True, metadata={"description": "The HTTP status name"})
    message = ma.fields.String(
        required=True, metadata={"description": "What went wrong and what to do about it"}
    )
    details = ma.fields.Nested(
        lambda: ErrorDetailsSchema(), required=True,
        metadata={"description": "Machine-readable particulars; which ones an error carries "
                                 "depends on the error (empty when there are none)"},
    )


def _int(description: str) -> ma.fields.Integer:
    return ma.fields.Integer(metadata={"description": description})


def _text(description: str) -> ma.fields.String:
    return ma.fields.String(metadata={"description": description})


class ErrorDetailsSchema(ma.Schema):
    """Every particular the server puts in an error's ``details`` (``fail(..., **details)``
    across server/; a test keeps this list and the code in step)."""

    class Meta:
        ordered = True

    field_errors = ma.fields.Dict(data_key="fields",
        keys=ma.fields.String(), values=ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Raw()),
        metadata={"description": "422 for a body, query or header that does not fit: the "
                                 "messages by where (`json`, `query`, `headers`) and field, "
                                 "e.g. {\"json\": {\"seats\": [\"Must be ...\"]}}"})
    current_version = ma.fields.Integer(allow_none=True, metadata={
        "description": "409, 412, 428 on a command: the game's version now (null before it "
                       "started); refresh and decide again"})
    game_id = _text("The game the error is about")
    game_status = _text("That game's status (open, active, paused, finished, abandoned)")
    seats = _int("How many seats the game has")
    joined = _int("How many players have joined")
    your_seat = _int("403: the seat you play")
    command = ma.fields.Dict(metadata={"description": "422: the command refused, as you sent it"})
    notation = _text("422: the notation line that does not parse")
    header = _text("422: the If-Match header that names no version")
    key = _text("422: the Idempotency-Key used for another request")
    limit = _int("429: the limit you reached")
    retry_after = _int("429: seconds to wait (also the Retry-After header)")
    retry_at = ma.fields.String(metadata={"format": "date-time",
                                          "description": "429: when you may try again"})
    open_games = _int("429: how many open games you have")
    field = _text("Which field is wrong")
    content_type = ma.fields.String(allow_none=True, metadata={
        "description": "415: the Content-Type the request came with"})
    authorization = _text("401: what is wrong with the Authorization header")
    rules_version = ma.fields.String(allow_none=True, metadata={
        "description": "The rules version asked for"})
    user_id = _int("The account the error is about")
    seek_id = _int("The seek the error is about")
    days_asked = _int("The vacation days asked for")
    days_left = _int("The vacation days left")
    database = _text("503 from the health check: `unreachable`")


# Example messages of the statuses whose message is the same on every operation. The others
# (403, 404, 409, 412, 422, 428) say something about the operation itself, so each operation
# gives its own (server/api/docs.py refuses to document one without it).
def malformed_json(error: Exception) -> str:
    """The 400 for a body that is not JSON: where it goes wrong ("Expecting ',' delimiter:
    line 1 column 13 (char 12)")."""
    return f"malformed JSON: {error}: send one JSON object"


def _sample_malformed_json() -> str:
    try:
        json.loads(MALFORMED_SAMPLE)
    except json.JSONDecodeError as error:
        return malformed_json(error)
    raise AssertionError("the sample body is JSON")


# The body the 400 example is the answer to (a test posts it and compares).
MALFORMED_SAMPLE = '{"seats": 2 "rhom": false}'
EXAMPLE_MESSAGES = {
    400: _sample_malformed_json(),
    401: "send your API token as 'Authorization: Bearer <token>'",
    413: "the request body is larger than 65536 bytes: send a smaller one",
    415: "the body must be JSON, sent with 'Content-Type: application/json' (this one came as "
         "'text/plain')",
    429: "too many requests: at most 1200 a minute; retry in 12 seconds",
    503: "the database is not answering; try again shortly",
}


def example(status: int, message: str | None = None, **details: Any) -> dict[str, Any]:
    return {
        "code": status,
        "status": http.HTTPStatus(status).phrase,
        "message": message or EXAMPLE_MESSAGES.get(status, http.HTTPStatus(status).phrase),
        "details": details,
    }


def fail(status: int, message: str, headers: dict[str, str] | None = None, **details: Any) -> NoReturn:
    data: dict[str, Any] = {"message": message, "details": details}
    if headers:
        data["headers"] = headers
    abort(status, **data)
    raise AssertionError("unreachable")  # abort always raises


def error_response(error: HTTPException):
    code = error.code or 500
    data = getattr(error, "data", None) or {}
    details = dict(data.get("details") or {})
    message = data.get("message")
    field_errors = data.get("errors") or data.get("messages")
    if field_errors:
        details.setdefault("fields", field_errors)
        if not message:
            message = "invalid request: " + _describe_fields(field_errors)
    if not message:
        message = _default_message(error)
    translated = isinstance(message, i18n.Said)
    language = requester_language() if translated else i18n.DEFAULT
    message = i18n.say(message, language)
    body = {
        "code": code,
        "status": http.HTTPStatus(code).phrase if code in http.HTTPStatus._value2member_map_ else error.name,
        "message": message,
        "details": details,
    }
    response = jsonify(body)
    response.status_code = code
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    for name, value in (data.get("headers") or {}).items():
        response.headers[name] = value
    response.headers["Content-Language"] = language
    if translated:  # another caller's language gets another message: caches must tell apart
        response.vary.add("Accept-Language")
    return response


def requester_language(chosen: Callable[[], str | None] | None = None) -> str:
    """The language an API answer is written in: the one the calling player chose, else what
    the request's Accept-Language asks for (as GET /rules does), else English. A message the
    core wrote once (an `i18n.Said`, the engine's refusal) is said in it; the others stay
    English. `chosen` reads the player's choice where no User was loaded (the command post
    reads plain rows)."""
    if not has_request_context():
        return i18n.DEFAULT
    user = g.get("current_user")
    choice = i18n.language_of(user) if user is not None or chosen is None else chosen()
    return i18n.normal(choice) if choice else i18n.best_match(
        request.headers.get("Accept-Language"))


def _default_message(error: HTTPException) -> str:
    code = error.code
    if code == 404:
        return "no such resource: check the path (the API lives under /api/v1)"
    if code == 405:
        allowed = ", ".join(sorted(getattr(error, "valid_methods", None) or []))
        return f"method not allowed here; allowed: {allowed}"
    if code == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        return f"the request body is larger than {limit} bytes: send a smaller one"
    if code == 500:
        return "something went wrong on the server; it is logged. Check the game's version before retrying"
    return error.description or error.name


def _describe_fields(errors: Any, prefix: str = "") -> str:
    parts: list[str] = []
    if isinstance(errors, dict):
        for key, value in errors.items():
            if prefix == "" and key in ("json", "query", "headers", "form", "files", "view_args"):
                parts.append(_describe_fields(value, ""))
            else:
                parts.append(_describe_fields(value, f"{prefix}{key}" if not prefix else f"{prefix}.{key}"))
    elif isinstance(errors, list) and all(isinstance(item, str) for item in errors):
        text = " ".join(errors)
        parts.append(f"{prefix}: {text}" if prefix else text)
    elif isinstance(errors, list):
        parts.extend(_describe_fields(item, prefix) for item in errors)
    else:
        parts.append(f"{prefix}: {errors}" if prefix else str(errors))
    return "; ".join(part for part in parts if part)


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, error_response)

    @app.errorhandler(OperationalError)
    def _database_down(error: OperationalError):
        app.logger.error("database error: %s", error)
        return error_response(_make(503, database_trouble(error)))

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        app.logger.exception("unhandled error")
        return error_response(InternalServerError())


def database_trouble(error: OperationalError) -> str:
    """What a player is told when the database fails: the cause when it is known (a read-only
    file, a full disk), since "not answering" sent operators looking at the wrong thing."""
    cause = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    text = cause.lower()
    if "readonly database" in text or "writers' lock file" in text:
        return (f"the database is read-only ({cause}): nothing can be saved until an operator "
                "makes the database file and its directory writable")
    sqlstate = getattr(getattr(error, "orig", None), "sqlstate", None)
    if "database or disk is full" in text or "no space left" in text or sqlstate == "53100":
        return (f"the database's disk is full ({cause}): nothing can be saved until an operator "
                "frees space; try again later")
    return "the database is not answering; try again shortly"


def _make(code: int, message: str) -> HTTPException:
    from werkzeug.exceptions import default_exceptions

    error = default_exceptions[code]()
    error.data = {"message": message}  # type: ignore[attr-defined]
    return error
