"""Table talk on a game's page: the messages the viewer may read (server/messages) and the
channels their form may post to. The template escapes every name and text."""

from __future__ import annotations

from typing import Any

from server.games import lobby
from server.messages import service
from server.storage.models import Game, User

PAGE_MESSAGES = 50


def talk_context(session, game: Game, user: User | None) -> dict[str, Any]:
    member = user is not None and lobby.seat_of(session, game, user) is not None
    channels = service.readable_channels(member)
    if user is None:
        can_post: list[str] = []
    elif member:
        can_post = ["players", "spectators"] if game.public else ["players"]
    else:
        can_post = ["spectators"]
    return {"messages": service.listing(session, game, channels, limit=PAGE_MESSAGES),
            "channels": list(channels), "can_post": can_post,
            "max_length": service.MAX_LENGTH}
