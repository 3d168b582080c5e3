"""A post office for the tests: delivers the server's outbox to the SMTP sink, finds a player's
latest email, writes the reply a mail client would (plain, Gmail's or Outlook's quoting, HTML
only, CRLF) and sends it by SMTP, by the pipe command or straight to `ingest`."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr

from server.inbound.ingest import ingest
from server.scheduler.tick import Ticker


class PostOffice:
    def __init__(self, app, handler, clock):
        self.app = app
        self.handler = handler
        # The real clock: the API queues mail at the real time.
        self.ticker = Ticker(app)

    def deliver(self) -> None:
        """One scheduler tick: the due work (the Rhom's turns) and every mail due."""
        self.ticker.tick()

    def mail_to(self, address: str) -> list[EmailMessage]:
        return [r.message for r in self.handler.received if address in r.recipients]

    def latest(self, address: str, subject: str | None = None) -> EmailMessage:
        for message in reversed(self.mail_to(address)):
            if subject is None or subject in str(message["Subject"]):
                return message
        raise AssertionError(f"no mail to {address} about {subject!r}: "
                             f"{[str(m['Subject']) for m in self.mail_to(address)]}")

    def answer(self, address: str) -> EmailMessage:
        """The latest answer to a mail from `address`: threaded under it by In-Reply-To (its
        subject tells the news, with no "Re:")."""
        for message in reversed(self.mail_to(address)):
            if message["In-Reply-To"]:
                return message
        raise AssertionError(f"no answer to {address}: "
                             f"{[str(m['Subject']) for m in self.mail_to(address)]}")

    def count(self) -> int:
        return len(self.handler.received)

    def ingest(self, raw: bytes, **kwargs):
        return ingest(raw, app=self.app, **kwargs)

    def send_smtp(self, raw: bytes, to: str, sender: str) -> None:
        host, _, port = self.app.config["INBOUND_SMTP"].rpartition(":")
        # On the wire every line ends in CRLF (smtplib leaves bytes as they are).
        wire = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        with smtplib.SMTP(host, int(port), timeout=30) as smtp:
            smtp.sendmail(sender, [to], wire)


def text_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def typeable(message: EmailMessage) -> list[str]:
    """The lines under "... may type now" in an email from the server (its notices and its
    answers both have the list)."""
    lines = text_of(message).splitlines()
    for i, line in enumerate(lines):
        if "may type now" in line:
            rest = []
            for entry in lines[i + 1:]:
                if not entry.startswith("  "):
                    break
                if not entry.strip().startswith("..."):
                    rest.append(entry.strip())
            return rest
    return []


def reply(original: EmailMessage, body: str, sender: str | None = None, style: str = "plain",
          to: str | None = None, crlf: bool = False, headers: dict | None = None,
          message_id: str | None = None) -> bytes:
    """The reply a player's mail client sends to `original`: to its Reply-To, threaded, quoting
    it as `style` says (plain: no quote; gmail; outlook; html: an HTML part only)."""
    sender = sender or parseaddr(str(original["To"]))[1]
    message = EmailMessage()
    message["From"] = f"Player <{sender}>"
    message["To"] = to or str(original["Reply-To"])
    subject = str(original["Subject"])
    message["Subject"] = subject if subject.startswith("Re: ") else "Re: " + subject
    message["Message-ID"] = message_id or make_msgid(domain="example.org")
    message["In-Reply-To"] = str(original["Message-ID"])
    # As mail clients do (RFC 5322 3.6.4): the original's References, then its Message-ID.
    message["References"] = " ".join(
        [*str(original["References"] or "").split(), str(original["Message-ID"])])
    for name, value in (headers or {}).items():
        message[name] = value
    quoted = text_of(original)
    if style == "gmail":
        body = (body + "\n\nOn Sun, Mar 1, 2026 at 12:00 PM Iridescia <iridescia@iridescia.test> "
                "wrote:\n" + "\n".join("> " + line for line in quoted.splitlines()))
    elif style == "outlook":
        body = (body + "\n\n________________________________\nFrom: Iridescia "
                "<iridescia@iridescia.test>\nSent: Sunday, March 1, 2026 12:00 PM\nTo: "
                f"{sender}\nSubject: {original['Subject']}\n\n" + quoted)
    if style == "html":
        from html import escape

        lines = "".join(f"<div>{escape(line)}</div>" for line in body.splitlines())
        message.set_content(
            f"<html><body>{lines}<br><div class=\"gmail_quote\"><div>On Sun, Mar 1, 2026 at "
            f"12:00 PM Iridescia wrote:</div><blockquote>{escape(quoted)}</blockquote></div>"
            "</body></html>", subtype="html")
    else:
        message.set_content(body)
    raw = bytes(message)
    if crlf:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return raw
