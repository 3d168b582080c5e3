"""One tick: the due game work, within a time budget; mail delivery is a step of its own.

`Ticker.due_work()` (the scheduler's `tick` job): reminders and deadline warnings (in bulk), the
daily digests (server/scheduler/digests.py) and automatic turns (the Rhom, removals, deadlines, absent seats), batch by batch, each step in turn,
until nothing is due or the budget (`SCHEDULER_BUDGET_SECONDS`, default 1 s) is spent; what is
left stays due (the due times are on the games) and the next tick goes on with it. Then it records
the tick in `scheduler_ticks` (the health endpoint reads it). It sends no mail: what it queues is
sent by

`Ticker.deliver()` (the scheduler's `mail` job): renders and sends the outbox until nothing is due;
`Ticker.deliver_webhooks()` (its `webhooks` job) does the same for the webhook deliveries.

The two jobs run side by side, so a slow SMTP server or a long mail queue never delays a turn;
the mail lets a due-work tick in progress finish first (the turns before their mail), and goes
on between ticks. `Ticker.tick()` does both, one after the other
(`iridescia-server scheduler --once`, tests). Each step claims its work row by row, so a second
scheduler, or a tick repeated after a crash, finds nothing left to do twice.
"""

import dataclasses
import logging
import math
import os
import random
import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam, exists, func, select

from server.mail import MailSettings, transport_for
from server.mail.outbox import FlushReport, flush_outbox
from server.mail.pruning import prune_delivered_bodies
from server.mail.transport import KeptOpen
from server.scheduler.automatic import AutomaticTurn, play_batch
from server.scheduler.bot_turns import plan_bot_turns
from server.scheduler.budget import Budget
from server.scheduler.clock import Clock, system_clock
from server.scheduler.digests import digest_batch
from server.scheduler.nudges import Nudge, nudge_batch
from server.storage.db import app_engine, read_only, session_scope
from server.storage.models import Game, SchedulerTick, User
from server.users.sign_in import prune_sessions
from server.webhooks.delivery import DeliveryReport, deliver_webhooks

log = logging.getLogger(__name__)
# After a tick that ran out of its budget with work still due: the next tick, after only this
# moment. A backlog of due turns (1,000 after a restart or an outage) is worked off tick after
# tick; the players are not kept waiting meanwhile: each batch is its own short transaction (on
# SQLite a command waits for one batch at most, tens of ms: server/storage/sqlite_writers.py queues the
# writers). (It was 5 s, then 0.2 s: of 1,000 due turns' 2-3 s at a loaded machine's pace, a
# pause per second of work.)
BACKLOG_PAUSE_SECONDS = 0.01
# How often a tick is written to `scheduler_ticks` at most (the health endpoint calls a
# scheduler stale after SCHEDULER_STALE_SECONDS, 300 by default). Every commit that makes a turn
# due wakes the tick: writing each one cost a write transaction a wake-up (on SQLite the
# database's write lock, taken from the players' commands).
RECORD_EVERY = timedelta(seconds=5)
# How often the mail job clears delivered mail's bodies (server/mail/pruning.py).
PRUNE_EVERY = timedelta(hours=1)
# Messages one delivery sends at most; it stops when nothing is due long before this.
DELIVERY_LIMIT = 1_000_000
# The mail job delivers this many messages at a time, and before each such part waits for the
# due work to be done: for the tick in progress, and for the next one when the last ran out of
# budget with work still due (it starts within `BACKLOG_NEXT_TICK_SECONDS`), at most
# `MAIL_WAITS_FOR_TICK_BUDGETS` budgets a part (mail is never held up for good). In one process the two share the interpreter, and rendering
# a turn's mail (a board picture's rasterising holds the interpreter for 0.1-0.5 s) beside a
# backlog of turns made the turns take three times as long (bench/turns). The turns are what is
# late in a backlog; their mail follows it.
MAIL_PART = 5
MAIL_WAITS_FOR_TICK_BUDGETS = 5
BACKLOG_NEXT_TICK_SECONDS = 0.5


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
        # Until when (time.monotonic) the mail waits for the due work: forever while a tick
        # runs; shortly after one that left work due, for the next.
        self._due_work_until = 0.0
        self._due_work_changed = threading.Condition()
        self._pruned_at: datetime | None = None  # when delivered bodies were last cleared
        self._recorded_at: datetime | None = None  # when a tick was last written
        # Set when the scheduler is asked to stop (SIGTERM): the mail and webhook jobs finish
        # the part in hand and take no more (issue 32, N5: 57 mails went out after the signal).
        self.stopping = threading.Event()

    @property
    def db(self):
        return app_engine(self.app)

    def tick(self) -> TickReport:
        """The due work, then the delivery of all mail due (what the due work queued too)."""
        report = self.due_work()
        self._due_work_goes_on(0.0)  # no tick follows this one's: its mail goes now
        report.mail.append(self.deliver())
        report.webhooks.append(self.deliver_webhooks())
        return report

    def due_work(self) -> TickReport:
        """Reminders and automatic turns due now, until none is left or the budget is spent;
        then the tick's record. Sends no mail."""
        self._due_work_goes_on(math.inf)
        report = None
        try:
            report = self._due_work()
            return report
        finally:
            more = report is not None and report.out_of_time
            self._due_work_goes_on(time.monotonic() + BACKLOG_NEXT_TICK_SECONDS if more else 0.0)

    def _due_work_goes_on(self, until: float) -> None:
        with self._due_work_changed:
            self._due_work_until = until
            self._due_work_changed.notify_all()

    def _after_due_work(self) -> None:
        """Wait while due work runs or is about to go on (see MAIL_PART)."""
        give_up = time.monotonic() + MAIL_WAITS_FOR_TICK_BUDGETS * self.budget_seconds
        with self._due_work_changed:
            while (wait := min(self._due_work_until, give_up) - time.monotonic()) > 0:
                self._due_work_changed.wait(wait)

    def _due_work(self) -> TickReport:
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
        # Most ticks are woken by a commit and find nothing of a step due (or another scheduler
        # took it): each step claims in a writing transaction (on SQLite the database's write
        # lock, which the players' commands wait for), so a reading look says which to run.
        due = self._guarded("look at what is due", _what_is_due, self.db, now, None)
        if due is not None:
            steps = {what: step for what, step in steps.items() if due[what]}
        with self.app.app_context():
            # Thinking has a budget of its own (the first bot turn is always thought out), and
            # the game work's budget starts after it: a long thought never starves the turns.
            if due is None or due["play automatic turns"]:
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
        """Render and send the mail due now until none is left (each message at most once),
        `MAIL_PART` messages at a time, each part after the due work waiting (see MAIL_PART)."""
        now = self.clock()
        report = FlushReport()
        # One SMTP session for all the parts (EHLO, STARTTLS and AUTH once, as for one batch).
        with self.app.app_context(), transport_for(self.mail_settings) as transport:
            while not self.stopping.is_set():
                self._after_due_work()
                part = self._guarded("flush the outbox", self._flush, KeptOpen(transport),
                                     None)
                if part is None:
                    break
                if not _merge(report, part):
                    break
        if report.sent or report.parked:
            log.info("delivery %s: %d mail(s) sent, %d parked",
                     now.isoformat(timespec="seconds"), len(report.sent), len(report.parked))
        self._prune(now)
        return report

    def _prune(self, now: datetime) -> None:
        """Clear delivered mail's bodies (server/mail/pruning.py) and delete the page sessions
        that are over, at most once every PRUNE_EVERY: the queries are cheap, but not for every
        few mails."""
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return
        self._pruned_at = now
        cleared = self._guarded("prune delivered mail", prune_delivered_bodies, self.db, now, 0)
        if cleared:
            log.info("outbox: cleared the bodies of %d delivered mail(s)", cleared)
        ended = self._guarded("prune page sessions", self._prune_sessions, now, 0)
        if ended:
            log.info("page sessions: deleted %d that are over", ended)

    def _prune_sessions(self, now: datetime) -> int:
        """Delete the page sessions signed out or past their lifetime (server/users/sign_in)."""
        with session_scope(self.db) as session:
            return prune_sessions(session, now, self.app.permanent_session_lifetime,
                                  self.app.config["MAGIC_LINK_HOURS"])

    def deliver_webhooks(self) -> DeliveryReport:
        """POST the webhook deliveries due now until none is left (server/webhooks/delivery)."""
        config = self.app.config
        with self.app.app_context():  # the payload's links name the server's BASE_URL
            report = self._guarded(
                "deliver webhooks", deliver_webhooks, self.db, self.clock, self.rng,
                DELIVERY_LIMIT, bool(config.get("WEBHOOK_ALLOW_PRIVATE")),
                float(config.get("WEBHOOK_TIMEOUT_SECONDS", 10.0)), self.stopping.is_set,
                DeliveryReport())
        if report.sent or report.parked:
            log.info("webhooks: %d delivered, %d parked", len(report.sent), len(report.parked))
        return report

    def _flush(self, transport) -> FlushReport:
        # The clock, not the run's start: leases are taken and checked at the time of each
        # claim and send.
        return flush_outbox(
            self.db,
            transport,
            self.mail_settings,
            self.clock,
            self.rng,
            limit=MAIL_PART,
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
        if self._recorded_at is not None and abs(now - self._recorded_at) < RECORD_EVERY:
            return
        with session_scope(self.db) as session:
            row = session.get(SchedulerTick, self.name)
            if row is None:
                row = SchedulerTick(name=self.name, last_tick_at=now)
            row.last_tick_at = now
            session.add(row)
        self._recorded_at = now


def _due_now(column):
    return exists().where(column.is_not(None), column <= bindparam("now"))


# Whether anything of each step is due: a superset of what each step's claim finds.
_DUE_NOW = select(
    _due_now(Game.next_reminder_at).where(Game.status == "active"),
    _due_now(Game.automatic_due_at).where(Game.status == "active"),
    _due_now(User.next_digest_at),
)


def _what_is_due(db, now: datetime) -> dict[str, bool]:
    with session_scope(read_only(db)) as session:
        reminders, turns, digests = session.execute(_DUE_NOW, {"now": now}).one()
    return {"send reminders": bool(reminders), "play automatic turns": bool(turns),
            "send daily digests": bool(digests)}


def _aware(moment: datetime) -> datetime:
    """SQLite gives the stored UTC times back without their zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _merge(report: FlushReport, part: FlushReport) -> bool:
    """Add a part's messages to the report; False when it handled none (nothing more due)."""
    handled = False
    for name in (f.name for f in dataclasses.fields(part)):
        messages = getattr(part, name)
        if isinstance(messages, list):
            getattr(report, name).extend(messages)
            handled = handled or bool(messages)
    return handled


def _add(done: list, batch: list | None) -> bool:
    """Add a batch's work to the report; False when nothing was due."""
    if batch is None:
        return False
    done.extend(batch)
    return True
