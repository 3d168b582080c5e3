"""Request bodies sent without a Content-Length (``Transfer-Encoding: chunked``).

Werkzeug reads such a body only when the server says its stream ends with the body
(``wsgi.input_terminated``), which not every WSGI server does: a chunked body was read as empty
("Missing data"). (Our ASGI front reads the body first and gives its length:
server/http/asgi_bridge.py.) Where it is read, werkzeug stops at MAX_CONTENT_LENGTH and hands the
truncated text to the JSON parser ("Invalid JSON body"). This middleware reads a chunked body
itself, at most one byte more than the limit, and gives the app a body of known length; a
larger one is marked, and the app answers it 413 like an oversized body with a Content-Length.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, request

from server.http.errors import fail

TOO_LARGE = "iridescia.body_too_large"
CHUNK = 16 * 1024


class ChunkedBodies:
    def __init__(self, app: Callable, limit: Callable[[], int | None]) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("CONTENT_LENGTH") in (None, "") and _is_chunked(environ):
            limit = self.limit()
            body = _read_at_most(environ["wsgi.input"], None if limit is None else limit + 1)
            if limit is not None and len(body) > limit:
                environ[TOO_LARGE] = True
                body = b""
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


def _is_chunked(environ: dict) -> bool:
    return "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()


def _read_at_most(stream: Any, most: int | None) -> bytes:
    parts: list[bytes] = []
    size = 0
    while most is None or size < most:
        part = stream.read(CHUNK if most is None else min(CHUNK, most - size))
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def refuse_too_large() -> None:
    if request.environ.get(TOO_LARGE):
        limit = request.max_content_length
        fail(413, f"the request body is larger than {limit} bytes: send a smaller one")


def init_app(app: Flask) -> None:
    app.wsgi_app = ChunkedBodies(  # type: ignore[method-assign]
        app.wsgi_app, lambda: app.config.get("MAX_CONTENT_LENGTH"))
    app.before_request(refuse_too_large)
