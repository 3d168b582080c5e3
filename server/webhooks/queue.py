"""Queuing webhook deliveries: in the transaction of the command whose events change the turn
or end the game, like the mail notices (server/notifications), and as cheaply: nothing is
rendered here, and on the command post's path both statements are `Prepared` ones.
"""

from __future__ import annotations

import functools
from datetime import datetime

from sqlalchemy import bindparam
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import select

from server.db import sql
from server.models import Seat, User, Webhook, WebhookDelivery
from server.prepared import Prepared

# The game's webhooks whose owners still play in it with an account in order: a disabled
# account (by an operator) is told nothing, as it is mailed nothing.
_HOOKS = Prepared(
    select(Webhook.id)
    .join(Seat, (Seat.game_id == Webhook.game_id) & (Seat.user_id == Webhook.user_id))
    .join(User, User.id == Webhook.user_id)
    .where(Webhook.game_id == bindparam("game_id"), User.disabled_at.is_(None))
)


def _turn(state) -> tuple | None:
    """What makes a turn this turn: its number, seat and kind (None once the game is over)."""
    if state is None or state.over or state.turn is None:
        return None
    return state.turn.number, state.turn.seat, state.turn.kind


def event_of(state_before, state_after) -> str | None:
    """``game_over`` when these events ended the game, ``turn`` when they passed the turn on
    (the game's first turn too), None when the same turn goes on."""
    if state_after is not None and state_after.over:
        return None if state_before is not None and state_before.over else "game_over"
    after = _turn(state_after)
    return "turn" if after is not None and after != _turn(state_before) else None


@functools.cache
def _insert(dialect: str) -> Prepared:
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return Prepared(insert(WebhookDelivery.__table__)
                    .on_conflict_do_nothing(index_elements=["dedupe_key"]))


def after_events(session, game, state_before, state_after, now: datetime) -> bool:
    """Queue a delivery to each of the game's webhooks when the turn changed or the game ended
    (a dedupe key already there is left alone). True when any was queued."""
    event = event_of(state_before, state_after)
    if event is None:
        return False
    connection = sql(session)
    hooks = [row[0] for row in _HOOKS.all(connection, {"game_id": game.id})]
    if not hooks:
        return False
    _insert(connection.dialect.name).run_many(connection, [{
        "dedupe_key": f"webhook{hook}/{game.id}/v{game.version}/{event}", "webhook_id": hook,
        "game_id": game.id, "version": game.version, "event": event, "body": None,
        "status": "pending", "attempts": 0, "next_attempt_at": now, "last_error": None,
        "created_at": now, "sent_at": None,
    } for hook in hooks])
    return True
