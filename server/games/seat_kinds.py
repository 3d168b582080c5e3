"""Bot seats in the engine's view: the engine knows only humans and the Rhom; a bot plays a
human seat under the player id ``bot-<seat id>`` (`player_id`)."""

from __future__ import annotations

from typing import Any

BOT_PLAYER_ID_PREFIX = "bot-"


def with_bot_kinds(view: dict[str, Any]) -> dict[str, Any]:
    """The view with each bot seat's ``kind`` "bot", as GET /games/{id} says it."""
    players = [{**p, "kind": "bot"} if str(p["player_id"]).startswith(BOT_PLAYER_ID_PREFIX)
               else p for p in view["players"]]
    return {**view, "players": players}


def player_id(seat) -> str:
    """The engine's player id of a lobby seat: the user's id, or the bot seat's own."""
    return f"{BOT_PLAYER_ID_PREFIX}{seat.id}" if seat.kind == "bot" else str(seat.user_id)
