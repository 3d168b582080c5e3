"""One board picture per game version, shared by every mail and every `board.png` request that
shows it (issue 31: drawing it was most of a turn's cost, and `board.png` drew it per request).

The picture is the public hex board (server/picture/raster.py), the same for every player, so
the key is the game and its version alone. An in-process LRU: the API process serves
`board.png` from it, the scheduler's mail from its own; a version never changes, so nothing is
ever stale, and a process that starts afresh draws each picture once more.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

# A picture is ~10-15 KB: a thousand game versions are ~15 MB at most.
KEPT = 1000


class PictureCache:
    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._pictures: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._lock = threading.Lock()
        self.drawn = 0  # how many were drawn (tests and the bench read it)

    def get(self, game_id: str, version: int, draw: Callable[[], bytes]) -> bytes:
        """The picture of `game_id` at `version`, drawn by `draw()` the first time."""
        key = (game_id, version)
        with self._lock:
            picture = self._pictures.get(key)
            if picture is not None:
                self._pictures.move_to_end(key)
                return picture
        picture = draw()  # outside the lock: two threads may both draw a new version, once
        with self._lock:
            self.drawn += 1
            self._pictures[key] = picture
            while len(self._pictures) > self.size:
                self._pictures.popitem(last=False)
        return picture

    def clear(self) -> None:
        with self._lock:
            self._pictures.clear()


PICTURES = PictureCache()


def board_picture(game_id: str, version: int, draw: Callable[[], bytes]) -> bytes:
    return PICTURES.get(game_id, version, draw)
