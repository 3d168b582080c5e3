"""Writes held back to the end of a scheduler batch, then sent as one executemany per statement.

    writes = DeferredWrites()
    with deferring(session, writes):      # apply_command and the notifications add to `writes`
        play the game's turn
    batch.merge(writes)                   # the game succeeded: its rows join the batch's
    batch.flush(session.connection())     # one executemany per statement, then the commit

The scheduler plays a batch of claimed, locked games in one transaction. Written command by
command, each turn cost a round trip per row (events, command, game row, seat, outbox) and a
savepoint per game, several times the engine's work for the turn. Held back instead, the engine
work of every game comes first and each statement then goes once for the whole batch; a game
that fails drops its own writes (nothing of it reached the database), so it needs no savepoint.
A turn's several UPDATEs of its game row become one (the last values, checked against the
version the turn started from).

Only for claimed games: nobody else can append to them, so nothing is read back before the
flush, and a flush that fails (which would be a bug) fails the whole batch, which the scheduler
then plays again game by game (server.scheduler.automatic).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session as OrmSession

from server.games.rows import game_row_update
from server.storage.prepared import Prepared

_KEY = "iridescia.deferred_writes"


class DeferredWrites:
    def __init__(self) -> None:
        # (statement, the rows' keys) -> rows, in the order first written: the log before the
        # notices that read it, as when written at once.
        self._rows: dict[tuple[int, frozenset[str]], tuple[Prepared, list[dict]]] = {}
        # game id -> (the version the batch found it at, the columns' new values)
        self._games: dict[str, tuple[int, dict[str, Any]]] = {}

    def add(self, statement: Prepared, rows: list[dict]) -> None:
        keys = None
        for row in rows:
            if keys is None or row.keys() != keys:  # (a call's rows mostly share their keys)
                keys = row.keys()
                entry = self._rows.get((id(statement), frozenset(keys)))
                if entry is None:
                    entry = self._rows[(id(statement), frozenset(keys))] = (statement, [])
            entry[1].append(row)

    def update_game(self, game_id: str, expected: int, values: dict[str, Any]) -> None:
        if game_id in self._games:
            first, earlier = self._games[game_id]
            self._games[game_id] = (first, {**earlier, **values})
        else:
            self._games[game_id] = (expected, dict(values))

    def merge(self, other: DeferredWrites) -> None:
        for key, (statement, rows) in other._rows.items():
            entry = self._rows.get(key)
            if entry is None:
                entry = self._rows[key] = (statement, [])
            entry[1].extend(rows)
        for game_id, (expected, values) in other._games.items():
            self.update_game(game_id, expected, values)

    def __bool__(self) -> bool:
        return bool(self._rows or self._games)

    def flush(self, connection: Connection) -> None:
        """Send everything held: one executemany per statement. Raises `LostGameRow` when a
        game row was not at the version its turn started from."""

        for statement, rows in self._rows.values():
            statement.run_many(connection, rows)
        by_columns: dict[tuple[str, ...], list[dict]] = {}
        for game_id, (expected, values) in self._games.items():
            by_columns.setdefault(tuple(values), []).append(
                {"row_id": game_id, "expected_version": expected,
                 **{f"new_{name}": value for name, value in values.items()}})
        for columns, rows in by_columns.items():
            written = game_row_update(columns).run_many(connection, rows)
            if written != len(rows):
                raise LostGameRow(f"{len(rows) - written} of {len(rows)} game rows were not at "
                                  "the version their automatic turns started from")
        self._rows.clear()
        self._games.clear()


class LostGameRow(Exception):
    """A claimed game moved on under the batch: the batch is played again game by game."""


@contextmanager
def deferring(session, writes: DeferredWrites):
    """Hold back the writes `apply_command` and the notifications make on `session` in
    `writes` while the block runs."""
    session.info[_KEY] = writes
    try:
        yield writes
    finally:
        session.info.pop(_KEY, None)


def deferred_writes(unit) -> DeferredWrites | None:
    """The writes being held back on this session, if any (a plain Connection never holds)."""
    return unit.info.get(_KEY) if isinstance(unit, OrmSession) else None


def write(unit, connection: Connection, statement: Prepared, rows: list[dict]) -> None:
    """Run `statement` for `rows` now, or hold them back if `unit` is deferring."""
    writes = deferred_writes(unit)
    if writes is not None:
        writes.add(statement, rows)
    elif len(rows) == 1:
        statement.run(connection, rows[0])
    else:
        statement.run_many(connection, rows)
