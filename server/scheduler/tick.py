"""One tick: everything due, done once. The scheduler runs it every few seconds.

1. flush the outbox; 2. play due automatic turns (the Rhom, removals, deadlines, absent seats);
3. send due reminders and deadline warnings; 4. flush what those queued; 5. record the tick in
`scheduler_ticks` (the health endpoint reads it). Each step claims its work row by row, so a
second scheduler, or a tick repeated after a crash, finds nothing left to do twice.
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

    def _flush(self, now) -> FlushReport:
        return flush_outbox(
            self.db, transport_for(self.mail_settings), self.mail_settings, now, self.rng
        )

    def tick(self) -> TickReport:
        now = self.clock()
        report = TickReport()
        with self.app.app_context():
            report.mail.append(self._guarded("flush the outbox", self._flush, now, FlushReport()))
            report.automatic = self._guarded(
                "play automatic turns", play_due_turns, self.db, now, []
            )
            report.nudges = self._guarded("send reminders", send_due_nudges, self.db, now, [])
            if report.automatic or report.nudges:
                report.mail.append(
                    self._guarded("flush the outbox", self._flush, now, FlushReport())
                )
            self._guarded("record the tick", self._record, now, None)
        if report.automatic or report.nudges or report.sent:
            log.info(
                "tick %s: %d automatic turn(s), %d reminder(s)/warning(s), %d mail(s) sent",
                now.isoformat(timespec="seconds"),
                len(report.automatic),
                len(report.nudges),
                report.sent,
            )
        return report

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
