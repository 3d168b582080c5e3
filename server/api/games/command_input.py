"""What a posted command says, checked before it is decided: a notation line parsed for the
caller's seat, and a command's ``seat`` checked to be the caller's (a refusal names players,
never seat numbers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

import engine
from engine.text import notation
from server import i18n
from server.games.rows import GameRow
from server.http.errors import fail, requester_language
from server.plans.store import seat_names


def from_notation(line: str, seat: int | None, state: Any,
                  language: Callable[[], str] = requester_language) -> dict:
    """A notation line (engine/text/notation.py) as the command dict `checked` checks; 422 for
    one that is no command, the notation's reason in `language()`."""
    if seat is None:
        fail(403, "you have no seat in this game: only its players send commands")
    players = [{"seat": p.seat, "hold": dict(p.hold), "items": list(p.items)}
               for p in getattr(state, "players", ())]
    try:
        return engine.command_to_dict(notation.parse(line, seat, view={"players": players}))
    except notation.NotationError as error:
        fail(422, i18n.refusal(error, language()), notation=line)


def checked(connection: Connection, game: GameRow, seat: int, command: dict,
            language: Callable[[], str] = requester_language) -> tuple[dict, Any]:
    """The command with the caller's seat filled in, and the engine's command; 422 for one that
    is no command (the engine's reason in `language()`), 403 for one that names another
    player's seat."""
    command = dict(command)
    if command.get("type") == "start_game":
        fail(422, "start_game is not played as a command: POST /games/{id}/start")
    if command.get("seat") is None:
        command["seat"] = seat
    if not isinstance(command["seat"], int) or isinstance(command["seat"], bool):
        fail(422, "command.seat is not one of this game's seats: leave it out (your own is "
                  "filled in)")
    if command["seat"] != seat:
        names = seat_names(connection, game.id)
        owner = names.get(command["seat"])
        whose = f"{owner}'s, not yours" if owner is not None else "not yours"
        fail(403, f"command.seat is {whose}: you play as {names.get(seat, 'yourself')} (leave "
                  "command.seat out: it is yours by default)", your_seat=seat)
    try:
        return command, engine.command_from_dict(command)
    except engine.RuleError as error:
        fail(422, i18n.refusal(error, language()), command=command)
    except (KeyError, TypeError, ValueError) as error:
        fail(422, f"this is not a valid command: {error}", command=command)
