"""Bounces: our mail that could not be delivered, coming back by any way in (`ingest` calls
`handle` for every mail, before anything answers it).

A bounce is known by where it comes back to, or by what it says:
- **VERP**: every message's envelope sender is `play+bounce-u12-<signature>@domain`
  (server/mail/envelope.py), signed over the address it went to; a mail to it names the account
  whose address failed, whatever the bounce's text;
- **DSN** (RFC 3464): a `multipart/report; report-type=delivery-status` whose per-recipient
  fields give the failed address (`Final-Recipient`), `Action: failed` or `delayed` and the
  `Status` (5.x.x permanent, 4.x.x temporary).

A hard bounce (a DSN to a VERP address that failed with a 5.x.x status, or a VERP bounce without
a DSN: a plain failure notice) marks the address as bouncing at once; a soft one (delayed,
4.x.x, or any DSN that did not come back to a VERP address, which nothing signs) marks it on
the third in 7 days. From then on no game mail goes to it (server/mail/consent.py), the player
sees it on their pages, in `iridescia games` and `GET /users/me` (`email_status`), the operator
in `iridescia-server users`; confirming the address again clears it (server/users/
verification.py). A bounce is never answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import message_from_bytes, policy
from email.message import Message
from email.utils import parseaddr

from sqlalchemy import func
from sqlmodel import select

from server.inbound.record import Outcome, close
from server.mail import reply_addresses
from server.storage.db import session_scope
from server.storage.models import MailBounce, User

SOFT_BOUNCES = 3
SOFT_WINDOW = timedelta(days=7)
_STATUS = re.compile(r"\b([245])\.\d{1,3}\.\d{1,3}\b")


@dataclass(frozen=True)
class Failed:
    """One recipient a bounce reports."""

    email: str  # '' when the bounce does not say (a VERP bounce without a DSN)
    hard: bool
    detail: str


@dataclass(frozen=True)
class Found:
    verp: str | None  # the bounce token text of the address it came back to
    failed: tuple[Failed, ...]


def delivery_status(message: Message) -> list[Failed]:
    """The recipients a DSN reports as failed or delayed (RFC 3464); [] when it is not one."""
    if message.get_content_type() != "multipart/report":
        return []
    if str(message.get_param("report-type", "")).lower() != "delivery-status":
        return []
    failed = []
    for part in message.walk():
        if part.get_content_type() not in ("message/delivery-status",
                                           "message/global-delivery-status"):
            continue
        for fields in _field_groups(part)[1:]:  # the first group is about the message
            action = fields.get("action", "").lower()
            status = fields.get("status", "")
            code = _STATUS.search(status)
            if action not in ("failed", "delayed"):
                continue
            recipient = fields.get("final-recipient") or fields.get("original-recipient") or ""
            email = parseaddr(recipient.partition(";")[2].strip() or recipient)[1].lower()
            hard = action == "failed" and (code is None or code.group(1) == "5")
            detail = f"{action} {status}".strip()
            diagnostic = fields.get("diagnostic-code", "")
            if diagnostic:
                detail += f": {diagnostic.partition(';')[2].strip() or diagnostic}"
            failed.append(Failed(email, hard, detail[:500]))
    return failed


def _field_groups(part: Message) -> list[dict[str, str]]:
    """The delivery-status part's groups of fields (blank-line separated), names lower case."""
    payload = part.get_payload()
    if isinstance(payload, list):  # the email package parses each group as a message
        return [{k.lower(): str(v) for k, v in group.items()} for group in payload]
    text = payload if isinstance(payload, str) else ""
    groups, current = [], {}
    for line in text.splitlines():
        if not line.strip():
            if current:
                groups.append(current)
            current = {}
        elif ":" in line and not line[0].isspace():
            name, _, value = line.partition(":")
            current[name.strip().lower()] = value.strip()
    if current:
        groups.append(current)
    return groups


def find(raw: bytes, tokens: list[str]) -> Found | None:
    """The bounce this mail is, None when it is not one. `tokens`: the token texts of the
    recipients that are ours."""
    verp = next((t for t in tokens if t.startswith("bounce-")), None)
    failed = delivery_status(message_from_bytes(raw, policy=policy.compat32))
    if verp is None and not failed:
        return None
    if verp is not None and not failed:  # a plain failure notice to the VERP address
        failed = [Failed("", True, "a failure notice (no delivery status)")]
    return Found(verp, tuple(failed))


def handle(db, record_id: int, found: Found, secret_key: str, now: datetime) -> Outcome:
    """Record the bounce against the accounts it names, mark those whose address now bounces,
    and close the mail's record (never answered)."""
    told = []
    with session_scope(db) as session:
        for user, failure in _accounts(session, found, secret_key):
            session.add(MailBounce(user_id=user.id, email=user.email, hard=failure.hard,
                                   detail=failure.detail, at=now))
            session.flush()
            marked = user.email_bouncing_at is None and _bouncing(session, user, failure, now)
            if marked:
                user.email_bouncing_at = now
                session.add(user)
            kind = "hard" if failure.hard else "soft"
            told.append(f"{kind} bounce for {user.email}" + (", now marked bouncing"
                                                            if marked else ""))
    detail = "; ".join(told) or "a bounce for no account of ours"
    return close(db, record_id, Outcome("bounce", detail))


def _accounts(session, found: Found, secret_key: str) -> list[tuple[User, Failed]]:
    if found.verp is not None:
        try:
            token = reply_addresses.read(found.verp)
        except reply_addresses.BadToken:
            return []
        user = session.get(User, token.user_id)
        if user is None or not reply_addresses.verify(secret_key, found.verp,
                                                      user.email.lower()):
            return []  # forged, or for an address the account no longer has
        # Hard if any recipient's failure is: a VERP message has one recipient.
        return [(user, max(found.failed, key=lambda f: f.hard))]
    # A DSN that did not come back to a VERP address is not signed: anyone could write one.
    # It counts, but as a soft bounce only, so a forged one alone never marks an address.
    out = []
    for failure in found.failed:
        user = session.exec(select(User).where(func.lower(User.email) == failure.email)).first()
        if user is not None and failure.email:
            out.append((user, Failed(failure.email, False, failure.detail)))
    return out


def _bouncing(session, user: User, failure: Failed, now: datetime) -> bool:
    if failure.hard:
        return True
    soft = session.exec(
        select(func.count()).select_from(MailBounce)
        .where(MailBounce.user_id == user.id, MailBounce.hard.is_(False),
               MailBounce.email == user.email, MailBounce.at > now - SOFT_WINDOW)
    ).one()
    return soft >= SOFT_BOUNCES
