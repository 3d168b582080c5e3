"""Delivery sends one mail's lines while it writes the previous one's outcome (issue 17), and still
delivers a mail only after that outcome is written: a crash resends at most the one mail it
interrupted, a mail whose lease was lost meanwhile is dropped undelivered, and a notice is
rendered just before it is sent, not with the rest of its batch."""

import textwrap
from datetime import timedelta
from unittest import mock

from sqlalchemy import update
from sqlmodel import select

from server.mail import EmlTransport, MailSettings, SmtpTransport
from server.mail import sending as sending_module
from server.mail.outbox import CLAIM_BATCH, flush_outbox
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox, utcnow
from tests.server.mail.test_mail_delivery import _queue, _settings
from tests.server.scheduler.helpers import kill_when_marked

MAILS = 2 * CLAIM_BATCH + 2


def _key(message) -> str:
    return message["X-Iridescia-Key"]


def _rows(engine) -> dict[str, Outbox]:
    with session_scope(engine) as session:
        return {row.dedupe_key: row for row in session.exec(select(Outbox).order_by(Outbox.id))}


def test_each_mail_is_delivered_only_after_the_one_before_it_is_marked_sent(
    db_engine, smtp_server, clock
):
    handler, port = smtp_server
    _queue(db_engine, clock, count=MAILS)
    settings = _settings(port)
    seen = []

    class Checking(SmtpTransport):
        def end(self, message):
            # Just before this mail's final line: every mail the server has is marked sent.
            rows = _rows(db_engine)
            seen.append([rows[_key(m.message)].status for m in handler.received])
            super().end(message)

    report = flush_outbox(db_engine, Checking(settings.smtp), settings, clock, limit=MAILS)

    assert len(report.sent) == MAILS
    assert [len(statuses) for statuses in seen] == list(range(MAILS))
    assert all(status == "sent" for statuses in seen for status in statuses), seen
    assert [_key(m.message) for m in handler.received] == [
        f"test/{n}/ada@example.org" for n in range(MAILS)]
    assert {row.status for row in _rows(db_engine).values()} == {"sent"}


def test_a_mail_whose_lease_is_taken_over_while_its_lines_are_sent_is_not_delivered(
    db_engine, smtp_server, clock
):
    """Another scheduler claims mail 4 (its lease had run out) just as mail 3 is delivered: mail
    4's lines are already on their way, but its final line is never sent; the server drops it
    and the rest go out on a new connection."""
    handler, port = smtp_server
    _queue(db_engine, clock, count=8)
    settings = _settings(port)
    taken = "test/4/ada@example.org"

    class Overtaken(SmtpTransport):
        def end(self, message):
            super().end(message)
            if _key(message) == "test/3/ada@example.org":
                with session_scope(db_engine) as session:
                    session.connection().execute(update(Outbox).where(
                        Outbox.dedupe_key == taken).values(attempts=Outbox.attempts + 1))

    report = flush_outbox(db_engine, Overtaken(settings.smtp), settings, clock, limit=8)

    rows = _rows(db_engine)
    assert report.skipped == [rows[taken].id] and len(report.sent) == 7
    assert [_key(m.message) for m in handler.received] == [
        f"test/{n}/ada@example.org" for n in range(8) if n != 4]
    assert rows[taken].status == "pending"  # the other scheduler's to send


SCHEDULER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from server.storage.db import get_engine
    from server.mail import MailSettings, SmtpSettings, SmtpTransport
    from server.mail.outbox import flush_outbox
    from server.storage.models import utcnow

    url, port, marker = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])

    class CrashingAfterTheThird(SmtpTransport):
        def end(self, message):
            super().end(message)  # delivered: the server has it
            if message["X-Iridescia-Key"] == "test/2/ada@example.org":
                marker.write_text("delivered")
                time.sleep(600)  # killed here, before its outcome is written

    settings = MailSettings(smtp=SmtpSettings(host="127.0.0.1", port=port, security="none"),
                            from_address="games@iridescia.test")
    flush_outbox(get_engine(url), CrashingAfterTheThird(settings.smtp), settings, utcnow)
""")


def test_a_crash_between_delivering_a_mail_and_marking_it_resends_that_mail_only(
    db_url, db_engine, smtp_server, tmp_path
):
    """A scheduler process is SIGKILLed after the server took mail 2 and before mail 2 was
    marked sent. Mails 0 and 1 are marked sent; once the lease has run out, the next delivery
    sends mail 2 again (with the same Message-ID) and the rest once: none lost, one twice."""
    from tests.server.scheduler.helpers import Clock

    handler, port = smtp_server
    clock = Clock(utcnow() - timedelta(seconds=1))
    _queue(db_engine, clock, count=MAILS)
    marker = tmp_path / "delivered"
    kill_when_marked(SCHEDULER, [db_url, str(port), str(marker)], marker,
                     "delivered the third mail")

    keys = [f"test/{n}/ada@example.org" for n in range(MAILS)]
    assert [_key(m.message) for m in handler.received] == keys[:3]
    rows = _rows(db_engine)
    assert [rows[key].status for key in keys[:3]] == ["sent", "sent", "pending"]

    later = Clock(utcnow() + timedelta(minutes=6))  # past the dead scheduler's leases
    settings = _settings(port)
    report = flush_outbox(db_engine, SmtpTransport(settings.smtp), settings, later, limit=MAILS)

    assert len(report.sent) == MAILS - 2
    received = [_key(m.message) for m in handler.received]
    assert sorted(received) == sorted(keys + [keys[2]])
    twice = [m.message["Message-ID"] for m in handler.received if _key(m.message) == keys[2]]
    assert len(twice) == 2 and twice[0] == twice[1]
    assert {row.status for row in _rows(db_engine).values()} == {"sent"}


def test_a_notice_is_rendered_just_before_it_is_sent_not_with_its_batch(app, table, tmp_path):
    """A game's start queues a notice for each player, unrendered, claimed in one batch: the
    first goes out before the second is rendered (its board picture is the costly part)."""
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    table.new_game(ada, [bob, cy], rhom=False)
    steps = []
    real_words = sending_module.words

    def words(session, rows):
        steps.append(("render", [row.id for row in rows]))
        return real_words(session, rows)

    class Recording(EmlTransport):
        def send(self, message):
            steps.append(("send", _key(message)))
            super().send(message)

    with app.app_context(), mock.patch.object(sending_module, "words", words):
        report = flush_outbox(app_engine(app), Recording(tmp_path / "sent"),
                              MailSettings(outbox_dir=tmp_path / "sent"), utcnow())

    assert len(report.sent) == 3
    assert [kind for kind, _ in steps] == ["render", "send"] * 3
    assert all(len(ids) == 1 for kind, ids in steps if kind == "render")


def test_the_mail_job_sends_all_its_parts_over_one_smtp_session(db_url, db_engine, smtp_server,
                                                                 clock):
    """The scheduler's mail job delivers a few messages at a time (so that due turns go first)
    but over one connection: EHLO, STARTTLS and AUTH once, not once every few mails."""
    from server import create_app
    from server.scheduler.tick import MAIL_PART, Ticker

    handler, port = smtp_server
    mails = 3 * MAIL_PART + 1
    _queue(db_engine, clock, count=mails)
    app = create_app({"DATABASE_URL": db_url, "TESTING": True,
                      "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none"})
    report = Ticker(app, clock).deliver()

    assert len(report.sent) == mails
    assert sorted(_key(m.message) for m in handler.received) == sorted(
        f"test/{n}/ada@example.org" for n in range(mails))
    assert len({m.peer for m in handler.received}) == 1, {m.peer for m in handler.received}
