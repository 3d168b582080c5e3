"""What a command means for the plans (subscribed in server/reactions.py, before the wake-up):
the acting player's plan is cleared (playing any command clears it), and when the turn comes to
a seat with a plan, the game is due at once: the scheduler plays it (server/scheduler/)."""

from __future__ import annotations

from server.games.due_times import HUMAN_DECISIONS
from server.games.reactions import EventsAppended
from server.games.service import SERVER_ACTOR
from server.plans.store import clear, planned_seats


def on_events_appended(appended: EventsAppended) -> None:
    game, unit = appended.game, appended.unit
    seats = planned_seats(unit, game.id)
    if not seats:
        return
    acting = appended.state_before.turn.seat if (
        appended.actor != SERVER_ACTOR and appended.state_before is not None
        and appended.state_before.turn is not None) else None
    if acting in seats:
        clear(unit, game.id, acting)
        seats.remove(acting)
    if (game.status == "active" and game.current_seat in seats
            and game.pending_kind in HUMAN_DECISIONS
            and getattr(game, "held_since", None) is None
            and getattr(game, "paused_at", None) is None):
        game.automatic_due_at = appended.now  # the wake-up reaction after this one wakes the tick
