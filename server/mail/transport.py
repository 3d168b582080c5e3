"""Transports deliver one `server.mail.wire.WireMessage`; failures are split by cause.

A temporary failure (a 4xx reply, a refused or dropped connection) is worth retrying later; a
permanent one (a 5xx reply) is not, and the outbox parks the message for a person to look at.
"""

import hashlib
import logging
import re
import smtplib
import socket
import ssl
from pathlib import Path

from server.mail.settings import MailSettings, SmtpSettings
from server.mail.watchdog import Watchdog
from server.mail.wire import WireMessage

log = logging.getLogger(__name__)


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
        self._watchdog = Watchdog(self._cut_off)

    def describe(self) -> str:
        return f"SMTP {self.settings.host}:{self.settings.port} ({self.settings.security})"

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        self._watchdog.stop()

    def close(self):
        if self._connection is not None:
            try:
                self._connection.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._connection = None

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
        self._watchdog.arm(self.settings.timeout)
        try:
            self._send(message)
        except DeliveryError:
            if not self._watchdog.disarm():
                raise
            self.close()
            raise TemporaryDeliveryError(
                f"{self.describe()} took longer than {self.settings.timeout:g} s to take the "
                "message: cut off, retrying later") from None
        finally:
            self._watchdog.disarm()

    def _send(self, message: WireMessage) -> None:
        try:
            if self._connection is None:
                self._connect()
            refused = self._connection.sendmail(message.sender, [message.recipient],
                                                message.data)
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
        if refused:
            code, text = next(iter(refused.values()))
            raise _from_reply(code, text, f"RCPT TO {message.recipient}")


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
