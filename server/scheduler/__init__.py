"""The scheduler: two APScheduler jobs every few seconds, `tick` (the due game work) and `mail`
(delivery); no job per game.

    start_embedded(app)          # `iridescia-server serve`: a background thread in the web process
    run_standalone(app)          # `iridescia-server scheduler`: its own process, until Ctrl-C

The interval is `SCHEDULER_INTERVAL_SECONDS` in the app's config or the environment variable
`IRIDESCIA_SCHEDULER_INTERVAL_SECONDS` (default 5). What each job does: server.scheduler.tick.
"""

import logging
import os

from server.scheduler.clock import Clock, system_clock

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


def _add_tick_job(scheduler, app, clock: Clock):
    from server.mail.transport import announce
    from server.scheduler.tick import Ticker

    ticker = Ticker(app, clock)
    announce(ticker.mail_settings)
    # Two jobs, each in its own thread of the scheduler's pool: the mail never waits for the
    # game work, nor the game work for a slow SMTP server or a long queue of mail.
    for job_id, run in (("tick", ticker.due_work), ("mail", ticker.deliver)):
        scheduler.add_job(
            run,
            "interval",
            seconds=interval_seconds(app),
            id=job_id,
            max_instances=1,  # a slow run is not overlapped by the next one
            coalesce=True,  # runs missed while busy collapse into one
            replace_existing=True,
        )
    if app.config.get("IMAP_URL"):  # replies read from a mailbox (server/inbound/imap.py)
        from server.inbound.imap import poller

        scheduler.add_job(poller(app), "interval", seconds=interval_seconds(app), id="imap",
                          max_instances=1, coalesce=True, replace_existing=True)
    return ticker


def start_embedded(app, clock: Clock = system_clock):
    """Start the tick in a background thread of this process; returns the APScheduler."""
    from apscheduler.schedulers.background import BackgroundScheduler

    scheduler = BackgroundScheduler(timezone="UTC")
    ticker = _add_tick_job(scheduler, app, clock)
    scheduler.start()
    app.extensions["iridescia_scheduler"] = scheduler
    log.info(
        "scheduler %s started in-process, ticking every %ss", ticker.name, interval_seconds(app)
    )
    return scheduler


def run_standalone(app, clock: Clock = system_clock) -> None:
    """Tick in the foreground until interrupted."""
    from apscheduler.schedulers.blocking import BlockingScheduler

    scheduler = BlockingScheduler(timezone="UTC")
    ticker = _add_tick_job(scheduler, app, clock)
    log.info("scheduler %s running, ticking every %ss", ticker.name, interval_seconds(app))
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
