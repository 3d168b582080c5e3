"""Reminders and the deadline warning for the human whose decision is pending.

The schedule is `server.games.due_times.next_nudge`: a reminder every `reminder_interval_hours`
from the turn's start, then one warning when a quarter of the turn's time (at most 12 hours) is
left. A tick that comes late sends one nudge, not every one it missed.

Nudges are cheap and done in bulk: `NUDGE_BATCH` due games are claimed in one statement, their
seats to act and those players' addresses read in one more, the notices inserted by one
executemany `INSERT ... ON CONFLICT DO NOTHING` and the games' next nudge times written by one executemany
UPDATE: one transaction and a handful of statements for the lot. Nothing is rendered here (the
sender renders the mail).
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlmodel import select

from server.games.due_times import next_nudge, warning_at
from server.games.table import Recipient
from server.notifications import insert_many, outbox_row
from server.notifications.policy import Notice, Participant, deadline_warning, reminder
from server.scheduler.claims import claim_games
from server.storage.db import session_scope
from server.storage.models import Game, Seat, User

log = logging.getLogger(__name__)
# Games nudged per transaction: one claim, one insert and one update for all of them.
NUDGE_BATCH = 100
RETRY_AFTER_ERROR = timedelta(minutes=5)


@dataclass
class Nudge:
    game_id: str
    seat: int
    kind: str  # reminder | deadline_warning


def send_due_nudges(db, now: datetime, budget=None) -> list[Nudge]:
    """Nudge every game due at `now`, `NUDGE_BATCH` per transaction, while `budget` (a
    server.scheduler.budget.Budget, asked before each batch) has time left."""
    sent: list[Nudge] = []
    while budget is None or budget.left():
        batch = nudge_batch(db, now)
        if batch is None:
            break
        sent.extend(batch)
    return sent


def nudge_batch(db, now: datetime) -> list[Nudge] | None:
    """Claim up to `NUDGE_BATCH` games due a nudge at `now` and nudge them, in one transaction;
    None when none was due. A game whose nudge cannot be worked out is logged and tried again
    `RETRY_AFTER_ERROR` later; the others go ahead."""
    with session_scope(db) as session:
        games = claim_games(session, Game.next_reminder_at, now, set(), NUDGE_BATCH)
        if not games:
            return None
        to_act = _seats_to_act(session, games)
        rows, nudges, due_times = [], [], []
        for game in games:
            try:
                seat, user = to_act.get(game.id, (None, None))
                notice = _notice(game, seat, now)
                following = next_nudge(game, now)
            except Exception:
                log.exception("game %s: could not work out its reminder; retrying in %s",
                              game.id, RETRY_AFTER_ERROR)
                due_times.append({"id": game.id, "next_reminder_at": now + RETRY_AFTER_ERROR})
                continue
            due_times.append({"id": game.id, "next_reminder_at": following})
            if notice is None:
                continue
            row = outbox_row(game, notice, user, now)
            if row is not None:
                rows.append(row)
            nudges.append(Nudge(game.id, notice.seat, notice.kind))
        insert_many(session, rows)
        session.execute(update(Game), due_times)  # one executemany, by primary key
    for nudge in nudges:
        log.info("game %s: %s for seat %d", nudge.game_id, nudge.kind.replace("_", " "), nudge.seat)
    return nudges


def _seats_to_act(session, games: list[Game]) -> dict[str, tuple[Participant, Recipient | None]]:
    """Each game's seat to act (if a seat is) and its player's address, in one query."""
    current = {game.id: game.current_seat for game in games if game.current_seat is not None}
    if not current:
        return {}
    rows = session.exec(
        select(Seat.game_id, Seat.seat, Seat.kind, Seat.user_id, Seat.absent, User.email,
               func.coalesce(Seat.email_preference, User.email_preference), Seat.mail_stopped,
               User.time_zone, User.quiet_hours)
        .join(User, Seat.user_id == User.id, isouter=True)
        .where(Seat.game_id.in_(current))
    ).all()
    return {
        game_id: (
            Participant(seat, kind, user_id, absent),
            # A seat whose player replied `stop` gets no reminders either.
            None if email is None else Recipient(email, "none" if stopped else preference,
                                                 time_zone, quiet),
        )
        for game_id, seat, kind, user_id, absent, email, preference, stopped, time_zone, quiet
        in rows
        if seat is not None and current[game_id] == seat
    }


def _notice(game: Game, seat: Participant | None, now: datetime) -> Notice | None:
    """The reminder or warning the seat to act gets now (none for the Rhom or an absent seat)."""
    if seat is None or not seat.is_human or seat.absent:
        return None
    start = game.turn_started_at or now
    turn = int(start.timestamp())
    warn = warning_at(game)
    if warn is not None and now >= warn:
        return deadline_warning(game.id, seat, turn)
    number = int((now - start) / timedelta(hours=max(1, game.reminder_interval_hours)))
    return reminder(game.id, seat, turn, number)
