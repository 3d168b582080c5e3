"""IMAP polling, for an operator who only has a mailbox: the scheduler reads the unseen mail of
`IRIDESCIA_IMAP_URL` (`imaps://user:pass@host/INBOX`; `imap://...` plain, or
`imap://...?security=starttls`) every interval and hands each message to `ingest`.

A message is fetched without marking it (BODY.PEEK) and flagged \\Seen only once it has been
handled; with `?move=Done` it is then moved to that mailbox instead. A temporary failure (the
database down) leaves it unseen for the next poll. A message that cannot be handled at all is
flagged (\\Flagged and \\Seen) and skipped, so that the mail behind it is still read (issue 32,
H2: a multipart nested 1,000 deep raised out of every poll and blocked the mailbox for good).
Standard library imaplib.
"""

from __future__ import annotations

import imaplib
import logging
import ssl
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from server.inbound.ingest import ingest

log = logging.getLogger(__name__)


class ImapUrlError(ValueError):
    """IRIDESCIA_IMAP_URL cannot be understood."""


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int
    username: str
    password: str
    mailbox: str = "INBOX"
    security: str = "ssl"  # ssl | starttls | none
    move_to: str | None = None
    timeout: float = 30.0

    @classmethod
    def from_url(cls, url: str) -> ImapSettings:
        parts = urlsplit(url)
        if parts.scheme not in ("imap", "imaps"):
            raise ImapUrlError("IRIDESCIA_IMAP_URL must start with imaps:// or imap://, e.g. "
                               "imaps://play%40example.org:secret@imap.example.org/INBOX")
        if not parts.hostname or not parts.username:
            raise ImapUrlError("IRIDESCIA_IMAP_URL must name a user and a host: "
                               "imaps://user:pass@host/INBOX")
        query = parse_qs(parts.query)
        security = "ssl" if parts.scheme == "imaps" else query.get("security", ["none"])[0]
        if security not in ("ssl", "starttls", "none"):
            raise ImapUrlError(f"IRIDESCIA_IMAP_URL security={security!r} is not starttls or none")
        return cls(
            host=parts.hostname, port=parts.port or (993 if security == "ssl" else 143),
            username=unquote(parts.username), password=unquote(parts.password or ""),
            mailbox=unquote(parts.path.lstrip("/")) or "INBOX", security=security,
            move_to=query.get("move", [None])[0],
        )


def _connect(settings: ImapSettings) -> imaplib.IMAP4:
    if settings.security == "ssl":
        connection = imaplib.IMAP4_SSL(settings.host, settings.port,
                                       ssl_context=ssl.create_default_context(),
                                       timeout=settings.timeout)
    else:
        connection = imaplib.IMAP4(settings.host, settings.port, timeout=settings.timeout)
        if settings.security == "starttls":
            connection.starttls(ssl.create_default_context())
    connection.login(settings.username, settings.password)
    return connection


class Mailbox:
    """One IMAP session kept open from poll to poll (a login can cost more than the poll), and
    opened again when the server dropped it."""

    def __init__(self, settings: ImapSettings):
        self.settings = settings
        self._connection: imaplib.IMAP4 | None = None

    def _open(self) -> imaplib.IMAP4:
        if self._connection is not None:
            try:
                self._connection.noop()
                return self._connection
            except (imaplib.IMAP4.error, OSError):
                self.close()
        self._connection = _connect(self.settings)
        return self._connection

    def close(self) -> None:
        if self._connection is not None:
            try:
                self._connection.logout()
            except (imaplib.IMAP4.error, OSError):
                pass
            self._connection = None

    def poll(self, app, limit: int = 200) -> dict[str, int]:
        try:
            return _poll(app, self._open(), self.settings, limit)
        except (imaplib.IMAP4.error, OSError):
            self.close()  # the next poll logs in afresh
            raise


def poll(app, settings: ImapSettings, limit: int = 200) -> dict[str, int]:
    """One poll in a session of its own."""
    mailbox = Mailbox(settings)
    try:
        return mailbox.poll(app, limit)
    finally:
        mailbox.close()


def _poll(app, connection: imaplib.IMAP4, settings: ImapSettings, limit: int) -> dict[str, int]:
    """Handle up to `limit` unseen messages; counts of the outcomes."""

    counts: dict[str, int] = {}
    status, _ = connection.select(_quoted(settings.mailbox))
    if status != "OK":
        raise ImapUrlError(f"there is no mailbox {settings.mailbox!r} on {settings.host}")
    _, found = connection.uid("SEARCH", None, "UNSEEN")
    for uid in (found[0] or b"").split()[:limit]:
        _, fetched = connection.uid("FETCH", uid, "(BODY.PEEK[])")
        raw = next((part[1] for part in fetched if isinstance(part, tuple)), None)
        if raw is None:
            continue
        try:
            outcome = ingest(raw, app=app, way_in="imap")
        except Exception:  # a poison message: flagged for the operator, never read again
            log.exception("mailbox %s: message %s could not be handled; flagged and skipped",
                          settings.mailbox, uid.decode(errors="replace"))
            connection.uid("STORE", uid, "+FLAGS", "(\\Seen \\Flagged)")
            counts["failed"] = counts.get("failed", 0) + 1
            continue
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
        if outcome.status == "temporary":
            break  # left unseen: the next poll tries again
        _done(connection, uid, settings)
    if settings.move_to:
        connection.expunge()
    return counts


def _done(connection: imaplib.IMAP4, uid: bytes, settings: ImapSettings) -> None:
    connection.uid("STORE", uid, "+FLAGS", "(\\Seen)")
    if settings.move_to:
        connection.uid("COPY", uid, _quoted(settings.move_to))
        connection.uid("STORE", uid, "+FLAGS", "(\\Deleted)")


def _quoted(mailbox: str) -> str:
    return '"' + mailbox.replace("\\", "\\\\").replace('"', '\\"') + '"'


def poller(app):
    """The scheduler's `imap` job: one poll, its failure logged (the next run tries again)."""
    settings = ImapSettings.from_url(app.config["IMAP_URL"])
    mailbox = Mailbox(settings)

    def run() -> None:
        try:
            counts = mailbox.poll(app)
        except (imaplib.IMAP4.error, OSError, ImapUrlError) as error:
            log.error("could not read the mailbox %s on %s: %s", settings.mailbox,
                      settings.host, error)
            return
        if counts:
            log.info("mailbox %s: %s", settings.mailbox, counts)

    return run
