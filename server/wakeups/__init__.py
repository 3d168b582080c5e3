"""Wake-ups: whoever waits for a change (a long-poll of a game's events, the scheduler's jobs)
is woken when a transaction that made it commits, in this process and in every other one.

    wakeups.note(unit, "g:k3x9q2ab", "mail")   # in the writing transaction (Session/connection)
    # ... at its commit the topics are published; on a rollback they are dropped

    with wakeups.of(app).hub.thread_waiter("mail") as waiter:
        waiter.wait(timeout=5)                  # True when woken

Topics: ``g:GAME`` (its log grew), ``mail`` (mail was queued), ``due`` (an automatic turn got a
due time). The channel between processes (server/wakeups/channels.py) is Redis pub/sub when
``WAKEUP_URL`` is a ``redis://`` URL (by default the rate limiter's Redis, when it has one),
else PostgreSQL's LISTEN/NOTIFY on PostgreSQL, else a watcher of the SQLite file.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from typing import Any

from flask import Flask, current_app, has_app_context
from sqlalchemy import bindparam, event, func, select
from sqlalchemy.orm import Session

from server.storage.db import default_sqlite_path, sql
from server.storage.prepared import Prepared
from server.wakeups.channels import (
    CHANNEL,
    Channel,
    LocalOnly,
    PostgresChannel,
    RedisChannel,
    SqliteWatcher,
)
from server.wakeups.hub import Hub

log = logging.getLogger(__name__)
_PENDING = "iridescia_wakeups"
_HELD = "iridescia_wakeups_held"
_TOPICS_PER_NOTIFY = 200
_NOTIFY = Prepared(select(func.pg_notify(bindparam("channel"), bindparam("payload"))))
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
DEFAULT_INTERVAL_SECONDS = 5.0  # the scheduler's (server/scheduler), read here without it


class Wakeups:
    """One app's hub (its waiters in this process) and channel (to the other processes)."""

    def __init__(self, channel: Channel) -> None:
        self.hub = Hub()
        self.channel = channel
        self.hub.on_first_waiter = lambda: channel.start(self.hub)

    def publish(self, topics: set[str]) -> None:
        """A transaction that noted ``topics`` committed: wake this process, tell the others."""
        self.hub.wake(topics)
        self.channel.publish(topics)

    def close(self) -> None:
        self.channel.stop()


def channel_for(config: dict[str, Any]) -> Channel:
    url = config.get("WAKEUP_URL") or ""
    rate_limit_storage = str(config.get("RATE_LIMIT_STORAGE") or "")
    if not url and rate_limit_storage.startswith(REDIS_SCHEMES):
        url = rate_limit_storage
    if url:
        if not url.startswith(REDIS_SCHEMES):
            raise ValueError(f"IRIDESCIA_WAKEUP_URL must be a redis:// URL, got {url!r}")
        return RedisChannel(url)
    database_url = config["DATABASE_URL"]
    if database_url.startswith("postgresql"):
        return PostgresChannel(database_url)
    path = default_sqlite_path(database_url)
    return LocalOnly() if path is None else SqliteWatcher(path)


def init_app(app: Flask) -> None:
    wakeups = Wakeups(channel_for(app.config))
    app.extensions["iridescia_wakeups"] = wakeups
    log.debug("wake-ups through %s", wakeups.channel.describe())


def of(app: Flask | None = None) -> Wakeups | None:
    if app is None:
        if not has_app_context():
            return None
        app = current_app
    return app.extensions.get("iridescia_wakeups")


def note(unit, *topics: str) -> None:
    """Wake whoever waits on ``topics`` when ``unit``'s transaction commits: a Session's
    after_commit event publishes them; on a plain Connection (the command post's) call
    `committed(connection.info)` after its commit, and `discarded` when it is not committed
    (server/games/posting.py does both)."""
    wakeups = of()
    if wakeups is None:
        return
    pending = unit.info.get(_PENDING)
    if pending is None:
        pending = unit.info[_PENDING] = (wakeups, set())
    new = set(topics) - pending[1]
    if not new:
        return
    pending[1].update(new)
    if wakeups.channel.notifies_in_transaction:
        held = unit.info.get(_HELD)
        if held is not None:
            held.update(new)
        else:
            _NOTIFY.first(sql(unit), {"channel": CHANNEL, "payload": " ".join(sorted(new))})


def hold(unit) -> None:
    """Send the NOTIFYs of ``unit``'s notes (PostgreSQL) only at `send_held`, as one: a batch
    of the scheduler notes a topic per game, each of them a round trip otherwise."""
    unit.info.setdefault(_HELD, set())


def send_held(unit) -> None:
    held = unit.info.pop(_HELD, None)
    topics = sorted(held or ())
    # A NOTIFY's payload must stay under 8,000 bytes: a batch's topics go in slices.
    for start in range(0, len(topics), _TOPICS_PER_NOTIFY):
        _NOTIFY.first(sql(unit), {"channel": CHANNEL,
                                  "payload": " ".join(topics[start:start + _TOPICS_PER_NOTIFY])})


@contextmanager
def gathered(unit) -> Iterator[None]:
    """The notes made inside go out as one NOTIFY (PostgreSQL) at its end: a command's
    reactions each note their own topics, one round trip in all. Inside a batch that already
    holds them (`hold`), they wait for the batch's `send_held`."""
    if _HELD in unit.info:
        yield
        return
    hold(unit)
    try:
        yield
    except BaseException:
        unit.info.pop(_HELD, None)  # the transaction fails: nothing to wake anyone for
        raise
    send_held(unit)


def due_soon(due_at, now) -> bool:
    """Whether an automatic turn due at ``due_at`` should wake the scheduler now: when it falls
    within the scheduler's interval (a later one the scheduler's next tick finds and sleeps
    until)."""
    if due_at is None:
        return False
    if due_at.tzinfo is None:
        due_at = due_at.replace(tzinfo=UTC)
    config = current_app.config if has_app_context() else {}
    raw = config.get("SCHEDULER_INTERVAL_SECONDS") or os.environ.get(
        "IRIDESCIA_SCHEDULER_INTERVAL_SECONDS")
    try:
        interval = float(raw) if raw else DEFAULT_INTERVAL_SECONDS
    except ValueError:
        interval = DEFAULT_INTERVAL_SECONDS
    return (due_at - now).total_seconds() <= interval


def committed(info: dict) -> None:
    entry = info.pop(_PENDING, None)
    if entry is not None:
        wakeups, topics = entry
        wakeups.publish(topics)


def discarded(info: dict) -> None:
    info.pop(_PENDING, None)


@event.listens_for(Session, "after_commit")
def _session_committed(session: Session) -> None:
    committed(session.info)


@event.listens_for(Session, "after_rollback")
def _session_rolled_back(session: Session) -> None:
    discarded(session.info)
