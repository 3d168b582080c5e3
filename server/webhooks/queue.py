"""Queuing webhook deliveries: in the transaction of the command whose events change the turn
or end the game, like the mail notices (server/notifications), and as cheaply: nothing is
rendered here, and on the command post's path both statements are `Prepared` ones.
"""

from __future__ import annotations

import functools
from datetime import datetime

from sqlalchemy import bindparam
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import select

from server import wakeups
from server.games.deferred import write
from server.games.reactions import EventsAppended
from server.storage.db import sql
from server.storage.models import Seat, User, Webhook, WebhookDelivery
from server.storage.prepared import Prepared


# The game's webhooks whose owners still play in it with an account in order: a disabled
# account (by an operator) is told nothing, as it is mailed nothing.
def _hooks(*columns):
    return (
        select(*columns)
        .join(Seat, (Seat.game_id == Webhook.game_id) & (Seat.user_id == Webhook.user_id))
        .join(User, User.id == Webhook.user_id)
        .where(User.disabled_at.is_(None))
    )


_HOOKS = Prepared(_hooks(Webhook.id).where(Webhook.game_id == bindparam("game_id")))
# The same for a batch of games (an IN list: on Core, not Prepared).
_BATCH_HOOKS = _hooks(Webhook.id, Webhook.game_id).where(
    Webhook.game_id.in_(bindparam("game_ids", expanding=True)))
_BATCH = "iridescia.batch_webhooks"


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


def load_hooks(session, game_ids: list[str]) -> None:
    """Read the webhooks of several games with one query (the scheduler's batch), for
    `after_events` in this transaction: a query per command was a round trip per automatic
    turn on PostgreSQL, a fifth of the turn."""
    if not isinstance(session, OrmSession) or not game_ids:
        return
    hooks: dict[str, list[int]] = {game_id: [] for game_id in game_ids}
    for hook, game_id in session.connection().execute(_BATCH_HOOKS, {"game_ids": game_ids}):
        hooks[game_id].append(hook)
    session.info[_BATCH] = (session.get_transaction(), hooks)


def _batch_hooks(session) -> dict[str, list[int]] | None:
    if not isinstance(session, OrmSession):
        return None
    kept = session.info.get(_BATCH)
    return kept[1] if kept is not None and kept[0] is session.get_transaction() else None


def on_events_appended(appended: EventsAppended) -> None:
    """The core's `EventsAppended` (subscribed by server/reactions.py): queue the deliveries
    and wake the webhooks job at the commit."""
    if after_events(appended.unit, appended.game, appended.state_before, appended.state_after,
                    appended.now):
        wakeups.note(appended.unit, "webhooks")


def after_events(session, game, state_before, state_after, now: datetime) -> bool:
    """Queue a delivery to each of the game's webhooks when the turn changed or the game ended
    (a dedupe key already there is left alone). True when any was queued."""
    event = event_of(state_before, state_after)
    if event is None:
        return False
    connection = sql(session)
    batch = _batch_hooks(session)
    if batch is not None and game.id in batch:
        hooks = batch[game.id]
    else:
        hooks = [row[0] for row in _HOOKS.all(connection, {"game_id": game.id})]
    if not hooks:
        return False
    write(session, connection, _insert(connection.dialect.name), [{
        "dedupe_key": f"webhook{hook}/{game.id}/v{game.version}/{event}", "webhook_id": hook,
        "game_id": game.id, "version": game.version, "event": event, "body": None,
        "status": "pending", "attempts": 0, "next_attempt_at": now, "last_error": None,
        "created_at": now, "sent_at": None,
    } for hook in hooks])
    return True
