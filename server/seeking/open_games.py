"""The public games that wait for players, newest first, filtered by seats, pace and rules
version: GET /api/v1/games/open, `iridescia open`, `open` by mail and the /open page."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlmodel import Session

from server.games.pace import PACES
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Game, Seat


def _filtered(statement: Any, seats: int | None, pace: str | None,
              rules_version: str | None) -> Any:
    statement = statement.where(Game.status == "open", Game.public.is_(True))  # type: ignore[attr-defined]
    if seats is not None:
        statement = statement.where(Game.seats == seats)
    if pace is not None:
        if pace not in PACES:
            fail(422, Said(N_("pace {pace!r} is not one of {paces}"), pace=pace,
                           paces=", ".join(PACES)))
        statement = statement.where(Game.turn_deadline_hours == PACES[pace][0])
    if rules_version is not None:
        statement = statement.where(Game.rules_version == rules_version)
    return statement


def open_games(session: Session, offset: int, limit: int, *, seats: int | None = None,
               pace: str | None = None, rules_version: str | None = None
               ) -> tuple[list[Game], int]:
    """A page of the open public games (newest first) and how many there are in all. A game
    full already (waiting for its creator to start it) is not listed: nobody can join it."""
    taken = (select(func.count()).select_from(Seat)
             .where(Seat.game_id == Game.id, Seat.kind.in_(("human", "bot")))  # type: ignore[attr-defined]
             .scalar_subquery())
    statement = _filtered(select(Game), seats, pace, rules_version).where(taken < Game.seats)
    total = session.scalar(select(func.count()).select_from(statement.subquery())) or 0
    if offset >= total:  # past the last (a page far past it would overflow the OFFSET): none
        return [], total
    rows = session.scalars(statement.order_by(Game.created_at.desc(), Game.id)  # type: ignore[attr-defined]
                        .offset(offset).limit(limit)).all()
    return list(rows), total
