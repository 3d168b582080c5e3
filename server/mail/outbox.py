"""Flushing the outbox: claim due messages, send them, record what happened.

On PostgreSQL the claim is `SELECT ... FOR UPDATE SKIP LOCKED`; on SQLite every transaction takes
the database's write lock (server.db begins IMMEDIATE). Either way two schedulers never claim the
same message at once.
"""

import logging
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import or_
from sqlmodel import Session, select

from server.db import session_scope
from server.mail.backoff import MAX_ATTEMPTS, retry_delay
from server.mail.message import build_message
from server.mail.settings import MailSettings
from server.mail.transport import DeliveryError
from server.models import Outbox

log = logging.getLogger(__name__)
CLAIM_LEASE = timedelta(minutes=10)
# Messages leased per claim transaction: fewer commits, and small enough that a batch is sent
# long before its lease runs out.
CLAIM_BATCH = 20


@dataclass
class FlushReport:
    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    parked: list[int] = field(default_factory=list)


def _claim(session: Session, now: datetime, count: int) -> list[Outbox]:
    statement = (
        select(Outbox)
        .where(Outbox.status == "pending")
        .where(or_(Outbox.next_attempt_at.is_(None), Outbox.next_attempt_at <= now))
        .order_by(Outbox.id)
        .limit(count)
        .with_for_update(skip_locked=True)
    )
    return list(session.exec(statement))


def flush_outbox(
    engine,
    transport,
    settings: MailSettings,
    now: datetime,
    rng: random.Random | None = None,
    limit: int = 100,
) -> FlushReport:
    """Send up to `limit` due messages; a 4xx waits with backoff, a 5xx is parked.

    Messages are leased (their next attempt pushed `CLAIM_LEASE` ahead) `CLAIM_BATCH` at a time
    in one short transaction, then each is built and sent outside any transaction and marked in
    its own. A slow SMTP server thus never holds a database lock, a scheduler that dies mid-send
    leaves its leased messages to be retried after the lease, and a message is marked sent as
    soon as it is (a crash resends at most the one being sent, with the same Message-ID).
    A message that cannot be built is parked with the error rather than blocking the queue.
    """
    rng = rng or random.Random()
    report = FlushReport()
    remaining = limit
    with transport:
        while remaining > 0:
            with session_scope(engine) as session:
                rows = _claim(session, now, min(CLAIM_BATCH, remaining))
                for row in rows:
                    row.attempts += 1
                    row.next_attempt_at = now + CLAIM_LEASE
                    session.add(row)
                session.flush()
            if not rows:
                break
            remaining -= len(rows)
            for row in rows:
                _send_one(engine, transport, settings, now, rng, row, report)
    return report


def _send_one(engine, transport, settings, now, rng, row: Outbox, report: FlushReport) -> None:
    row_id, key, to, attempts = row.id, row.dedupe_key, row.to_email, row.attempts
    failure: Exception | None = None
    try:
        message = build_message(row, settings)
    except Exception as error:  # a message that cannot be built would block the queue
        log.exception("mail %s to %s cannot be built", key, to)
        failure = error
        permanent = True
    else:
        permanent = False
        try:
            transport.send(message)
        except DeliveryError as error:
            failure = error
    with session_scope(engine) as session:
        row = session.get(Outbox, row_id)
        if failure is None:
            row.status = "sent"
            row.sent_at = now
            row.last_error = None
            report.sent.append(row_id)
        elif not permanent and failure.temporary and attempts < MAX_ATTEMPTS:
            row.last_error = str(failure)[:2000]
            row.next_attempt_at = now + retry_delay(attempts, rng)
            report.retrying.append(row_id)
            log.warning(
                "mail %s to %s failed (attempt %d), retrying at %s: %s",
                key,
                to,
                attempts,
                row.next_attempt_at.isoformat(),
                failure,
            )
        else:
            row.last_error = str(failure)[:2000]
            row.status = "parked"
            report.parked.append(row_id)
            log.error(
                "mail %s to %s parked after %d attempt(s): %s (see `iridescia-server outbox`)",
                key,
                to,
                attempts,
                failure,
            )
        session.add(row)


def list_messages(session: Session, status: str | None = "parked") -> list[Outbox]:
    statement = select(Outbox).order_by(Outbox.id)
    if status is not None:
        statement = statement.where(Outbox.status == status)
    return list(session.exec(statement))


def retry_parked(session: Session, now: datetime, ids: list[int] | None = None) -> list[Outbox]:
    """Put parked messages (all, or those named) back in the queue, due now."""
    statement = select(Outbox).where(Outbox.status == "parked")
    if ids:
        statement = statement.where(Outbox.id.in_(ids))
    rows = list(session.exec(statement))
    for row in rows:
        row.status = "pending"
        row.attempts = 0
        row.next_attempt_at = now
        session.add(row)
    session.commit()
    return rows
