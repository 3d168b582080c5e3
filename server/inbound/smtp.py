"""The embedded SMTP receiver (aiosmtpd): `iridescia-server serve` listens on
`IRIDESCIA_INBOUND_SMTP` (default 127.0.0.1:2525; `off`: not at all) and hands every message to
`ingest`. Point an MX or a relay at it, or send to it directly in a demo.

Answers: 250 once handled (whatever came of it: an ignored or dropped mail is still accepted,
so that a forged sender learns nothing), 550 for an address that is not ours, 451 when the
database failed (the sender retries), and 552 for a message far over the size limit.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from server.inbound.ingest import ingest
from server.inbound.tls import server_context
from server.mail.reply_addresses import ReplyBase

log = logging.getLogger(__name__)


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

    async def handle_DATA(self, server, session, envelope):

        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        # ingest uses the database: run it off the event loop.
        outcome = await asyncio.get_running_loop().run_in_executor(
            None, lambda: ingest(content, app=self.app, recipients=envelope.rcpt_tos,
                                 way_in="smtp"))
        if outcome.status == "unknown_address":
            return "550 5.1.1 no such mailbox here"
        if outcome.status == "temporary":
            return "451 4.3.0 temporary failure, try again later"
        return "250 2.0.0 message accepted"


def start_receiver(app, address: tuple[str, int]):
    """Start the receiver in a thread of its own; returns the aiosmtpd Controller (`.stop()`)."""
    from aiosmtpd.controller import Controller

    host, port = address
    limit = max(4 * app.config["MAX_INBOUND_BYTES"], 1024 * 1024)
    # STARTTLS offered (server/inbound/tls.py), never required.
    tls = server_context(app.config.get("INBOUND_TLS_CERT", ""),
                         app.config.get("INBOUND_TLS_KEY", ""),
                         hostname=ReplyBase.parse(app.config["REPLY_ADDRESS"]).domain)
    controller = Controller(IngestingHandler(app), hostname=host, port=port,
                            data_size_limit=limit, server_hostname="iridescia",
                            tls_context=tls, require_starttls=False)
    controller.start()
    app.extensions["iridescia_smtp_receiver"] = controller
    log.warning("receiving mail by SMTP on %s:%d (IRIDESCIA_INBOUND_SMTP)", host, port)
    return controller
