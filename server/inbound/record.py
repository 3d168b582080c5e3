"""Incoming mail is recorded (inbound_messages): the first step of handling it claims its
Message-ID, so a second delivery of the same mail does nothing; the last says what came of it.

Bounded (issue 32, L10): mail from senders who are not registered is recorded only up to
`STRANGER_RECORDS_PER_HOUR` rows an hour (the rest is only logged), and rows older than
`IRIDESCIA_INBOUND_KEEP_DAYS` are deleted. A mail whose handling failed for a moment (the
database) is released, so that the sending server's retry is handled, not taken for a duplicate
(M5).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from server.inbound.letter import Letter
from server.storage.db import session_scope
from server.storage.models import InboundMessage

# A mail still "received" this long after it came was being handled by a process that died:
# handling it again is safe (each applied line is remembered by its idempotency key).
ABANDONED_AFTER = timedelta(minutes=10)
STRANGER_RECORDS_PER_HOUR = 200
# What came of a mail before it was found authentic: not counted against its sender's limit
# (issue 32, M4: forged mail used up a player's limit).
NOT_AUTHENTICATED = ("unauthenticated", "ignored", "dropped", "rate_limited", "unknown_address",
                     "too_large", "unreadable", "temporary")
EXPIRY_EVERY = timedelta(hours=1)
_last_expiry: dict[str, datetime] = {}
EX_OK, EX_NOUSER, EX_TEMPFAIL = 0, 67, 75  # sysexits.h: what MTAs understand of a pipe's exit


def claim(db, letter: Letter, way_in: str, now: datetime) -> int | None:
    """The record's id when this mail is new (or abandoned mid-way), None for a duplicate."""
    with session_scope(db) as session:
        existing = session.exec(
            select(InboundMessage).where(InboundMessage.message_key == letter.message_key)
        ).first()
        if existing is not None:
            retry = existing.outcome == "temporary" or (
                existing.outcome == "received" and existing.received_at < now - ABANDONED_AFTER)
            if retry:
                existing.outcome = "received"
                existing.received_at = now
                session.add(existing)
                return existing.id
            return None
        row = InboundMessage(
            message_key=letter.message_key, sender=letter.sender[:254],
            recipient=(letter.recipients[0] if letter.recipients else "")[:254],
            subject=letter.subject[:200], way_in=way_in, outcome="received", detail="",
            received_at=now,
        )
        session.add(row)
        try:
            session.flush()
        except IntegrityError:  # the same mail, arriving by another way at the same moment
            session.rollback()
            return None
        return row.id


def finish(session, record_id: int, outcome: str, detail: str, user_id: int | None = None,
           game_id: str | None = None, applied: list[str] | None = None) -> None:
    row = session.get(InboundMessage, record_id)
    row.outcome, row.detail = outcome, detail[:4000]
    row.user_id, row.game_id, row.applied = user_id, game_id, applied or None
    session.add(row)


def release(db, record_id: int, detail: str) -> None:
    """The mail was not handled (a temporary failure): its sender's retry claims it again."""
    with session_scope(db) as session:
        row = session.get(InboundMessage, record_id)
        if row is not None and row.outcome == "received":
            row.outcome, row.detail = "temporary", detail[:4000]
            session.add(row)


def recent_count(db, sender: str, since: datetime) -> int:
    """The sender's mails since `since` that passed authentication (the one in hand included)."""
    with session_scope(db) as session:
        return session.exec(
            select(func.count()).select_from(InboundMessage)
            .where(InboundMessage.sender == sender, InboundMessage.received_at >= since,
                   InboundMessage.outcome.not_in(NOT_AUTHENTICATED))
        ).one()


def recent_outcomes(db, sender: str, outcome: str, since: datetime) -> int:
    with session_scope(db) as session:
        return session.exec(
            select(func.count()).select_from(InboundMessage)
            .where(InboundMessage.sender == sender, InboundMessage.received_at >= since,
                   InboundMessage.outcome == outcome)
        ).one()


def strangers_recorded(db, since: datetime) -> int:
    """Rows for mail from unregistered senders since `since`."""
    with session_scope(db) as session:
        return session.exec(
            select(func.count()).select_from(InboundMessage)
            .where(InboundMessage.user_id.is_(None), InboundMessage.received_at >= since,
                   InboundMessage.outcome.in_(("dropped", "ignored", "unknown_address",
                                               "unreadable", "too_large")))
        ).one()


def expire(db, now: datetime, keep_days: int) -> int:
    """Delete the rows older than `keep_days` (0: keep all), at most once an hour per process;
    how many went."""
    key = str(db.url)
    if keep_days <= 0 or now - _last_expiry.get(key, datetime.min.replace(tzinfo=now.tzinfo)) \
            < EXPIRY_EVERY:
        return 0
    _last_expiry[key] = now
    with session_scope(db) as session:
        result = session.execute(
            delete(InboundMessage).where(InboundMessage.received_at < now - timedelta(
                days=keep_days)))
        return result.rowcount or 0


def log_rows(db, limit: int, sender: str | None = None) -> list[InboundMessage]:
    with session_scope(db) as session:
        statement = select(InboundMessage).order_by(InboundMessage.id.desc()).limit(limit)
        if sender:
            statement = statement.where(InboundMessage.sender == sender.lower())
        return list(reversed(session.exec(statement).all()))


@dataclass(frozen=True)
class Outcome:
    status: str  # see docs/mail.md: applied, stopped, answered, refused, ignored, dropped, ...
    detail: str = ""
    answered: bool = False  # an answer was queued

    @property
    def exit_code(self) -> int:
        if self.status == "unknown_address":
            return EX_NOUSER
        if self.status == "temporary":
            return EX_TEMPFAIL
        return EX_OK


def close(db, record_id: int, outcome: Outcome) -> Outcome:
    """Record what came of the mail, and say it."""
    with session_scope(db) as session:
        finish(session, record_id, outcome.status, outcome.detail)
    return outcome
