"""Bounces through every way in (issue 26): a DSN (RFC 3464) and a plain failure notice to the
VERP address arrive by IMAP polling of a real IMAP server and by `iridescia-server mail ingest`
(an MTA's pipe, with the null envelope sender Postfix gives a bounce), as they do over SMTP
(test_bounces.py); each marks the address as bouncing and is never answered."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from click.testing import CliRunner

from tests.server.inbound.conftest import imap_mailbox
from tests.server.inbound.test_bounces import _bounces, _status, dsn
from tests.server.inbound.test_ways_in import environment


def failure_notice(failed: str, to: str) -> bytes:
    """A bounce without a DSN, as qmail writes one: only the VERP address it came back to
    tells whose mail failed."""
    message = EmailMessage()
    message["From"] = "MAILER-DAEMON@mx.example.org"
    message["To"] = to
    message["Subject"] = "failure notice"
    message["Message-ID"] = make_msgid(domain="mx.example.org")
    message.set_content(
        "Hi. This is the qmail-send program at mx.example.org.\nI'm afraid I wasn't able to "
        "deliver your message to the following addresses.\nThis is a permanent error; I've "
        f"given up. Sorry it didn't work out.\n\n<{failed}>:\nSorry, no mailbox here by that "
        "name. (#5.1.1)\n")
    return message.as_bytes()


def _by_imap(request, app, raw: bytes, verp: str) -> None:
    from server.inbound.imap import ImapSettings, poll

    port = request.getfixturevalue("imap_server")
    mailbox = imap_mailbox(port)
    mailbox.append("INBOX", None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    mailbox.logout()
    polled = poll(app, ImapSettings.from_url(f"imap://play:secret@127.0.0.1:{port}/INBOX"))
    assert polled == {"bounce": 1}, polled


def _by_pipe(request, app, raw: bytes, verp: str) -> None:
    from server.cli import main

    settings = request.getfixturevalue("settings")
    result = CliRunner().invoke(main, ["mail", "ingest", "--recipient", verp,
                                       "--sender", "MAILER-DAEMON"],
                                input=raw, env=environment(settings))
    assert result.exit_code == 0, result.output
    assert "bounce" in result.output, result.output


@pytest.mark.parametrize("kind", ["dsn", "failure_notice"])
@pytest.mark.parametrize("way_in", ["imap", "pipe"])
def test_a_bounce_by_imap_or_the_pipe_marks_the_address_bouncing(
        way_in, kind, request, duel, post, table, app, receiver, sink):
    handler = sink[0]
    verp = next(r.sender for r in handler.received if duel.player.email in r.recipients)
    assert verp.startswith(f"play+bounce-u{duel.player.id}-")
    raw = dsn(duel.player.email, to=verp) if kind == "dsn" else \
        failure_notice(duel.player.email, verp)
    sent_before = post.count()

    (_by_imap if way_in == "imap" else _by_pipe)(request, app, raw, verp)

    post.deliver()
    assert post.count() == sent_before  # never answered
    assert _bounces(app, duel.player.id) == [True]  # one hard bounce, recorded
    assert _status(table, duel.player) == "bouncing"
    assert _status(table, duel.other) == "ok"
