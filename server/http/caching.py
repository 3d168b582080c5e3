"""What caches may do with the API's answers, and conditional reads.

Almost every answer under /api/ depends on who asks (a seat's view, its legal commands, its
redacted events, the join code shown to players only), so each says ``Vary: Authorization``
and ``Cache-Control: private, no-cache``: a shared cache keeps none of them, a browser keeps
its own and asks again before reusing it. The health check says the same to anyone and is left
alone.

``conditional(response)`` gives a GET answer an ETag (a hash of its body, so it changes with
anything the caller would see change) and answers 304 to an ``If-None-Match`` that names it.
"""

from __future__ import annotations

import marshmallow as ma
from flask import Flask, Response, request

PRIVATE_PREFIX = "/api/"
SAME_FOR_EVERYONE = ("/api/v1/health",)

ETAG_HEADER = {"ETag": {"schema": {"type": "string"},
                        "description": "Names this answer; send it as If-None-Match to get 304 "
                                       "while it is unchanged"}}
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False,
                 "schema": {"type": "string"},
                 "description": "The ETag you have; 304 (no body) while it is current"}



class ConditionalHeadersSchema(ma.Schema):
    """If-None-Match, documented beside a view's own query arguments (a view that lists its
    parameters by hand loses the ones its arguments document)."""

    class Meta:
        unknown = ma.EXCLUDE

    if_none_match = ma.fields.String(data_key="If-None-Match",
                                     metadata={"description": IF_NONE_MATCH["description"]})


def conditional(response: Response) -> Response:
    """``response`` with its ETag; 304 when the request's If-None-Match names it."""
    if response.status_code == 200:
        response.add_etag()
        response.make_conditional(request)
    return response


def _private(response: Response) -> Response:
    path = request.path
    if path.startswith(PRIVATE_PREFIX) and not path.startswith(SAME_FOR_EVERYONE):
        response.vary.add("Authorization")
        if "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "private, no-cache"
    return response


def init_app(app: Flask) -> None:
    app.after_request(_private)
