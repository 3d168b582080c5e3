"""The in-process state cache: derived states keyed by (game, version).

Only committed states enter it (a transaction's states wait in ``session.info`` until its commit),
and a committed log never changes, so an entry is never wrong; dropping them all changes nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

_PENDING = "iridescia_pending_states"


class StateCache:
    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._states: OrderedDict[tuple[str, int], Any] = OrderedDict()
        # Each game's cached versions: a lookup looks at its own game's, not at every entry.
        self._versions: dict[str, set[int]] = {}

    def get(self, game_id: str, version: int) -> Any | None:
        with self._lock:
            state = self._states.get((game_id, version))
            if state is not None:
                self._states.move_to_end((game_id, version))
            return state

    def best_below(self, game_id: str, version: int) -> tuple[int, Any] | None:
        """The cached state with the highest version not above ``version``."""
        with self._lock:
            best = max((v for v in self._versions.get(game_id, ()) if v <= version), default=None)
            if best is None:
                return None
            return best, self._states[(game_id, best)]

    def put(self, game_id: str, version: int, state: Any) -> None:
        if self.size <= 0 or state is None:
            return
        with self._lock:
            self._states[(game_id, version)] = state
            self._states.move_to_end((game_id, version))
            self._versions.setdefault(game_id, set()).add(version)
            while len(self._states) > self.size:
                (old_game, old_version), _ = self._states.popitem(last=False)
                versions = self._versions[old_game]
                versions.discard(old_version)
                if not versions:
                    del self._versions[old_game]

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._versions.clear()

    def put_after_commit(self, session: Session, game_id: str, version: int, state: Any) -> None:
        session.info.setdefault(_PENDING, []).append((game_id, version, state))

    def forget_pending(self, session: Session, game_id: str) -> None:
        """Drop the states this transaction would publish for a game whose writes it dropped."""
        pending = session.info.get(_PENDING)
        if pending:
            pending[:] = [entry for entry in pending if entry[0] != game_id]


CACHE = StateCache()


@event.listens_for(Session, "after_commit")
def _publish(session: Session) -> None:
    for game_id, version, state in session.info.pop(_PENDING, []):
        CACHE.put(game_id, version, state)


@event.listens_for(Session, "after_rollback")
def _discard(session: Session) -> None:
    session.info.pop(_PENDING, None)
