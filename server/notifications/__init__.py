"""Notifications: which emails the events just appended call for, written to the outbox.

`on_events_appended` is called by `server.games.service.apply_command` inside the transaction
that appends the events, so a notification is committed exactly when its events are, and the
outbox's unique dedupe key keeps it from being queued twice. The scheduler queues reminders,
warnings and "played for you" notices through `enqueue` the same way.
"""

import logging
from datetime import datetime

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import select

from server.games.service import SERVER_ACTOR
from server.models import Game, Outbox, Seat, User
from server.notifications.context import build_context
from server.notifications.policy import Decision, Notice, Participant, after_events, wanted
from server.notifications.render import render

log = logging.getLogger(__name__)


def _seats(session, game: Game) -> list[Seat]:
    seats = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat.is_not(None))).all()
    return sorted(seats, key=lambda s: s.seat)


def participants(session, game: Game, seats: list[Seat] | None = None) -> list[Participant]:
    return [
        Participant(s.seat, s.kind, s.user_id, s.absent)
        for s in (_seats(session, game) if seats is None else seats)
    ]


def _decision(state) -> Decision:
    import engine

    if state is None or engine.is_terminal(state):
        return Decision(None, None)
    return Decision(engine.current_player(state), engine.pending_kind(state))


def on_events_appended(
    session, game, state_before, state_after, events, actor, now
) -> list[Outbox]:
    """Queue what the events call for; also clear the acting player's missed turns."""
    from server.scheduler.timers import JUST_UPDATED, update_due_times

    before, after = _decision(state_before), _decision(state_after)
    # Only the seat holding the decision can act, so that is who acted (None: the server).
    actor_seat = before.seat if actor != SERVER_ACTOR else None
    seats = _seats(session, game)
    if actor_seat is not None:
        _back_in_the_game(session, seats, actor_seat)
    table = participants(session, game, seats)
    # Emails quote the deadline, which the timers derive; they are idempotent, so the service's
    # own call after this one changes nothing.
    update_due_times(session, game, state_after, now)
    session.info[JUST_UPDATED] = (session.get_transaction(), game.id, game.version, now)
    notices = after_events(
        game.id,
        table,
        before,
        after,
        [e["type"] for e in events],
        actor_seat,
        game.version,
        removal_grace=game.removal_grace_hours > 0,
    )
    return enqueue(session, game, state_after, notices, now)


def _back_in_the_game(session, seats: list[Seat], seat: int) -> None:
    row = next((s for s in seats if s.seat == seat), None)
    if row is not None and (row.missed_turns or row.absent):
        row.missed_turns, row.absent = 0, False
        session.add(row)


def enqueue(
    session, game: Game, state, notices: list[Notice], now: datetime, extra: dict | None = None
) -> list[Outbox]:
    """Render each notice the recipient wants and insert it into the outbox (a dedupe key already
    there is left alone). Returns the rows inserted."""
    if not notices:
        return []
    users = {
        u.id: u for u in session.exec(select(User).where(User.id.in_({n.user_id for n in notices})))
    }
    inserted = []
    for notice in notices:
        user = users.get(notice.user_id)
        if user is None or not wanted(notice, user.email_preference):
            continue
        context = build_context(session, game, state, notice.kind, notice.seat, user, extra)
        subject, text, html = render(notice.kind, context)
        row = Outbox(
            dedupe_key=notice.dedupe_key,
            game_id=game.id,
            user_id=user.id,
            to_email=user.email,
            kind=notice.kind,
            subject=subject[:200],
            text_body=text,
            html_body=html,
            status="pending",
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
        if _insert_once(session, row):
            inserted.append(row)
    return inserted


def _insert_once(session, row: Outbox) -> bool:
    """INSERT ... ON CONFLICT (dedupe_key) DO NOTHING: a repeated notice is not an error that
    would roll back the events it came with."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    values = {c.name: getattr(row, c.name) for c in Outbox.__table__.columns if c.name != "id"}
    statement = (
        insert(Outbox)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["dedupe_key"])
        .returning(Outbox.id)
    )
    # RETURNING says whether the row went in (rowcount is -1 for some drivers).
    inserted = session.execute(statement).first() is not None
    if inserted:
        log.info("queued %s mail for %s (%s)", row.kind, row.to_email, row.dedupe_key)
    return inserted
