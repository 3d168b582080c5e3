"""Notifications: which emails the events just appended call for, written to the outbox.

`on_events_appended` is called by `server.games.service.apply_command` inside the transaction
that appends the events, so a notification is committed exactly when its events are.
"""


def on_events_appended(session, game, state_before, state_after, events, actor, now):
    """Queue the notifications the events call for (entry point; the policy lands next)."""
    return []
