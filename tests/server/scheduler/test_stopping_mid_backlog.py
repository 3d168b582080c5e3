"""Issue 32, N5: SIGTERM did not stop the scheduler during a mail backlog: with 60 mails queued,
57 more went out after the signal and it exited 20 s later (Docker kills at 10 s, mid-send).
Asked to stop, the mail job now finishes the part in hand (at most MAIL_PART mails) and takes no
more; what is left waits for the next scheduler."""

import asyncio
import socket
import threading
import time
from datetime import UTC, datetime

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import select

from server import create_app
from server.scheduler import Scheduler
from server.scheduler.tick import MAIL_PART, Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox, User

QUEUED = 40
SECONDS_PER_MAIL = 0.15


class SlowSink:
    """An SMTP server taking each message in SECONDS_PER_MAIL."""

    def __init__(self):
        self.received = 0

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(SECONDS_PER_MAIL)
        self.received += 1
        return "250 OK"


@pytest.fixture
def slow_smtp():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = SlowSink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()
    asyncio.set_event_loop(None)


def test_asked_to_stop_the_mail_job_finishes_its_part_and_takes_no_more(db_url, slow_smtp,
                                                                         tmp_path):
    sink, port = slow_smtp
    app = create_app({"DATABASE_URL": db_url, "TESTING": True, "BASE_URL": "https://i.test",
                      "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none"})
    now = datetime.now(UTC)
    with session_scope(app_engine(app)) as session:
        user = User(name="Ada", email="ada@example.org", token_hash="a" * 64, created_at=now,
                    verified_at=now)
        session.add(user)
        session.flush()
        for n in range(QUEUED):
            session.add(Outbox(dedupe_key=f"backlog:{n}", user_id=user.id, to_email=user.email,
                               kind="notice", subject=f"notice {n}", text_body="words",
                               status="pending", next_attempt_at=now, created_at=now))
        session.commit()
    ticker = Ticker(app)
    scheduler = Scheduler("test", [], ticker.stopping)
    delivering = threading.Thread(target=ticker.deliver)
    delivering.start()
    deadline = time.monotonic() + 30
    while sink.received < 2:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    asked = time.monotonic()
    scheduler.shutdown()  # what SIGTERM does (run_standalone)
    delivering.join(timeout=30)
    took = time.monotonic() - asked
    with session_scope(app_engine(app)) as session:
        sent = session.exec(select(Outbox).where(Outbox.status == "sent")).all()
    assert not delivering.is_alive()
    assert len(sent) <= 2 + MAIL_PART and sink.received == len(sent)
    assert took < 3, f"it stopped {took:.1f} s after it was asked"
    print(f"\nN5: {len(sent)} of {QUEUED} mails sent, stopped {took:.1f} s after it was asked")
