"""A games row as plain values: what the command post and the scheduler's automatic turns use in
place of a mapped `Game`, off the ORM (loading and changing a mapped object cost them more than
their statements did)."""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, update

from server.storage.models import Game
from server.storage.prepared import Prepared

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


@functools.cache
def game_row_update(columns: tuple[str, ...]) -> Prepared:
    """UPDATE of these game columns where the game is still at ``expected_version`` (a command's
    own, or a scheduler batch's for its claimed games)."""
    return Prepared(
        update(Game.__table__)
        .where(Game.id == bindparam("row_id"), Game.version == bindparam("expected_version"))
        .values({name: bindparam(f"new_{name}") for name in columns})
    )
