"""`ingest(message_bytes)`: the one function behind every way mail comes in (the embedded SMTP
receiver, `iridescia-server mail ingest` on an MTA's pipe, IMAP polling).

In order: refuse what is too large; read the mail; find our address among its recipients (none:
"unknown_address", which an MTA bounces); claim its Message-ID (a second delivery does nothing);
ignore machine-written mail (auto-replies, bounces, lists, our own) without answering; drop mail
from unknown senders without answering (no backscatter to forged senders); hold a sender to the
rate limit; require the configured authentication; then act on the token's purpose. Everything
is recorded in inbound_messages.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from email import message_from_bytes, policy
from email.utils import parseaddr

from flask import current_app
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import select

from server.inbound import handlers
from server.inbound.authentication import refusal
from server.inbound.letter import Letter, read_letter
from server.inbound.record import Outcome, claim, close, recent_count
from server.mail.reply_addresses import ReplyBase
from server.mail.settings import MailSettings
from server.storage.db import app_engine, session_scope
from server.storage.models import User, utcnow

log = logging.getLogger(__name__)


def ingest(message_bytes: bytes, *, app=None, recipients=(), way_in: str = "pipe") -> Outcome:
    """Handle one incoming mail. `recipients`: the envelope's, when the way in knows them."""
    app = app or current_app._get_current_object()
    try:
        with app.app_context():
            outcome = _ingest(app, message_bytes, tuple(recipients), way_in)
    except (OperationalError, DBAPIError) as error:
        log.error("incoming mail not handled, the database failed (retry later): %s", error)
        return Outcome("temporary", f"the database failed: {error.__class__.__name__}")
    log.info("incoming mail (%s): %s %s", way_in, outcome.status, outcome.detail)
    if outcome.answered:
        _wake_the_mail_job(app)
    return outcome


def _ingest(app, raw: bytes, recipients: tuple[str, ...], way_in: str) -> Outcome:
    config = app.config
    db = app_engine(app)
    now = utcnow()
    base = ReplyBase.parse(config["REPLY_ADDRESS"])
    if len(raw) > config["MAX_INBOUND_BYTES"]:
        return _too_large(app, raw, recipients, way_in, now)
    letter = read_letter(raw, recipients)
    token = next((t for t in map(base.token_of, letter.recipients) if t is not None), None)
    record_id = claim(db, letter, way_in, now)
    if token is None:  # recorded too (a bounce by the MTA follows): `mail log` shows it
        outcome = Outcome("unknown_address", f"none of {', '.join(letter.recipients) or '(none)'}"
                                             f" is {base.bare} or {base.local}+CODE@{base.domain}")
        return outcome if record_id is None else close(db, record_id, outcome)
    if record_id is None:
        return Outcome("duplicate", f"{letter.message_key} was handled already")
    automatic = letter.automatic or _ours(letter.sender, base, config)
    if automatic:
        return close(db, record_id, Outcome("ignored", automatic))
    with session_scope(db) as session:
        user = session.exec(select(User).where(User.email == letter.sender)).first()
        user_id = None if user is None else user.id
        disabled = user is not None and user.disabled_at is not None
    if disabled:  # no play, no talk, no answer: the operator stopped this account
        return close(db, record_id, Outcome("dropped", f"the account of {letter.sender} was "
                                                       "disabled by an operator"))
    if user is None and not token.startswith("join-"):
        return close(db, record_id, Outcome("dropped", f"{letter.sender} is not registered"))
    limit = config["INBOUND_RATE_LIMIT"]
    if limit > 0 and recent_count(db, letter.sender, now - timedelta(hours=1)) > limit:
        return close(db, record_id, Outcome("rate_limited", f"more than {limit} mails from "
                                                             f"{letter.sender} in an hour"))
    reason = refusal(letter.authentication_results, letter.sender,
                     config["INBOUND_REQUIRE_AUTH"].strip().lower())
    if reason is not None:
        return handlers.refuse(db, record_id, letter, user_id, f"it was not authenticated: "
                                                               f"{reason}", now)
    return handlers.act(app, db, record_id, letter, token, user_id, now)


def _ours(sender: str, base: ReplyBase, config) -> str | None:

    own = parseaddr(MailSettings.for_app(config).from_address)[1].lower()
    if sender == own or base.token_of(sender) is not None:
        return f"sent by this server's own address {sender}"
    return None


def _too_large(app, raw: bytes, recipients, way_in: str, now) -> Outcome:
    """Read only the headers: whom to tell (a registered sender), nothing else."""
    limit = app.config["MAX_INBOUND_BYTES"]
    headers = message_from_bytes(raw[:65536], policy=policy.default)
    letter = Letter(message_key=(str(headers.get("Message-ID") or "").strip()
                                 or "sha256:" + hashlib.sha256(raw).hexdigest())[:250],
                    message_id=None, sender=parseaddr(str(headers.get("From") or ""))[1].lower(),
                    sender_name="", recipients=tuple(recipients),
                    subject=str(headers.get("Subject") or "")[:200])
    db = app_engine(app)
    record_id = claim(db, letter, way_in, now)
    if record_id is None:
        return Outcome("duplicate", f"{letter.message_key} was handled already")
    detail = f"the mail is {len(raw)} bytes, more than the {limit} this server reads"
    with session_scope(db) as session:
        user = session.exec(select(User).where(User.email == letter.sender)).first()
    if user is None:
        return close(db, record_id, Outcome("too_large", detail))
    return handlers.refuse(db, record_id, letter, user.id, detail + ": send the commands alone, "
                           "without attachments", now, status="too_large")


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
