""""What would the bot do?": the command the `hard` bot would play now for a player.

Computed from the player's own view only (`engine.view(state, seat)`) and their legal commands,
exactly what a bot seat sees: no hidden information (rivals' objectives, decks, face-down tiles,
the game's secret seed) goes in, so the hint cannot give any away. Its generator is seeded from
what the player knows (the game's id, its version, the seat), so asking twice gives one answer.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import engine
from engine.bots import hard_choice
from engine.text import notation
from server.games.legality import offered

HINT_LEVEL = "hard"


def hint(game: Any, state: Any, seat: int | None, now: datetime) -> dict[str, Any] | None:
    """{"level", "command", "line"}: what the hard bot would play for `seat` now; None when the
    seat has nothing to decide (not its turn, the game over, or not a player)."""
    commands, _ = offered(game, state, seat, now)
    commands = [c for c in commands if c.type != "undo"]
    if not commands:
        return None
    view = engine.view(state, seat)
    command = hard_choice(view, commands, random.Random(f"hint/{game.id}/{game.version}/{seat}"))
    line = notation.format(command) if notation.has_notation(command) else None
    return {"level": HINT_LEVEL, "command": engine.command_to_dict(command), "line": line}
