"""A bounded, thread-safe memory of things worked out once and never changed: a game's view at
a version, its board picture, the parts of a game page. Keyed by the game, its version and
whatever else the making reads (a version never changes, so an entry is never stale); the least
recently used entry is dropped first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class Memo:
    def __init__(self, size: int) -> None:
        self.size = size  # 0 keeps nothing
        self.made = 0  # how many were made (tests and the benches read it)
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value kept for `key`, made by `make()` the first time."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = make()  # outside the lock: two threads may make the same thing once each
        with self._lock:
            self.made += 1
            if self.size > 0:
                self._entries[key] = value
                while len(self._entries) > self.size:
                    self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
