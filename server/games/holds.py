"""When a turn's clock stands still: the game is paused by its table, or the player to act is
on vacation (server/vacations). While it does, the game has no deadline, no reminder and no
automatic turn; when it runs again, the turn's start moves on by the time it stood still, so
the player finds the time they had left (and the reminders count from there).

`held_since` on the game is when the clock stopped (kept across the commands of a pause);
`turn_started_at` is moved once, when it runs again.
"""

from __future__ import annotations

from datetime import datetime

# What a vacation holds: the player's own decisions, and the removal turns they were given
# time for. A removal the server plays at once is played (nobody waits for it).
HELD_BY_VACATION = {"turn", "choose_gem", "give_gem", "discard_objective", "roll", "removal"}


def away(seat, now: datetime) -> datetime | None:
    """Until when the seat's player is away (None: here). `seat` has `.kind` and `.away_until`."""
    until = getattr(seat, "away_until", None)
    if seat is None or seat.kind != "human" or until is None or until <= now:
        return None
    return until


def hold(game, seat, now: datetime, removal_waits: bool = True) -> tuple[bool, datetime | None]:
    """(whether the pending decision's clock stands still, until when it is known to: None for a
    pause, which lasts until a player resumes). `seat` is the seat to act (None: unknown)."""
    if game.paused_at is not None:
        return True, None
    kind = game.pending_kind
    if kind not in HELD_BY_VACATION or (kind == "removal" and not removal_waits):
        return False, None
    until = away(seat, now)
    return (until is not None), until


def stop_clock(game, now: datetime) -> None:
    if game.held_since is None:
        game.held_since = now


def restart_clock(game, now: datetime) -> None:
    """The turn's start moves on by the time the clock stood still during the turn."""
    if game.held_since is None:
        return
    start = game.turn_started_at or now
    stood_still = now - max(game.held_since, start)
    if stood_still.total_seconds() > 0:
        game.turn_started_at = start + stood_still
    game.held_since = None
