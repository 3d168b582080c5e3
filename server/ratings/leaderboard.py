"""The leaderboard of a track: its people, best rated first, with their names."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from server.ratings.derived import ratings
from server.storage.models import User


def board(session: Session, track: str) -> list[dict[str, Any]]:
    rated = ratings(session).board(track)
    names = dict(session.exec(select(User.id, User.name).where(
        User.id.in_([r.player for r in rated]), User.disabled_at.is_(None))).all()) if rated else {}  # type: ignore[union-attr]
    rows = [r for r in rated if r.player in names]
    return [{"rank": place, "user_id": r.player, "name": names[r.player], "rating": r.shown,
             "provisional": r.provisional, "games": r.games, "wins": r.wins}
            for place, r in enumerate(rows, start=1)]
