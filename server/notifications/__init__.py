"""Notifications: which emails the events just appended call for, queued in the outbox; and, when
the sender gets to them, their words.

`on_events_appended` is called by `server.games.service.apply_command` inside the transaction
that appends the events, so a notification is committed exactly when its events are, and the
outbox's unique dedupe key keeps it from being queued twice. The scheduler queues reminders,
warnings and "played for you" notices through `enqueue` the same way.

Queuing only inserts a small row (kind, recipient, game, version, seat, a little JSON): nothing is
rendered inside the game's transaction. `render_messages` builds the subject and bodies later,
from the game as it was at the notice's version (server.mail.outbox calls it before sending).
"""

import functools
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import and_, bindparam, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key
from sqlmodel import select

from server import wakeups
from server.db import sql
from server.games.service import SERVER_ACTOR
from server.models import Game, Outbox, Seat, User
from server.notifications.policy import Decision, Notice, Participant, after_events, wanted
from server.prepared import Prepared

log = logging.getLogger(__name__)
# Kinds whose email quotes the turn's deadline (when it is the recipient's turn).
QUOTES_DEADLINE = frozenset({"game_started", "your_turn", "reminder", "deadline_warning"})
_TABLES = "iridescia.notification_tables"


class Recipient(NamedTuple):
    email: str
    preference: str  # the user's email preference (policy.ALLOWED_BY_PREFERENCE)


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


_TABLE_COLUMNS = (
    Seat.id, Seat.seat, Seat.kind, Seat.user_id, Seat.missed_turns, Seat.absent,
    User.choose_removals, User.email, User.email_preference, Seat.mail_stopped,
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
    seats = [SeatRow(*row[:6], bool(row[6])) for row in rows]
    # A seat whose player replied `stop` gets no more mail about this game.
    users = {
        user_id: Recipient(email, "none" if stopped else preference)
        for _id, _seat, _kind, user_id, _missed, _absent, _choose, email, preference, stopped in rows
        if user_id is not None and email is not None
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
    _SEAT_UPDATE.run(
        sql(session), {"seat_id": row.id, "missed_turns": missed_turns, "absent": absent}
    )
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


def participants(
    session, game: Game, seats: list[SeatRow] | None = None
) -> list[Participant]:
    return [
        Participant(s.seat, s.kind, s.user_id, s.absent, s.choose_removals)
        for s in (table_of(session, game)[0] if seats is None else seats)
    ]


def _decision(state) -> Decision:
    import engine

    if state is None or engine.is_terminal(state):
        return Decision(None, None)
    return Decision(engine.current_player(state), engine.pending_kind(state))


def on_events_appended(
    session, game, state_before, state_after, events, actor, now
) -> list[dict]:
    """Queue what the events call for; also clear the acting player's missed turns."""
    from server.scheduler.timers import update_due_times

    before, after = _decision(state_before), _decision(state_after)
    # Only the seat holding the decision can act, so that is who acted (None: the server).
    actor_seat = before.seat if actor != SERVER_ACTOR else None
    types = [e["type"] for e in events]
    # The start seats the players (and adds the Rhom): read the table afresh then.
    seats, users = table_of(session, game, fresh="game_started" in types)
    if actor_seat is not None:
        _back_in_the_game(session, seats, actor_seat)
    # The due times are derived here, for every command: the emails quote the deadline, and an
    # absent actor who is back counts as present.
    update_due_times(session, game, state_after, now, seats=seats)
    notices = after_events(
        game.id,
        participants(session, game, seats),
        before,
        after,
        types,
        actor_seat,
        game.version,
        removal_grace=game.removal_grace_hours > 0,
    )
    return enqueue(session, game, notices, now, users=users)


def _back_in_the_game(session, seats: list[SeatRow], seat: int) -> None:
    row = next((s for s in seats if s.seat == seat), None)
    if row is not None and (row.missed_turns or row.absent):
        write_seat(session, row, 0, False)


def enqueue(
    session,
    game: Game,
    notices: list[Notice],
    now: datetime,
    extra: dict | None = None,
    users: dict[int, Recipient] | None = None,
) -> list[dict]:
    """Queue each notice its recipient wants, about the game at its current version (a dedupe
    key already there is left alone). `users` maps user ids to their address and preference
    (read when not given). Returns the rows inserted."""
    if not notices:
        return []
    if users is None:
        users = recipients(session, {n.user_id for n in notices})
    rows = [outbox_row(game, n, users.get(n.user_id), now, extra) for n in notices]
    return insert_once(session, [row for row in rows if row is not None])


def recipients(session, user_ids) -> dict[int, Recipient]:
    return {
        user_id: Recipient(email, preference)
        for user_id, email, preference in sql(session).execute(
            select(User.id, User.email, User.email_preference)
            .where(User.id.in_(set(user_ids)), User.disabled_at.is_(None))
        )
    }


def outbox_row(
    game: Game, notice: Notice, user: Recipient | None, now: datetime, extra: dict | None = None
) -> dict | None:
    """The outbox row's values for `notice` about `game` at its current version, or None when
    the recipient does not want it (or no longer exists)."""
    from server.notifications.context import format_time

    if user is None or not wanted(notice, user.preference):
        return None
    extra = dict(extra or {})
    if notice.kind in QUOTES_DEADLINE and game.deadline_at is not None:
        # The deadline as it is now: by the time the mail is rendered the game may have moved on.
        extra["deadline"] = format_time(game.deadline_at)
    return {
        "dedupe_key": notice.dedupe_key,
        "game_id": game.id,
        "user_id": notice.user_id,
        "to_email": user.email,
        "kind": notice.kind,
        "version": game.version,
        "seat": notice.seat,
        "extra": extra or None,
        "subject": None,
        "text_body": None,
        "html_body": None,
        "status": "pending",
        "attempts": 0,
        "next_attempt_at": now,
        "last_error": None,
        "created_at": now,
        "sent_at": None,
    }


def insert_once(session, rows: list[dict]) -> list[dict]:
    """INSERT ... ON CONFLICT (dedupe_key) DO NOTHING for each of `rows` (a command queues one to
    four; `insert_many` takes batches): a repeated notice is not an error that would roll back
    the events it came with. Returns the rows that went in, with their id."""
    if not rows:
        return []
    # On the session's connection: the outbox needs nothing the ORM has pending (no autoflush).
    connection = sql(session)
    statement = _prepared_insert_once(connection.dialect.name)
    # RETURNING says whether the row went in (rowcount is -1 for some drivers).
    ids = {}
    for row in rows:
        added = statement.first(connection, row)
        if added is not None:
            ids[added.dedupe_key] = added.id
    inserted = []
    for row in rows:
        if row["dedupe_key"] in ids:
            inserted.append(dict(row, id=ids[row["dedupe_key"]]))
            log.info("queued %s mail for %s (%s)", row["kind"], row["to_email"], row["dedupe_key"])
    return inserted


def insert_many(session, rows: list[dict]) -> None:
    """`insert_once` for many rows when the caller need not know which went in: without
    RETURNING the driver sends them as a plain executemany, several times faster for a batch
    (a multi-row INSERT ... RETURNING of a hundred notices costs PostgreSQL 20 ms, this 5)."""
    if rows:
        connection = session.connection()
        connection.execute(_insert_once(connection.dialect.name, returning=False), rows)
        wakeups.note(session, "mail")


@functools.cache
def _insert_once(dialect: str, returning: bool = True):
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    table = Outbox.__table__
    statement = insert(table).on_conflict_do_nothing(index_elements=["dedupe_key"])
    return statement.returning(table.c.id, table.c.dedupe_key) if returning else statement


@functools.cache
def _prepared_insert_once(dialect: str) -> Prepared:
    return Prepared(_insert_once(dialect))


def render_messages(session, rows: list[Outbox]) -> dict[int, tuple[str, str, str] | Exception]:
    """(subject, text body, HTML body) of each queued notice by its id, each from the game as it
    was at the notice's version and as its seat sees it; a notice that cannot be rendered maps to
    the error instead (the others are not held up by it)."""
    from server.games.service import load_state
    from server.notifications.context import build_context
    from server.notifications.render import render

    games = {
        game.id: game
        for game in session.exec(select(Game).where(Game.id.in_({r.game_id for r in rows})))
    }
    names = dict(
        session.exec(select(User.id, User.name).where(User.id.in_({r.user_id for r in rows}))).all()
    )
    rendered: dict[int, tuple[str, str, str] | Exception] = {}
    for row in rows:
        try:
            game = games.get(row.game_id)
            if game is None or row.version is None or row.seat is None:
                raise ValueError(
                    f"{row.kind} notice {row.dedupe_key} names no game version and seat to render"
                )
            state = load_state(session, game, version=row.version)
            context = build_context(
                session,
                game,
                row.version,
                state,
                row.kind,
                row.seat,
                names.get(row.user_id, ""),
                row.extra,
                user_id=row.user_id,
            )
            subject, text, html = render(row.kind, context)
            rendered[row.id] = (subject[:200], text, html)
        except Exception as error:  # one notice that cannot be rendered must not stop the rest
            log.exception("mail %s to %s cannot be rendered", row.dedupe_key, row.to_email)
            rendered[row.id] = error
    return rendered
