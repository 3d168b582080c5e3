"""Reading request input before any view or the database sees it.

``Blueprint`` is flask-smorest's with a JSON parser that answers 400 for a body nested too deeply
to parse (the stdlib parser raises RecursionError), 422 for a NUL character anywhere in the
body (PostgreSQL cannot store one in text) and 415 for a body that is not sent as
``application/json`` (webargs would read it as no body at all: "Missing data").
``refuse_nul_in_path`` answers 404 for a path with a NUL: no resource can have one in its id.
"""

from __future__ import annotations

import json
from typing import Any

import flask_smorest
from flask import Flask, request
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from server.http import who_first
from server.http.errors import fail
from server.http.pagination import LinkedPages
from server.storage import json_codec

NUL = "\x00"


class Parser(FlaskParser):
    """Input is refused only after the caller and the game are known good (who_first)."""

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):  # noqa: ANN001, ANN201
        who_first.check_first()
        super().handle_error(error, req, schema, error_status_code=error_status_code,
                             error_headers=error_headers)

    def _handle_invalid_json_error(self, error, req, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN201
        who_first.check_first()
        super()._handle_invalid_json_error(error, req, *args, **kwargs)

    def _raw_load_json(self, req: Any) -> Any:
        try:
            data = self._json_body(req)
        except RecursionError:
            who_first.check_first()
            fail(400, "malformed JSON: the body is nested too deeply to read; send a flatter "
                      "body")
        where = _nul_in(data)
        if where is not None:
            who_first.check_first()
            fail(422, f"{where} contains a NUL character (\\u0000): remove it", field=where)
        return data

    @staticmethod
    def _json_body(req: Any) -> Any:
        """webargs' reading of a JSON body, decoded by server/storage/json_codec.py (the same answers,
        errors included: what orjson refuses, the standard library reads or words)."""
        if not is_json_request(req):
            if req.mimetype or req.get_data(cache=True):
                who_first.check_first()
                fail(415, f"the body must be JSON, sent with 'Content-Type: application/json' "
                          f"(this one came as {req.mimetype or 'no Content-Type'!r})",
                     content_type=req.mimetype or None)
            return missing
        raw = req.get_data(cache=True)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise json.JSONDecodeError(f"Bytes decoding error : {error.reason}",
                                       doc=str(error.object), pos=error.start) from error
        return json_codec.loads(text)


class Blueprint(LinkedPages, flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()


def _nul_in(data: Any) -> str | None:
    """The path of the first key or string holding a NUL, e.g. ``command.gem``; None if none.
    Iterative: the parser accepts bodies nested deeper than Python's recursion limit allows."""
    stack: list[tuple[str, Any]] = [("the body", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if NUL in value:
                return path
        elif isinstance(value, dict):
            for key, item in value.items():
                child = key if path == "the body" else f"{path}.{key}"
                if NUL in key:
                    return f"the key {child!r}"
                stack.append((child, item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{index}]", item) for index, item in enumerate(value))
    return None


def refuse_nul_in_path() -> None:
    if NUL in request.path:
        fail(404, "no such resource: the path contains a NUL character")


def init_app(app: Flask) -> None:
    app.before_request(refuse_nul_in_path)
