"""What a player may do now, as the API lists it (GET /legal and every command's answer).

The engine's legal commands, less a removal the server is about to play (with the default
removal grace of 0 the scheduler removes the tile at once: offering it would only earn the
player a 409), and when the server will decide for them: the time the scheduler plays the
pending decision itself (a turn deadline, the end of a removal grace), None when it never will.
A resolved pending roll is said too: buying and selling leave it pending, any other action keeps
it first, and the answer says so (RULINGS §4).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import engine
from engine.rules.undo import undo_steps


def offered(game: Any, state: Any, seat: int | None, now: datetime) -> tuple[list, datetime | None]:
    """The engine commands offered to `seat` in `game` (a Game or GameRow at the version of
    `state`), and when the server decides for them (None: never)."""

    if state is None or seat is None or engine.is_terminal(state):
        return [], None
    commands = engine.legal_commands(state, seat)
    decides_at = game.automatic_due_at if commands and game.current_seat == seat else None
    if decides_at is not None and engine.pending_kind(state) == "removal" and decides_at <= now:
        commands = []
    return commands, decides_at


def legal_now(game: Any, state: Any, seat: int | None, now: datetime) -> dict[str, Any]:
    """{"commands": [...], "server_decides_at": ISO time | None, "undo_steps": N}: `offered` as
    JSON, with how many steps the listed undo takes back (0 when none is listed)."""

    commands, decides_at = offered(game, state, seat, now)
    listed = [engine.command_to_dict(c) for c in commands]
    return {"commands": listed,
            "server_decides_at": None if decides_at is None else decides_at.isoformat(),
            "undo_steps": undo_steps(state) if {"type": "undo", "seat": seat} in listed else 0}


def notes(command: dict, events: list[dict]) -> list[str]:
    """Sentences for what a command did that the player did not ask for in so many words."""
    out = []
    if command.get("type") != "keep_roll":
        for event in events:
            payload = event["payload"]
            if payload["type"] == "roll_kept" and payload.get("seat") == command.get("seat"):
                count = payload["successes"]
                out.append(f"your pending roll was kept first ({count} success"
                           f"{'' if count == 1 else 'es'}): only buying and selling leave it "
                           "pending")
    return out
