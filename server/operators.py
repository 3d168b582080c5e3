"""What operators do to accounts and games (`iridescia-server users`, `iridescia-server games`),
each recorded in the audit log with who did it and why.

    disable_user(session, "eve@example.org", actor, now)   # token refused (403), no more mail
    abort_game(session, "k3x9q2ab", "cheating", actor, now)  # aborted; the players are mailed
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, update
from sqlmodel import Session, select

from server import i18n
from server.i18n import N_, plain_mail
from server.storage.models import AuditRecord, Event, Game, Outbox, Seat, User, dedupe_key


class OperatorError(Exception):
    """The command cannot be done as asked; the message says why and what to do."""


def _record(session: Session, actor: str, action: str, target: str, reason: str | None,
            now: datetime) -> None:
    session.add(AuditRecord(at=now, actor=actor, action=action, target=target, reason=reason))


def _user(session: Session, email: str) -> User:
    user = session.exec(select(User).where(User.email == email.strip().lower())).first()
    if user is None:
        raise OperatorError(f"no user has the email {email!r}")
    return user


def disable_user(session: Session, email: str, reason: str | None, actor: str,
                 now: datetime) -> tuple[User, int]:
    """Refuse the user's token from now on and send them nothing more: mail still waiting for
    them is parked (`enable_user` queues it again). Returns the user and how many were."""
    user = _user(session, email)
    if user.disabled_at is not None:
        since = f"{user.disabled_at:%Y-%m-%d %H:%M} UTC"
        raise OperatorError(f"{user.email} is already disabled (since {since})")
    user.disabled_at = now
    session.add(user)
    parked = session.connection().execute(
        update(Outbox.__table__)
        .where(Outbox.status == "pending",
               or_(Outbox.user_id == user.id, Outbox.to_email == user.email))
        .values(status="parked", last_error="not sent: the account was disabled by an operator")
    ).rowcount
    _record(session, actor, "users.disable", f"user:{user.email}", reason, now)
    return user, parked


def enable_user(session: Session, email: str, reason: str | None, actor: str,
                now: datetime) -> User:
    user = _user(session, email)
    if user.disabled_at is None:
        raise OperatorError(f"{user.email} is not disabled")
    user.disabled_at = None
    session.add(user)
    session.connection().execute(
        update(Outbox.__table__)
        .where(Outbox.status == "parked",
               Outbox.last_error == "not sent: the account was disabled by an operator",
               or_(Outbox.user_id == user.id, Outbox.to_email == user.email))
        .values(status="pending", attempts=0, next_attempt_at=now, last_error=None)
    )
    _record(session, actor, "users.enable", f"user:{user.email}", reason, now)
    return user


def _game(session: Session, game_id: str) -> Game:
    game = session.exec(select(Game).where(Game.id == game_id).with_for_update(key_share=True)
                        .execution_options(populate_existing=True)).first()
    if game is None:
        raise OperatorError(f"there is no game {game_id!r}")
    return game


def abort_game(session: Session, game_id: str, reason: str, actor: str, now: datetime) -> list[str]:
    """End the game as aborted (no more commands, reminders or automatic turns) and mail its
    players the reason. Returns the addresses mailed."""
    if not reason.strip():
        raise OperatorError("say why the game is aborted: --why 'the reason'")
    game = _game(session, game_id)
    if game.status in ("finished", "closed", "aborted"):
        raise OperatorError(f"game {game.id} is {game.status} already: there is nothing to abort")
    game.status, game.finished_at = "aborted", now
    game.current_seat = game.pending_kind = None
    game.deadline_at = game.next_reminder_at = game.automatic_due_at = None
    session.add(game)
    players = session.exec(
        select(User).join(Seat, Seat.user_id == User.id)
        .where(Seat.game_id == game.id, User.disabled_at.is_(None))
    ).all()
    for user in players:  # each in their language; the operator's reason as they wrote it
        language = i18n.mail_language(user)
        subject = i18n.translate(language, N_("Gems of Iridescia {game}: the game was aborted"),
                                 game=game.id)
        text, html = plain_mail.bodies(language, subject, [
            i18n.translate(language, N_("The server's operator aborted game {game}."),
                           game=game.id),
            i18n.translate(language, N_("The reason given: {reason}"), reason=reason.strip()),
            i18n.gettext(language, N_("No more moves can be played in it.")),
        ])
        session.add(Outbox(
            dedupe_key=dedupe_key(f"{game.id}/aborted/user{user.id}"), game_id=game.id,
            user_id=user.id, to_email=user.email, kind="game_aborted", subject=subject,
            text_body=text, html_body=html, status="pending", next_attempt_at=now,
            created_at=now,
        ))
    _record(session, actor, "games.abort", f"game:{game.id}", reason.strip(), now)
    return [user.email for user in players]


def game_report(session: Session, game_id: str, events: int = 10) -> dict:
    """What `games show` prints: the game's row, its players and its latest events (types and
    actors only: payloads hold hidden information), and its audit records. No seed, join code
    or token."""
    game = session.get(Game, game_id)
    if game is None:
        raise OperatorError(f"there is no game {game_id!r}")
    creator = session.get(User, game.created_by)
    players = session.exec(
        select(Seat, User).join(User, User.id == Seat.user_id, isouter=True)
        .where(Seat.game_id == game.id)
    ).all()
    latest = session.exec(select(Event).where(Event.game_id == game.id)
                          .order_by(Event.seq.desc()).limit(events)).all()  # type: ignore[union-attr]
    audit = session.exec(select(AuditRecord).where(AuditRecord.target == f"game:{game.id}")
                         .order_by(AuditRecord.id)).all()
    return {"game": game, "creator": creator,
            "players": sorted(players, key=lambda p: (p[0].seat is None, p[0].seat or 0,
                                                      p[0].joined_at)),
            "events": list(reversed(latest)), "audit": audit}


def audit_trail(session: Session, limit: int = 50) -> list[AuditRecord]:
    rows = session.exec(select(AuditRecord).order_by(AuditRecord.id.desc()).limit(limit)).all()  # type: ignore[union-attr]
    return list(reversed(rows))
