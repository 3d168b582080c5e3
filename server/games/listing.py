"""A user's games in the list's order (my turn first, then the nearest deadline, then the
newest), ordered and cut to a page by the database.

    rows, total = games_page(session, user, offset=0, limit=20)   # GET /games, a page
    rows = games_of(session, user)                                 # all of them (web, email)

The rows are plain (the game's listed columns and ``my_seat_number``), read like a Game by
`lobby.games_json`. The list used to read every game of the user and sort them in Python, then
keep a page: the user in 1,000 games paid for 1,000 rows (and their type conversions) for 20.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, bindparam, case, func, select
from sqlalchemy.engine import Connection
from sqlmodel import Session

from server.games.lobby import SETTING_NAMES
from server.storage.db import sql
from server.storage.models import Game, Seat, User
from server.storage.prepared import Prepared

# Only what `lobby.games_json` and the order read: on PostgreSQL every column of every row costs.
LISTED_COLUMNS = ("id", "status", "public", "join_code", "seats", "rhom", "variants", "version",
                  "rules_version", "seed_hash", "current_seat", "pending_kind", "deadline_at",
                  "created_at", "paused_at", *SETTING_NAMES)
_MY_TURN_FIRST = case(
    (and_(Game.status == "active", Seat.seat.is_not(None), Game.current_seat == Seat.seat), 0),
    else_=1)
# NULLS LAST spelled out: SQLite puts nulls first, PostgreSQL last.
_NO_DEADLINE_LAST = case((Game.deadline_at.is_(None), 1), else_=0)  # type: ignore[union-attr]
ORDER = (_MY_TURN_FIRST, _NO_DEADLINE_LAST, Game.deadline_at, Game.created_at.desc(),  # type: ignore[attr-defined]
         Game.id)

_GAMES_OF_USER = (
    select(*(Game.__table__.c[name] for name in LISTED_COLUMNS),
           Seat.seat.label("my_seat_number"))
    .join(Seat, Seat.game_id == Game.id)
    .where(Seat.user_id == bindparam("user_id"))
    .order_by(*ORDER)
)
_ALL_GAMES = Prepared(_GAMES_OF_USER)
# The page and, on each of its rows, how many games there are in all: one statement.
_PAGE = Prepared(_GAMES_OF_USER.add_columns(func.count().over().label("total_games"))
                 .limit(bindparam("limit")).offset(bindparam("offset")))
_COUNT = Prepared(select(func.count()).select_from(Seat).where(Seat.user_id == bindparam("user_id")))


def games_of(session: Session, user: User) -> list[Any]:
    """All the user's games, in the list's order."""
    return _ALL_GAMES.all(sql(session), {"user_id": user.id})


MOST_GAMES_A_USER_CAN_HAVE = 2**31


def games_page(session: Session | Connection, user: Any, offset: int, limit: int) -> tuple[list[Any], int]:
    """The user's games from ``offset`` (at most ``limit``), and how many they have in all."""
    connection = sql(session)
    # A page number any client may send, however large: past every game a user can have, and
    # beyond what the databases take as an OFFSET (a 64-bit integer), it is simply past the last.
    rows = [] if offset > MOST_GAMES_A_USER_CAN_HAVE else _PAGE.all(
        connection, {"user_id": user.id, "limit": limit, "offset": offset})
    if rows:
        return rows, rows[0].total_games
    # Past the last page (or no games): the count alone.
    return [], _COUNT.first(connection, {"user_id": user.id})[0]
