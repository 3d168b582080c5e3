"""Who asks, and about which game, before what they sent: the API's order of checks.

webargs reads a view's body and query before the view runs, so a request without a token and
with a bad body got 422 (no WWW-Authenticate) where it should have got 401, and a command to a
game that does not exist got the body's 422 before the 404 (issue 32, an integrator's view).
Before input is refused (``server.http.parsing.Parser`` calls ``check_first``): an operation
whose spec requires the bearer token checks it (401 with ``WWW-Authenticate: Bearer``), then a
path naming a game that does not exist is 404. Only a request about to be refused pays for it:
a good one goes to its view, which checks the token and the game (and visibility) as before.
"""

from __future__ import annotations

from flask import current_app, request
from sqlmodel import select

from server.http.auth import BEARER, require_user
from server.http.errors import fail
from server.storage.db import app_engine, read_only, session_scope
from server.storage.models import Game


def _security() -> list | None:
    view = current_app.view_functions.get(request.endpoint or "")
    view_class = getattr(view, "view_class", None)
    function = getattr(view_class, request.method.lower(), None) if view_class else view
    return getattr(function, "_apidoc", {}).get("manual_doc", {}).get("security")


def check_first() -> None:
    """401 or 404 when the caller or the game is wrong, before the input is refused."""
    if not request.path.startswith("/api/"):
        return
    security = _security()
    if security is not None and {} not in security and BEARER in security:
        require_user()
    game_id = (request.view_args or {}).get("game_id")
    if isinstance(game_id, str):
        with session_scope(read_only(app_engine(current_app))) as session:
            found = session.exec(select(Game.id).where(Game.id == game_id)).first()
        if found is None:
            fail(404, f"there is no game {game_id!r} you can see", game_id=game_id)
