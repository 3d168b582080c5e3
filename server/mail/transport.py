"""Transports deliver one `server.mail.wire.WireMessage`; failures are split by cause.

`send` delivers a message whole; `begin` and `end` deliver it in two steps (all but the last
line, then the last line), so that the outbox can write the previous message's outcome while
the next one's lines are on their way and still before that one is delivered; `abort` drops a
message begun (server/mail/sending.py).

A temporary failure (a 4xx reply, a refused or dropped connection) is worth retrying later; a
permanent one (a 5xx reply) is not, and the outbox parks the message for a person to look at.
"""

import hashlib
import logging
import re
import smtplib
import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from server.mail.settings import MailSettings, SmtpSettings
from server.mail.watchdog import Watchdog
from server.mail.wire import WireMessage

log = logging.getLogger(__name__)
_LEADING_DOT = re.compile(rb"(?m)^\.")


class DeliveryError(Exception):
    """A message could not be delivered."""

    temporary = False


class TemporaryDeliveryError(DeliveryError):
    """Worth retrying: the server said 4xx or could not be reached."""

    temporary = True


class PermanentDeliveryError(DeliveryError):
    """Not worth retrying: the server said 5xx."""


def _from_reply(code: int, text, action: str) -> DeliveryError:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    message = f"SMTP server answered {code} {text} to {action}"
    return TemporaryDeliveryError(message) if 400 <= code < 500 else PermanentDeliveryError(message)


class SmtpTransport:
    """Sends through an SMTP server: one connection (EHLO, STARTTLS, AUTH once) for every message
    of a delivery run, until it fails or the run ends (`close`)."""

    def __init__(self, settings: SmtpSettings):
        self.settings = settings
        self._connection = None
        self._in_data = False  # between `begin` and `end`: the server awaits the final "."
        self._watchdog = Watchdog(self._cut_off)

    def describe(self) -> str:
        return f"SMTP {self.settings.host}:{self.settings.port} ({self.settings.security})"

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        self._watchdog.stop()

    def close(self):
        """QUIT and close; in the middle of a message's lines (`abort`), only close: a QUIT
        there would be one more line of the message, and the server would not answer it."""
        if self._connection is not None:
            try:
                if self._in_data:
                    self._connection.close()
                else:
                    self._connection.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._connection = None
        self._in_data = False

    def _connect(self):
        s = self.settings
        context = ssl.create_default_context()
        # Made unconnected and kept where the watchdog finds it: a greeting that drips in is
        # cut off like any other step.
        if s.security == "ssl":
            self._connection = smtplib.SMTP_SSL(timeout=s.timeout, context=context)
        else:
            self._connection = smtplib.SMTP(timeout=s.timeout)
        connection = self._connection
        connection._host = s.host  # what the constructor would set: TLS checks the name
        code, reply = connection.connect(s.host, s.port)
        if code != 220:
            raise smtplib.SMTPConnectError(code, reply)
        if s.security != "ssl":
            connection.ehlo()
            if s.security == "starttls" or (
                s.security == "auto" and connection.has_extn("starttls")
            ):
                connection.starttls(context=context)
                connection.ehlo()
        if s.username:
            connection.login(s.username, s.password or "")

    def _cut_off(self) -> None:
        """The watchdog's: shut the socket of the attempt that outlived its deadline, which
        wakes the read it is blocked in."""
        sock = getattr(self._connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def send(self, message: WireMessage) -> None:
        """Send one message; the whole attempt (connecting, greeting, TLS, login, the message)
        takes at most the timeout (server/mail/watchdog.py)."""
        self.begin(message)
        self.end(message)

    def begin(self, message: WireMessage) -> None:
        """All of a message's exchange but its last line: connect if need be, MAIL FROM, RCPT
        TO, DATA and the message's lines. The server delivers nothing until `end` sends the
        final ".", and drops the message if the connection is closed before (`abort`; RFC 5321
        §4.1.1.4), so the sender can do this while the previous message's outcome is being
        written. Takes at most the timeout, as `end` does."""
        self._attempt(self._begin, message)

    def end(self, message: WireMessage) -> None:
        """The final "." of the message `begin` started, and the server's answer to it."""
        self._attempt(self._end, message)

    def abort(self) -> None:
        """Drop the message `begin` started: the connection is closed without its final line."""
        self.close()

    def _attempt(self, step, message: WireMessage) -> None:
        self._watchdog.arm(self.settings.timeout)
        try:
            step(message)
        except DeliveryError:
            if not self._watchdog.disarm():
                raise
            self.close()
            raise TemporaryDeliveryError(
                f"{self.describe()} took longer than {self.settings.timeout:g} s to take the "
                "message: cut off, retrying later") from None
        finally:
            self._watchdog.disarm()

    def _begin(self, message: WireMessage) -> None:
        with self._replies(message):
            if self._connection is None:
                self._connect()
            connection = self._connection
            connection.ehlo_or_helo_if_needed()
            options = ([f"size={len(message.data)}"]
                       if connection.does_esmtp and connection.has_extn("size") else [])
            code, reply = connection.mail(message.sender, options)
            if code != 250:
                raise smtplib.SMTPSenderRefused(code, reply, message.sender)
            code, reply = connection.rcpt(message.recipient)
            if code not in (250, 251):
                raise smtplib.SMTPRecipientsRefused({message.recipient: (code, reply)})
            connection.putcmd("data")
            code, reply = connection.getreply()
            if code != 354:
                raise smtplib.SMTPDataError(code, reply)
            self._in_data = True
            connection.send(_dot_stuffed(message.data))

    def _end(self, message: WireMessage) -> None:
        with self._replies(message):
            if not self._in_data:
                raise smtplib.SMTPServerDisconnected("the message was not begun")
            self._in_data = False
            self._connection.send(b".\r\n")
            code, reply = self._connection.getreply()
            if code != 250:
                raise smtplib.SMTPDataError(code, reply)

    @contextmanager
    def _replies(self, message: WireMessage) -> Iterator[None]:
        """SMTP's failures as delivery errors, split by cause; the connection is closed after
        any (the next message connects again)."""
        try:
            yield
        except smtplib.SMTPRecipientsRefused as error:
            self.close()
            code, text = next(iter(error.recipients.values()))
            raise _from_reply(code, text, f"RCPT TO {message.recipient}") from error
        except smtplib.SMTPResponseException as error:
            self.close()
            raise _from_reply(error.smtp_code, error.smtp_error, "the message") from error
        except (smtplib.SMTPException, OSError) as error:
            self.close()
            raise TemporaryDeliveryError(f"{self.describe()} unreachable: {error}") from error


def _dot_stuffed(data: bytes) -> bytes:
    """The message's lines as DATA sends them (what smtplib's `data` does): a line that starts
    with "." gets another, and the last line ends with CRLF."""
    data = _LEADING_DOT.sub(b"..", data)
    return data if data.endswith(b"\r\n") else data + b"\r\n"


class EmlTransport:
    """Writes each message as an .eml file, so a new server shows its emails without SMTP."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def describe(self) -> str:
        return f".eml files in {self.directory}/"

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def close(self):
        pass

    def begin(self, message: WireMessage) -> None:
        """Nothing to begin: the file is written whole by `end`."""

    def end(self, message: WireMessage) -> None:
        self.send(message)

    def abort(self) -> None:
        pass

    def send(self, message: WireMessage) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / _file_name(message.key)
            path.write_bytes(message.data)
        except OSError as error:
            raise TemporaryDeliveryError(f"cannot write to {self.directory}: {error}") from error
        log.info("mail to %s written to %s (IRIDESCIA_SMTP_URL is not set)", message.recipient,
                 path)


def _file_name(key: str) -> str:
    """A readable name (the key with what a file name cannot hold replaced) that is one file per
    mail: keys differing only in those characters (``a+b@``, ``a_b@``) or only after the
    readable part's end got one name, and one mail overwrote the other. The key's digest ends
    the name; the same mail sent again (after a crash) overwrites its own file."""
    key = key or "message"
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("_")[:120]
    return f"{readable}_{hashlib.sha256(key.encode()).hexdigest()[:16]}.eml"


class KeptOpen:
    """A transport lent to several delivery runs, so that they share one SMTP session (the
    scheduler's mail job delivers in parts of a few messages): a run's `with` leaves it open;
    its owner closes it."""

    def __init__(self, transport) -> None:
        self._transport = transport

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        pass

    def __getattr__(self, name: str):
        return getattr(self._transport, name)


def transport_for(settings: MailSettings):
    """SMTP when configured, else .eml files; says which in the log."""
    if settings.smtp is not None:
        return SmtpTransport(settings.smtp)
    return EmlTransport(settings.outbox_dir)


def announce(settings: MailSettings) -> None:
    """One log line at start-up saying where mail goes."""
    if settings.smtp is None:
        log.warning(
            "IRIDESCIA_SMTP_URL is not set: emails are written as .eml files under %s/",
            settings.outbox_dir,
        )
    else:
        log.info("emails are sent through %s", SmtpTransport(settings.smtp).describe())
