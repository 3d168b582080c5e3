"""Outbox leases (issue 16, finding 5): a delivery run slower than its lease never lets a second
scheduler send the same mail again, and a scheduler killed mid-send strands only a small batch.

The transport is slow on the test's clock: each send moves it on by a minute, so one delivery run
of 30 mails lasts half an hour, three times the old ten-minute lease."""

import textwrap
import threading
import time
from datetime import timedelta

from sqlmodel import select

from server.mail import MailSettings
from server.mail.outbox import CLAIM_BATCH, flush_outbox
from server.storage.db import session_scope
from server.storage.models import Outbox
from tests.accounts import add_confirmed_user
from tests.server.scheduler.helpers import kill_when_marked

MAILS = 30
LOCK = threading.Lock()


class SlowTransport:
    """Sends by recording the message's key; each send takes a minute of the test's clock (and
    a few real milliseconds, so that two schedulers interleave). When `meanwhile` is set, it is
    called once at the `at`-th send: it starts another scheduler."""

    def __init__(self, name, sent, clock, meanwhile=None, at=None):
        self.name, self.sent, self.clock = name, sent, clock
        self.meanwhile, self.at, self.count = meanwhile, at, 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def send(self, message):
        self.count += 1
        if self.meanwhile is not None and self.count == self.at:
            self.meanwhile()
        time.sleep(0.005)
        with LOCK:
            self.clock.advance(minutes=1)
            self.sent.append((self.name, message["X-Iridescia-Key"]))


def _queue(engine, clock, count):
    with session_scope(engine) as session:
        for n in range(count):
            add_confirmed_user(session, f"p{n}@example.org")
            session.add(Outbox(dedupe_key=f"k{n:02}", to_email=f"p{n}@example.org",
                               kind="your_turn", subject=f"Turn {n}", text_body="hello",
                               created_at=clock(), next_attempt_at=clock()))


def _statuses(engine):
    with session_scope(engine) as session:
        return [row.status for row in session.exec(select(Outbox).order_by(Outbox.id))]


def test_a_second_scheduler_during_a_long_run_sends_no_mail_twice(db_engine, clock):
    """Scheduler A starts a run of 30 one-minute sends; twelve minutes in (past the lease A's
    first claims had under the old code), scheduler B starts a delivery of its own beside it
    (a thread), with the same slow transport. Then a third run picks up anything left. Every
    mail is sent exactly once."""
    _queue(db_engine, clock, MAILS)
    sent, settings = [], MailSettings()
    second = threading.Thread(target=flush_outbox, args=(
        db_engine, SlowTransport("B", sent, clock), settings, clock))

    flush_outbox(db_engine, SlowTransport("A", sent, clock, second.start, at=12), settings,
                 clock)
    second.join(timeout=120)
    flush_outbox(db_engine, SlowTransport("C", sent, clock), settings, clock)

    keys = [key for _, key in sent]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    by = {name: sum(1 for who, _ in sent if who == name) for name in "ABC"}
    print(f"outbox leases: {MAILS} mails at 1 min each, second scheduler 12 min in: "
          f"sent by A/B/C {by['A']}/{by['B']}/{by['C']}, {len(duplicates)} duplicate(s)")
    assert duplicates == []
    assert sorted(keys) == [f"k{n:02}" for n in range(MAILS)]
    assert by["A"] and by["B"], "both schedulers sent mail"
    assert _statuses(db_engine) == ["sent"] * MAILS


def test_a_lease_taken_late_in_a_run_is_counted_from_the_clock(db_engine, clock):
    """The lease of a batch claimed 20 minutes into a run ends a lease after that claim, not
    after the run began."""
    _queue(db_engine, clock, CLAIM_BATCH * 5)
    start = clock()
    leases = []

    class Watching(SlowTransport):
        def send(self, message):
            with session_scope(db_engine) as session:
                row = session.exec(select(Outbox).where(
                    Outbox.dedupe_key == message["X-Iridescia-Key"])).one()
                leases.append(row.next_attempt_at - clock())
            super().send(message)

    flush_outbox(db_engine, Watching("A", [], clock), MailSettings(), clock)
    assert clock() - start == timedelta(minutes=CLAIM_BATCH * 5)
    # While each mail is being sent, its lease has (nearly) its whole length ahead of it.
    assert min(leases) > timedelta(minutes=2), leases


SCHEDULER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from server.storage.db import get_engine
    from server.mail import MailSettings
    from server.mail.outbox import flush_outbox
    from server.storage.models import utcnow

    marker = Path(sys.argv[2])

    class Hanging:
        def __enter__(self): return self
        def __exit__(self, *exc): pass
        def send(self, message):
            marker.write_text(message["X-Iridescia-Key"])
            time.sleep(600)  # a relay that never answers: the scheduler is killed meanwhile

    flush_outbox(get_engine(sys.argv[1]), Hanging(), MailSettings(), utcnow)
""")


def test_a_killed_scheduler_strands_at_most_a_small_batch(db_url, db_engine, tmp_path):
    """A real scheduler process is SIGKILLed in the middle of its first send: the mails it had
    leased but not started are few, and every other mail is due at once."""
    from server.storage.models import utcnow
    from tests.server.scheduler.helpers import Clock

    clock = Clock(utcnow() - timedelta(seconds=1))
    _queue(db_engine, clock, MAILS)
    marker = tmp_path / "sending"
    kill_when_marked(SCHEDULER, [db_url, str(marker)], marker, "started sending")
    now = utcnow()
    with session_scope(db_engine) as session:
        rows = list(session.exec(select(Outbox)))
    stranded = [row.dedupe_key for row in rows if row.next_attempt_at > now]
    print(f"outbox leases: scheduler killed mid-send: {len(stranded)} of {MAILS} mails wait "
          f"for their lease, {MAILS - len(stranded)} are due at once")
    assert marker.read_text() in stranded
    assert 1 <= len(stranded) <= CLAIM_BATCH <= 5
