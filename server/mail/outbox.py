"""Flushing the outbox: claim due messages, render the ones queued unrendered, send them, record
what happened.

On PostgreSQL the claim is `SELECT ... FOR UPDATE SKIP LOCKED`; on SQLite every transaction takes
the database's write lock (server.storage.db begins IMMEDIATE). Either way two schedulers never claim the
same message at once. Rendering only reads, in a read-only transaction (no write lock on SQLite);
the words are stored with the message's status, so a retry sends the same words.

A claim is a lease (server/delivery/leases.py), fenced by the message's attempts counter and renewed
just before each send, so a message another scheduler claimed since (its lease had run out) is
skipped, never sent twice. Batches are small, and a run that stops early gives back what it had
not started. Making each message ready and sending it: server/mail/sending.py.
"""

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, or_
from sqlmodel import Session, select

from server.delivery.leases import (
    CLAIM_BATCH,
    CLAIM_LEASE,
    OUTBOX,
    Outcome,
    held,
    mark,
    release_leases,
    renew_lease,
    write_outcomes,
)
from server.mail import consent
from server.mail.reply_headers import reply_headers
from server.mail.sending import Sender, make_ready, outcome, words
from server.mail.settings import MailSettings
from server.storage.db import read_only, session_scope
from server.storage.models import Outbox

log = logging.getLogger(__name__)
__all__ = ["CLAIM_BATCH", "CLAIM_LEASE", "FlushReport", "flush_outbox",
           "list_messages", "render_pending", "retry_parked", "thread_roots"]




@dataclass
class FlushReport:
    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    parked: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)  # taken over by another scheduler
    withheld: list[int] = field(default_factory=list)  # to an unconfirmed address (consent.py)


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
    clock: Callable[[], datetime] | datetime,
    rng: random.Random | None = None,
    limit: int = 100,
) -> FlushReport:
    """Send up to `limit` due messages; a 4xx waits with backoff, a 5xx is parked.

    Messages are leased (their next attempt pushed `CLAIM_LEASE` past the clock's time) in
    batches of `CLAIM_BATCH`, each in one short transaction; then each is made ready (rendered,
    if it was queued unrendered, just before it is sent; built), its lease checked and renewed
    (`renew_lease`), and sent outside any transaction, in the sender's thread, while the next one
    is built (server/mail/sending.py). A slow SMTP server thus never holds a database lock; a run
    longer than a lease loses only the messages another scheduler took over meanwhile, which it
    then skips; a scheduler that dies mid-send leaves at most a batch to be retried after the
    lease, and one that stops on an error gives back what it had not started.

    What a crash can resend: a message's outcome is written before the next message is handed
    to the sender, in the transaction that renews the next one's lease (or in the next claim's,
    or at the end of the run), so at most one message, the one whose send the crash
    interrupted, is sent again, with the same Message-ID; and none is lost (its lease runs out
    and it is due again). A message that cannot be rendered or built is parked with the error
    rather than blocking the queue. `clock` is read at every claim, renewal and mark (a fixed
    datetime is accepted for one-shot callers).
    """
    clock = clock if callable(clock) else _fixed(clock)
    rng = rng or random.Random()
    report = FlushReport()
    remaining = limit
    unwritten: list[Outcome] = []  # decided, to be written before anything else is sent
    unstarted: list[Outbox] = []
    with transport, Sender(transport, clock, rng, report) as sender:
        try:
            while remaining > 0:
                unwritten += sender.finish()  # a new batch is claimed with nothing on the wire
                with session_scope(engine) as session:
                    write_outcomes(session.connection(), unwritten)
                    now = clock()
                    rows = _claim(session, now, min(CLAIM_BATCH, remaining))
                    stopped = consent.withheld(session, rows)
                    for row in rows:
                        row.attempts += 1
                        row.next_attempt_at = now + CLAIM_LEASE
                        if row.id in stopped:
                            row.status, row.last_error = "withheld", stopped[row.id]
                            report.withheld.append(row.id)
                        session.add(row)
                    session.flush()
                    roots = thread_roots(session, rows)
                    headers = _reply_headers(session, rows, settings)
                unwritten = []  # committed with the claim
                if not rows:
                    break
                remaining -= len(rows)
                unstarted = [row for row in rows if row.id not in stopped]
                while unstarted:
                    row = unstarted[0]
                    if row.text_body is None:
                        # Its picture holds the interpreter's lock: not while a mail is on the wire.
                        unwritten += sender.finish()
                    ready = make_ready(engine, row, settings, roots.get(row.id),
                                       headers.get(row.id))
                    unwritten += sender.finish()
                    unstarted.pop(0)
                    if ready.failure is not None:
                        unwritten.append(outcome(ready, clock(), rng, report))
                        continue
                    # Its lines go out while its lease is renewed and the last outcome written;
                    # its final line, which delivers it, only after that commit.
                    sender.start(ready)
                    renewed = renew_lease(engine, row, clock(), unwritten)
                    unwritten = []
                    if not renewed:
                        sender.drop()
                        log.warning("mail %s to %s: its lease ran out and another scheduler took "
                                    "it over; not sent here", row.dedupe_key, row.to_email)
                        report.skipped.append(row.id)
                        continue
                    sender.deliver()
        finally:
            try:
                unwritten += sender.finish()
            finally:
                mark(engine, unwritten)
                _release(engine, unstarted, clock())
    return report


def _fixed(moment: datetime) -> Callable[[], datetime]:
    return lambda: moment


def _release(engine, rows: list[Outbox], now: datetime) -> None:
    release_leases(engine, OUTBOX, rows, held, now, "mail(s)")


def _reply_headers(session, rows: list[Outbox], settings: MailSettings) -> dict[int, dict]:
    """Reply-To and List-Unsubscribe of each row (server.mail.reply_headers), read with the claim."""
    if not rows:
        return {}

    return reply_headers(session, rows, settings)


def render_pending(engine, limit: int | None = None) -> int:
    """Render pending messages queued unrendered and store their words without sending them (a
    message that cannot be rendered is left for the sender to park). Returns how many were."""
    done, after = 0, 0
    while limit is None or done < limit:
        count = CLAIM_BATCH if limit is None else min(CLAIM_BATCH, limit - done)
        with session_scope(read_only(engine)) as session:
            rows = list(
                session.exec(
                    select(Outbox)
                    .where(Outbox.status == "pending", Outbox.text_body.is_(None))
                    .where(Outbox.id > after)
                    .order_by(Outbox.id)
                    .limit(count)
                )
            )
            if not rows:
                break
            rendered = words(session, rows)
        after = rows[-1].id
        with session_scope(engine) as session:
            for row_id, made in rendered.items():
                row = session.get(Outbox, row_id)
                if isinstance(made, Exception) or row is None or row.text_body is not None:
                    continue
                row.subject, row.text_body, row.html_body = made
                session.add(row)
                done += 1
    return done


def thread_roots(session: Session, rows: list[Outbox]) -> dict[int, str]:
    """The dedupe key of the first email of each row's game to the row's address, by row id:
    every later email of that game to them replies to it, so a mail client shows one thread."""
    games = {row.game_id for row in rows if row.game_id is not None}
    if not games:
        return {}
    first = (
        select(func.min(Outbox.id))
        .where(Outbox.game_id.in_(games))
        .group_by(Outbox.game_id, func.lower(Outbox.to_email))
    )
    keys = {
        (game_id, email.lower()): key
        for game_id, email, key in session.exec(
            select(Outbox.game_id, Outbox.to_email, Outbox.dedupe_key).where(Outbox.id.in_(first))
        )
    }
    return {
        row.id: keys[(row.game_id, row.to_email.lower())]
        for row in rows
        if (row.game_id, row.to_email.lower()) in keys
    }


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
