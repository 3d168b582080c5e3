"""Applying commands and deriving states: the one path for HTTP requests and the scheduler.

    state = load_state(session, game)                 # at game.version, or version=N
    rows = apply_command(session, game, command, actor, now)

``apply_command`` appends the events and the command in the caller's transaction (the caller
commits). It raises ``StaleVersion`` when another command landed first, and lets the engine's
``RuleError`` through for an illegal command.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Any

from flask import Flask
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.games.cache import CACHE
from server.models import Command, Event, Game, Seat, Snapshot

SNAPSHOT_EVERY = 50
SERVER_ACTOR = "server"


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


def load_state(session: Session, game: Game, version: int | None = None) -> Any:
    """The engine state after ``version`` events (default: the game's version); None before the
    first event. Uses the in-process cache, then the nearest snapshot, then replays the rest."""
    import engine

    version = game.version if version is None else version
    if version <= 0:
        return None
    cached = CACHE.get(game.id, version)
    if cached is not None:
        return cached
    base_version, state = 0, None
    best = CACHE.best_below(game.id, version)
    snapshot = session.exec(
        select(Snapshot)
        .where(Snapshot.game_id == game.id, Snapshot.version <= version)
        .order_by(Snapshot.version.desc())  # type: ignore[union-attr]
        .limit(1)
    ).first()
    if snapshot is not None:
        base_version, state = snapshot.version, engine.state_from_dict(snapshot.state)
    if best is not None and best[0] > base_version:
        base_version, state = best
    rows = session.exec(
        select(Event)
        .where(Event.game_id == game.id, Event.seq > base_version, Event.seq <= version)
        .order_by(Event.seq)  # type: ignore[arg-type]
    ).all()
    if base_version + len(rows) != version:
        raise LookupError(f"game {game.id} has no version {version}")
    state = engine.replay([engine.event_from_dict(row.payload) for row in rows], state)
    CACHE.put(game.id, version, state)  # the rows are committed: this state is final
    return state


def apply_command(
    session: Session, game: Game, command: Any, actor: str, now: datetime
) -> list[dict[str, Any]]:
    """Decide ``command`` (an engine Command or its dict) at ``game.version``, append its events
    and the command, and update the game's turn columns; returns the stored event rows as dicts
    ``{seq, type, payload, actor, at}`` (``payload`` is the engine's full event dict)."""
    import engine

    if isinstance(command, dict):
        command = engine.command_from_dict(command)
    expected = game.version
    state_before = load_state(session, game, expected)
    events = engine.decide(state_before, command, engine.rng_for(game.seed, expected))
    if not events:
        return []
    state_after = engine.replay(events, state_before)
    new_version = expected + len(events)

    bumped = session.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == expected)  # type: ignore[arg-type]
        .values(version=new_version)
    )
    if bumped.rowcount != 1:
        session.rollback()
        raise StaleVersion(game.id, expected, _current_version(session, game.id))
    game.version = new_version

    rules_version = engine.RULES_VERSION
    rows = []
    for offset, event_obj in enumerate(events, start=1):
        payload = engine.event_to_dict(event_obj)
        row = Event(
            game_id=game.id, seq=expected + offset, type=payload["type"], payload=payload,
            actor=actor, at=now, rules_version=rules_version,
        )
        session.add(row)
        rows.append({"seq": row.seq, "type": row.type, "payload": payload, "actor": actor, "at": now})
    command_dict = engine.command_to_dict(command)
    session.add(Command(game_id=game.id, version=expected, actor=actor, command=command_dict, at=now))

    previous_turn = (game.status, game.current_seat, game.pending_kind)
    if command_dict["type"] == "start_game":
        _seat_players(session, game, state_after, now)
        game.rules_version = rules_version
    if engine.is_terminal(state_after):
        game.status, game.current_seat, game.pending_kind = "finished", None, None
        game.finished_at = now
    else:
        game.status = "active"
        game.current_seat = engine.current_player(state_after)
        game.pending_kind = engine.pending_kind(state_after)
    if (game.status, game.current_seat) != previous_turn[:2] or _is_new_turn(
        previous_turn[2], game.pending_kind
    ):
        game.turn_started_at = now
    if SNAPSHOT_EVERY > 0 and expected // SNAPSHOT_EVERY != new_version // SNAPSHOT_EVERY:
        session.add(Snapshot(game_id=game.id, version=new_version,
                             state=engine.state_to_dict(state_after), created_at=now))
    session.add(game)

    from server import notifications
    from server.scheduler import timers

    notifications.on_events_appended(session, game, state_before, state_after, rows, actor, now)
    timers.update_due_times(session, game, state_after, now)
    try:
        session.flush()
    except IntegrityError:
        session.rollback()
        raise StaleVersion(game.id, expected, _current_version(session, game.id)) from None
    CACHE.put_after_commit(session, game.id, new_version, state_after)
    return rows


_TURN_KINDS = {"turn", "removal", "rhom"}


def _is_new_turn(before: str | None, after: str | None) -> bool:
    """A pending decision inside a turn keeps the turn's clock; a new turn restarts it."""
    return after in _TURN_KINDS and before not in _TURN_KINDS


def _current_version(session: Session, game_id: str) -> int | None:
    game = session.get(Game, game_id, populate_existing=True)
    return None if game is None else game.version


def _seat_players(session: Session, game: Game, state: Any, now: datetime) -> None:
    """Give every lobby member the engine seat the start decided; add the Rhom's seat."""
    import engine

    public = engine.view(state, None)
    members = {str(s.user_id): s for s in session.exec(select(Seat).where(Seat.game_id == game.id))}
    for player in public["players"]:
        if player["kind"] == "rhom":
            session.add(Seat(game_id=game.id, seat=player["seat"], user_id=None, kind="rhom",
                             joined_at=now))
        else:
            member = members[str(player["player_id"])]
            member.seat = player["seat"]
            session.add(member)
