"""A small memory of what a game page drew at a version: a game's board and its recent turns
are the same for every reload until the game moves on, and most page views are reloads (the
live page redraws itself after each move). Keyed by the game, its version and whatever else
the drawing reads; bounded, the least recently used entry dropped first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class Memo:
    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = make()  # outside the lock: two threads may draw the same thing once each
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return value
