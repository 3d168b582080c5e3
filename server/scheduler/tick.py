"""One tick: the due game work, within a time budget; mail delivery is a step of its own.

`Ticker.due_work()` (the scheduler's `tick` job): reminders and deadline warnings (in bulk), the
daily digests (server/scheduler/digests.py) and automatic turns (the Rhom, removals, deadlines, absent seats), batch by batch, each step in turn,
until nothing is due or the budget (`SCHEDULER_BUDGET_SECONDS`, default 1 s) is spent; what is
left stays due (the due times are on the games) and the next tick goes on with it. Then it records
the tick in `scheduler_ticks` (the health endpoint reads it). It sends no mail: what it queues is
sent by

`Ticker.deliver()` (the scheduler's `mail` job): renders and sends the outbox until nothing is due;
`Ticker.deliver_webhooks()` (its `webhooks` job) does the same for the webhook deliveries.

The two jobs run side by side, so a slow SMTP server or a long mail queue never delays a turn,
and a long due-work tick never delays the mail. `Ticker.tick()` does both, one after the other
(`iridescia-server scheduler --once`, tests). Each step claims its work row by row, so a second
scheduler, or a tick repeated after a crash, finds nothing left to do twice.
"""

import logging
import os
import random
import socket
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import func, select

from server.db import app_engine, read_only, session_scope
from server.mail import MailSettings, transport_for
from server.mail.outbox import FlushReport, flush_outbox
from server.models import Game, SchedulerTick, User
from server.scheduler.automatic import AutomaticTurn, play_batch
from server.scheduler.bot_turns import plan_bot_turns
from server.scheduler.budget import Budget
from server.scheduler.clock import Clock, system_clock
from server.scheduler.digests import digest_batch
from server.scheduler.nudges import Nudge, nudge_batch
from server.webhooks.delivery import DeliveryReport, deliver_webhooks

log = logging.getLogger(__name__)
# After a tick that ran out of its budget: a second of work, then this long before the next.
# A backlog of due turns (1,000 after a restart or an outage) is cleared within about two
# seconds of falling due (bench/turns); the players are not kept waiting meanwhile: each batch is
# its own short transaction (on SQLite a command waits for one batch at most, tens of ms), and
# the pause leaves them the machine between ticks. (It was 5 s, the pace the default interval
# gave a backlog when a turn cost 4-5 ms: 1,000 due turns took 16-27 s.)
BACKLOG_PAUSE_SECONDS = 0.2
# Messages one delivery sends at most; it stops when nothing is due long before this.
DELIVERY_LIMIT = 1_000_000


@dataclass
class TickReport:
    mail: list[FlushReport] = field(default_factory=list)
    webhooks: list[DeliveryReport] = field(default_factory=list)
    automatic: list[AutomaticTurn] = field(default_factory=list)
    nudges: list[Nudge] = field(default_factory=list)
    digests: list[int] = field(default_factory=list)  # the users mailed their daily digest
    out_of_time: bool = False  # the budget ran out before every step found nothing more due

    @property
    def sent(self) -> int:
        return sum(len(r.sent) for r in self.mail)


def default_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"[:40]


def budget_seconds(app) -> float:
    seconds = float(app.config.get("SCHEDULER_BUDGET_SECONDS", 1.0))
    if seconds <= 0:
        raise ValueError(f"IRIDESCIA_SCHEDULER_BUDGET_SECONDS must be above 0, got {seconds!r}")
    return seconds


class Ticker:
    """Runs ticks for one Flask app (its database and settings) with a given clock (the time
    the work is due by) and timer (what measures the budget; tests pass their own)."""

    def __init__(
        self, app, clock: Clock = system_clock, name: str | None = None, rng=None,
        timer=time.monotonic,
    ):
        self.app = app
        self.clock = clock
        self.name = name or default_name()
        self.rng = rng or random.Random()
        self.timer = timer
        self.budget_seconds = budget_seconds(app)
        self._ticks = 0  # which step goes first: they take turns from tick to tick too
        self.mail_settings = MailSettings.for_app(app.config)

    @property
    def db(self):
        return app_engine(self.app)

    def tick(self) -> TickReport:
        """The due work, then the delivery of all mail due (what the due work queued too)."""
        report = self.due_work()
        report.mail.append(self.deliver())
        report.webhooks.append(self.deliver_webhooks())
        return report

    def due_work(self) -> TickReport:
        """Reminders and automatic turns due now, until none is left or the budget is spent;
        then the tick's record. Sends no mail."""
        now = self.clock()
        report = TickReport()
        budget = Budget(self.budget_seconds, self.timer)
        given_up: set[str] = set()  # games whose automatic turn failed in this tick
        plans: dict = {}  # bot turns thought out before their games are locked
        steps = {
            "send reminders": lambda: _add(report.nudges, nudge_batch(self.db, now)),
            "play automatic turns": lambda: _add(
                report.automatic, play_batch(self.db, now, budget, given_up, plans)
            ),
            "send daily digests": lambda: _add(report.digests, digest_batch(self.db, now)),
        }
        if self._ticks % 2:
            steps = dict(reversed(steps.items()))
        self._ticks += 1
        with self.app.app_context():
            # Thinking has a budget of its own (the first bot turn is always thought out), and
            # the game work's budget starts after it: a long thought never starves the turns.
            plans.update(self._guarded("plan bot turns", plan_bot_turns, self.db, now,
                                       Budget(self.budget_seconds, self.timer), {}))
            budget.restart()
            # One batch of each step in turn (and the other first in the next tick): neither
            # can spend the budget while the other waits. The budget is asked before each
            # batch (and by play_batch before each game).
            while steps and not report.out_of_time:
                for what, step in list(steps.items()):
                    if not budget.left():
                        report.out_of_time = True
                        break
                    if not self._guarded(what, step, False):
                        del steps[what]  # nothing (more) due, or it failed: the next tick
            self._guarded("record the tick", self._record, now, None)
        if report.automatic or report.nudges or report.out_of_time:
            log.info(
                "tick %s: %d automatic turn(s), %d reminder(s)/warning(s)%s",
                now.isoformat(timespec="seconds"),
                len(report.automatic),
                len(report.nudges),
                "; out of time, the rest waits for the next tick" if report.out_of_time else "",
            )
        return report

    def next_due_in(self, report: TickReport | None) -> float | None:
        """Seconds until the earliest automatic turn or reminder due (None: none is known). A tick
        that ran out of its budget left work due: the next one comes `BACKLOG_PAUSE_SECONDS`
        later (or at the interval, if shorter), leaving players the machine meanwhile."""
        if report is None:
            return None
        if report.out_of_time:
            return BACKLOG_PAUSE_SECONDS
        with session_scope(read_only(self.db)) as session:
            times = session.execute(
                select(func.min(Game.automatic_due_at), func.min(Game.next_reminder_at))
                .where(Game.status == "active")
            ).one()
            digest = session.execute(select(func.min(User.next_digest_at))).scalar()
        due = [_aware(t) for t in (*times, digest) if t is not None]
        return (min(due) - self.clock()).total_seconds() if due else None

    def deliver(self) -> FlushReport:
        """Render and send the mail due now until none is left (each message at most once)."""
        now = self.clock()
        with self.app.app_context():
            report = self._guarded("flush the outbox", self._flush, now, FlushReport())
        if report.sent or report.parked:
            log.info("delivery %s: %d mail(s) sent, %d parked",
                     now.isoformat(timespec="seconds"), len(report.sent), len(report.parked))
        return report

    def deliver_webhooks(self) -> DeliveryReport:
        """POST the webhook deliveries due now until none is left (server/webhooks/delivery)."""
        config = self.app.config
        with self.app.app_context():  # the payload's links name the server's BASE_URL
            report = self._guarded(
                "deliver webhooks", deliver_webhooks, self.db, self.clock, self.rng,
                DELIVERY_LIMIT, bool(config.get("WEBHOOK_ALLOW_PRIVATE")),
                float(config.get("WEBHOOK_TIMEOUT_SECONDS", 10.0)), DeliveryReport())
        if report.sent or report.parked:
            log.info("webhooks: %d delivered, %d parked", len(report.sent), len(report.parked))
        return report

    def _flush(self, now) -> FlushReport:
        # The clock, not `now`: leases are taken and checked at the time of each claim and send.
        return flush_outbox(
            self.db,
            transport_for(self.mail_settings),
            self.mail_settings,
            self.clock,
            self.rng,
            limit=DELIVERY_LIMIT,
        )

    def _guarded(self, what, step, *args):  # (what, step, *args, fallback)
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


def _aware(moment: datetime) -> datetime:
    """SQLite gives the stored UTC times back without their zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _add(done: list, batch: list | None) -> bool:
    """Add a batch's work to the report; False when nothing was due."""
    if batch is None:
        return False
    done.extend(batch)
    return True
