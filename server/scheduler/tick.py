"""One tick: the due game work; mail delivery is a step of its own.

`Ticker.due_work()` (the scheduler's `tick` job): automatic turns (the Rhom, removals, deadlines,
absent seats), then reminders and deadline warnings; then it records the tick in
`scheduler_ticks` (the health endpoint reads it). It sends no mail: what it queues is sent by

`Ticker.deliver()` (the scheduler's `mail` job): renders and sends the outbox until nothing is due.

The two jobs run side by side, so a slow SMTP server or a long mail queue never delays a turn,
and a long due-work tick never delays the mail. `Ticker.tick()` does both, one after the other
(`iridescia-server scheduler --once`, tests). Each step claims its work row by row, so a second
scheduler, or a tick repeated after a crash, finds nothing left to do twice.
"""

import logging
import os
import random
import socket
from dataclasses import dataclass, field

from server.db import app_engine, session_scope
from server.mail import MailSettings, transport_for
from server.mail.outbox import FlushReport, flush_outbox
from server.models import SchedulerTick
from server.scheduler.automatic import AutomaticTurn, play_due_turns
from server.scheduler.clock import Clock, system_clock
from server.scheduler.nudges import Nudge, send_due_nudges

log = logging.getLogger(__name__)
# Messages one delivery sends at most; it stops when nothing is due long before this.
DELIVERY_LIMIT = 1_000_000


@dataclass
class TickReport:
    mail: list[FlushReport] = field(default_factory=list)
    automatic: list[AutomaticTurn] = field(default_factory=list)
    nudges: list[Nudge] = field(default_factory=list)

    @property
    def sent(self) -> int:
        return sum(len(r.sent) for r in self.mail)


def default_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:40]


class Ticker:
    """Runs ticks for one Flask app (its database and settings) with a given clock."""

    def __init__(self, app, clock: Clock = system_clock, name: str | None = None, rng=None):
        self.app = app
        self.clock = clock
        self.name = name or default_name()
        self.rng = rng or random.Random()
        self.mail_settings = MailSettings.for_app(app.config)

    @property
    def db(self):
        return app_engine(self.app)

    def tick(self) -> TickReport:
        """The due work, then the delivery of all mail due (what the due work queued too)."""
        report = self.due_work()
        report.mail.append(self.deliver())
        return report

    def due_work(self) -> TickReport:
        """Automatic turns and reminders due now; then the tick's record. Sends no mail."""
        now = self.clock()
        report = TickReport()
        with self.app.app_context():
            report.automatic = self._guarded(
                "play automatic turns", play_due_turns, self.db, now, []
            )
            report.nudges = self._guarded("send reminders", send_due_nudges, self.db, now, [])
            self._guarded("record the tick", self._record, now, None)
        if report.automatic or report.nudges:
            log.info(
                "tick %s: %d automatic turn(s), %d reminder(s)/warning(s)",
                now.isoformat(timespec="seconds"),
                len(report.automatic),
                len(report.nudges),
            )
        return report

    def deliver(self) -> FlushReport:
        """Render and send the mail due now until none is left (each message at most once)."""
        now = self.clock()
        with self.app.app_context():
            report = self._guarded("flush the outbox", self._flush, now, FlushReport())
        if report.sent or report.parked:
            log.info("delivery %s: %d mail(s) sent, %d parked",
                     now.isoformat(timespec="seconds"), len(report.sent), len(report.parked))
        return report

    def _flush(self, now) -> FlushReport:
        return flush_outbox(
            self.db,
            transport_for(self.mail_settings),
            self.mail_settings,
            now,
            self.rng,
            limit=DELIVERY_LIMIT,
        )

    def _guarded(self, what, step, *args):
        *args, fallback = args
        try:
            return step(*args)
        except Exception:
            # One failing step (the database blinked, SMTP is down) must not stop the others
            # or the scheduler; the next tick tries again.
            log.exception("scheduler could not %s", what)
            return fallback

    def _record(self, now) -> None:
        with session_scope(self.db) as session:
            row = session.get(SchedulerTick, self.name)
            if row is None:
                row = SchedulerTick(name=self.name, last_tick_at=now)
            row.last_tick_at = now
            session.add(row)
