"""Applying commands and deriving states: the one path for HTTP requests and the scheduler.

    state = load_state(session, game)                 # at game.version, or version=N
    applied = apply_command(session, game, command, actor, now)   # .rows, .state

``apply_command`` appends the events and the command in the caller's transaction (the caller
commits). It raises ``StaleVersion`` when another command landed first, and lets the engine's
``RuleError`` through for an illegal command.
"""

from __future__ import annotations

import hashlib
import secrets
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import Flask
from sqlalchemy import bindparam, insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, select

import engine
from server import wakeups
from server.games import seeding
from server.games.cache import CACHE
from server.games.deferred import deferred_writes, write
from server.games.reactions import EventsAppended, publish
from server.games.rows import game_row_update
from server.games.seat_kinds import player_id
from server.games.table import seat_names
from server.storage.db import sql
from server.storage.models import Command, Event, Game, Seat, Snapshot
from server.storage.prepared import Prepared

SNAPSHOT_EVERY = 50
SERVER_ACTOR = "server"


@dataclass(frozen=True)
class Applied:
    """What `apply_command` appended: the event rows ``{seq, type, payload, actor, at}``
    (``payload`` is the engine's full event dict) and the state after them."""

    rows: list[dict[str, Any]]
    state: Any


class StaleVersion(Exception):
    """Another command was appended first; ``current_version`` is the game's version now."""

    def __init__(self, game_id: str, expected: int, current: int | None = None) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected}")
        self.game_id = game_id
        self.expected = expected
        self.current_version = current


def init_app(app: Flask) -> None:
    global SNAPSHOT_EVERY
    SNAPSHOT_EVERY = app.config["SNAPSHOT_EVERY"]
    CACHE.size = app.config["STATE_CACHE_SIZE"]


def new_seed() -> tuple[str, str]:
    """A game's secret seed and the sha256 published at creation."""
    seed = secrets.token_hex(32)
    return seed, seed_hash(seed)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


# Read at every state-cache miss: each read of a version the other worker wrote.
_NEAREST_SNAPSHOT = Prepared(
    select(Snapshot.version, Snapshot.state)
    .where(Snapshot.game_id == bindparam("game_id"), Snapshot.version > bindparam("above"),
           Snapshot.version <= bindparam("version"))
    .order_by(Snapshot.version.desc())  # type: ignore[union-attr]
    .limit(1)
)
_EVENTS_BETWEEN = Prepared(
    select(Event.payload)
    .where(Event.game_id == bindparam("game_id"), Event.seq > bindparam("after"),
           Event.seq <= bindparam("version"))
    .order_by(Event.seq)  # type: ignore[arg-type]
)


def load_state(session: Session | Connection, game: Game, version: int | None = None) -> Any:
    """The engine state after ``version`` events (default: the game's version); None before the
    first event. Uses the in-process cache, then the nearest snapshot, then replays the rest.
    ``session`` may be a plain Connection, ``game`` any object with the games row's values."""

    version = game.version if version is None else version
    if version <= 0:
        return None
    cached = CACHE.get(game.id, version)
    if cached is not None:
        return cached
    # The nearest earlier state this process has, then a nearer snapshot if there is one (a
    # snapshot is a whole state to parse: read it only when it saves replaying events).
    base_version, state = CACHE.best_below(game.id, version) or (0, None)
    connection = sql(session)
    # A snapshot is written where a command's events pass a multiple of SNAPSHOT_EVERY: none
    # can lie between a cached state and ``version`` that pass none (another process's last
    # few commands, the usual miss). Were the setting changed since, this replays more events.
    snapshot = None
    if state is None or SNAPSHOT_EVERY <= 0 or \
            base_version // SNAPSHOT_EVERY != version // SNAPSHOT_EVERY:
        snapshot = _NEAREST_SNAPSHOT.first(
            connection, {"game_id": game.id, "above": base_version, "version": version}
        )
    if snapshot is not None:
        base_version, state = snapshot.version, engine.state_from_dict(snapshot.state)
    payloads = [row.payload for row in _EVENTS_BETWEEN.all(
        connection, {"game_id": game.id, "after": base_version, "version": version}
    )]
    if base_version + len(payloads) != version:
        raise LookupError(f"game {game.id} has no version {version}")
    state = engine.replay([engine.event_from_dict(payload) for payload in payloads], state)
    CACHE.put(game.id, version, state)  # the rows are committed: this state is final
    return state


def apply_command(
    session: Session | Connection, game: Game, command: Any, actor: str, now: datetime,
    state_before: Any = None,
) -> Applied:
    """Decide ``command`` (an engine Command or its dict) at ``game.version``, append its events
    and the command, and update the game's turn columns; returns the stored event rows and the
    state after them.

    The events and the command go in as plain INSERTs (their keys, game and version, make a
    second command at the same version fail); the game row is written once, at the end, by one
    UPDATE that also checks the version. Nothing is flushed in between: the notifications and
    due times only change attributes and queue rows.

    ``state_before``: the state at ``game.version`` when the caller already holds it (the
    scheduler playing several commands of a turn in one transaction, whose states the cache only
    learns at the commit); otherwise it is loaded.

    On a plain Connection (the command post: no ORM session), ``game`` is a `GameRow`; the
    caller commits, puts the state in the cache and, on StaleVersion, rolls back and reads the
    current version (``current_version`` is None then)."""

    if isinstance(command, dict):
        command = engine.command_from_dict(command)
    expected = game.version
    if state_before is None:
        state_before = load_state(session, game, expected)
    try:
        events = engine.decide(state_before, command,
                               engine.rng_for(seeding.dice_seed(game), expected))
    except engine.RuleError as error:
        if error.refusal.values:  # players read names in it, never seat numbers
            error.named(seat_names(session, game.id))
        raise
    if not events:
        return Applied([], state_before)
    state_after = engine.replay(events, state_before)
    new_version = expected + len(events)
    rules_version = state_after.rules_version  # the game's, for its whole life
    # The one form legal_commands lists (a two-hex reveal in board order), whatever was sent.
    command_dict = engine.command_to_dict(engine.canonical_command(state_before, command))

    rows = []
    for seq, event_obj in enumerate(events, start=expected + 1):
        payload = engine.event_to_dict(event_obj)
        rows.append({"seq": seq, "type": payload["type"], "payload": payload, "actor": actor,
                     "at": now})

    orm = isinstance(session, OrmSession)
    with session.no_autoflush if orm else nullcontext():
        connection = sql(session)
        # A game the scheduler claimed (its writes held back to the batch's end) is locked.
        if connection.dialect.name == "postgresql" and deferred_writes(session) is None:
            _lock_game_row(session, connection, game.id, expected)
        try:
            # The log first: the notifications read what happened from it.
            write(session, connection, _INSERT_EVENTS, [
                dict(row, game_id=game.id, rules_version=rules_version) for row in rows
            ])
            write(session, connection, _INSERT_COMMAND, [{
                "game_id": game.id, "version": expected, "actor": actor, "command": command_dict,
                "at": now}])
        except IntegrityError:  # another command appended these versions first
            raise _stale(session, game.id, expected) from None
        if SNAPSHOT_EVERY > 0 and expected // SNAPSHOT_EVERY != new_version // SNAPSHOT_EVERY:
            write(session, connection, _INSERT_SNAPSHOT, [{
                "game_id": game.id, "version": new_version,
                "state": engine.state_to_dict(state_after), "created_at": now,
            }])
        if command_dict["type"] == "start_game":  # the lobby's, on a Session
            _seat_players(session, game, state_after, now)
            session.flush()  # the notifications read the seats the start decided
            game.rules_version = rules_version
        game.version = new_version
        # An undo goes back within the turn: its clock (and so its deadline) goes on.
        _set_turn_columns(game, state_after, now, same_turn=command_dict["type"] == "undo")
        # The reactions (server/reactions.py: the notices and due times, the webhooks, the
        # wake-ups) write in this transaction; the due times they set go out with the game row.
        with wakeups.gathered(session):  # their wake-ups in one NOTIFY, as one note was
            publish(EventsAppended(session, game, state_before, state_after, rows, actor, now))
        write_game_row(session, game, expected)
    if orm:
        CACHE.put_after_commit(session, game.id, new_version, state_after)
    return Applied(rows, state_after)


_GAME_VERSION = Prepared(select(Game.version).where(Game.id == bindparam("game_id")))
# PostgreSQL: the same row, locked (FOR NO KEY UPDATE) before anything is appended.
_LOCK_GAME_ROW = Prepared(_GAME_VERSION.statement.with_for_update(key_share=True))


def _lock_game_row(session: Session | Connection, connection: Connection, game_id: str,
                   expected: int) -> None:
    """Take the game row's lock, then check the version, before appending anything.

    On PostgreSQL each event's and the command's foreign key takes a KEY SHARE lock on the game
    row at the end of its INSERT, after the rows are in the unique index. A scheduler that has
    claimed the game (FOR UPDATE) and plays the same decision (a removal turn both may play)
    then waits on our index entries while we wait on its claim: a deadlock, and one side's 503.
    Taking the row first makes us wait for the claim instead, and see its version: 409. (SQLite
    needs none of this: a writer holds the whole database.)"""
    row = _LOCK_GAME_ROW.first(connection, {"game_id": game_id})
    if row is None or row.version != expected:
        raise _stale(session, game_id, expected)


# The columns a command can change on the game row; written by one UPDATE per command.
_GAME_COLUMNS = ("version", "status", "current_seat", "pending_kind", "turn_started_at",
                 "finished_at", "rules_version", "deadline_at", "next_reminder_at",
                 "automatic_due_at", "held_since", "outcome")
# A command's statements, built once and run on the driver's cursor (server/storage/prepared.py).
_INSERT_EVENTS = Prepared(insert(Event.__table__))
_INSERT_COMMAND = Prepared(insert(Command.__table__))
_INSERT_SNAPSHOT = Prepared(insert(Snapshot.__table__))


def _set_turn_columns(game: Game, state_after: Any, now: datetime, same_turn: bool = False) -> None:

    previous_turn = (game.status, game.current_seat, game.pending_kind)
    if engine.is_terminal(state_after):
        game.status, game.current_seat, game.pending_kind = "finished", None, None
        game.finished_at = now
        game.outcome = engine.outcome(state_after).to_dict()
    else:
        game.status = "active"
        game.current_seat = engine.current_player(state_after)
        game.pending_kind = engine.pending_kind(state_after)
    if (game.status, game.current_seat) != previous_turn[:2] or (
        not same_turn and _is_new_turn(previous_turn[2], game.pending_kind)
    ):
        game.turn_started_at = now


def write_game_row(session: Session | Connection, game: Game, expected: int) -> None:
    """UPDATE the game's command columns where the version is still ``expected``; StaleVersion
    when another command got there first. The ORM is told the row is written, so the commit
    does not write it again. (Also for the scheduler's changes of a claimed `GameRow`'s due
    times outside a command.)"""
    # A mapped Game may carry changes made before the command: all its columns are written.
    # A GameRow knows what it was read with: the columns the command left alone are not (each
    # indexed column SET costs SQLite its index entries, in the WAL and its fsync).
    columns = _GAME_COLUMNS if isinstance(game, Game) else game.changed(_GAME_COLUMNS)
    if not columns:
        return  # (a command changes the version at least)
    values = {name: getattr(game, name) for name in columns}
    held = deferred_writes(session)
    if held is not None:  # a claimed game: written with the batch's other games at its end
        held.update_game(game.id, expected, values)
    else:
        bumped = game_row_update(columns).run(sql(session), {
            "row_id": game.id, "expected_version": expected,
            **{f"new_{name}": value for name, value in values.items()},
        })
        if bumped != 1:
            raise _stale(session, game.id, expected)
    if isinstance(game, Game):
        for name, value in values.items():
            set_committed_value(game, name, value)


def _stale(session: Session | Connection, game_id: str, expected: int) -> StaleVersion:
    """On a Session: roll back and say the current version. On a Connection, the caller
    does both (it owns the transaction)."""
    if not isinstance(session, OrmSession):
        return StaleVersion(game_id, expected)
    session.rollback()
    return StaleVersion(game_id, expected, current_version(session, game_id))


_TURN_KINDS = {"turn", "removal", "rhom"}


def _is_new_turn(before: str | None, after: str | None) -> bool:
    """A pending decision inside a turn keeps the turn's clock; a new turn restarts it."""
    return after in _TURN_KINDS and before not in _TURN_KINDS


def current_version(session: Session | Connection, game_id: str) -> int | None:
    """The game's version as committed now (None when there is no such game)."""
    row = _GAME_VERSION.first(sql(session), {"game_id": game_id})
    return None if row is None else row.version


def _seat_players(session: Session, game: Game, state: Any, now: datetime) -> None:
    """Give every lobby member the engine seat the start decided; add the Rhom's seat."""

    public = engine.view(state, None)

    members = {player_id(s): s for s in session.exec(select(Seat).where(Seat.game_id == game.id))}
    for player in public["players"]:
        if player["kind"] == "rhom":
            session.add(Seat(game_id=game.id, seat=player["seat"], user_id=None, kind="rhom",
                             joined_at=now))
        else:
            member = members[str(player["player_id"])]
            member.seat = player["seat"]
            session.add(member)
