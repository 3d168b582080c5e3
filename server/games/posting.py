"""The database side of a command post (and of the legal-commands read that goes with posting),
on a plain SQLAlchemy Connection (no ORM session; every statement on it is `Prepared`).

A post is the API's hottest write: its ORM session (two transactions, three mapped objects to
load, the unit of work at each commit) cost about a third of its time in the workers, more than
its statements did. Here the same tables are read and written with Core statements compiled
once and run on the driver (server/storage/prepared.py), and the game is a `GameRow`: its values as
attributes (server/games/rows.py), which `service.apply_command` reads and sets as it would a
mapped `Game`.

    with posting.connect() as connection:              # reads in a read-only transaction
        caller = posting.caller_and_game(connection, game_id)
        ...                                            # state, checks
        posting.start_writing(connection)              # SQLite's write lock from here
        applied = service.apply_command(connection, caller.game, ...)
        posting.commit(connection)                     # and the wake-ups it noted go out
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, insert, select
from sqlalchemy.engine import Connection

from server import wakeups
from server.games.lobby import caller_game_and_seat, require_visible
from server.games.rows import GAME_COLUMNS, GameRow
from server.http.auth import (
    authenticated,
    bearer_token,
    current_user,
    hash_token,
    refuse_if_disabled,
    refuse_token,
    require_user,
)
from server.storage.db import READ_ONLY_OPTION
from server.storage.models import Game, IdempotencyRecord, Seat, User
from server.storage.prepared import Prepared

_GAMES, _USERS, _SEATS = Game.__table__, User.__table__, Seat.__table__
_IDEMPOTENCY = IdempotencyRecord.__table__


@dataclass(frozen=True)
class Caller:
    user_id: int
    game: GameRow
    seat: int | None  # the caller's engine seat (None before the start)
    member: bool  # whether the caller has a seat in this game


# What lobby.caller_and_game reads, as plain values.
_CALLER_GAME_AND_SEAT = Prepared(caller_game_and_seat(
    _USERS.c.id.label("caller_id"), _USERS.c.disabled_at.label("caller_disabled_at"),
    _SEATS.c.id.label("caller_seat_id"),
    _SEATS.c.seat.label("caller_seat"), *_GAMES.columns,
))
_CALLER = Prepared(select(_USERS.c.id, _USERS.c.disabled_at)
                   .where(_USERS.c.token_hash == bindparam("token_hash")))
_SORTS = Prepared(select(_USERS.c.tile_sort, _USERS.c.relic_sort)
                  .where(_USERS.c.token_hash == bindparam("token_hash")))
_GAME = Prepared(select(*_GAMES.columns).where(_GAMES.c.id == bindparam("game_id")))
_LANGUAGE = Prepared(select(_USERS.c.language).where(_USERS.c.id == bindparam("user_id")))
_STORED_ANSWER = Prepared(select(
    _IDEMPOTENCY.c.request_hash, _IDEMPOTENCY.c.status_code, _IDEMPOTENCY.c.response
).where(_IDEMPOTENCY.c.user_id == bindparam("user_id"), _IDEMPOTENCY.c.key == bindparam("key")))
_STORE_ANSWER = Prepared(insert(_IDEMPOTENCY))


@contextmanager
def connect() -> Iterator[Connection]:
    """A connection of the app's engine whose next transaction only reads (no write lock).
    What is not committed with `commit` is rolled back at the end, its wake-ups dropped."""
    with current_app.extensions["iridescia_db_read_only"].connect() as connection:
        try:
            yield connection
        finally:
            # The info dict is the pooled connection's: nothing noted may outlive the request.
            wakeups.discarded(connection.info)


@contextmanager
def read() -> Iterator[Connection]:
    """`connect` for a read that needs no single snapshot of the database (a view: the log it
    reads up to the game's version never changes; a game list). On PostgreSQL each statement
    is its own transaction: no BEGIN and no ROLLBACK, two of a cold read's five round trips to
    the server, each a wait for its process to be scheduled on a busy machine."""
    with connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execution_options(isolation_level="AUTOCOMMIT")
        yield connection


def commit(connection: Connection) -> None:
    """Commit the writing transaction, then wake whoever waits on what it noted (a Session's
    after_commit event does this for a Session; a Connection has no event after its commit)."""
    connection.commit()
    wakeups.committed(connection.info)


def rollback(connection: Connection) -> None:
    connection.rollback()
    wakeups.discarded(connection.info)


def reading(connection: Connection) -> Connection:
    """Its next transaction reads only: on SQLite it takes no write lock."""
    return connection.execution_options(**{READ_ONLY_OPTION: True})


def start_writing(connection: Connection) -> None:
    """End the reading transaction; the next one writes (on SQLite: queues for the write lock
    at its first statement)."""
    connection.commit()
    connection.execution_options(**{READ_ONLY_OPTION: False})


def caller_and_game(connection: Connection, game_id: str) -> Caller:
    """The bearer token's user and the game it asks for: 401 for a missing or unknown token, 404
    for a game the caller cannot see (the same answers as lobby.caller_and_game)."""
    token = bearer_token()
    if token is None:
        require_user()  # the 401 that says how to send a token
    token_hash = hash_token(token)
    row = _CALLER_GAME_AND_SEAT.first(connection, {"token_hash": token_hash, "game_id": game_id})
    if row is None:
        refuse_token()
    refuse_if_disabled(row.caller_disabled_at)
    authenticated(token_hash, row.caller_id)
    game = GameRow(**{name: getattr(row, name) for name in GAME_COLUMNS}) if row.id else None
    member = row.caller_seat_id is not None
    require_visible(game_id, game, member=member)
    return Caller(row.caller_id, game, row.caller_seat, member)


def chosen_language(connection: Connection, user_id: int) -> str | None:
    """The language the user chose for their pages, mails and answers (None: not chosen)."""
    row = _LANGUAGE.first(connection, {"user_id": user_id})
    return row.language if row is not None else None


def caller(connection: Connection) -> Any:
    """The bearer token's user, its ``id`` and ``disabled_at`` (read like a User): the same 401s
    as `require_user`, without an ORM session."""
    token = bearer_token()
    if token is None:
        require_user()
    token_hash = hash_token(token)
    row = _CALLER.first(connection, {"token_hash": token_hash})
    if row is None:
        refuse_token()
    authenticated(token_hash, row.id)
    refuse_if_disabled(row.disabled_at)
    return row


def viewer_and_game(connection: Connection, game_id: str) -> tuple[GameRow, int | None]:
    """The game and the caller's engine seat for a read that needs no token (a public game's
    spectators read it too): with a token as `caller_and_game`, without one the game alone."""
    if bearer_token() is None:
        current_user()  # the 401 for an Authorization header that is not a bearer token
        row = _GAME.first(connection, {"game_id": game_id})
        game = GameRow(**row._asdict()) if row is not None else None
        require_visible(game_id, game, member=False)
        return game, None
    caller = caller_and_game(connection, game_id)
    return caller.game, caller.seat


def viewer_sorts(connection: Connection) -> dict[str, str | None]:
    """The caller's display settings (engine.view's tile_sort and relic_sort); none for a
    spectator without a token."""
    token = bearer_token()
    row = _SORTS.first(connection, {"token_hash": hash_token(token)}) if token else None
    if row is None:
        return {"tile_sort": None, "relic_sort": None}
    return {"tile_sort": row.tile_sort, "relic_sort": row.relic_sort}


def stored_answer(connection: Connection, user_id: int, key: str) -> Any:
    """The stored (request_hash, status_code, response) for this Idempotency-Key, or None."""
    return _STORED_ANSWER.first(connection, {"user_id": user_id, "key": key})


def store_answer(connection: Connection, user_id: int, key: str, request_hash: str,
                 answer: dict, now: datetime) -> None:
    _STORE_ANSWER.run(connection, {
        "user_id": user_id, "key": key, "request_hash": request_hash, "status_code": 201,
        "response": answer, "created_at": now,
    })

