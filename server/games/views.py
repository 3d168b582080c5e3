"""The views of a game's versions, kept: what ``engine.view`` shows a seat (or a spectator) at a
version, as GET /api/v1/games/{id}/view answers it (bot seats' ``kind`` "bot"). The JSON view
and the game page read the same entry, so a page after the view (or a reload, or the live page
redrawing itself) does not work the view out again.

A version's view never changes: its key is the game, the version, the seat and the viewer's
display settings (the order of tiles and relics). Entries are shared: callers must not change
them (copy what they add to). Bounded, the least recently used dropped first.
"""

from __future__ import annotations

from typing import Any

import engine
from server.games.seat_kinds import with_bot_kinds
from server.memo import Memo


class ViewCache:
    def __init__(self, size: int = 512) -> None:
        self._memo = Memo(size)

    def view(self, game_id: str, version: int, state: Any, seat: int | None,
             tile_sort: str | None = None, relic_sort: str | None = None) -> dict[str, Any]:
        """The view of ``state`` (the game at ``version``) as ``seat`` sees it; read-only."""
        return self._memo.get(
            (game_id, version, seat, tile_sort, relic_sort),
            lambda: with_bot_kinds(engine.view(state, seat, tile_sort=tile_sort,
                                               relic_sort=relic_sort)))

    def clear(self) -> None:
        self._memo.clear()


VIEWS = ViewCache()
