"""The paths of games: ``/api/v1/games/<game_id:...>`` and the links the API answers with.

A game's id is any one path segment except the words of the collection's own routes: without
this, ``GET /games/join`` (the join route takes POST only) was routed as the game "join" and
answered "there is no game 'join' you can see". Now it is a 405 naming POST.
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import BaseConverter

# The collection's own routes beside /games/<id>: no game id is one of them.
RESERVED = ("join",)


class GameIdConverter(BaseConverter):
    # The lookahead ends at the segment's end, a slash or the path's end: werkzeug may match
    # the segment within the rest of the path.
    regex = "(?!(?:" + "|".join(RESERVED) + ")(?:/|$))[^/]+"


def parameter_schema(_converter: Any) -> dict:
    return {"type": "string", "description": "The game's id", "example": "k3x9q2ab"}


def game_path(game_id: str) -> str:
    return f"/api/v1/games/{game_id}"
