"""Bot seats and stand-ins. The engine knows only humans and the Rhom; a bot plays a human seat
under the player id ``bot-<seat id>`` (`player_id`) at its level (``bot_policy``). A human's
stand-in is the bot level that plays their turn when its deadline passes: the seat's own choice,
else the player's preference, else `DEFAULT_STAND_IN`."""

from __future__ import annotations

from typing import Any

from engine.bots import level_of, level_policy

BOT_PLAYER_ID_PREFIX = "bot-"
# The level of a bot seat created without one.
DEFAULT_BOT_LEVEL = "hard"
# The strongest level the server can afford for every missed deadline: `hard` decides in a few
# milliseconds at the median, well under a second a turn (docs/bots.md has the figures).
DEFAULT_STAND_IN = "hard"


def with_bot_kinds(view: dict[str, Any]) -> dict[str, Any]:
    """The view with each bot seat's ``kind`` "bot", as GET /games/{id} says it."""
    players = [{**p, "kind": "bot"} if str(p["player_id"]).startswith(BOT_PLAYER_ID_PREFIX)
               else p for p in view["players"]]
    return {**view, "players": players}


def player_id(seat) -> str:
    """The engine's player id of a lobby seat: the user's id, or the bot seat's own."""
    return f"{BOT_PLAYER_ID_PREFIX}{seat.id}" if seat.kind == "bot" else str(seat.user_id)


def bot_level(stored: str | None) -> str:
    """A bot seat's level from its stored ``bot_policy`` (older games hold the old names)."""
    return level_of(stored or DEFAULT_BOT_LEVEL)


def stand_in(chosen: str | None) -> str:
    """Who plays a human's turn at the deadline: their choice (the seat's, else the account's,
    as one value) or the server's default; a stored name that is no level any more counts as
    no choice."""
    try:
        return level_of(chosen) if chosen else DEFAULT_STAND_IN
    except ValueError:
        return DEFAULT_STAND_IN


def bot_policy_of(level_name: str | None):
    """The engine policy of a bot seat's stored level."""
    return level_policy(bot_level(level_name))


def stand_in_policy(chosen: str | None):
    """The engine policy that plays a human's turn at the deadline."""
    return level_policy(stand_in(chosen))
