"""A player's page (/players/{id}, GET /api/v1/users/{id}): their ratings, their finished games
with results, their running public games and their win rate per player count. A private game
shows only to the people who played in it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlmodel import Session

from server.games.outcomes import outcomes_of
from server.http.errors import fail
from server.i18n import N_, Said
from server.ratings.derived import TRACK_NAMES, ratings
from server.storage.db import sql
from server.storage.models import Game, Seat, User

MOST_GAMES_SHOWN = 200


def public_user(session: Session, user_id: int) -> User:
    # An id past what the column holds (PostgreSQL refused it: a 500) is nobody's.
    user = session.get(User, user_id) if 0 < user_id < 2**31 else None
    if user is None or user.disabled_at is not None:
        fail(404, Said(N_("there is no player {user}"), user=user_id), user_id=user_id)
    return user


def ratings_json(session: Session, user_id: int) -> list[dict[str, Any]]:
    return [{**r.as_json(), "track_name": TRACK_NAMES[r.track]}
            for r in ratings(session).of_user(user_id)]


def games_shown(session: Session, user: User, viewer: User | None) -> list[Any]:
    """The player's games the viewer may see (public, or played by the viewer too), newest
    first: (id, status, seats, rhom, public, outcome, finished_at, created_at, my seat)."""
    mine = select(Seat.game_id, Seat.seat).where(Seat.user_id == user.id,
                                                 Seat.kind == "human").subquery()
    visible = Game.public.is_(True)  # type: ignore[attr-defined]
    if viewer is not None:
        shared = select(Seat.game_id).where(Seat.user_id == viewer.id)
        visible = or_(visible, Game.id.in_(shared))  # type: ignore[attr-defined]
    rows = sql(session).execute(
        select(Game.id, Game.status, Game.seats, Game.rhom, Game.public, Game.outcome,
               Game.finished_at, Game.created_at, mine.c.seat)
        .join(mine, mine.c.game_id == Game.id)
        .where(visible, Game.status.in_(("open", "active", "finished")))  # type: ignore[attr-defined]
        .order_by(Game.created_at.desc(), Game.id).limit(MOST_GAMES_SHOWN)).all()  # type: ignore[attr-defined]
    return list(rows)


def _result(row: Any, outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    scores = {s["seat"]: s for s in (outcome or {}).get("seats", [])}
    mine = scores.get(row.seat)
    if mine is None:
        return None
    return {"rank": mine["rank"], "points": mine["total"], "of": len(scores),
            "won": mine["rank"] == 1}


def profile(session: Session, user: User, viewer: User | None) -> dict[str, Any]:
    rows = games_shown(session, user, viewer)
    # The games that ended before outcomes were kept on the row: from their logs.
    derived = outcomes_of(session, [r.id for r in rows
                                    if r.status == "finished" and r.outcome is None])
    finished = [{"id": r.id, "players": r.seats, "rhom": r.rhom, "public": r.public,
                 "finished_at": r.finished_at, "result": _result(r, r.outcome or derived.get(r.id))}
                for r in rows if r.status == "finished"]
    running = [{"id": r.id, "status": r.status, "players": r.seats, "rhom": r.rhom,
                "public": r.public} for r in rows if r.status in ("open", "active")]
    by_count: dict[int, list[bool]] = {}
    for game in finished:
        if game["result"] is not None:
            by_count.setdefault(game["players"], []).append(game["result"]["won"])
    win_rates = [{"players": count, "games": len(wins), "wins": sum(wins),
                  "rate": round(sum(wins) / len(wins), 3)}
                 for count, wins in sorted(by_count.items())]
    return {"id": user.id, "name": user.name, "ratings": ratings_json(session, user.id),
            "finished_games": finished, "running_games": running, "win_rates": win_rates}
