"""Email through an outage: the SMTP server (aiosmtpd on 127.0.0.1) is first down, then answers
451 for a while, while games go on and queue notifications; then it recovers and two schedulers
flush at once. Every notification arrives exactly once (by Message-ID). An address the server
refuses with 550 is parked, listed by ``iridescia-server outbox``, and delivered once after the
operator fixes the cause and runs ``iridescia-server outbox --retry-all``.

The schedulers are ``Ticker``s with a clock the test moves, so the backoff (30 s doubling to an
hour) passes in no time."""

from __future__ import annotations

import asyncio
import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from sqlmodel import select

from server import create_app
from server.mail import MailSettings
from server.mail.message import build_message
from server.scheduler.tick import Ticker
from server.storage.db import session_scope
from server.storage.models import Outbox, utcnow
from tests.reliability.helpers import Api
from tests.reliability.processes import free_port

QUIET = {"reminder_interval_hours": 720, "turn_deadline_hours": 2160}  # no reminders, no deadlines
GONE = "gone@example.org"


@dataclass
class Mailbox:
    """Accepts mail; answers ``refuse`` while it is set, and 550 for ``GONE`` until fixed."""

    received: list = field(default_factory=list)
    refuse: str | None = None
    gone_fixed: bool = False
    refused: Counter = field(default_factory=Counter)

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            self.refused[self.refuse[:3]] += 1
            return self.refuse
        if GONE in envelope.rcpt_tos and not self.gone_fixed:
            self.refused["550"] += 1
            return "550 5.1.1 <gone@example.org>: no such user"
        self.received.append(message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 OK"


class Clock:
    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self):
        return self.now


def _rows(db) -> list[Outbox]:
    with session_scope(db) as session:
        return list(session.exec(select(Outbox).order_by(Outbox.id)))


def _play(api: Api, games: dict, commands: int, rng: random.Random) -> None:
    for game_id, seats in games.items():
        api.play(game_id, seats, commands, rng)


def _outbox_cli(database_url: str, *args: str) -> str:
    """``iridescia-server outbox ARGS`` as an operator runs it (the same Click command)."""
    from server.cli import main

    result = CliRunner().invoke(main, ["outbox", *args],
                                env={"IRIDESCIA_DATABASE_URL": database_url})
    assert result.exit_code == 0, result.output
    return result.output


def test_every_notification_arrives_once_through_an_outage(database_url):
    port = free_port()  # nothing listens yet: the server is down
    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
                      "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none&timeout=5",
                      "MAIL_FROM": "Iridescia <games@iridescia.test>"})
    db = app.extensions["iridescia_db"]
    api, rng, clock = Api(app.test_client()), random.Random(5), Clock()
    tickers = [Ticker(app, clock, name=f"scheduler-{n}", rng=random.Random(n)) for n in (1, 2)]
    players = [api.register(name) for name in ("ada", "bob", "cyd")]
    gone = api.register("gone")
    assert gone.email == GONE
    games = {}
    for first, second in [(players[0], players[1]), (players[1], players[2]), (players[2], gone)]:
        game_id = api.new_game(first, [second], **QUIET)
        games[game_id] = api.seats(game_id, first, [first, second])

    # Down: connection refused, every message waits its backoff.
    _play(api, games, 6, rng)
    clock.now = utcnow()  # the notifications were queued at the real time
    down = tickers[0].tick()
    queued_while_down = len(_rows(db))
    assert down.sent == 0 and len(down.mail[0].retrying) == queued_while_down > 0

    # Up but answering 451 for a while; the games go on.
    mailbox = Mailbox(refuse="451 4.3.0 try again later")
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        for _ in range(3):
            _play(api, games, 3, rng)
            clock.now = utcnow() + timedelta(minutes=20 * (1 + _))
            assert tickers[0].tick().sent == 0
        assert mailbox.refused["451"] > 0 and mailbox.received == []

        # Recovered: two schedulers flush at the same moments until nothing is due.
        mailbox.refuse = None
        rounds = 0
        while rounds < 12 and any(row.status == "pending" for row in _rows(db)):
            clock.now += timedelta(hours=1)
            threads = [threading.Thread(target=ticker.tick) for ticker in tickers]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=120)
            rounds += 1
        rows = _rows(db)
        assert not [row.id for row in rows if row.status == "pending"], f"{rounds} rounds"

        settings = MailSettings.for_app(app.config)
        expected = Counter(build_message(row, settings)["Message-ID"] for row in rows
                           if row.status == "sent")
        received = Counter(message["Message-ID"] for message in mailbox.received)
        assert received == expected and set(received.values()) == {1}
        parked = [row for row in rows if row.status == "parked"]
        assert parked and {row.to_email for row in parked} == {GONE}
        assert all("550 5.1.1" in row.last_error for row in parked)

        # The operator sees the parked mail, fixes the cause, queues it again: delivered once.
        listing = _outbox_cli(database_url)
        for row in parked:
            assert f"{row.id}\tparked" in listing and GONE in listing and "550 5.1.1" in listing
        mailbox.gone_fixed = True
        _outbox_cli(database_url, "--retry-all")
        clock.now += timedelta(minutes=1)
        tickers[1].tick()
        rows = _rows(db)
        assert {row.status for row in rows} == {"sent"}
        received = Counter(message["Message-ID"] for message in mailbox.received)
        assert set(received.values()) == {1} and sum(received.values()) == len(rows)
    finally:
        controller.stop()
        asyncio.set_event_loop(None)
    print(f"email outage: {len(rows)} notifications ({queued_while_down} queued while down), "
          f"{mailbox.refused['451']} refused with 451, {len(parked)} parked on 550, recovery in "
          f"{rounds} rounds of 2 schedulers; each delivered exactly once")


@pytest.fixture(autouse=True)
def _no_real_smtp_env(monkeypatch):
    for name in ("IRIDESCIA_SMTP_URL", "IRIDESCIA_OUTBOX_DIR"):
        monkeypatch.delenv(name, raising=False)
