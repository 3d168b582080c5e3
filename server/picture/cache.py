"""One board picture per game version, shared by every mail and every `board.png` request that
shows it (issue 31: drawing it was most of a turn's cost, and `board.png` drew it per request).

The picture is the public hex board (server/picture/raster.py), the same for every player, so
the key is the game and its version alone. An in-process LRU: the API process serves
`board.png` from it, the scheduler's mail from its own; a version never changes, so nothing is
ever stale, and a process that starts afresh draws each picture once more.
"""

from __future__ import annotations

from collections.abc import Callable

from server.memo import Memo

# A picture is ~10-15 KB: a thousand game versions are ~15 MB at most.
KEPT = 1000


class PictureCache:
    def __init__(self, size: int = KEPT) -> None:
        self._memo = Memo(size)

    @property
    def drawn(self) -> int:
        """How many pictures were drawn (tests and the bench read it)."""
        return self._memo.made

    def get(self, game_id: str, version: int, draw: Callable[[], bytes]) -> bytes:
        """The picture of `game_id` at `version`, drawn by `draw()` the first time."""
        return self._memo.get((game_id, version), draw)

    def clear(self) -> None:
        self._memo.clear()


PICTURES = PictureCache()


def board_picture(game_id: str, version: int, draw: Callable[[], bytes]) -> bytes:
    return PICTURES.get(game_id, version, draw)
