"""The embedded SMTP receiver (aiosmtpd): `iridescia-server serve` listens on
`IRIDESCIA_INBOUND_SMTP` (default 127.0.0.1:2525; `off`: not at all) and hands every message to
`ingest`. Point an MX or a relay at it, or send to it directly in a demo.

Answers: 250 once handled (whatever came of it: an ignored or dropped mail is still accepted,
so that a forged sender learns nothing), 550 for an address that is not ours, 451 when the
database failed or the receiver is busy (the sender retries), 552 for a message over the size
limit (and its headroom), 421 to a connection over `MAX_SESSIONS`.

Bounded (issue 32, L9: 1,100 idle connections exhausted the descriptors and took the API down
with them; 60 unfinished uploads held 261 MiB): at most `MAX_SESSIONS` sessions, each closed
after `IDLE_SECONDS` without a command, each upload at most the size limit and its headroom.
The mails are handled by `INGEST_THREADS` threads of the receiver's own; when `MAX_WAITING` wait
already, a mail gets 451 and its server retries later, so a flood cannot take the process's time
from the API.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from aiosmtpd.smtp import SMTP

from server.inbound.ingest import ingest
from server.inbound.tls import server_context
from server.mail.reply_addresses import ReplyBase

log = logging.getLogger(__name__)
MAX_SESSIONS = 50
IDLE_SECONDS = 60
INGEST_THREADS = 2
MAX_WAITING = 8
HEADROOM = 256 * 1024  # over the size limit, still received: the sender is told why it is refused


def listen_address(setting: str) -> tuple[str, int] | None:
    """`host:port` from IRIDESCIA_INBOUND_SMTP; None for `off` (or empty)."""
    text = setting.strip()
    if text.lower() in ("", "off", "no", "false", "0"):
        return None
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"IRIDESCIA_INBOUND_SMTP must be host:port such as 127.0.0.1:2525, or "
                         f"off; not {setting!r}")
    return host.strip("[]"), int(port)


@dataclass
class IngestingHandler:
    app: object
    sessions: int = 0
    waiting: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    pool: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(INGEST_THREADS, "iridescia-ingest"))

    async def handle_DATA(self, server, session, envelope):
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        with self.lock:
            if self.waiting >= MAX_WAITING:
                return "451 4.3.2 busy, try again later"
            self.waiting += 1
        mail_from = "" if envelope.mail_from in ("", "<>") else envelope.mail_from
        try:
            # ingest uses the database: run it off the event loop, in the receiver's threads.
            outcome = await asyncio.get_running_loop().run_in_executor(
                self.pool, lambda: ingest(content, app=self.app, recipients=envelope.rcpt_tos,
                                          way_in="smtp", mail_from=mail_from))
        finally:
            with self.lock:
                self.waiting -= 1
        if outcome.status == "unknown_address":
            return "550 5.1.1 no such mailbox here"
        if outcome.status == "temporary":
            return "451 4.3.0 temporary failure, try again later"
        return "250 2.0.0 message accepted"


class LimitedSMTP(SMTP):
    """aiosmtpd's session, counted: over `MAX_SESSIONS` a connection gets 421 and is closed."""

    def connection_made(self, transport):
        if getattr(self, "_counted", False):  # again after STARTTLS: the same session
            super().connection_made(transport)
            return
        handler = self.event_handler
        with handler.lock:
            handler.sessions += 1
            over = handler.sessions > MAX_SESSIONS
        self._counted = True
        if over:
            transport.write(b"421 4.7.0 too many connections, try again later\r\n")
            transport.close()
            return
        super().connection_made(transport)

    def connection_lost(self, error):
        if getattr(self, "_counted", False):
            self._counted = False
            with self.event_handler.lock:
                self.event_handler.sessions -= 1
        if getattr(self, "transport", None) is not None:
            super().connection_lost(error)


def start_receiver(app, address: tuple[str, int]):
    """Start the receiver in a thread of its own; returns the aiosmtpd Controller (`.stop()`)."""
    from aiosmtpd.controller import Controller

    class LimitedController(Controller):
        def factory(self):
            return LimitedSMTP(self.handler, **self.SMTP_kwargs)

    host, port = address
    # STARTTLS offered (server/inbound/tls.py), never required.
    tls = server_context(app.config.get("INBOUND_TLS_CERT", ""),
                         app.config.get("INBOUND_TLS_KEY", ""),
                         hostname=ReplyBase.parse(app.config["REPLY_ADDRESS"]).domain)
    controller = LimitedController(
        IngestingHandler(app), hostname=host, port=port,
        data_size_limit=app.config["MAX_INBOUND_BYTES"] + HEADROOM, timeout=IDLE_SECONDS,
        server_hostname="iridescia", tls_context=tls, require_starttls=False)
    controller.start()
    app.extensions["iridescia_smtp_receiver"] = controller
    log.warning("receiving mail by SMTP on %s:%d (IRIDESCIA_INBOUND_SMTP)", host, port)
    return controller
