"""An incoming mail read in two steps, so that no costly work is done for mail that is dropped:

1. `read_letter`: its headers only (`headers.py`, bounded): the sender, our address among its
   recipients, the Message-ID, and whether a machine wrote it (`rules/`).
2. `with_lines`, only once the sender is known and authenticated: the lines the person typed
   (the text part, or the HTML part as the text a reader sees, `html_text.py`), without quoted
   text or signature (`quotes/`, a linear line classifier), within `quotes.MAX_LINES` lines.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass, field

from engine.text.wording import CONTROL_CHARACTERS
from server import i18n
from server.inbound import quotes, rules
from server.inbound.headers import MailHeaders, whole
from server.inbound.html_text import html_to_text

MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,240}>")
# An answer's References: the reply's own and the last of the thread's before it (the thread's
# root is the game's first mail, kept when it is among them); enough for any client to thread.
KEPT_REFERENCES = 10
MAX_TEXT_CHARS = 200_000  # of a decoded text part: more than any reply and its quote


@dataclass(frozen=True)
class Letter:
    message_key: str  # the Message-ID, or a digest of the message without one
    message_id: str | None
    sender: str  # the From address, lower case ('' when there is none)
    sender_name: str
    recipients: tuple[str, ...]
    subject: str
    lines: list[str] = field(default_factory=list)
    references: tuple[str, ...] = ()  # its References' well-formed ids, the thread's last ones
    automatic: str | None = None  # why this is machine-written mail, never answered
    authentication_results: tuple[str, ...] = ()  # every Authentication-Results header, top first
    authenticated: bool = False  # it passed the operator's dkim or spf check (never in `none`)
    # What its Content-Language or Accept-Language asks for (None: neither): the answer's
    # language for a sender who has not chosen one.
    language: str | None = None


def read_letter(raw: bytes, recipients: tuple[str, ...] | list[str] = (),
                mail_from: str | None = None) -> Letter:
    """The headers' part of the letter (no `lines` yet). `recipients`: the envelope's (SMTP
    RCPT TO, the MTA's pipe argument); without them Delivered-To, X-Original-To, To and Cc say.
    `mail_from`: the envelope sender when the way in knows it ('' for `<>`)."""
    headers = MailHeaders.of(raw, mail_from)
    message_id = headers.get("Message-ID").strip()
    # Quoted back in the answer's In-Reply-To: only a well-formed id goes into a header.
    message_id = message_id if MESSAGE_ID.fullmatch(message_id) else None
    key = message_id or "sha256:" + hashlib.sha256(raw).hexdigest()
    references = tuple(MESSAGE_ID.findall(headers.get("References")[:8000]))[-KEPT_REFERENCES:]
    name, sender = headers.from_address
    if not recipients:
        recipients = headers.addresses("Delivered-To", "X-Original-To", "To", "Cc")
    return Letter(
        message_key=key[:250],
        message_id=message_id,
        references=references,
        sender=sender,
        sender_name=clean(name)[:80],
        recipients=tuple(r.strip().lower() for r in recipients),
        subject=clean(headers.decoded("Subject"))[:200],
        automatic=rules.machine_written(headers),
        authentication_results=tuple(
            " ".join(str(value)[:4000].split())
            for value in headers.all("Authentication-Results")),
        language=i18n.header_language(headers.get("Content-Language")[:200],
                                      headers.get("Accept-Language")[:200]),
    )


def with_lines(letter: Letter, raw: bytes) -> Letter:
    """The letter with the lines its sender typed."""
    return dataclasses.replace(letter, lines=quotes.typed_lines(body_text(whole(raw))))


def clean(text: str) -> str:
    """One line without control or bidirectional-override characters (what a person wrote, fit
    for a log, a reply or a name: issue 32, N2)."""
    return " ".join(CONTROL_CHARACTERS.sub(" ", text).split())


def body_text(message) -> str:
    """The text part, else the HTML part as text; '' when there is neither."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):  # an unknown charset: what can be read
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return ""
    content = content[:MAX_TEXT_CHARS]
    if part.get_content_type() == "text/html":
        return html_to_text(content)
    return content
