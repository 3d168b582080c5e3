"""A scheduler job run in its own thread, again and again: at once when there is work, else after
the interval (only a safety net).

A job is woken by the topics of server/wakeups (a command that queued mail wakes `mail`, one that
made an automatic turn due soon wakes `due`), from this process or any other. After each run it
may name when its next work falls due (`next_due`: seconds from now); it then sleeps no longer
than that. A wake-up that comes while it runs makes it run again straight after, so none is
lost; wake-ups that come together make one run.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from server.wakeups.hub import Hub

log = logging.getLogger(__name__)
# A due time already past after a run (another scheduler holds the game, or the budget ran out):
# look again after this long rather than spin.
PAST_DUE_PAUSE_SECONDS = 1.0


class JobLoop:
    def __init__(self, name: str, run: Callable[[], object], interval: float,
                 hub: Hub | None = None, topics: tuple[str, ...] = (),
                 next_due: Callable[[object], float | None] | None = None) -> None:
        self.name, self.run, self.interval = name, run, interval
        self.next_due = next_due
        self.runs = 0
        self._woken = threading.Event()
        self._stopping = threading.Event()
        self._waiters = [hub.event_waiter(topic, self._woken) for topic in topics] if hub else []
        self._thread = threading.Thread(target=self._loop, name=f"scheduler-{name}", daemon=True)

    def start(self) -> JobLoop:
        self._thread.start()
        return self

    def wake(self) -> None:
        self._woken.set()

    def stop(self, wait: bool = True) -> None:
        self._stopping.set()
        self._woken.set()
        for waiter in self._waiters:
            waiter.close()
        if wait and self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join()

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self._woken.clear()  # before the run: a wake-up during it runs it again
            outcome = None
            try:
                outcome = self.run()
            except Exception:  # the jobs guard their steps; this is the last net
                log.exception("scheduler job %s failed", self.name)
            self.runs += 1
            self._woken.wait(self._pause(outcome))

    def _pause(self, outcome: object) -> float:
        if self.next_due is None:
            return self.interval
        try:
            seconds = self.next_due(outcome)
        except Exception:
            log.exception("scheduler job %s could not read its next due time", self.name)
            return self.interval
        if seconds is None:
            return self.interval
        if seconds <= 0:
            return min(self.interval, PAST_DUE_PAUSE_SECONDS)
        return min(self.interval, seconds)
