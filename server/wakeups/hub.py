"""Who in this process waits for what, and waking them.

A topic names what changed: ``g:GAME`` (the game's log grew), ``mail`` (mail was queued), ``due``
(a game's automatic turn got a due time). A waiter subscribes to one topic before it looks at
the database, so a commit that lands between its look and its wait still wakes it. A waiter is
an `asyncio` future (a long-poll in the ASGI front: no thread, no connection while it waits) or a
`threading.Event` (the scheduler's loops, the plain-WSGI fallback of the feed).
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import Iterable


class Waiter:
    """One subscription; ``seen`` is the game version its waiter already has (the SQLite
    watcher wakes it only when the game is past that)."""

    def __init__(self, hub: Hub, topic: str, seen: int | None) -> None:
        self.hub, self.topic, self.seen = hub, topic, seen
        self.woken = False

    def wake(self) -> None:
        self.woken = True

    def close(self) -> None:
        self.hub._remove(self)

    def __enter__(self):
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class ThreadWaiter(Waiter):
    """Sets an event; several waiters may share one (a scheduler job woken by two topics)."""

    def __init__(self, hub: Hub, topic: str, seen: int | None,
                 event: threading.Event | None = None) -> None:
        super().__init__(hub, topic, seen)
        self._event = event or threading.Event()

    def wake(self) -> None:
        super().wake()
        self._event.set()

    def wait(self, timeout: float | None) -> bool:
        """True when woken (then ready for the next wake), False on the timeout."""
        woken = self._event.wait(timeout)
        self._event.clear()
        return woken


class AsyncWaiter(Waiter):
    def __init__(self, hub: Hub, topic: str, seen: int | None) -> None:
        super().__init__(hub, topic, seen)
        self._loop = asyncio.get_running_loop()
        self.future: asyncio.Future = self._loop.create_future()

    def wake(self) -> None:
        super().wake()
        self._loop.call_soon_threadsafe(self._resolve)

    def _resolve(self) -> None:
        if not self.future.done():
            self.future.set_result(True)


class Hub:
    """This process's waiters by topic. `wake` may be called from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[str, set[Waiter]] = defaultdict(set)
        self.on_first_waiter = None  # called once, the first time anyone subscribes

    def thread_waiter(self, topic: str, seen: int | None = None) -> ThreadWaiter:
        return self._add(ThreadWaiter(self, topic, seen))

    def event_waiter(self, topic: str, event: threading.Event) -> ThreadWaiter:
        return self._add(ThreadWaiter(self, topic, None, event))

    def async_waiter(self, topic: str, seen: int | None = None) -> AsyncWaiter:
        return self._add(AsyncWaiter(self, topic, seen))

    def _add(self, waiter):
        start, self.on_first_waiter = self.on_first_waiter, None
        if start is not None:
            start()
        with self._lock:
            self._waiters[waiter.topic].add(waiter)
        return waiter

    def _remove(self, waiter: Waiter) -> None:
        with self._lock:
            waiters = self._waiters.get(waiter.topic)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[waiter.topic]

    def wake(self, topics: Iterable[str]) -> int:
        """Wake everyone waiting on any of ``topics``; how many were woken."""
        with self._lock:
            woken = [w for topic in set(topics) for w in self._waiters.get(topic, ())]
        for waiter in woken:
            waiter.wake()
        return len(woken)

    def wake_all(self) -> None:
        """After the cross-process channel was lost a while: anything may have changed."""
        with self._lock:
            topics = list(self._waiters)
        self.wake(topics)

    def games_seen(self) -> dict[str, int]:
        """The games waited on, each with the lowest version a waiter on it has."""
        seen: dict[str, int] = {}
        with self._lock:
            for topic, waiters in self._waiters.items():
                if topic.startswith("g:"):
                    versions = [w.seen for w in waiters if w.seen is not None]
                    seen[topic[2:]] = min(versions, default=-1)
        return seen

    def waiting(self, topic: str) -> bool:
        with self._lock:
            return bool(self._waiters.get(topic))

    def count(self) -> int:
        with self._lock:
            return sum(len(waiters) for waiters in self._waiters.values())
