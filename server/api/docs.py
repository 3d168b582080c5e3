"""Documenting error responses in the spec, each with an example body."""

from __future__ import annotations

import http
from collections.abc import Callable

from flask_smorest import Blueprint

from server.http.errors import EXAMPLE_MESSAGES, ErrorSchema, example

HEADERS = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "Bearer"}},
    405: {"Allow": {"schema": {"type": "string"}, "description": "The allowed methods"}},
    429: {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait"}},
}

# The examples every operation on a game shares: its 404 and a non-player's 403.
NO_SUCH_GAME = "there is no game 'k3x9q2ab' you can see"
OUTSIDER = "you do not play in game k3x9q2ab: join it with its join code first"


def location(what: str) -> dict:
    """The Location header of a 201, documented: the path of what was created."""
    return {"Location": {"schema": {"type": "string"}, "description": what}}


def document_errors(*codes: int, **messages: str) -> Callable:
    """Add an error response per status to a view's documentation, each with an example body.
    ``messages`` gives the operation's own example message as ``e409="..."``: a status whose
    message depends on the operation (403, 404, 409, 412, 422, 428) must have one, so that no
    operation shows another's error (a 422 of POST /users once read "you already sold gems this
    turn")."""
    unexplained = [code for code in codes
                   if code not in EXAMPLE_MESSAGES and f"e{code}" not in messages]
    if unexplained:
        raise ValueError(f"document_errors: give an example message of this operation for "
                         f"{', '.join(map(str, unexplained))} (e{unexplained[0]}=\"...\")")

    def decorator(view: Callable) -> Callable:
        documented = view
        for code in codes:
            documented = _DOC_BLUEPRINT.alt_response(
                code,
                schema=ErrorSchema,
                description=http.HTTPStatus(code).phrase,
                example=example(code, messages.get(f"e{code}")),
                headers=HEADERS.get(code),
            )(documented)
        # Only the documentation is kept: each alt_response wraps the view in a function that
        # calls through at every request (current_app, ensure_sync, a coroutine check), ten
        # layers on most views for nothing.
        view._apidoc = documented._apidoc
        return view

    return decorator


# alt_response keeps no state on its blueprint, so one private instance serves every view.
_DOC_BLUEPRINT = Blueprint("_error_docs", __name__)
