"""Claiming a due game: one row, locked for this transaction, skipped by everyone else.

On PostgreSQL `FOR UPDATE SKIP LOCKED` lets two schedulers share the work without waiting on each
other; on SQLite every transaction holds the database's write lock (server.storage.db begins IMMEDIATE), so
claims are serialized. Either way, the claimed game's due time is moved on before the transaction
ends, so the next claim does not see it again.
"""

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, select

from server.games.rows import GameRow
from server.storage.models import Game


def claim_game(session: Session, column, now: datetime, skip: set[str]) -> Game | None:
    """The active game whose `column` (a due-time column of Game) is earliest and not after
    `now`, locked; `skip` names games this tick already gave up on."""
    games = claim_games(session, column, now, skip, 1)
    return games[0] if games else None


def _due(statement, column, now: datetime, skip: set[str], count: int):
    statement = (
        statement
        .where(Game.status == "active", column.is_not(None), column <= now)
        .order_by(column, Game.id)
        .limit(count)
        .with_for_update(skip_locked=True)
    )
    if skip:
        statement = statement.where(Game.id.not_in(skip))
    return statement


def claim_games(session: Session, column, now: datetime, skip: set[str], count: int) -> list[Game]:
    """Up to `count` such games, earliest first, all locked for this transaction."""
    return list(session.exec(_due(select(Game), column, now, skip, count)))


def claim_game_rows(session: Session, column, now: datetime, skip: set[str],
                    count: int) -> list[GameRow]:
    """`claim_games`, the games as plain rows (server/games/rows.py) rather than mapped objects:
    for the automatic turns, which change them command by command and write them themselves
    (a mapped Game's attribute bookkeeping cost a tenth of a turn)."""
    result = session.connection().execute(_due(sa.select(Game.__table__), column, now, skip, count))
    return [GameRow(**row._asdict()) for row in result]
