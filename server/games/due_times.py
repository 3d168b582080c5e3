"""Due times on the game row: when the scheduler next has something to do for a game.

- `automatic_due_at`: when the server plays the pending decision itself: the Rhom's turn after
  the game's `rhom_delay_seconds`; a bot seat's turn (or removal) after the same delay; a removal
  turn after `removal_grace_hours` (0: at once), or at the turn deadline for a player who chose
  to choose their own removals; an absent seat at once; a human's turn at its deadline.
- `deadline_at`: a human's turn start + `turn_deadline_hours` (0: no deadline, never auto-played).
- `next_reminder_at`: the next nudge: a reminder every `reminder_interval_hours` (0: none) while
  the turn is pending, then one deadline warning when `warning_lead` is left; none after it.

All of it is derived from the turn's start (`turn_started_at`, set by apply_command when a new
turn begins), so calling `update_due_times` twice with the same inputs changes nothing.

While the game is paused or the player to act is away (server/games/holds.py) there is no
deadline and no reminder; `automatic_due_at` is then the player's return, when the scheduler
starts the clock again (it plays nothing then).
"""

from datetime import datetime, timedelta

from sqlalchemy.orm import Session as OrmSession

from server.games import holds
from server.games.table import table_of
from server.storage.models import Game

HUMAN_DECISIONS = {"turn", "choose_gem", "give_gem", "discard_objective", "roll"}
LONGEST_WARNING_LEAD = timedelta(hours=12)


def warning_lead(game: Game) -> timedelta:
    """How long before the deadline the warning goes out: a quarter of the turn's time, at most
    12 hours (a 72-hour turn is warned 12 hours ahead, a 24-hour turn 6 hours ahead)."""
    return min(LONGEST_WARNING_LEAD, timedelta(hours=game.turn_deadline_hours) / 4)


def warning_at(game: Game) -> datetime | None:
    return None if game.deadline_at is None else game.deadline_at - warning_lead(game)


def next_nudge(game: Game, after: datetime) -> datetime | None:
    """The first reminder or warning time strictly after `after` for the pending human turn."""
    warn = warning_at(game)
    start = game.turn_started_at
    if game.reminder_interval_hours > 0 and start is not None:
        interval = timedelta(hours=game.reminder_interval_hours)
        number = int((after - start) / interval) + 1
        reminder = start + number * interval
        if warn is None or reminder < warn:
            return reminder
    if warn is not None and warn > after:
        return warn
    return None


def removal_grace(game: Game, seat) -> timedelta | None:
    """How long the server waits before removing a tile for a finished player: the game's
    removal grace, or their turn deadline when they choose their own removals (users.
    choose_removals; None: no deadline, the server never removes for them)."""
    if getattr(seat, "choose_removals", False):
        hours = game.turn_deadline_hours
        return timedelta(hours=hours) if hours > 0 else None
    return timedelta(hours=game.removal_grace_hours)


def update_due_times(session, game: Game, state_after, now: datetime, seats=None) -> None:
    """Recompute the game's due times after a command (`state_after` is the engine state;
    the game's status, current_seat, pending_kind and turn_started_at are already updated).
    `seats` (rows with `.seat` and `.absent`, e.g. from server.games.table.table_of), when the
    caller has read them, spares a query for the seat to act.

    After a command, `server.notifications.on_events_appended` calls it (the emails quote the
    deadline), once the acting seat is back in the game."""
    game.deadline_at = game.next_reminder_at = game.automatic_due_at = None
    if game.status != "active" or game.current_seat is None:
        game.held_since = None
        _keep(session, game)
        return
    kind = game.pending_kind

    def seat_to_act():
        if seats is None:

            return next((s for s in table_of(session, game)[0] if s.seat == game.current_seat),
                        None)
        return next((s for s in seats if s.seat == game.current_seat), None)

    seat = seat_to_act() if kind in holds.HELD_BY_VACATION else None
    removal_waits = kind == "removal" and removal_grace(game, seat) not in (None, timedelta(0))
    held, until = holds.hold(game, seat, now, removal_waits)
    if held:
        holds.stop_clock(game, now)
        game.automatic_due_at = until  # their return: the clock starts again then
        _keep(session, game)
        return
    holds.restart_clock(game, now)
    start = game.turn_started_at or now
    bot = kind in HUMAN_DECISIONS or kind == "removal"
    if bot:
        seat = seat_to_act()
        bot = seat is not None and seat.kind == "bot"
    if kind == "rhom" or bot:
        game.automatic_due_at = start + timedelta(seconds=game.rhom_delay_seconds)
    elif kind == "removal":
        seat = seat_to_act()
        if seat is not None and seat.absent:
            game.automatic_due_at = now
        else:
            grace = removal_grace(game, seat)
            if grace is not None:
                game.automatic_due_at = start + grace
                if grace:
                    game.deadline_at = game.automatic_due_at
    elif kind in HUMAN_DECISIONS:
        seat = seat_to_act()
        if seat is not None and seat.absent:
            game.automatic_due_at = now
        else:
            if game.turn_deadline_hours > 0:
                game.deadline_at = start + timedelta(hours=game.turn_deadline_hours)
                game.automatic_due_at = game.deadline_at
            game.next_reminder_at = next_nudge(game, now)
    _keep(session, game)


def _keep(session, game: Game) -> None:
    """An ORM session writes a changed mapped game at its commit; a plain row (server/games/
    rows.py: the command post's, the scheduler's claimed games) is written by the caller."""
    if isinstance(session, OrmSession) and isinstance(game, Game):
        session.add(game)
