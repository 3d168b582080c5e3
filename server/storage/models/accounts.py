"""The accounts: users, their page sessions, and what operators did to them."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from server.storage.models.columns import time_column


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
    created_at: datetime = time_column(nullable=False)
    # When the owner of the address proved it (a signed link, or a mail from it); until then it
    # is sent only the mails that prove it (server/mail/consent.py).
    verified_at: datetime | None = time_column()
    disabled_at: datetime | None = time_column()  # by an operator: the token is refused, no mail
    # Since when mail to the address bounces (server/inbound/bounces.py: a hard bounce, or 3
    # soft ones in 7 days): no game mail goes to it until its owner confirms it again.
    email_bouncing_at: datetime | None = time_column()
    # On vacation until then (server/vacations): no automatic turns, no reminders, the clocks
    # of the turns waiting for them stopped. Past: back.
    away_until: datetime | None = time_column()
    # What mail they choose (server/users/mail_choices.py): email_preference above is
    # every_turn | digest | reminders | none; the digest goes out at digest_hour in time_zone,
    # and nothing goes out in the quiet hours ("22-7", in time_zone) but waits for their end.
    time_zone: str = Field(default="UTC", max_length=64,
                           sa_column_kwargs={"server_default": "UTC"})
    digest_hour: int = Field(default=8, sa_column_kwargs={"server_default": "8"})
    quiet_hours: str | None = Field(default=None, max_length=5)
    next_digest_at: datetime | None = time_column(index=True)
    # The language of their pages, mails and answers (server/i18n.py): "en" or "ja"; None until
    # they choose one (the page then follows the browser's Accept-Language, mail is English).
    language: str | None = Field(default=None, max_length=8)
    # The digital edition's display settings (engine/view.py orders the tiles and relics by
    # them): tiles by the gem shown on them or by region, relics by gem type or by category.
    tile_sort: str = Field(default="gem", max_length=10, sa_column_kwargs={"server_default": "gem"})
    relic_sort: str = Field(default="gem", max_length=10,
                            sa_column_kwargs={"server_default": "gem"})


class PageSession(SQLModel, table=True):
    """A browser signed in on the pages (server/users/sign_in.py). Its cookie carries the
    session's secret id, of which only the hash is kept; the row says whether it is still on:
    signing out ends it here, so a copy of the cookie is worth nothing after. A session started
    by a sign-in link records the link's digest, unique: each link starts one session only."""

    __tablename__ = "page_sessions"

    id_hash: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(foreign_key="users.id", index=True)
    link_digest: str | None = Field(default=None, max_length=64, unique=True)
    created_at: datetime = time_column(nullable=False)
    ended_at: datetime | None = time_column()


class AuditRecord(SQLModel, table=True):
    """What an operator did (`iridescia-server users disable`, `games abort`...), and why."""

    __tablename__ = "audit_log"

    id: int | None = Field(default=None, primary_key=True)
    at: datetime = time_column(nullable=False)
    actor: str = Field(max_length=80)  # operator:<login>
    action: str = Field(max_length=40)  # users.disable | users.enable | games.abort
    target: str = Field(max_length=254, index=True)  # user:<email> | game:<id>
    reason: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
