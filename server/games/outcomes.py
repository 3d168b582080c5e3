"""A finished game's final scores (``games.outcome``), also for the games that ended before the
column was kept: derived from their log, like every state.

A game ending now has its outcome written with its last command (`service.apply_command`).
The games that ended before have none on their row; what reads the outcomes (the ratings, a
player's results) asks `outcomes_of` for them, which derives each from the game's final state
(its last snapshot and the events after it: a few statements a game) once per process, and
keeps it in memory: a finished game's log never changes. Nothing is written (the readers are
GETs, which never write), so nothing needs an operator: no migration to run, no rebuild.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection
from sqlmodel import Session

import engine
from server.games.service import load_state
from server.storage.db import sql
from server.storage.models import Game

# (database, game id) -> its outcome (None: its log has no final state)
_DERIVED: dict[tuple[str, str], dict[str, Any] | None] = {}
_LOCK = threading.Lock()
_VERSIONS = select(Game.id, Game.version).where(
    Game.id.in_(bindparam("game_ids", expanding=True)),  # type: ignore[attr-defined]
    Game.status == "finished")


def outcomes_of(unit: Session | Connection, game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The outcomes of ``game_ids``, finished games with none on their row, derived from their
    logs (a game whose log does not reach its end is left out)."""
    if not game_ids:
        return {}
    connection = sql(unit)
    found: dict[str, dict[str, Any]] = {}
    database = str(connection.engine.url)
    for row in connection.execute(_VERSIONS, {"game_ids": list(game_ids)}).all():
        with _LOCK:
            known = (database, row.id) in _DERIVED
            outcome = _DERIVED.get((database, row.id))
        if not known:
            state = load_state(unit, row)
            outcome = engine.outcome(state).to_dict() if engine.is_terminal(state) else None
            with _LOCK:
                _DERIVED[database, row.id] = outcome
        if outcome is not None:
            found[row.id] = outcome
    return found


def forget() -> None:
    """Forget what this process derived (tests that empty the database)."""
    with _LOCK:
        _DERIVED.clear()
