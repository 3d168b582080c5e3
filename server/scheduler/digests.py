"""The daily digest: at each player's `digest_hour` in their time zone, one mail listing every
game where it is their turn and they chose the digest (server/users/mail_choices.py), with
the time left, a link to the board's picture and the address to reply to for each. Nothing when
no game waits for them, nor while they are on vacation.

Users are claimed by `users.next_digest_at` (locked, SKIP LOCKED: two schedulers never send the
same digest), and the mail is written whole when it is queued; its dedupe key names the user and
the day, so a day has one digest at most.
"""

from __future__ import annotations

import logging
from datetime import datetime

from babel.dates import format_date
from flask import current_app
from sqlalchemy import func
from sqlmodel import select

from server import i18n
from server.games.pace import time_left
from server.i18n import N_
from server.mail.reply_addresses import ReplyBase, play_address
from server.notifications import insert_many
from server.notifications.context import base_url, format_time
from server.notifications.render import code, render_template
from server.storage.db import session_scope
from server.storage.models import Game, Seat, User
from server.users.mail_choices import links_for, next_digest, quiet_until, zone
from server.users.sign_in import magic_link

log = logging.getLogger(__name__)
DIGEST_BATCH = 50


def digest_batch(db, now: datetime) -> list[int] | None:
    """Send the digests due at `now` for up to `DIGEST_BATCH` users; the ids of those mailed
    (None: no digest was due)."""
    with session_scope(db) as session:
        users = list(session.exec(
            select(User)
            .where(User.next_digest_at.is_not(None), User.next_digest_at <= now)  # type: ignore[union-attr]
            .order_by(User.next_digest_at, User.id)
            .limit(DIGEST_BATCH)
            .with_for_update(skip_locked=True)
        ))
        if not users:
            return None
        rows, mailed = [], []
        for user in users:
            user.next_digest_at = next_digest(user.digest_hour, user.time_zone, now)
            session.add(user)
            away = user.away_until is not None and user.away_until > now
            games = [] if away or user.disabled_at is not None else waiting_games(session, user)
            if games:
                rows.append(_row(session, user, games, now))
                mailed.append(user.id)
        insert_many(session, rows)
    for user_id in mailed:
        log.info("daily digest queued for user %d", user_id)
    return mailed


def waiting_games(session, user: User) -> list[Game]:
    """The user's active games where the decision is theirs and they chose the digest."""
    choice = func.coalesce(Seat.email_preference, user.email_preference)
    return list(session.exec(
        select(Game).join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status == "active",
               Game.current_seat == Seat.seat, choice == "digest",
               Seat.mail_stopped.is_(False))  # type: ignore[attr-defined]
        .order_by(Game.deadline_at, Game.id)
    ))


def _entry(user: User, game: Game, now: datetime) -> dict:

    config = current_app.config
    base = ReplyBase.parse(config["REPLY_ADDRESS"])
    language = i18n.mail_language(user)
    return {
        "game_id": game.id,
        "deadline": i18n.deadline(format_time(game.deadline_at), language, user.time_zone),
        "time_left": i18n.time_left(time_left(game.deadline_at, now), language),
        "paused": game.paused_at is not None,
        "decision": N_("your removal turn") if game.pending_kind == "removal" else N_("your turn"),
        "picture": magic_link(user.id, user.token_hash, f"/games/{game.id}/board.png"),
        "page": magic_link(user.id, user.token_hash, f"/games/{game.id}"),
        "reply_to": play_address(base, config["SECRET_KEY"], user.id, user.token_hash, game.id,
                                 game.version),
    }


def _row(session, user: User, games: list[Game], now: datetime) -> dict:

    day = now.astimezone(zone(user.time_zone)).date()
    language = i18n.mail_language(user)
    # The day as the reader's language writes it (English: 2026-12-24, Japanese: 2026年12月24日).
    shown = day.isoformat() if language == "en" else format_date(day, "long", locale=language)
    context = {"name": user.name, "day": shown, "time_zone": user.time_zone,
               "games": [_entry(user, game, now) for game in games],
               "choices": links_for(user.id, user.token_hash, "digest", None),
               "digest_hour": user.digest_hour, "base_url": base_url(),
               "legal_code": code("legal")}
    count = len(games)
    subject = i18n.translate(language, N_("Gems of Iridescia: your turn in {count} game ({day})")
                             if count == 1 else
                             N_("Gems of Iridescia: your turn in {count} games ({day})"),
                             count=count, day=shown)
    return {
        "dedupe_key": f"digest/user{user.id}/{day.isoformat()}",
        "game_id": None, "user_id": user.id, "to_email": user.email, "kind": "digest",
        "version": None, "seat": None, "extra": None, "subject": subject,
        "text_body": render_template("digest.txt", context, language),
        "html_body": render_template("digest.html", context, language),
        "status": "pending", "attempts": 0,
        "next_attempt_at": quiet_until(user.quiet_hours, user.time_zone, now) or now,
        "last_error": None, "created_at": now, "sent_at": None,
    }
