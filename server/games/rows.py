"""A games row as plain values: what the command post and the scheduler's automatic turns use in
place of a mapped `Game`, off the ORM (loading and changing a mapped object cost them more than
their statements did)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from server.models import Game

GAME_COLUMNS = tuple(column.key for column in Game.__table__.columns)


class GameRow(SimpleNamespace):
    """A games row's values as attributes, standing in for a mapped `Game` off the ORM. It keeps
    the values it was read with, so that a command's UPDATE writes only what the command
    changed."""

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        self._read = values

    def changed(self, names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(name for name in names if getattr(self, name) != self._read[name])
