"""The reactions to what the core did, subscribed at start-up in the order they run.

A command travels one way: a way in (API, page, mail, scheduler) asks the core to apply it
(`server.games.service.apply_command`: decide, append), the core publishes `EventsAppended`,
and the reactions below write what the events call for in the same transaction. The core
imports none of them (docs/architecture.md).
"""

from __future__ import annotations

from flask import Flask

from server import notifications, wakeups
from server.games.reactions import EventsAppended, PlayerLeft, subscribe
from server.plans import reactions as plans
from server.webhooks import queue as webhook_queue
from server.webhooks import registry as webhook_registry


def wake_the_game(appended: EventsAppended) -> None:
    """At the commit: the game's long-polls, and the tick when the server is to play soon (the
    due times are derived by then: the notices' reaction runs first)."""
    game, now = appended.game, appended.now
    wakeups.note(appended.unit, f"g:{game.id}",
                 *(["due"] if wakeups.due_soon(game.automatic_due_at, now) else []))


def init_app(app: Flask) -> None:
    # The notices first: they derive the due times that the wake-up reads.
    subscribe(EventsAppended, notifications.on_events_appended)
    subscribe(EventsAppended, webhook_queue.on_events_appended)
    # After the notices (which derive the due times), before the wake-up (which reads them): a
    # seat whose turn comes with a plan is due at once.
    subscribe(EventsAppended, plans.on_events_appended)
    subscribe(EventsAppended, wake_the_game)
    subscribe(PlayerLeft, webhook_registry.on_player_left)
