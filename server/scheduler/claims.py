"""Claiming a due game: one row, locked for this transaction, skipped by everyone else.

On PostgreSQL `FOR UPDATE SKIP LOCKED` lets two schedulers share the work without waiting on each
other; on SQLite every transaction holds the database's write lock (server.db begins IMMEDIATE), so
claims are serialized. Either way, the claimed game's due time is moved on before the transaction
ends, so the next claim does not see it again.
"""

from datetime import datetime

from sqlmodel import Session, select

from server.models import Game


def claim_game(session: Session, column, now: datetime, skip: set[str]) -> Game | None:
    """The active game whose `column` (a due-time column of Game) is earliest and not after
    `now`, locked; `skip` names games this tick already gave up on."""
    games = claim_games(session, column, now, skip, 1)
    return games[0] if games else None


def claim_games(session: Session, column, now: datetime, skip: set[str], count: int) -> list[Game]:
    """Up to `count` such games, earliest first, all locked for this transaction."""
    statement = (
        select(Game)
        .where(Game.status == "active", column.is_not(None), column <= now)
        .order_by(column, Game.id)
        .limit(count)
        .with_for_update(skip_locked=True)
    )
    if skip:
        statement = statement.where(Game.id.not_in(skip))
    return list(session.exec(statement))
