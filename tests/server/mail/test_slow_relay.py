"""Issue 16, finding 12: a relay that drips its greeting (a valid multi-line 220, one byte at a
time, each byte well inside the read timeout) no longer holds the delivery job: one delivery
attempt, connection and greeting included, is bounded by the SMTP timeout as a whole. The
messages wait for a retry (a temporary failure) and say why."""

import socket
import threading
import time

from sqlmodel import select

from server.mail import MailSettings, SmtpSettings, SmtpTransport
from server.mail.outbox import flush_outbox
from server.storage.db import session_scope
from server.storage.models import Outbox
from tests.server.mail.test_mail_delivery import _queue

TIMEOUT = 2.0
DRIP_SECONDS = 0.5  # a byte every half second: no single read waits TIMEOUT
DRIP_FOR = 30.0  # how long the relay keeps a connection dripping before it gives up


class DrippingRelay:
    """A real TCP server on 127.0.0.1 that greets with "220-slow" lines, a byte at a time."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stopping = threading.Event()
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        self.listener.settimeout(0.2)
        while not self.stopping.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._drip, args=(connection,), daemon=True).start()

    def _drip(self, connection):
        started = time.monotonic()
        line = b"220-slow.example greeting, please hold\r\n"
        with connection:
            try:
                while not self.stopping.is_set() and time.monotonic() - started < DRIP_FOR:
                    for byte in line:
                        connection.sendall(bytes([byte]))
                        if self.stopping.wait(DRIP_SECONDS):
                            return
            except OSError:
                return  # the client hung up

    def close(self):
        self.stopping.set()
        self.listener.close()


def test_a_dripping_greeting_is_cut_off_after_the_timeout(db_engine, clock):
    relay = DrippingRelay()
    _queue(db_engine, clock, count=2)
    settings = MailSettings(smtp=SmtpSettings(host="127.0.0.1", port=relay.port,
                                              security="none", timeout=TIMEOUT))
    try:
        started = time.monotonic()
        report = flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock())
        elapsed = time.monotonic() - started
    finally:
        relay.close()

    assert report.sent == [] and report.parked == [] and len(report.retrying) == 2, report
    # Each message's attempt ends at the deadline (before: each waited for the whole drip).
    assert elapsed < 2 * TIMEOUT + 4, elapsed
    assert relay.connections == 2
    with session_scope(db_engine) as session:
        errors = [row.last_error for row in session.exec(select(Outbox).order_by(Outbox.id))]
    assert errors == [f"SMTP 127.0.0.1:{relay.port} (none) took longer than 2 s to take the "
                      "message: cut off, retrying later"] * 2
    print(f"slow relay: 2 messages cut off after {elapsed:.1f} s in all "
          f"(timeout {TIMEOUT:g} s, a byte every {DRIP_SECONDS:g} s)")
