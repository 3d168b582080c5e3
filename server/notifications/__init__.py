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

import logging
from datetime import datetime
from typing import NamedTuple

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import select

from server.games.service import SERVER_ACTOR
from server.models import Game, Outbox, Seat, User
from server.notifications.policy import Decision, Notice, Participant, after_events, wanted

log = logging.getLogger(__name__)
# Kinds whose email quotes the turn's deadline (when it is the recipient's turn).
QUOTES_DEADLINE = frozenset({"game_started", "your_turn", "reminder", "deadline_warning"})
_TABLES = "iridescia.notification_tables"


class Recipient(NamedTuple):
    email: str
    preference: str  # the user's email preference (policy.ALLOWED_BY_PREFERENCE)


def table_of(session, game: Game, fresh: bool = False) -> tuple[list[Seat], dict[int, Recipient]]:
    """The game's seated participants (in seat order) and their users' addresses, in one query,
    read once per game and transaction: a turn of several commands reads them once. The Seat
    objects are the session's own, so changes to them are seen."""
    transaction = session.get_transaction()
    cache = session.info.get(_TABLES)
    if cache is None or cache[0] is not transaction:
        cache = session.info[_TABLES] = (transaction, {})
    if fresh or game.id not in cache[1]:
        rows = session.exec(
            select(Seat, User.email, User.email_preference)
            .join(User, Seat.user_id == User.id, isouter=True)
            .where(Seat.game_id == game.id, Seat.seat.is_not(None))
        ).all()
        seats = sorted((row[0] for row in rows), key=lambda s: s.seat)
        users = {
            seat.user_id: Recipient(email, preference)
            for seat, email, preference in rows
            if seat.user_id is not None
        }
        cache[1][game.id] = (seats, users)
    return cache[1][game.id]


def forget_table(session, game_id: str) -> None:
    """Drop what `table_of` keeps for a game (its savepoint was rolled back)."""
    cache = session.info.get(_TABLES)
    if cache is not None:
        cache[1].pop(game_id, None)


def participants(session, game: Game, seats: list[Seat] | None = None) -> list[Participant]:
    return [
        Participant(s.seat, s.kind, s.user_id, s.absent)
        for s in (table_of(session, game)[0] if seats is None else seats)
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
    types = [e["type"] for e in events]
    # The start seats the players (and adds the Rhom): read the table afresh then.
    seats, users = table_of(session, game, fresh="game_started" in types)
    if actor_seat is not None:
        _back_in_the_game(session, seats, actor_seat)
    # Emails quote the deadline, which the timers derive; they are idempotent, so the service's
    # own call after this one changes nothing (and is skipped).
    update_due_times(session, game, state_after, now, seats=seats)
    session.info[JUST_UPDATED] = (session.get_transaction(), game.id, game.version, now)
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


def _back_in_the_game(session, seats: list[Seat], seat: int) -> None:
    row = next((s for s in seats if s.seat == seat), None)
    if row is not None and (row.missed_turns or row.absent):
        row.missed_turns, row.absent = 0, False
        session.add(row)


def enqueue(
    session,
    game: Game,
    notices: list[Notice],
    now: datetime,
    extra: dict | None = None,
    users: dict[int, Recipient] | None = None,
) -> list[Outbox]:
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
        for user_id, email, preference in session.exec(
            select(User.id, User.email, User.email_preference).where(User.id.in_(set(user_ids)))
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


def insert_once(session, rows: list[dict]) -> list[Outbox]:
    """One INSERT ... ON CONFLICT (dedupe_key) DO NOTHING for all `rows`: a repeated notice is not
    an error that would roll back the events it came with. Returns the rows that went in."""
    if not rows:
        return []
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = (
        insert(Outbox)
        .values(rows)
        .on_conflict_do_nothing(index_elements=["dedupe_key"])
        .returning(Outbox.id, Outbox.dedupe_key)
    )
    # RETURNING says which rows went in (rowcount is -1 for some drivers).
    ids = {key: row_id for row_id, key in session.execute(statement)}
    inserted = []
    for row in rows:
        if row["dedupe_key"] in ids:
            inserted.append(Outbox(id=ids[row["dedupe_key"]], **row))
            log.info("queued %s mail for %s (%s)", row["kind"], row["to_email"], row["dedupe_key"])
    return inserted


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
            )
            subject, text, html = render(row.kind, context)
            rendered[row.id] = (subject[:200], text, html)
        except Exception as error:  # one notice that cannot be rendered must not stop the rest
            log.exception("mail %s to %s cannot be rendered", row.dedupe_key, row.to_email)
            rendered[row.id] = error
    return rendered
