"""A game's tables: the game, its seats, its log (events, commands, snapshots), its
invitations, vacations, plans, table talk and seeks; and the scheduler's ticks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from server.storage.models.columns import json_column, time_column


class Game(SQLModel, table=True):
    __tablename__ = "games"

    id: str = Field(primary_key=True, max_length=16)
    status: str = Field(default="open", max_length=10, index=True)  # open | active | finished
    public: bool = Field(default=False)
    created_by: int = Field(foreign_key="users.id")
    created_at: datetime = time_column(nullable=False)
    finished_at: datetime | None = time_column()
    join_code: str = Field(max_length=16, unique=True)
    seats: int  # number of human seats
    rhom: bool = Field(default=False)
    variants: dict[str, Any] = json_column()
    rules_version: str | None = Field(default=None, max_length=20)
    version: int = Field(default=0)
    current_seat: int | None = Field(default=None)
    pending_kind: str | None = Field(default=None, max_length=20)
    turn_started_at: datetime | None = time_column()
    deadline_at: datetime | None = time_column(index=True)
    next_reminder_at: datetime | None = time_column(index=True)
    automatic_due_at: datetime | None = time_column(index=True)
    reminder_interval_hours: int = Field(default=24)
    turn_deadline_hours: int = Field(default=72)
    absent_after_missed: int = Field(default=2)
    rhom_delay_seconds: int = Field(default=0)
    removal_grace_hours: int = Field(default=0)
    # Paused by all its players (server/vacations/pauses.py): no deadlines, no reminders, no
    # automatic turns until a player resumes it.
    paused_at: datetime | None = time_column()
    # When the pending turn's clock stopped (the game paused, or its player away); when it
    # runs again, the turn's start moves on by the time it stood still.
    held_since: datetime | None = time_column()
    seed: str = Field(max_length=64)
    seed_hash: str = Field(max_length=64)
    # How the dice seed is made (engine/seeds.py): null, a game made before the players' words,
    # is the server's seed alone; "mixed-1" mixes in each seat's word at the start, into
    # play_seed (secret until the end, like the seed).
    seed_rule: str | None = Field(default=None, max_length=20)
    play_seed: str | None = Field(default=None, max_length=64)
    # The finished game this one is the rematch of (server/games/rematch.py).
    rematch_of: str | None = Field(default=None, max_length=16, index=True)
    # The final scores (engine.outcome) once finished: derived from the log like the status, so
    # that the ratings (server/ratings) need not replay every game.
    outcome: dict[str, Any] | None = json_column(nullable=True)


class Seat(SQLModel, table=True):
    """A participant. Before the start ``seat`` is null (players in joining order); the
    ``start_game`` events decide the engine seat numbers, and the Rhom gets a row with no user.
    A bot seat (a server-side player, chosen at creation) has no user either: its ``name`` and
    its bot level (``bot_policy``: easy, medium or hard; older games may hold the names the levels
    replaced). A human seat may name its stand-in (``stand_in``), the level that plays its turns
    when their deadline passes."""

    __tablename__ = "seats"
    __table_args__ = (sa.UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", index=True, max_length=16)
    seat: int | None = Field(default=None)
    user_id: int | None = Field(default=None, foreign_key="users.id", index=True)
    kind: str = Field(default="human", max_length=10)  # human | rhom | bot
    name: str | None = Field(default=None, max_length=80)  # a bot's name
    bot_policy: str | None = Field(default=None, max_length=20)
    stand_in: str | None = Field(default=None, max_length=20)
    joined_at: datetime = time_column(nullable=False)
    missed_turns: int = Field(default=0)
    absent: bool = Field(default=False)
    # The player replied `stop` to a game email: no more mail about this game.
    mail_stopped: bool = Field(default=False)
    # This player asked to pause the game; it pauses when every player has.
    wants_pause: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    # The player's mail choice for this game (every_turn | digest | reminders | none); null:
    # their account's.
    email_preference: str | None = Field(default=None, max_length=20)
    # The word the player added to the dice seed when they sat down (engine/seeds.py); null for
    # bots and players who gave none.
    seed_contribution: str | None = Field(default=None, max_length=64)


class Seek(SQLModel, table=True):
    """A player's wish for a game (server/seeking/seeks.py): so many seats at such a pace. When
    enough seeks fit each other they make a game that starts by itself; ``game_id`` names it."""

    __tablename__ = "seeks"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    seats: int
    pace: str = Field(max_length=8)
    contribution: str | None = Field(default=None, max_length=64)  # their word for the dice
    created_at: datetime = time_column(nullable=False)
    game_id: str | None = Field(default=None, foreign_key="games.id", index=True, max_length=16)


class Vacation(SQLModel, table=True):
    """A player's time away, as asked (`ends_at` moves earlier when they come back early):
    what the yearly allowance counts (server/vacations/allowance.py)."""

    __tablename__ = "vacations"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    starts_at: datetime = time_column(nullable=False)
    ends_at: datetime = time_column(nullable=False)


class Plan(SQLModel, table=True):
    """The lines a player left for their next turn (server/plans/), played when it comes. Its
    player's alone: no view, feed, export, page or mail of another seat reads this table."""

    __tablename__ = "plans"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    seat: int = Field(primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    lines: list[str] = json_column()
    source: str = Field(max_length=10)  # mail | page | api (the CLI's is the API's)
    made_at: datetime = time_column(nullable=False)


class Invitation(SQLModel, table=True):
    """Every invitation asked for; ``mailed`` says whether its mail was queued (the limits of
    server/games/invitation_limits.py count both)."""

    __tablename__ = "invitations"
    __table_args__ = (
        sa.Index("ix_invitations_invited_by_created_at", "invited_by", "created_at"),
        sa.Index("ix_invitations_email_created_at", "email", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", index=True, max_length=16)
    email: str = Field(max_length=254)
    invited_by: int = Field(foreign_key="users.id")
    created_at: datetime = time_column(nullable=False)
    mailed: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})


class Event(SQLModel, table=True):
    """The append-only log: one row per engine event."""

    __tablename__ = "events"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    seq: int = Field(primary_key=True)
    type: str = Field(max_length=60)
    payload: dict[str, Any] = json_column()
    actor: str = Field(max_length=40)
    at: datetime = time_column(nullable=False)
    rules_version: str = Field(max_length=20)


class Command(SQLModel, table=True):
    """Every accepted command, keyed by the version it was applied at (so the export can be
    re-decided with ``engine.rng_for(seed, version)``)."""

    __tablename__ = "commands"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    version: int = Field(primary_key=True)
    actor: str = Field(max_length=40)
    command: dict[str, Any] = json_column()
    at: datetime = time_column(nullable=False)


class IdempotencyRecord(SQLModel, table=True):
    __tablename__ = "idempotency"

    user_id: int = Field(foreign_key="users.id", primary_key=True)
    key: str = Field(primary_key=True, max_length=200)
    request_hash: str = Field(max_length=64)
    status_code: int
    response: dict[str, Any] = json_column()
    created_at: datetime = time_column(nullable=False)


class Snapshot(SQLModel, table=True):
    """A cached state after ``version`` events. Deleting every row changes nothing but speed."""

    __tablename__ = "snapshots"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    version: int = Field(primary_key=True)
    state: dict[str, Any] = json_column()
    created_at: datetime = time_column(nullable=False)


class Message(SQLModel, table=True):
    """Table talk: what a player said to the table (``players``) or anyone signed in said on a
    public game's spectator channel (``spectators``). Beside the log, not in it: the engine
    never sees a message, and replaying a game reads none. ``dedupe_key`` keeps a mail's `say`
    line from being posted twice when the mail is handled again."""

    __tablename__ = "messages"
    __table_args__ = (
        sa.Index("ix_messages_game_id_id", "game_id", "id"),
        # The per-user, per-game rate limit counts a writer's recent messages.
        sa.Index("ix_messages_game_id_user_id_created_at", "game_id", "user_id", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", max_length=16)
    user_id: int = Field(foreign_key="users.id")
    channel: str = Field(max_length=12)  # players | spectators
    text: str = Field(sa_column=sa.Column(sa.Text(), nullable=False))
    created_at: datetime = time_column(nullable=False)
    dedupe_key: str | None = Field(default=None, max_length=200, unique=True)


class SchedulerTick(SQLModel, table=True):
    __tablename__ = "scheduler_ticks"

    name: str = Field(primary_key=True, max_length=40)
    last_tick_at: datetime = time_column(nullable=False)
