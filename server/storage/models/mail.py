"""Mail out (the outbox) and in (every incoming message, bounces)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from server.storage.models.columns import json_column, time_column

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
    extra: dict[str, Any] | None = json_column(nullable=True)
    subject: str | None = Field(default=None, max_length=200)
    text_body: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    html_body: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    # pending | sent | parked | withheld (never sent: server/mail/consent.py)
    status: str = Field(default="pending", max_length=10, index=True)
    attempts: int = Field(default=0)
    next_attempt_at: datetime | None = time_column(index=True)
    last_error: str | None = Field(default=None, sa_column=sa.Column(sa.Text(), nullable=True))
    created_at: datetime = time_column(nullable=False)
    sent_at: datetime | None = time_column()


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
    applied: list[str] | None = json_column(nullable=True)
    received_at: datetime = time_column(nullable=False)


class MailBounce(SQLModel, table=True):
    """A bounce of our mail to an account's address (server/inbound/bounces.py): a DSN or a
    mail to a message's VERP envelope sender, by whichever way it came in."""

    __tablename__ = "mail_bounces"

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", index=True)
    email: str = Field(max_length=254)
    hard: bool
    detail: str = Field(default="", max_length=500)
    at: datetime = time_column(nullable=False)
