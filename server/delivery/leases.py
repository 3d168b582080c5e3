"""Leases on queued items (mail, webhook deliveries) and the bookkeeping commits that keep them.

A claim is a lease: the item's next attempt is pushed `CLAIM_LEASE` past the clock's time at the
claim, and its `attempts` counter goes up by one. That counter is the lease's fence: just before
each send the sender renews the lease in one UPDATE that matches the attempts it claimed with, so
an item another scheduler claimed since (its lease had run out) is skipped, never sent twice.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlalchemy.engine import Connection

from server.storage.db import session_scope
from server.storage.models import Outbox

log = logging.getLogger(__name__)
# Long enough for one send (the lease is renewed just before each), short enough that mail a
# killed scheduler had leased goes out again soon.
CLAIM_LEASE = timedelta(minutes=5)
# Items leased per claim transaction: a killed scheduler strands at most these.
CLAIM_BATCH = 5
OUTBOX = Outbox.__table__

Outcome = tuple[int, dict]  # a sent (or failed) message's id and the values it is marked with


def held(row: Outbox):
    """The WHERE of a mail's lease still held: nobody claimed the message since (a claim counts
    an attempt) and it is still waiting to be sent."""
    return ((OUTBOX.c.id == row.id) & (OUTBOX.c.attempts == row.attempts)
            & (OUTBOX.c.status == "pending"))


def write_outcomes(connection: Connection, outcomes: list[Outcome]) -> None:
    for row_id, values in outcomes:
        connection.execute(update(OUTBOX).where(OUTBOX.c.id == row_id).values(**values))


def mark(engine, outcomes: list[Outcome]) -> None:
    """Write outcomes not yet written (in a transaction of their own)."""
    if outcomes:
        with bookkeeping(engine) as connection:
            write_outcomes(connection, outcomes)


def renew_lease(engine, row: Outbox, now: datetime, outcomes: list[Outcome]) -> bool:
    """Check the lease on ``row`` just before sending it and give it a whole lease again for
    the send; False when another scheduler took the message over (after this lease had run out)
    or it is no longer pending. The outcomes not yet written (the message sent just before, any
    that could not be built) are written in the same transaction, committed either way: one
    commit a mail, and still before anything else is sent, so a crash resends at most the one
    message whose send it interrupted."""
    with bookkeeping(engine) as connection:
        write_outcomes(connection, outcomes)
        result = connection.execute(
            update(OUTBOX).where(held(row)).values(next_attempt_at=now + CLAIM_LEASE))
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


def release_leases(engine, table, rows: list, is_held, now: datetime, what: str) -> None:
    """Give back leased rows (mail, webhook deliveries) that were not started: due now, their
    claim not counted. ``is_held(row)`` is the condition that the row is still ours."""
    if not rows:
        return
    try:
        with session_scope(engine) as session:
            for row in rows:
                session.connection().execute(update(table).where(is_held(row)).values(
                    next_attempt_at=now, attempts=row.attempts - 1))
    except Exception:  # the database is away: the leases run out by themselves
        log.exception("could not give back %d leased %s", len(rows), what)
