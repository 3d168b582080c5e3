"""Notifications: which emails the events just appended call for, queued in the outbox; and, when
the sender gets to them, their words.

`on_events_appended` reacts to the core's `EventsAppended` (subscribed by server/reactions.py),
inside the transaction that appends the events, so a notification is committed exactly when its
events are, and the outbox's unique dedupe key keeps it from being queued twice. The scheduler
queues reminders, warnings and "played for you" notices through `enqueue` the same way.

Queuing only inserts a small row (kind, recipient, game, version, seat, a little JSON): nothing is
rendered inside the game's transaction. `render_messages` builds the subject and bodies later,
from the game as it was at the notice's version (server.mail.outbox calls it before sending).
"""

import functools
import logging
from datetime import datetime

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import select

import engine
from server import wakeups
from server.games.deferred import deferred_writes
from server.games.due_times import update_due_times
from server.games.pace import time_left
from server.games.reactions import EventsAppended
from server.games.service import SERVER_ACTOR, load_state
from server.games.table import Recipient, SeatRow, table_of, write_seat
from server.notifications.context import build_context, format_time
from server.notifications.policy import Decision, Notice, Participant, after_events, wanted
from server.notifications.render import render
from server.storage.db import sql
from server.storage.models import Game, Outbox, User
from server.storage.prepared import Prepared
from server.users.mail_choices import DESCRIBED, links_for, quiet_until

log = logging.getLogger(__name__)
# Kinds whose email quotes the turn's deadline (when it is the recipient's turn).
QUOTES_DEADLINE = frozenset({"game_started", "your_turn", "reminder", "deadline_warning"})


def participants(
    session, game: Game, seats: list[SeatRow] | None = None
) -> list[Participant]:
    return [
        Participant(s.seat, s.kind, s.user_id, s.absent, s.choose_removals)
        for s in (table_of(session, game)[0] if seats is None else seats)
    ]


def _decision(state) -> Decision:

    if state is None or engine.is_terminal(state):
        return Decision(None, None)
    return Decision(engine.current_player(state), engine.pending_kind(state))


def on_events_appended(appended: EventsAppended) -> None:
    """Queue what the events call for, derive the due times and clear the acting player's
    missed turns; the mail job is woken at the commit when a notice was queued."""
    if queue_notices(appended.unit, appended.game, appended.state_before, appended.state_after,
                     appended.rows, appended.actor, appended.now):
        wakeups.note(appended.unit, "mail")


def queue_notices(
    session, game, state_before, state_after, events, actor, now
) -> list[dict]:
    """Queue what the events call for; also clear the acting player's missed turns."""

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
        user_id: Recipient(email, preference, time_zone, quiet)
        for user_id, email, preference, time_zone, quiet in sql(session).execute(
            select(User.id, User.email, User.email_preference, User.time_zone, User.quiet_hours)
            .where(User.id.in_(set(user_ids)), User.disabled_at.is_(None))
        )
    }


def outbox_row(
    game: Game, notice: Notice, user: Recipient | None, now: datetime, extra: dict | None = None
) -> dict | None:
    """The outbox row's values for `notice` about `game` at its current version, or None when
    the recipient does not want it (or no longer exists)."""

    if user is None or not wanted(notice, user.preference):
        return None
    extra = dict(extra or {})
    if notice.kind in QUOTES_DEADLINE and game.deadline_at is not None:
        # The deadline as it is now: by the time the mail is rendered the game may have moved on.
        extra["deadline"] = format_time(game.deadline_at)
        extra["time_left"] = time_left(game.deadline_at, now)
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
        # In the recipient's quiet hours it waits for their end.
        "next_attempt_at": quiet_until(user.quiet_hours, user.time_zone, now) or now,
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
    held = deferred_writes(session)
    if held is not None:
        # A scheduler batch's: sent with the batch's other notices at its end, without
        # RETURNING (a notice already queued is left alone all the same). Nobody needs the ids.
        held.add(_prepared_insert_once(connection.dialect.name, returning=False), rows)
        return rows
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
def _prepared_insert_once(dialect: str, returning: bool = True) -> Prepared:
    return Prepared(_insert_once(dialect, returning))


def render_messages(session, rows: list[Outbox]) -> dict[int, tuple[str, str, str] | Exception]:
    """(subject, text body, HTML body) of each queued notice by its id, each from the game as it
    was at the notice's version and as its seat sees it; a notice that cannot be rendered maps to
    the error instead (the others are not held up by it)."""

    games = {
        game.id: game
        for game in session.exec(select(Game).where(Game.id.in_({r.game_id for r in rows})))
    }

    users = {}
    readers = {}  # each recipient's language and display settings (docs/i18n.md)
    for user_id, name, token_hash, preference, language, zone, tiles, relics in session.exec(
        select(User.id, User.name, User.token_hash, User.email_preference, User.language,
               User.time_zone, User.tile_sort, User.relic_sort)
        .where(User.id.in_({r.user_id for r in rows}))
    ).all():
        users[user_id] = (name, token_hash, preference)
        readers[user_id] = {"language": language, "time_zone": zone, "tile_sort": tiles,
                            "relic_sort": relics}
    names = {user_id: user[0] for user_id, user in users.items()}
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
                queued_at=row.created_at,
                reader=readers.get(row.user_id),
            )
            if row.user_id in users:  # how to change what they get: a word, or one click
                _name, token_hash, preference = users[row.user_id]
                context["choice"] = DESCRIBED.get(preference, preference)
                context["choices"] = links_for(row.user_id, token_hash, preference, game.id)
            language = (readers.get(row.user_id) or {}).get("language")
            subject, text, html = render(row.kind, context, language)
            rendered[row.id] = (subject[:200], text, html)
        except Exception as error:  # one notice that cannot be rendered must not stop the rest
            log.exception("mail %s to %s cannot be rendered", row.dedupe_key, row.to_email)
            rendered[row.id] = error
    return rendered
