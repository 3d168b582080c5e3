"""An incoming mail read: who sent it, to whom, whether a machine wrote it, and the lines the
person typed (the text part, or the HTML part as text, without quoted text or signature).

Quoted text and signatures are cut by mail-parser-reply: it knows the reply headers of Gmail
("On ... wrote:"), Outlook ("From: ... Sent: ..."), Apple Mail and others, in several languages,
and splits off signatures, which a `>`-prefix rule alone would not.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr

# Headers that say a robot wrote the mail (RFC 3834, and what common auto-responders add).
ROBOT_SENDERS = ("mailer-daemon", "postmaster", "noreply", "no-reply")
BULK_PRECEDENCE = {"bulk", "list", "junk"}
QUOTE_LANGUAGES = ["en", "de", "fr", "es", "it", "nl"]
MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,240}>")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Letter:
    message_key: str  # the Message-ID, or a digest of the message without one
    message_id: str | None
    sender: str  # the From address, lower case ('' when there is none)
    sender_name: str
    recipients: tuple[str, ...]
    subject: str
    lines: list[str] = field(default_factory=list)
    automatic: str | None = None  # why this is machine-written mail, never answered
    authentication_results: str | None = None


def read_letter(raw: bytes, recipients: tuple[str, ...] | list[str] = ()) -> Letter:
    """`recipients`: the envelope's (SMTP RCPT TO, the MTA's pipe argument); without them the
    Delivered-To, X-Original-To, To and Cc headers say."""
    message = message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    message_id = _header(message, "Message-ID").strip()
    # Quoted back in the answer's In-Reply-To: only a well-formed id goes into a header.
    message_id = message_id if MESSAGE_ID.fullmatch(message_id) else None
    key = message_id or "sha256:" + hashlib.sha256(raw).hexdigest()
    name, sender = parseaddr(_header(message, "From"))
    if not recipients:
        headers = [_header(message, h) for h in ("Delivered-To", "X-Original-To", "To", "Cc")]
        recipients = [address for _name, address in getaddresses(headers) if address]
    return Letter(
        message_key=key[:250],
        message_id=message_id,
        sender=sender.strip().lower(),
        sender_name=clean(name)[:80],
        recipients=tuple(r.strip().lower() for r in recipients),
        subject=clean(_header(message, "Subject"))[:200],
        lines=typed_lines(message),
        automatic=_why_automatic(message, sender.lower()),
        authentication_results=_header(message, "Authentication-Results") or None,
    )


def _header(message: EmailMessage, name: str) -> str:
    try:
        value = message.get(name)
    except Exception:  # a malformed header is as good as none
        return ""
    return "" if value is None else str(value)


def clean(text: str) -> str:
    """One line without control characters (what a person wrote, fit for a log or a reply)."""
    return CONTROL.sub("", " ".join(text.split()))


def _why_automatic(message: EmailMessage, sender: str) -> str | None:
    auto = _header(message, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(message, "Precedence").strip().lower()
    if precedence in BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    if message.get_content_type() == "multipart/report" or _header(message, "X-Failed-Recipients"):
        return "a delivery status notification"
    for name in ("X-Autoreply", "X-Autorespond"):
        if _header(message, name):
            return f"{name} header"
    local = sender.partition("@")[0]
    if not sender or local in ROBOT_SENDERS:
        return f"sent by {sender or 'nobody (no From)'}"
    return None


def typed_lines(message: EmailMessage) -> list[str]:
    """The lines of the new text: text/plain, else the HTML part as text; quotes and the
    signature cut off; each line stripped of control characters."""
    text = body_text(message)
    return [CONTROL.sub("", line).strip() for line in latest_reply(text).splitlines()]


def body_text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError):  # an unknown charset: read what can be read
        content = part.get_payload(decode=True).decode("utf-8", "replace")
    if not isinstance(content, str):
        return ""
    if part.get_content_type() == "text/html":
        return html_to_text(content)
    return content


def html_to_text(html: str) -> str:
    from inscriptis import get_text

    return get_text(html)


def latest_reply(text: str) -> str:
    """The newest reply in `text`, without what it quotes and without its signature."""
    from mailparser_reply import EmailReplyParser

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    replies = EmailReplyParser(languages=QUOTE_LANGUAGES).read(text=text).replies
    if not replies:
        return ""
    body = replies[0].body
    # What a client quotes without a header line it recognises.
    return "\n".join(line for line in body.splitlines() if not line.lstrip().startswith(">"))
