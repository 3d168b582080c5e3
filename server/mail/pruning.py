"""Delivered mail's bodies are dropped a day after delivery; the row stays.

A rendered notice is kept while it may be sent again (a retry sends the same words), but once it
is delivered nothing reads its bodies: the operator's log and the reply threading read the row's
recipient, kind, subject, status, times and dedupe key, and those stay. The bodies were nearly all
of the outbox's size (a turn's mails with their pictures, some 164 KB a turn, kept forever:
issue 31), so they go once the message is a day old, a batch at a time.

Pending, parked and withheld messages keep their bodies: they may still be sent, or shown to the
operator who unparks them.
"""

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import select

from server.storage.db import session_scope
from server.storage.models import Outbox

# A day: time for an operator to look at what went out when a player says a mail was odd.
KEEP_DELIVERED_BODIES = timedelta(days=1)
# Rows cleared a transaction: short enough that a command never waits long behind it on SQLite.
PRUNE_BATCH = 500


def prune_delivered_bodies(engine, now: datetime, keep: timedelta = KEEP_DELIVERED_BODIES,
                           batch: int = PRUNE_BATCH) -> int:
    """Clear the bodies of the mail sent before ``now - keep``; the number of rows cleared."""
    cutoff = now - keep
    cleared = 0
    while True:
        with session_scope(engine) as session:
            ids = session.exec(
                select(Outbox.id)
                .where(Outbox.status == "sent", Outbox.sent_at < cutoff,
                       Outbox.text_body.is_not(None))
                .limit(batch)
            ).all()
            if not ids:
                return cleared
            session.execute(
                update(Outbox).where(Outbox.id.in_(ids)).values(text_body=None, html_body=None)
            )
        cleared += len(ids)
