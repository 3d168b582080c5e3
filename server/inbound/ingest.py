"""`ingest(message_bytes)`: the one function behind every way mail comes in (the embedded SMTP
receiver, `iridescia-server mail ingest` on an MTA's pipe, IMAP polling).

In order, each step cheap before the next costs more (issue 32, H1, M7, L10):
1. refuse what is too large or beyond the parser's bounds (`limits.py`), before parsing;
2. read the headers only (`letter.read_letter`): our address among the recipients (none:
   "unknown_address", which an MTA bounces), machine-written mail (`rules/`: auto-replies,
   bounces, lists, the null sender) and our own, ignored without an answer;
3. drop mail from unknown senders without answering (no backscatter to forged senders), their
   record capped (`record.py`);
4. claim the Message-ID (a second delivery does nothing);
5. require the configured authentication (`authentication.py`): a failure is answered at most
   once a day, and never counts against the sender's limit;
6. hold the sender to the rate limit, counting only authenticated mail;
7. only now read the body and cut its quotes (`quotes/`, linear), then act on the token's
   purpose (`handlers.act`).
Everything kept is recorded in inbound_messages.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import timedelta
from email.utils import parseaddr

from flask import current_app
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import select

from server.i18n import N_
from server.inbound import bounces, handlers
from server.inbound.authentication import mode_of, refusal
from server.inbound.letter import Letter, read_letter, with_lines
from server.inbound.limits import beyond_limits
from server.inbound.record import (
    STRANGER_RECORDS_PER_HOUR,
    Outcome,
    claim,
    close,
    expire,
    recent_count,
    recent_outcomes,
    release,
    strangers_recorded,
)
from server.mail.reply_addresses import ReplyBase
from server.mail.settings import MailSettings
from server.storage.db import app_engine, session_scope
from server.storage.models import User, utcnow

log = logging.getLogger(__name__)
UNAUTHENTICATED_ANSWER_EVERY = timedelta(days=1)


@dataclass
class _Claimed:
    """The record claimed so far, released if the database fails before it is closed."""

    record_id: int | None = None


def ingest(message_bytes: bytes, *, app=None, recipients=(), way_in: str = "pipe",
           mail_from: str | None = None) -> Outcome:
    """Handle one incoming mail. `recipients`: the envelope's, when the way in knows them;
    `mail_from`: the envelope sender ('' for `<>`), when it knows it."""
    app = app or current_app._get_current_object()
    claimed = _Claimed()
    try:
        with app.app_context():
            outcome = _ingest(app, message_bytes, tuple(recipients), way_in, mail_from, claimed)
    except (OperationalError, DBAPIError) as error:
        log.error("incoming mail not handled, the database failed (retry later): %s", error)
        _release(app, claimed, error)
        return Outcome("temporary", f"the database failed: {error.__class__.__name__}")
    log.info("incoming mail (%s): %s %s", way_in, outcome.status, outcome.detail)
    if outcome.answered:
        _wake_the_mail_job(app)
    return outcome


def _release(app, claimed: _Claimed, error: Exception) -> None:
    if claimed.record_id is None:
        return
    try:
        with app.app_context():
            release(app_engine(app), claimed.record_id, f"the database failed: "
                                                        f"{error.__class__.__name__}")
    except (OperationalError, DBAPIError):  # still down: the row stays "received", and is
        log.error("could not release incoming mail %s", claimed.record_id)  # retried in 10 min


def _ingest(app, raw: bytes, recipients: tuple[str, ...], way_in: str, mail_from: str | None,
            claimed: _Claimed) -> Outcome:
    config = app.config
    db = app_engine(app)
    now = utcnow()
    expire(db, now, int(config.get("INBOUND_KEEP_DAYS", 90)))
    base = ReplyBase.parse(config["REPLY_ADDRESS"])
    if len(raw) > config["MAX_INBOUND_BYTES"]:
        return _unread(app, raw, recipients, way_in, now, "too_large", N_(
            "the mail is {size} bytes, more than the {most} this server reads: send the "
            "commands alone, without attachments"), size=len(raw),
            most=config["MAX_INBOUND_BYTES"])
    beyond = beyond_limits(raw)
    if beyond is not None:
        return _unread(app, raw, recipients, way_in, now, "unreadable", N_(
            "the mail was not read ({beyond}): send the commands in a plain mail"),
            beyond=beyond)
    letter = read_letter(raw, recipients, mail_from)
    token = next((t for t in map(base.token_of, letter.recipients) if t is not None), None)
    user_id = _user_id(db, letter.sender)
    if token is None:  # recorded too (a bounce by the MTA follows): `mail log` shows it
        return _record(db, letter, way_in, now, user_id, Outcome(
            "unknown_address", f"none of {', '.join(letter.recipients[:5]) or '(none)'} is "
                               f"{base.bare} or {base.local}+CODE@{base.domain}"))
    # A bounce of our own mail (VERP or a DSN): recorded against its account, never answered.
    bounce = bounces.find(raw, [t for t in map(base.token_of, letter.recipients) if t])
    if bounce is not None:
        bounce_id = claim(db, letter, way_in, now)
        if bounce_id is None:
            return Outcome("duplicate", f"{letter.message_key} was handled already")
        return bounces.handle(db, bounce_id, bounce, config["SECRET_KEY"], now)
    automatic = letter.automatic or _ours(letter.sender, base, config)
    if automatic:
        return _record(db, letter, way_in, now, user_id, Outcome("ignored", automatic))
    if user_id is not None and _disabled(db, user_id):
        # no play, no talk, no answer: the operator stopped this account
        return _record(db, letter, way_in, now, user_id, Outcome(
            "dropped", f"the account of {letter.sender} was disabled by an operator"))
    if user_id is None and not token.startswith("join-"):
        return _record(db, letter, way_in, now, None,
                       Outcome("dropped", f"{letter.sender} is not registered"))
    claimed.record_id = record_id = claim(db, letter, way_in, now)
    if record_id is None:
        return Outcome("duplicate", f"{letter.message_key} was handled already")
    mode = mode_of(config)
    reason = refusal(letter.authentication_results, letter.sender, mode,
                     str(config.get("INBOUND_AUTHSERV_ID") or ""))
    if reason is not None:
        return _unauthenticated(db, record_id, letter, user_id, reason, now)
    limit = config["INBOUND_RATE_LIMIT"]
    if limit > 0 and recent_count(db, letter.sender, now - timedelta(hours=1)) > limit:
        return close(db, record_id, Outcome("rate_limited", f"more than {limit} mails from "
                                                             f"{letter.sender} in an hour"))
    try:
        letter = dataclasses.replace(with_lines(letter, raw), authenticated=mode != "none")
    except (RecursionError, LookupError, ValueError, AssertionError, UnicodeError) as error:
        # limits.py keeps every mail we know of from here: whatever is left is refused, not a 500
        return handlers.refuse(db, record_id, letter, user_id, N_(
            "the mail could not be read ({error}): send the commands in a plain mail"), now,
            status="unreadable", error=error.__class__.__name__)
    return handlers.act(app, db, record_id, letter, token, user_id, now)


def _user_id(db, sender: str) -> int | None:
    if not sender:
        return None
    with session_scope(db) as session:
        return session.exec(select(User.id).where(User.email == sender)).first()


def _disabled(db, user_id: int) -> bool:
    with session_scope(db) as session:
        return session.get(User, user_id).disabled_at is not None


def _record(db, letter: Letter, way_in: str, now, user_id: int | None,
            outcome: Outcome) -> Outcome:
    """Record a mail that is not acted on: always for a registered sender, for a stranger only
    within the hourly cap (the rest is only logged)."""
    if user_id is None and strangers_recorded(db, now - timedelta(hours=1)) \
            >= STRANGER_RECORDS_PER_HOUR:
        log.warning("mail from %s not recorded (over %d strangers' mails an hour): %s %s",
                    letter.sender, STRANGER_RECORDS_PER_HOUR, outcome.status, outcome.detail)
        return outcome
    record_id = claim(db, letter, way_in, now)
    if record_id is None:
        return Outcome("duplicate", f"{letter.message_key} was handled already")
    return close(db, record_id, outcome)


def _unauthenticated(db, record_id: int, letter: Letter, user_id: int | None, reason: str,
                     now) -> Outcome:
    """Not acted on. Answered to a registered sender at most once a day: forged mail must not
    have the server mail its supposed sender again and again (issue 32, M4)."""
    detail = f"it was not authenticated: {reason}"
    told = user_id is not None and recent_outcomes(
        db, letter.sender, "unauthenticated", now - UNAUTHENTICATED_ANSWER_EVERY) > 0
    if user_id is None or told:
        return close(db, record_id, Outcome("unauthenticated", detail))
    return handlers.refuse(db, record_id, letter, user_id, N_("it was not authenticated: {reason}"),
                           now, status="unauthenticated", reason=reason)


def _ours(sender: str, base: ReplyBase, config) -> str | None:
    own = parseaddr(MailSettings.for_app(config).from_address)[1].lower()
    if sender == own or base.token_of(sender) is not None:
        return f"sent by this server's own address {sender}"
    return None


def _unread(app, raw: bytes, recipients, way_in: str, now, status: str, reason: str,
            **values) -> Outcome:
    """Too large or beyond the bounds: only the headers are read (bounded), to tell a registered
    sender why; nothing else."""
    letter = read_letter(raw, recipients)
    db = app_engine(app)
    user_id = _user_id(db, letter.sender)
    if user_id is None or letter.automatic:
        return _record(db, letter, way_in, now, user_id, Outcome(status, reason.format(**values)))
    record_id = claim(db, letter, way_in, now)
    if record_id is None:
        return Outcome("duplicate", f"{letter.message_key} was handled already")
    return handlers.refuse(db, record_id, letter, user_id, reason, now, status=status, **values)


def _wake_the_mail_job(app) -> None:
    """Send the answer now rather than at the scheduler's next run."""
    scheduler = app.extensions.get("iridescia_scheduler")
    if scheduler is None:
        return
    try:
        from datetime import UTC, datetime

        scheduler.modify_job("mail", next_run_time=datetime.now(UTC))
    except Exception:  # the job is gone (shutting down): the next run sends it
        log.debug("could not wake the mail job", exc_info=True)
