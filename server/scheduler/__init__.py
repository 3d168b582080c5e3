"""The scheduler: three jobs, `tick` (the due game work), `mail` (delivery) and `webhooks` (their
deliveries), and `imap` (replies read from a mailbox) when IRIDESCIA_IMAP_URL is set, each in a
thread of its own (server/scheduler/loops.py); no job per game.

    start_embedded(app)          # `iridescia-server serve`: background threads in the web process
    run_standalone(app)          # `iridescia-server scheduler`: its own process, until Ctrl-C

Each job runs when there is work: `mail` when a commit queued mail, `tick` when a command made an
automatic turn due within an interval, and at the next due time it knows of (server/wakeups
carries the wake-ups from any process). The interval, `SCHEDULER_INTERVAL_SECONDS` in the app's
config or the environment variable `IRIDESCIA_SCHEDULER_INTERVAL_SECONDS` (default 5), is only the
longest a job sleeps. What each job does: server.scheduler.tick.
"""

import logging
import os
import signal
import threading

from server import wakeups
from server.inbound.imap import poller
from server.mail.transport import announce
from server.scheduler.clock import Clock, system_clock
from server.scheduler.loops import JobLoop
from server.scheduler.tick import Ticker

log = logging.getLogger(__name__)
DEFAULT_INTERVAL_SECONDS = 5.0


def interval_seconds(app) -> float:
    value = app.config.get("SCHEDULER_INTERVAL_SECONDS") or os.environ.get(
        "IRIDESCIA_SCHEDULER_INTERVAL_SECONDS"
    )
    try:
        seconds = float(value) if value else DEFAULT_INTERVAL_SECONDS
    except ValueError:
        raise ValueError(
            f"IRIDESCIA_SCHEDULER_INTERVAL_SECONDS must be a number of seconds, got {value!r}"
        ) from None
    if seconds <= 0:
        raise ValueError(f"IRIDESCIA_SCHEDULER_INTERVAL_SECONDS must be above 0, got {value!r}")
    return seconds


def _loops(app, clock: Clock) -> tuple[str, list]:

    ticker = Ticker(app, clock)
    announce(ticker.mail_settings)
    hub = wakeups.of(app).hub
    seconds = interval_seconds(app)
    # Two jobs, each in its own thread: the mail never waits for the game work, nor the game
    # work for a slow SMTP server or a long queue of mail.
    loops = [
        JobLoop("tick", ticker.due_work, seconds, hub, ("due",), ticker.next_due_in),
        JobLoop("mail", ticker.deliver, seconds, hub, ("mail",)),
        # A receiver slow to answer holds up only the webhooks (server/webhooks/delivery.py).
        JobLoop("webhooks", ticker.deliver_webhooks, seconds, hub, ("webhooks",)),
    ]
    if app.config.get("IMAP_URL"):  # replies read from a mailbox (server/inbound/imap.py)

        loops.append(JobLoop("imap", poller(app), seconds))
    return ticker.name, loops, ticker.stopping


class Scheduler:
    """The running jobs of one scheduler."""

    def __init__(self, name: str, loops: list, stopping: threading.Event | None = None) -> None:
        self.name = name
        self.jobs = {loop.name: loop for loop in loops}
        self.stopping = stopping or threading.Event()

    def start(self) -> "Scheduler":
        for loop in self.jobs.values():
            loop.start()
        return self

    def shutdown(self, wait: bool = True) -> None:
        self.stopping.set()  # the mail in hand goes out, no more is taken (Ticker.deliver)
        for loop in self.jobs.values():
            loop.stop(wait)


def start_embedded(app, clock: Clock = system_clock) -> Scheduler:
    """Start the jobs in background threads of this process."""
    scheduler = Scheduler(*_loops(app, clock)).start()
    app.extensions["iridescia_scheduler"] = scheduler
    log.info("scheduler %s started in-process, woken by work, at least every %ss",
             scheduler.name, interval_seconds(app))
    return scheduler


def run_standalone(app, clock: Clock = system_clock) -> None:
    """Run the jobs until Ctrl-C or SIGTERM; either lets the work in hand finish first."""
    stopping = threading.Event()
    # Python's default for SIGTERM ends the process at once: a turn committed but not yet
    # logged, a mail sent but not yet marked sent. A service manager stops us with SIGTERM.
    previous = signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    scheduler = Scheduler(*_loops(app, clock)).start()
    log.info("scheduler %s running, woken by work, at least every %ss", scheduler.name,
             interval_seconds(app))
    try:
        stopping.wait()
    except KeyboardInterrupt:
        pass
    finally:
        log.info("scheduler %s stopping: finishing the work in hand", scheduler.name)
        scheduler.shutdown(wait=True)
        signal.signal(signal.SIGTERM, previous)
        log.info("scheduler %s stopped", scheduler.name)
