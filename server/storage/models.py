"""The database tables (SQLModel). The schema itself is managed by the Alembic migrations in
``server/storage/migrations``; a test checks that the two agree.

All times are timezone-aware UTC in Python (stored as UTC on both SQLite and PostgreSQL).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


class UTCDateTime(sa.types.TypeDecorator):
    """A timestamp that goes in and comes out as aware UTC, whatever the backend keeps."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware UTC time")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def _time(nullable: bool = True, index: bool = False) -> Any:
    if nullable:
        return Field(default=None, sa_column=sa.Column(UTCDateTime(), nullable=True, index=index))
    return Field(default_factory=utcnow, sa_column=sa.Column(UTCDateTime(), nullable=False))


def _json(nullable: bool = False) -> Any:
    return Field(default=None, sa_column=sa.Column(sa.JSON(), nullable=nullable))


class User(SQLModel, table=True):
    __tablename__ = "users"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=80)
    email: str = Field(max_length=254, unique=True)
    token_hash: str = Field(max_length=64, unique=True)
    email_preference: str = Field(default="every_turn", max_length=20)
    # A finished player who chooses their own removal tiles: the server waits for their turn
    # deadline instead of the game's removal grace (RULINGS §5).
    choose_removals: bool = Field(
        default=False, sa_column=sa.Column(sa.Boolean(), nullable=False, server_default=sa.false()))
    # The bot level that plays their turn when its deadline passes (engine/bots/levels.py);
    # null: the server's default (server/games/seat_kinds.py). A seat's own choice wins.
    stand_in: str | None = Field(default=None, max_length=20)
    created_at: datetime = _time(nullable=False)
    # When the owner of the address proved it (a signed link, or a mail from it); until then it
    # is sent only the mails that prove it (server/mail/consent.py).
    verified_at: datetime | None = _time()
    disabled_at: datetime | None = _time()  # by an operator: the token is refused, no mail
    # Since when mail to the address bounces (server/inbound/bounces.py: a hard bounce, or 3
    # soft ones in 7 days): no game mail goes to it until its owner confirms it again.
    email_bouncing_at: datetime | None = _time()
    # On vacation until then (server/vacations): no automatic turns, no reminders, the clocks
    # of the turns waiting for them stopped. Past: back.
    away_until: datetime | None = _time()
    # What mail they choose (server/users/mail_choices.py): email_preference above is
    # every_turn | digest | reminders | none; the digest goes out at digest_hour in time_zone,
    # and nothing goes out in the quiet hours ("22-7", in time_zone) but waits for their end.
    time_zone: str = Field(default="UTC", max_length=64,
                           sa_column_kwargs={"server_default": "UTC"})
    digest_hour: int = Field(default=8, sa_column_kwargs={"server_default": "8"})
    quiet_hours: str | None = Field(default=None, max_length=5)
    next_digest_at: datetime | None = _time(index=True)
    # The language of their pages, mails and answers (server/i18n.py): "en" or "ja"; None until
    # they choose one (the page then follows the browser's Accept-Language, mail is English).
    language: str | None = Field(default=None, max_length=8)
    # The digital edition's display settings (engine/view.py orders the tiles and relics by
    # them): tiles by the gem shown on them or by region, relics by gem type or by category.
    tile_sort: str = Field(default="gem", max_length=10, sa_column_kwargs={"server_default": "gem"})
    relic_sort: str = Field(default="gem", max_length=10,
                            sa_column_kwargs={"server_default": "gem"})


class Game(SQLModel, table=True):
    __tablename__ = "games"

    id: str = Field(primary_key=True, max_length=16)
    status: str = Field(default="open", max_length=10, index=True)  # open | active | finished
    public: bool = Field(default=False)
    created_by: int = Field(foreign_key="users.id")
    created_at: datetime = _time(nullable=False)
    finished_at: datetime | None = _time()
    join_code: str = Field(max_length=16, unique=True)
    seats: int  # number of human seats
    rhom: bool = Field(default=False)
    variants: dict[str, Any] = _json()
    rules_version: str | None = Field(default=None, max_length=20)
    version: int = Field(default=0)
    current_seat: int | None = Field(default=None)
    pending_kind: str | None = Field(default=None, max_length=20)
    turn_started_at: datetime | None = _time()
    deadline_at: datetime | None = _time(index=True)
    next_reminder_at: datetime | None = _time(index=True)
    automatic_due_at: datetime | None = _time(index=True)
    reminder_interval_hours: int = Field(default=24)
    turn_deadline_hours: int = Field(default=72)
    absent_after_missed: int = Field(default=2)
    rhom_delay_seconds: int = Field(default=0)
    removal_grace_hours: int = Field(default=0)
    # Paused by all its players (server/vacations/pauses.py): no deadlines, no reminders, no
    # automatic turns until a player resumes it.
    paused_at: datetime | None = _time()
    # When the pending turn's clock stopped (the game paused, or its player away); when it
    # runs again, the turn's start moves on by the time it stood still.
    held_since: datetime | None = _time()
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
    outcome: dict[str, Any] | None = _json(nullable=True)


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
    joined_at: datetime = _time(nullable=False)
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
    created_at: datetime = _time(nullable=False)
    game_id: str | None = Field(default=None, foreign_key="games.id", index=True, max_length=16)


class Vacation(SQLModel, table=True):
    """A player's time away, as asked (`ends_at` moves earlier when they come back early):
    what the yearly allowance counts (server/vacations/allowance.py)."""

    __tablename__ = "vacations"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    starts_at: datetime = _time(nullable=False)
    ends_at: datetime = _time(nullable=False)


class Plan(SQLModel, table=True):
    """The lines a player left for their next turn (server/plans/), played when it comes. Its
    player's alone: no view, feed, export, page or mail of another seat reads this table."""

    __tablename__ = "plans"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    seat: int = Field(primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    lines: list[str] = _json()
    source: str = Field(max_length=10)  # mail | page | api (the CLI's is the API's)
    made_at: datetime = _time(nullable=False)


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
    created_at: datetime = _time(nullable=False)
    mailed: bool = Field(default=True, sa_column_kwargs={"server_default": sa.true()})


class Event(SQLModel, table=True):
    """The append-only log: one row per engine event."""

    __tablename__ = "events"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    seq: int = Field(primary_key=True)
    type: str = Field(max_length=60)
    payload: dict[str, Any] = _json()
    actor: str = Field(max_length=40)
    at: datetime = _time(nullable=False)
    rules_version: str = Field(max_length=20)


class Command(SQLModel, table=True):
    """Every accepted command, keyed by the version it was applied at (so the export can be
    re-decided with ``engine.rng_for(seed, version)``)."""

    __tablename__ = "commands"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    version: int = Field(primary_key=True)
    actor: str = Field(max_length=40)
    command: dict[str, Any] = _json()
    at: datetime = _time(nullable=False)


class IdempotencyRecord(SQLModel, table=True):
    __tablename__ = "idempotency"

    user_id: int = Field(foreign_key="users.id", primary_key=True)
    key: str = Field(primary_key=True, max_length=200)
    request_hash: str = Field(max_length=64)
    status_code: int
    response: dict[str, Any] = _json()
    created_at: datetime = _time(nullable=False)


class Snapshot(SQLModel, table=True):
    """A cached state after ``version`` events. Deleting every row changes nothing but speed."""

    __tablename__ = "snapshots"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=16)
    version: int = Field(primary_key=True)
    state: dict[str, Any] = _json()
    created_at: datetime = _time(nullable=False)


DEDUPE_KEY_LENGTH = 200  # the width of Outbox.dedupe_key


def dedupe_key(text: str) -> str:
    """``text`` as an outbox dedupe key: itself when it fits the column, else its beginning and
    the sha256 of all of it (an invitation's key quotes an address of up to 254 characters,
    which overflowed the column on PostgreSQL: a 500). Distinct texts keep distinct keys."""
    if len(text) <= DEDUPE_KEY_LENGTH:
        return text
    digest = hashlib.sha256(text.encode()).hexdigest()
    return f"{text[:DEDUPE_KEY_LENGTH - len(digest) - 1]}~{digest}"


class Outbox(SQLModel, table=True):
    """Mail waiting to be sent (written in the transaction that caused it).

    A game notice is queued small: its kind, recipient, game, the game ``version`` it is about,
    the ``seat`` it is for and a little JSON (``extra``: the deadline it quotes, why a turn was
    played for the player). Subject and bodies stay null until the sender renders them from the
    game at that version (server.notifications.render_messages); they are then stored, so a
    retry sends the same words. Mail written whole (invitations) has them from the start."""

    __tablename__ = "outbox"

    id: int | None = Field(default=None, primary_key=True)
    dedupe_key: str = Field(max_length=200, unique=True)
    game_id: str | None = Field(default=None, foreign_key="games.id", index=True, max_length=16)
    user_id: int | None = Field(default=None, foreign_key="users.id", index=True)
    to_email: str = Field(max_length=254)
    kind: str = Field(max_length=40)
    version: int | None = Field(default=None)
    seat: int | None = Field(default=None)
    extra: dict[str, Any] | None = _json(nullable=True)
    subject: str | None = Field(default=None, max_length=200)
    text_body: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    html_body: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    # pending | sent | parked | withheld (never sent: server/mail/consent.py)
    status: str = Field(default="pending", max_length=10, index=True)
    attempts: int = Field(default=0)
    next_attempt_at: datetime | None = _time(index=True)
    last_error: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    created_at: datetime = _time(nullable=False)
    sent_at: datetime | None = _time()


class SchedulerTick(SQLModel, table=True):
    __tablename__ = "scheduler_ticks"

    name: str = Field(primary_key=True, max_length=40)
    last_tick_at: datetime = _time(nullable=False)


class AuditRecord(SQLModel, table=True):
    """What an operator did (`iridescia-server users disable`, `games abort`...), and why."""

    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    at: datetime = _time(nullable=False)
    actor: str = Field(max_length=80)  # operator:<login>
    action: str = Field(max_length=40)  # users.disable | users.enable | games.abort
    target: str = Field(max_length=254, index=True)  # user:<email> | game:<id>
    reason: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))


class InboundMessage(SQLModel, table=True):
    """Every incoming mail, acted on or not, so an operator can tell a player why a move did
    not count (``iridescia-server mail log``). ``message_key`` is the Message-ID (or a digest
    of the message without one): a second delivery of the same mail is recognised by it."""

    __tablename__ = "inbound_messages"
    # The per-sender rate limit counts a sender's recent messages.
    __table_args__ = (sa.Index("ix_inbound_messages_sender_received_at", "sender", "received_at"),)

    id: int | None = Field(default=None, primary_key=True)
    message_key: str = Field(max_length=250, unique=True)
    sender: str = Field(default="", max_length=254)
    recipient: str = Field(default="", max_length=254)
    subject: str = Field(default="", max_length=200)
    user_id: int | None = Field(default=None, foreign_key="users.id")
    game_id: str | None = Field(default=None, max_length=16)
    way_in: str = Field(default="", max_length=10)  # smtp | pipe | imap
    outcome: str = Field(default="received", max_length=20, index=True)
    detail: str = Field(default="", sa_column=sa.Column(sa.Text(), nullable=False))
    applied: list[str] | None = _json(nullable=True)
    received_at: datetime = _time(nullable=False)


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
    created_at: datetime = _time(nullable=False)
    dedupe_key: str | None = Field(default=None, max_length=200, unique=True)


class Webhook(SQLModel, table=True):
    """Where a player wants a game's turns and end POSTed (server/webhooks). One per player and
    game; the one given when a game is created is its creator's. ``secret`` signs each delivery
    (shown to the player once, when set)."""

    __tablename__ = "webhooks"
    __table_args__ = (sa.UniqueConstraint("game_id", "user_id", name="uq_webhooks_game_user"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="games.id", index=True, max_length=16)
    user_id: int = Field(foreign_key="users.id", index=True)
    url: str = Field(sa_column=sa.Column(sa.Text(), nullable=False))
    format: str = Field(default="json", max_length=10)  # json | discord | slack
    secret: str = Field(max_length=64)
    created_at: datetime = _time(nullable=False)


class WebhookDelivery(SQLModel, table=True):
    """One POST owed to a webhook, queued in the transaction of the turn change it tells of and
    delivered by the scheduler's ``webhooks`` job like mail (server/webhooks/delivery.py): the
    same statuses (pending | sent | parked), attempts, backoff and lease. ``body`` is null until
    the first attempt renders it from the game at ``version``; a retry sends the same bytes."""

    __tablename__ = "webhook_deliveries"

    id: int | None = Field(default=None, primary_key=True)
    dedupe_key: str = Field(max_length=200, unique=True)
    webhook_id: int = Field(foreign_key="webhooks.id", index=True)
    game_id: str = Field(foreign_key="games.id", max_length=16)
    version: int
    event: str = Field(max_length=20)  # turn | game_over
    body: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    status: str = Field(default="pending", max_length=10, index=True)
    attempts: int = Field(default=0)
    next_attempt_at: datetime | None = _time(index=True)
    last_error: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    created_at: datetime = _time(nullable=False)
    sent_at: datetime | None = _time()


class PageSession(SQLModel, table=True):
    """A browser signed in on the pages (server/users/sign_in.py). Its cookie carries the
    session's secret id, of which only the hash is kept; the row says whether it is still on:
    signing out ends it here, so a copy of the cookie is worth nothing after. A session started
    by a sign-in link records the link's digest, unique: each link starts one session only."""

    __tablename__ = "page_sessions"

    id_hash: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(foreign_key="users.id", index=True)
    link_digest: str | None = Field(default=None, max_length=64, unique=True)
    created_at: datetime = _time(nullable=False)
    ended_at: datetime | None = _time()


class MailBounce(SQLModel, table=True):
    """A bounce of our mail to an account's address (server/inbound/bounces.py): a DSN or a
    mail to a message's VERP envelope sender, by whichever way it came in."""

    __tablename__ = "mail_bounces"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    email: str = Field(max_length=254)
    hard: bool
    detail: str = Field(default="", max_length=500)
    at: datetime = _time(nullable=False)
