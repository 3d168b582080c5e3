"""Delivering the outbox over a real SMTP server (aiosmtpd) and to .eml files."""

import hashlib
import logging
import random

from sqlmodel import select

from server.mail import EmlTransport, MailSettings, SmtpSettings, SmtpTransport
from server.mail.outbox import flush_outbox, list_messages, retry_parked
from server.storage.db import session_scope
from server.storage.models import Outbox
from tests.accounts import add_confirmed_user


def _queue(engine, clock, count=1, to="ada@example.org"):
    with session_scope(engine) as session:
        add_confirmed_user(session, to)
        for number in range(count):
            session.add(
                Outbox(
                    dedupe_key=f"test/{number}/{to}",
                    to_email=to,
                    kind="your_turn",
                    subject=f"Your turn {number}",
                    text_body=f"Play with: iridescia legal g{number}\n",
                    html_body=f"<p>Play with <code>iridescia legal g{number}</code></p>",
                    created_at=clock(),
                    next_attempt_at=clock(),
                )
            )


def _settings(port):
    return MailSettings(
        smtp=SmtpSettings(host="127.0.0.1", port=port, security="none"),
        from_address="Iridescia <games@iridescia.test>",
        base_url="https://iridescia.test",
    )


def _statuses(engine):
    with session_scope(engine) as session:
        return [row.status for row in session.exec(select(Outbox).order_by(Outbox.id))]


def test_smtp_delivers_text_and_html_with_unsubscribe_header(db_engine, smtp_server, clock):
    handler, port = smtp_server
    _queue(db_engine, clock)
    settings = _settings(port)
    report = flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock())

    assert len(report.sent) == 1
    [received] = handler.received
    assert received.recipients == ["ada@example.org"]
    assert received.sender == "games@iridescia.test"
    message = received.message
    assert message["Subject"] == "Your turn 0"
    assert message["List-Unsubscribe"] == "<mailto:games@iridescia.test?subject=unsubscribe>"
    assert "iridescia legal g0" in message.get_body(("plain",)).get_content()
    assert "<code>iridescia legal g0</code>" in message.get_body(("html",)).get_content()
    assert _statuses(db_engine) == ["sent"]


def test_smtp_outage_then_recovery_delivers_every_message_once(db_engine, smtp_server, clock):
    handler, port = smtp_server
    settings = _settings(port)
    _queue(db_engine, clock, count=3)
    handler.refuse = "451 4.3.0 Mailbox temporarily unavailable"

    report = flush_outbox(
        db_engine, SmtpTransport(settings.smtp), settings, clock(), random.Random(1)
    )
    assert len(report.retrying) == 3 and handler.received == []
    # Nothing is due again until the backoff has passed.
    assert flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock()).retrying == []
    with session_scope(db_engine) as session:
        rows = list(session.exec(select(Outbox)))
        assert all(row.status == "pending" and row.attempts == 1 for row in rows)
        assert all("451" in row.last_error for row in rows)

    handler.refuse = None
    clock.advance(minutes=1)
    report = flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock())
    assert len(report.sent) == 3
    clock.advance(hours=2)
    flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock())

    subjects = sorted(r.message["Subject"] for r in handler.received)
    assert subjects == ["Your turn 0", "Your turn 1", "Your turn 2"]
    assert _statuses(db_engine) == ["sent"] * 3


def test_unreachable_server_is_a_temporary_failure(db_engine, clock):
    _queue(db_engine, clock)
    settings = _settings(port=1)  # nothing listens on port 1
    report = flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock())
    assert len(report.retrying) == 1
    assert _statuses(db_engine) == ["pending"]


def test_permanent_failure_is_parked_listed_and_can_be_retried(db_engine, smtp_server, clock):
    handler, port = smtp_server
    settings = _settings(port)
    _queue(db_engine, clock, count=2)
    handler.refuse = "550 5.1.1 No such user"

    report = flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock())
    assert len(report.parked) == 2
    clock.advance(days=3)
    assert flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock()).parked == []
    with session_scope(db_engine) as session:
        parked = list_messages(session, "parked")
        assert [row.subject for row in parked] == ["Your turn 0", "Your turn 1"]
        assert "550 5.1.1 No such user" in parked[0].last_error
        first_id = parked[0].id

    handler.refuse = None
    with session_scope(db_engine) as session:
        retry_parked(session, clock(), ids=[first_id])
    flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock())
    assert [r.message["Subject"] for r in handler.received] == ["Your turn 0"]
    assert _statuses(db_engine) == ["sent", "parked"]


def test_without_smtp_mail_is_written_as_eml_files(db_engine, clock, tmp_path, caplog):
    outbox_dir = tmp_path / "mail"
    settings = MailSettings(outbox_dir=outbox_dir)
    _queue(db_engine, clock, count=2)
    with caplog.at_level(logging.INFO, logger="server.mail"):
        report = flush_outbox(db_engine, EmlTransport(outbox_dir), settings, clock())

    assert len(report.sent) == 2
    files = sorted(outbox_dir.glob("*.eml"))
    digests = [hashlib.sha256(f"test/{n}/ada@example.org".encode()).hexdigest()[:16]
               for n in (0, 1)]
    assert [f.name for f in files] == [f"test_{n}_ada_example.org_{digests[n]}.eml"
                                       for n in (0, 1)]
    assert "Subject: Your turn 0" in files[0].read_text()
    assert "IRIDESCIA_SMTP_URL is not set" in caplog.text
    assert str(outbox_dir) in caplog.text


def test_a_batch_of_mail_is_sent_in_order_and_a_message_that_cannot_be_built_is_parked(
    db_engine, smtp_server, clock
):
    from unittest import mock

    from server.mail import sending

    handler, port = smtp_server
    _queue(db_engine, clock, count=45)  # more than one claim batch (CLAIM_BATCH)
    settings = _settings(port)
    real = sending.wire_message

    def build(row, settings, thread_root=None, headers=None):
        if row.subject == "Your turn 7":
            raise ValueError("cannot build this one")
        return real(row, settings, thread_root, headers)

    with mock.patch.object(sending, "wire_message", build):
        report = flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, clock(), limit=44)

    assert len(report.sent) == 43 and len(report.parked) == 1
    assert [r.message["Subject"] for r in handler.received] == [
        f"Your turn {n}" for n in range(44) if n != 7
    ]
    statuses = _statuses(db_engine)
    assert statuses[7] == "parked" and statuses[44] == "pending"
    with session_scope(db_engine) as session:
        [parked] = list_messages(session)
        assert parked.subject == "Your turn 7" and "cannot build this one" in parked.last_error
        assert session.exec(select(Outbox).order_by(Outbox.id.desc())).first().attempts == 0
