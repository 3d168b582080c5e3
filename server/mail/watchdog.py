"""A deadline for each attempt of a delivery run, kept by one thread for the whole run.

The socket's timeout bounds each read only, so a relay that sent a byte every few seconds held
the delivery job for as long as it liked; each attempt (connecting, greeting, TLS, login, the
message) is therefore cut off at its deadline. A `threading.Timer` per message did that, at the
price of starting and stopping a thread for every mail (about 1 ms of a delivery's 8, bench/mail);
one thread now waits for the deadline of whichever attempt is running.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Watchdog:
    """``arm(seconds)`` before an attempt, ``disarm()`` after it (True when it was cut off).
    ``cut_off`` runs in the watchdog's thread, under its lock: the attempt it cuts is the one
    that was armed, never the next."""

    def __init__(self, cut_off: Callable[[], None]) -> None:
        self._cut_off = cut_off
        self._condition = threading.Condition()
        self._deadline: float | None = None
        self._expired = False
        self._stopped = False
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float) -> None:
        with self._condition:
            self._deadline = time.monotonic() + seconds
            self._expired = False
            if self._thread is None:
                self._stopped = False
                self._thread = threading.Thread(target=self._watch, daemon=True,
                                                name="smtp-watchdog")
                self._thread.start()
            self._condition.notify()

    def disarm(self) -> bool:
        with self._condition:
            self._deadline = None
            return self._expired

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._condition.notify()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _watch(self) -> None:
        with self._condition:
            while not self._stopped:
                if self._deadline is None:
                    self._condition.wait()
                    continue
                remaining = self._deadline - time.monotonic()
                if remaining > 0:
                    self._condition.wait(remaining)
                    continue
                self._deadline, self._expired = None, True
                self._cut_off()
