"""Seeks: a player asks for a game of so many seats at such a pace. When enough seeks fit each
other (the same seats and pace, from different players) they make a public game, under the
current rules, that starts by itself: the oldest seek's player creates it, the others join in
the order they sought, each with the word for the dice they gave with their seek. Seeks are
matched one at a time (server/storage/locks.py), so two made at the same moment see each
other."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from server.games import lobby, seeding
from server.games.pace import PACES
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.db import sql
from server.storage.locks import serialized
from server.storage.models import Seek, User

MOST_SEEKS = 5  # waiting seeks per player


def seek(session: Session, user: User, seats: int, pace: str, contribution: str | None,
         now: datetime) -> Seek:
    """Record the seek and match it: its ``game_id`` is set when it made a game now."""
    word = seeding.checked_contribution(contribution)
    if seats < 2:
        fail(422, Said(N_("a seek is for 2 to 4 seats: for a game alone against the Rhom, "
                          "create it (`iridescia new --seats 1`)")))
    # One seek at a time, from here to the commit: two players seeking the same game at once
    # would otherwise each miss the other's seek, not committed yet (PostgreSQL), and wait.
    serialized(sql(session), "seeks")
    waiting = waiting_seeks(session, user)
    if any(s.seats == seats and s.pace == pace for s in waiting):
        fail(409, Said(N_("you already seek a game of {seats} seats at pace {pace}: wait for "
                          "it, or cancel it first"), seats=seats, pace=pace))
    if len(waiting) >= MOST_SEEKS:
        fail(409, Said(N_("you have {count} seeks waiting, the most one player may have: cancel "
                          "one first"), count=len(waiting)))
    mine = Seek(user_id=user.id, seats=seats, pace=pace, contribution=word, created_at=now)
    session.add(mine)
    session.flush()
    _match(session, mine, now)
    return mine


def _match(session: Session, mine: Seek, now: datetime) -> None:
    fitting = session.exec(
        select(Seek).where(Seek.game_id.is_(None), Seek.seats == mine.seats,  # type: ignore[union-attr]
                           Seek.pace == mine.pace, Seek.user_id != mine.user_id)
        .order_by(Seek.created_at, Seek.id).with_for_update()
    ).all()
    table: list[Seek] = []
    for other in fitting:  # one seek per player
        if all(other.user_id != s.user_id for s in table):
            table.append(other)
    table = table[: mine.seats - 1]
    if len(table) < mine.seats - 1:
        return
    table.append(mine)
    users = {u.id: u for u in session.exec(
        select(User).where(User.id.in_([s.user_id for s in table]))).all()}  # type: ignore[union-attr]
    first, *others = table
    deadline, reminders = PACES[mine.pace]
    game = lobby.create_game(session, users[first.user_id], {
        "seats": mine.seats, "rhom": False, "variants": {}, "public": True,
        "contribution": first.contribution, "turn_deadline_hours": deadline,
        "reminder_interval_hours": reminders, "absent_after_missed": 2,
        "rhom_delay_seconds": 0, "removal_grace_hours": 0}, now)
    for other in others:
        lobby.join(session, users[other.user_id], game.join_code, now,
                   contribution=other.contribution)
    lobby.start_game(session, game, now, f"user:{first.user_id}")
    for s in table:
        s.game_id = game.id
        session.add(s)
    session.flush()


def waiting_seeks(session: Session, user: User) -> list[Seek]:
    return list(session.exec(select(Seek).where(Seek.user_id == user.id,
                                                Seek.game_id.is_(None))  # type: ignore[union-attr]
                             .order_by(Seek.created_at, Seek.id)).all())


def seeks_of(session: Session, user: User) -> list[Seek]:
    """The player's seeks: those waiting, then those that made a game, newest first."""
    return list(session.exec(select(Seek).where(Seek.user_id == user.id)
                             .order_by(Seek.game_id.is_not(None), Seek.created_at.desc(),  # type: ignore[union-attr]
                                       Seek.id.desc())).all())  # type: ignore[union-attr]


def seek_of(session: Session, user: User, seek_id: int) -> Seek:
    # An id past what the column holds (PostgreSQL refused it: a 500) is no seek of anyone's.
    found = session.get(Seek, seek_id) if 0 < seek_id < 2**31 else None
    if found is None or found.user_id != user.id:
        fail(404, Said(N_("you have no seek {seek}: `iridescia seeks` lists yours"),
                       seek=seek_id), seek_id=seek_id)
    return found


def cancel(session: Session, user: User, seek_id: int) -> None:
    found = seek_of(session, user, seek_id)
    if found.game_id is not None:
        fail(409, Said(N_("seek {seek} has made game {game} already: play it there"),
                       seek=seek_id, game=found.game_id),
             game_id=found.game_id)
    session.delete(found)
    session.flush()


def waiting_counts(session: Session) -> dict[tuple[int, str], int]:
    """How many players seek each (seats, pace) now: what a seeker may hope to match."""
    rows = session.exec(select(Seek.seats, Seek.pace, func.count(func.distinct(Seek.user_id)))
                        .where(Seek.game_id.is_(None))  # type: ignore[union-attr]
                        .group_by(Seek.seats, Seek.pace)).all()
    return {(seats, pace): count for seats, pace, count in rows}


def seek_json(found: Seek) -> dict[str, Any]:
    return {"id": found.id, "seats": found.seats, "pace": found.pace,
            "created_at": found.created_at, "game_id": found.game_id}
