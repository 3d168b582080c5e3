"""What a run's database says after the games: the player turns, the engine's own work for the
same commands, the mail kept, and how long mail waited."""

from __future__ import annotations

import time
from datetime import timedelta

import sqlalchemy as sa

from bench.api.load import percentile  # noqa: F401  (the report uses it)


def player_turns(engine) -> int:
    """Turns the players ended (the Rhom's and the scheduler's not counted)."""
    import json

    with engine.connect() as connection:
        rows = connection.execute(sa.text(
            "SELECT actor, command FROM commands WHERE actor LIKE 'user:%'")).all()

    return sum(1 for _actor, command in rows
               if (command if isinstance(command, dict) else json.loads(command))["type"]
               == "end_turn")


def engine_seconds(db, game_ids: list[str]) -> float:
    """CPU seconds the engine takes to decide and apply every command of these games again,
    from the start, as the server did: the engine's own work, in this process."""
    import json

    import engine

    games = []
    with db.connect() as connection:
        for game_id in game_ids:
            seed = connection.execute(sa.text("SELECT seed FROM games WHERE id = :id"),
                                      {"id": game_id}).scalar_one()
            rows = connection.execute(sa.text(
                "SELECT version, command FROM commands WHERE game_id = :id ORDER BY version"),
                {"id": game_id}).all()
            games.append((seed, [(version, command if isinstance(command, dict)
                                  else json.loads(command)) for version, command in rows]))
    started = time.process_time()
    for seed, commands in games:
        state = None
        for version, command in commands:
            events = engine.decide(state, engine.command_from_dict(command),
                                   engine.rng_for(seed, version))
            state = engine.replay(events, state)
    return time.process_time() - started


def outbox_bytes(db) -> int:
    """What the outbox holds, in bytes: its rows' texts (the rest of a row is a few numbers)."""
    with db.connect() as connection:
        rows = connection.execute(sa.text(
            "SELECT dedupe_key, to_email, kind, subject, text_body, html_body, last_error "
            "FROM outbox")).all()
    return sum(len((value or "").encode()) for row in rows for value in row)


def outbox_bytes_a_day_later(db) -> int:
    """The outbox's bytes once the scheduler has cleared what was delivered a day before."""
    from server.mail.pruning import prune_delivered_bodies
    from server.storage.models import utcnow

    prune_delivered_bodies(db, utcnow() + timedelta(days=1, seconds=1))
    return outbox_bytes(db)


def mail_waits(db) -> tuple[int, list[float]]:
    """Game mail still queued, and the seconds each sent one waited from queued to sent."""
    with db.connect() as connection:
        pending = connection.execute(sa.text(
            "SELECT count(*) FROM outbox WHERE status = 'pending' AND game_id IS NOT NULL")
        ).scalar_one()
        rows = connection.execute(sa.text(
            "SELECT created_at, sent_at FROM outbox WHERE status = 'sent' "
            "AND game_id IS NOT NULL")).all()
    waits = []
    for created, sent in rows:
        created, sent = _time(created), _time(sent)
        waits.append((sent - created).total_seconds())
    return pending, waits


def _time(value):
    from datetime import datetime

    return datetime.fromisoformat(value) if isinstance(value, str) else value


def describe_waits(waits: list[float]) -> str:
    if not waits:
        return "none sent"
    return (f"p50 {percentile(waits, 0.5):.1f} s, p90 {percentile(waits, 0.9):.1f} s, "
            f"max {max(waits):.1f} s over {len(waits)} mails")
