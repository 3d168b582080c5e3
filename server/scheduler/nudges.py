"""Reminders and the deadline warning for the human whose decision is pending.

The schedule is `server.scheduler.timers.next_nudge`: a reminder every `reminder_interval_hours`
from the turn's start, then one warning when a quarter of the turn's time (at most 12 hours) is
left. A tick that comes late sends one nudge, not every one it missed.
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from server.db import session_scope
from server.models import Game
from server.notifications import enqueue
from server.notifications.policy import Participant, deadline_warning, reminder
from server.scheduler.claims import claim_games
from server.scheduler.timers import next_nudge, seat_row, warning_at

log = logging.getLogger(__name__)


@dataclass
class Nudge:
    game_id: str
    seat: int
    kind: str  # reminder | deadline_warning


# Games nudged per transaction: one claim and one commit for several reminders.
NUDGE_BATCH = 20


def send_due_nudges(db, now: datetime, limit: int = 500) -> list[Nudge]:
    """Nudge every game due at `now` (at most `limit` claimed), `NUDGE_BATCH` per transaction,
    each game in a savepoint: a game that fails is rolled back alone, the ones before it in the
    batch are committed, and then the error stops the step as before (the tick logs it)."""
    sent: list[Nudge] = []
    claimed = 0
    while claimed < limit:
        failure: Exception | None = None
        with session_scope(db) as session:
            games = claim_games(
                session, Game.next_reminder_at, now, set(), min(NUDGE_BATCH, limit - claimed)
            )
            if not games:
                break
            claimed += len(games)
            for game in games:
                try:
                    with session.begin_nested():
                        nudge = _nudge(session, game, now)
                        game.next_reminder_at = next_nudge(game, now)
                        session.add(game)
                except Exception as error:
                    failure = error
                    break
                if nudge is not None:
                    sent.append(nudge)
        if failure is not None:
            raise failure
    return sent


def _nudge(session, game: Game, now: datetime) -> Nudge | None:
    row = seat_row(session, game, game.current_seat)
    if row is None or row.user_id is None or row.absent:
        return None
    participant = Participant(row.seat, row.kind, row.user_id, row.absent)
    start = game.turn_started_at or now
    turn = int(start.timestamp())
    warn = warning_at(game)
    if warn is not None and now >= warn:
        notice = deadline_warning(game.id, participant, turn)
    else:
        number = int((now - start) / timedelta(hours=max(1, game.reminder_interval_hours)))
        notice = reminder(game.id, participant, turn, number)
    enqueue(session, game, [notice], now)
    log.info("game %s: %s for seat %d", game.id, notice.kind.replace("_", " "), row.seat)
    return Nudge(game.id, row.seat, notice.kind)
