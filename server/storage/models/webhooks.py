"""Webhooks and their deliveries."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from server.storage.models.columns import time_column


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
    created_at: datetime = time_column(nullable=False)


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
    next_attempt_at: datetime | None = time_column(index=True)
    last_error: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    created_at: datetime = time_column(nullable=False)
    sent_at: datetime | None = time_column()
