"""The table: a game's seated participants, with their users' addresses and mail choices, read
once per game and transaction (a turn of several commands, a scheduler batch of games), and
kept up to date by `write_seat`. The due times, the notices and the automatic turns read it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import and_, bindparam, func, update
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key
from sqlmodel import select

from server.games.deferred import write
from server.storage.db import sql
from server.storage.models import Game, Seat, User
from server.storage.prepared import Prepared

_TABLES = "iridescia.tables"


class Recipient(NamedTuple):
    email: str
    preference: str  # the player's mail choice for the game (policy.ALLOWED_BY_PREFERENCE)
    time_zone: str | None = None
    quiet_hours: str | None = None  # "22-7": mail waits for its end (server/users/mail_choices.py)


@dataclass
class SeatRow:
    """A seated participant as `table_of` read it (plain values, not an ORM object: cheaper)."""

    id: int
    seat: int
    kind: str  # human | rhom | bot
    user_id: int | None
    missed_turns: int
    absent: bool
    choose_removals: bool = False  # the user's preference (users.choose_removals)
    away_until: datetime | None = None  # the user's vacation (server/vacations)
    stand_in: str | None = None  # who plays at the deadline: the seat's choice, else the user's


_TABLE_COLUMNS = (
    Seat.id, Seat.seat, Seat.kind, Seat.user_id, Seat.missed_turns, Seat.absent,
    User.choose_removals, User.email,
    # The seat's own choice for the game wins over the account's.
    func.coalesce(Seat.email_preference, User.email_preference), Seat.mail_stopped,
    User.away_until, User.time_zone, User.quiet_hours,
    func.coalesce(Seat.stand_in, User.stand_in),
)


def _seated(*columns):
    """A game's seated participants with their users' addresses (the Rhom has no user)."""
    return (
        select(*columns)
        # A disabled account (by an operator) gets no mail: no address.
        .join(User, and_(Seat.user_id == User.id, User.disabled_at.is_(None)), isouter=True)
        .where(Seat.seat.is_not(None))
    )


_TABLE = Prepared(
    _seated(*_TABLE_COLUMNS).where(Seat.game_id == bindparam("game_id")).order_by(Seat.seat)
)


def _table(rows) -> tuple[list[SeatRow], dict[int, Recipient]]:
    """Rows of `_TABLE_COLUMNS` as (seats, recipients by user id)."""
    seats = [SeatRow(*row[:6], bool(row[6]), row[10], row[13]) for row in rows]
    # A seat whose player replied `stop` gets no more mail about this game.
    users = {
        row[3]: Recipient(row[7], "none" if row[9] else row[8], row[11], row[12])
        for row in rows
        if row[3] is not None and row[7] is not None
    }
    return seats, users


def _tables(session) -> dict:
    transaction = session.get_transaction()
    cache = session.info.get(_TABLES)
    if cache is None or cache[0] is not transaction:
        cache = session.info[_TABLES] = (transaction, {})
    return cache[1]


def load_tables(session, games: list[Game]) -> None:
    """Read what `table_of` returns for several games with one query (the scheduler's batch)."""
    tables = _tables(session)
    ids = [game.id for game in games if game.id not in tables]
    if not ids:
        return
    rows = session.connection().execute(
        _seated(Seat.game_id, *_TABLE_COLUMNS)
        .where(Seat.game_id.in_(ids))
        .order_by(Seat.game_id, Seat.seat)
    ).all()
    by_game: dict[str, list] = {game_id: [] for game_id in ids}
    for row in rows:
        by_game[row.game_id].append(row[1:])
    for game_id, game_rows in by_game.items():
        tables[game_id] = _table(game_rows)


def table_of(
    session, game: Game, fresh: bool = False
) -> tuple[list[SeatRow], dict[int, Recipient]]:
    """The game's seated participants (in seat order) and their users' addresses, in one
    prepared query, read once per game and transaction: a turn of several commands reads them
    once. Change a seat through `write_seat`, which keeps this copy up to date."""
    tables = _tables(session)
    if fresh or game.id not in tables:
        if isinstance(session, OrmSession):
            pending = [o for o in (*session.new, *session.dirty) if isinstance(o, Seat)]
            if pending:  # seats changed through the ORM and not written yet
                session.flush(pending)
        rows = _TABLE.all(sql(session), {"game_id": game.id})
        tables[game.id] = _table(rows)
    return tables[game.id]


_SEAT_UPDATE = Prepared(
    update(Seat.__table__)
    .where(Seat.__table__.c.id == bindparam("seat_id"))
    .values(missed_turns=bindparam("missed_turns"), absent=bindparam("absent"))
)


def write_seat(session, row: SeatRow, missed_turns: int, absent: bool) -> None:
    """Set a seat's missed turns and absence: in the database (one prepared UPDATE), in `row`,
    and in the session's own Seat object for it if one is loaded (so nothing reads it stale)."""
    write(session, sql(session), _SEAT_UPDATE,
          [{"seat_id": row.id, "missed_turns": missed_turns, "absent": absent}])
    row.missed_turns, row.absent = missed_turns, absent
    if not isinstance(session, OrmSession):
        return
    loaded = session.identity_map.get(identity_key(Seat, row.id))
    if loaded is not None:
        set_committed_value(loaded, "missed_turns", missed_turns)
        set_committed_value(loaded, "absent", absent)


def forget_table(session, game_id: str) -> None:
    """Drop what `table_of` keeps for a game (its savepoint was rolled back)."""
    cache = session.info.get(_TABLES)
    if cache is not None:
        cache[1].pop(game_id, None)


def seat_names(session, game_id: str) -> dict[int, str]:
    """The players' names by seat, as commands name them (`give 2 amethyst to Ben`)."""
    rows = sql(session).execute(
        select(Seat.seat, Seat.kind, Seat.name, User.name)
        .outerjoin(User, Seat.user_id == User.id)
        .where(Seat.game_id == game_id, Seat.seat.is_not(None))
    )
    return {seat: (user_name or name or ("the Rhom" if kind == "rhom" else f"seat {seat}"))
            for seat, kind, name, user_name in rows}
