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
from server.scheduler.claims import claim_game
from server.scheduler.timers import next_nudge, seat_row, warning_at

log = logging.getLogger(__name__)


@dataclass
class Nudge:
    game_id: str
    seat: int
    kind: str  # reminder | deadline_warning


def send_due_nudges(db, now: datetime, limit: int = 500) -> list[Nudge]:
    sent: list[Nudge] = []
    for _ in range(limit):
        with session_scope(db) as session:
            game = claim_game(session, Game.next_reminder_at, now, set())
            if game is None:
                break
            nudge = _nudge(session, game, now)
            game.next_reminder_at = next_nudge(game, now)
            session.add(game)
        if nudge is not None:
            sent.append(nudge)
    return sent


def _nudge(session, game: Game, now: datetime) -> Nudge | None:
    from server.games.service import load_state

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
    enqueue(session, game, load_state(session, game), [notice], now)
    log.info("game %s: %s for seat %d", game.id, notice.kind.replace("_", " "), row.seat)
    return Nudge(game.id, row.seat, notice.kind)
