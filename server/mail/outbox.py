"""Flushing the outbox: claim due messages, render the ones queued unrendered, send them, record
what happened.

On PostgreSQL the claim is `SELECT ... FOR UPDATE SKIP LOCKED`; on SQLite every transaction takes
the database's write lock (server.db begins IMMEDIATE). Either way two schedulers never claim the
same message at once. Rendering only reads, in a read-only transaction (no write lock on SQLite);
the words are stored with the message's status, so a retry sends the same words.

A claim is a lease: the message's next attempt is pushed `CLAIM_LEASE` past the clock's time at
the claim, and its `attempts` counter goes up by one. That counter is the lease's fence: just
before each send the sender renews the lease in one UPDATE that matches the attempts it claimed
with, so a message another scheduler claimed since (its lease had run out) is skipped, never
sent twice. Batches are small, and a run that stops early gives back what it had not started.
"""

import hashlib
import logging
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import func, or_, update
from sqlalchemy.engine import Connection
from sqlmodel import Session, select

from server.db import read_only, session_scope
from server.mail import consent
from server.mail.backoff import MAX_ATTEMPTS, retry_delay
from server.mail.settings import MailSettings
from server.mail.transport import DeliveryError
from server.mail.wire import wire_message
from server.models import Outbox

log = logging.getLogger(__name__)
# Long enough for one send (the lease is renewed just before each), short enough that mail a
# killed scheduler had leased goes out again soon.
CLAIM_LEASE = timedelta(minutes=5)
# Messages leased per claim transaction: a killed scheduler strands at most these.
CLAIM_BATCH = 5
_OUTBOX = Outbox.__table__


DEDUPE_KEY_LENGTH = 200  # the column's width


def dedupe_key(text: str) -> str:
    """``text`` as an outbox dedupe key: itself when it fits the column, else its beginning and
    the sha256 of all of it (an invitation's key quotes an address of up to 254 characters,
    which overflowed the column on PostgreSQL: a 500). Distinct texts keep distinct keys."""
    if len(text) <= DEDUPE_KEY_LENGTH:
        return text
    digest = hashlib.sha256(text.encode()).hexdigest()
    return f"{text[:DEDUPE_KEY_LENGTH - len(digest) - 1]}~{digest}"


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
    batches of `CLAIM_BATCH`, each in one short transaction; then each is built, its lease
    checked and renewed (`_renew_lease`), sent outside any transaction and marked in its own. A
    slow SMTP server thus never holds a database lock; a run longer than a lease loses only the
    messages another scheduler took over meanwhile, which it then skips; a scheduler that dies
    mid-send leaves at most a batch to be retried after the lease, and one that stops on an
    error gives back what it had not started. A message is marked sent before the next one goes
    out, in the transaction that renews the next one's lease (a crash resends at most the one
    being sent, with the same Message-ID). A notice queued unrendered is
    rendered first (all of a batch in one read-only transaction) and its words are stored when
    it is marked. A message that cannot be rendered or built is parked with the error rather
    than blocking the queue. `clock` is read at every claim, renewal and mark (a fixed datetime
    is accepted for one-shot callers).
    """
    clock = clock if callable(clock) else _fixed(clock)
    rng = rng or random.Random()
    report = FlushReport()
    remaining = limit
    with transport:
        while remaining > 0:
            with session_scope(engine) as session:
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
            if not rows:
                break
            remaining -= len(rows)
            rows = [row for row in rows if row.id not in stopped]
            unstarted = list(rows)
            outcome = None  # the last message's, written with the next one's lease
            try:
                rendered = _render(engine, [row for row in rows if row.text_body is None])
                while unstarted:
                    row = unstarted.pop(0)
                    outcome = _send_one(engine, transport, settings, clock, rng, row,
                                        rendered.get(row.id), report, roots.get(row.id),
                                        headers.get(row.id), outcome)
            finally:
                _mark(engine, outcome)
                _release(engine, unstarted, clock())
    return report


def _fixed(moment: datetime) -> Callable[[], datetime]:
    return lambda: moment


def _held(row: Outbox):
    """The WHERE of a lease still held: nobody claimed the message since (a claim counts an
    attempt) and it is still waiting to be sent."""
    return ((_OUTBOX.c.id == row.id) & (_OUTBOX.c.attempts == row.attempts)
            & (_OUTBOX.c.status == "pending"))


Outcome = tuple[int, dict]  # a sent (or failed) message's id and the values it is marked with


def _mark(engine, outcome: Outcome | None) -> None:
    if outcome is not None:
        with bookkeeping(engine) as connection:
            _write_outcome(connection, outcome)


def _write_outcome(connection: Connection, outcome: Outcome) -> None:
    row_id, values = outcome
    connection.execute(update(_OUTBOX).where(_OUTBOX.c.id == row_id).values(**values))


def _renew_lease(engine, row: Outbox, now: datetime, outcome: Outcome | None = None) -> bool:
    """Check the lease on ``row`` just before sending it and give it a whole lease again for
    the send; False when another scheduler took the message over (after this lease had run out)
    or it is no longer pending. The previous message's outcome, if not yet written, is written
    in the same transaction (one commit a mail instead of two: half of delivery's bookkeeping,
    and still before anything else is sent, so a crash resends at most the one message)."""
    with bookkeeping(engine) as connection:
        if outcome is not None:
            _write_outcome(connection, outcome)
        result = connection.execute(
            update(_OUTBOX).where(_held(row)).values(next_attempt_at=now + CLAIM_LEASE))
        return result.rowcount == 1


@contextmanager
def bookkeeping(engine) -> Iterator[Connection]:
    """A transaction of a queued item's own record (its lease renewed, its outcome; a mail's or
    a webhook delivery's, server/webhooks/delivery.py) whose commit does not wait for the disk:
    SQLite's `synchronous=NORMAL` for it (WAL: the commit is not fsynced, a later one's fsync
    covers it), PostgreSQL's `synchronous_commit = off`. A crash of
    the process loses nothing; a power cut may lose the last such records, which only sends a
    message again (delivery is at least once, with a stable Message-ID). Two of these were an
    fsync each per mail, more than half of delivering one on SQLite (bench/mail)."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        driver = connection.connection.driver_connection
        if sqlite:
            synchronous = driver.execute("PRAGMA synchronous").fetchone()[0]
            driver.execute("PRAGMA synchronous=NORMAL")  # outside any transaction: allowed
        try:
            with connection.begin():
                if not sqlite:
                    connection.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
                yield connection
        finally:
            if sqlite:
                driver.execute(f"PRAGMA synchronous={int(synchronous)}")


def release_leases(engine, table, rows: list, held, now: datetime, what: str) -> None:
    """Give back leased rows (mail, webhook deliveries) that were not started: due now, their
    claim not counted. ``held(row)`` is the condition that the row is still ours."""
    if not rows:
        return
    try:
        with session_scope(engine) as session:
            for row in rows:
                session.connection().execute(update(table).where(held(row)).values(
                    next_attempt_at=now, attempts=row.attempts - 1))
    except Exception:  # the database is away: the leases run out by themselves
        log.exception("could not give back %d leased %s", len(rows), what)


def _release(engine, rows: list[Outbox], now: datetime) -> None:
    release_leases(engine, _OUTBOX, rows, _held, now, "mail(s)")


def _words(session, rows: list[Outbox]) -> dict[int, tuple[str, str, str] | Exception]:
    from server.notifications import render_messages  # the game's side; imported when needed

    return render_messages(session, rows)


def _render(engine, rows: list[Outbox]) -> dict[int, tuple[str, str, str] | Exception]:
    """The words of the notices queued unrendered, by id (an error for one that cannot be)."""
    if not rows:
        return {}
    try:
        with session_scope(read_only(engine)) as session:
            return _words(session, rows)
    except Exception as error:  # the database blinked: not the messages' fault, retry them
        log.exception("could not render %d mail(s); retrying them later", len(rows))
        return {row.id: RenderingFailed(str(error)) for row in rows}


def _reply_headers(session, rows: list[Outbox], settings: MailSettings) -> dict[int, dict]:
    """Reply-To and List-Unsubscribe of each row (server.inbound.outgoing), read with the claim."""
    if not rows:
        return {}
    from server.inbound.outgoing import reply_headers  # the inbound side; imported when needed

    return reply_headers(session, rows, settings)


class RenderingFailed(Exception):
    """Reading the games for rendering failed (not a fault of the messages): retried."""

    temporary = True


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
            rendered = _words(session, rows)
        after = rows[-1].id
        with session_scope(engine) as session:
            for row_id, words in rendered.items():
                row = session.get(Outbox, row_id)
                if isinstance(words, Exception) or row is None or row.text_body is not None:
                    continue
                row.subject, row.text_body, row.html_body = words
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


def _send_one(
    engine, transport, settings, clock, rng, row: Outbox, rendered, report: FlushReport,
    thread_root: str | None = None, headers: dict | None = None,
    previous: Outcome | None = None,
) -> Outcome | None:
    """Send ``row``; its outcome, to be written before anything else is sent (by the next
    message's lease renewal, or `_mark`). ``previous``: the last message's, not yet written."""
    row_id, key, to, attempts = row.id, row.dedupe_key, row.to_email, row.attempts
    failure: Exception | None = None
    permanent = True
    if isinstance(rendered, Exception):
        # A message that cannot be rendered (a bug, a version the game does not have) is parked
        # like one that cannot be built; a database that failed while rendering is retried.
        failure, rendered = rendered, None
        permanent = not isinstance(failure, RenderingFailed)
    elif rendered is not None:
        row.subject, row.text_body, row.html_body = rendered
    if failure is None:
        try:
            message = wire_message(row, settings, thread_root, headers)
        except Exception as error:  # a message that cannot be built would block the queue
            log.exception("mail %s to %s cannot be built", key, to)
            failure = error
        else:
            permanent = False
            renewed = _renew_lease(engine, row, clock(), previous)
            previous = None
            if not renewed:
                log.warning("mail %s to %s: its lease ran out and another scheduler took it "
                            "over; not sent here", key, to)
                report.skipped.append(row_id)
                return None
            try:
                transport.send(message)
            except DeliveryError as error:
                failure = error
    now = clock()
    values: dict = {}
    if rendered is not None:
        values["subject"], values["text_body"], values["html_body"] = rendered
    if failure is None:
        values.update(status="sent", sent_at=now, last_error=None)
        report.sent.append(row_id)
    elif not permanent and failure.temporary and attempts < MAX_ATTEMPTS:
        values.update(last_error=str(failure)[:2000], next_attempt_at=now + retry_delay(attempts, rng))
        report.retrying.append(row_id)
        log.warning(
            "mail %s to %s failed (attempt %d), retrying at %s: %s",
            key,
            to,
            attempts,
            values["next_attempt_at"].isoformat(),
            failure,
        )
    else:
        values.update(last_error=str(failure)[:2000], status="parked")
        report.parked.append(row_id)
        log.error(
            "mail %s to %s parked after %d attempt(s): %s (see `iridescia-server outbox`)",
            key,
            to,
            attempts,
            failure,
        )
    # Marked before the next message goes out (with its lease): a crash resends at most this one.
    _mark(engine, previous)
    return row_id, values


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
