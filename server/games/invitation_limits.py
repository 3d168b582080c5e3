"""Bounds on invitation mail, so that an account cannot make Iridescia mail chosen addresses at
will (issue 16: one free account sent 1,161 invitations in 15 s).

- An invitation is mailed only for an inviter whose own address is confirmed.
- Each user may invite INVITATIONS_PER_USER_HOUR an hour and INVITATIONS_PER_USER_DAY a day
  (mailed or not); more answer 429 saying when they may invite again.
- Each address may be mailed INVITATIONS_PER_ADDRESS_HOUR invitations an hour and
  INVITATIONS_PER_ADDRESS_DAY a day, whoever sends them; more answer 429 likewise.
- An address no confirmed account has is mailed one invitation, then none for
  INVITATION_QUIET_DAYS: an invitation asked for meanwhile is recorded and answered with the join
  code and ``mailed: false``, so the inviter can pass the code on themselves. The answer does
  not say whether the address has an account.
- Each user may have OPEN_GAMES_PER_USER games that they created and that have not started.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import func
from sqlmodel import Session, select

from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Game, Invitation, User

HOUR, DAY = timedelta(hours=1), timedelta(days=1)


@dataclass(frozen=True)
class Decision:
    mail: bool
    note: Said | None = None


def _limit(name: str) -> int:
    return int(current_app.config[name])


# Who reached a bound, and when they may again; by (whose bound, the window's length).
REACHED = {
    ("inviter", HOUR): N_("you have sent {count} invitations in the past hour, the most allowed: "
                          "you may invite again at {at} UTC (in {minutes} minutes)"),
    ("inviter", DAY): N_("you have sent {count} invitations in the past day, the most allowed: "
                         "you may invite again at {at} UTC (in {minutes} minutes)"),
    ("address", HOUR): N_("{email} has been sent {count} invitations in the past hour, the most "
                          "allowed: it may be invited again at {at} UTC (in {minutes} minutes)"),
    ("address", DAY): N_("{email} has been sent {count} invitations in the past day, the most "
                         "allowed: it may be invited again at {at} UTC (in {minutes} minutes)"),
}


def _refuse(whose: str, email: str, count: int, window: timedelta, oldest: datetime,
            now: datetime) -> None:
    again = oldest + window
    wait = max(1, math.ceil((again - now).total_seconds()))
    minutes = max(1, math.ceil(wait / 60))
    message = REACHED[whose, window]
    if count == 1:
        message = message.replace("{count} invitations", "{count} invitation")
    if minutes == 1:
        message = message.replace("{minutes} minutes", "{minutes} minute")
    fail(429, Said(message, email=email, count=count, at=f"{again:%Y-%m-%d %H:%M}",
                   minutes=minutes), headers={"Retry-After": str(wait)},
         retry_after=wait, retry_at=again.isoformat())


def _window(session: Session, condition, window: timedelta, now: datetime):
    """(count, oldest created_at) of the invitations matching ``condition`` in the window."""
    return session.exec(select(func.count(), func.min(Invitation.created_at))
                        .where(condition, Invitation.created_at > now - window)).one()


def _oldest_counted(session: Session, condition, window: timedelta, now: datetime,
                    limit: int) -> datetime:
    """When the window will hold one fewer than ``limit``: the created_at of the invitation that
    leaves it first among the newest ``limit``."""
    rows = session.exec(select(Invitation.created_at)
                        .where(condition, Invitation.created_at > now - window)
                        .order_by(Invitation.created_at.desc()).limit(limit)).all()
    moment = rows[-1]
    return moment if moment.tzinfo else moment.replace(tzinfo=now.tzinfo)


def _bound(session: Session, condition, name_hour: str, name_day: str, now: datetime,
           whose: str, email: str) -> None:
    for name, window in ((name_hour, HOUR), (name_day, DAY)):
        limit = _limit(name)
        count, _oldest = _window(session, condition, window, now)
        if limit > 0 and count >= limit:
            _refuse(whose, email, count, window,
                    _oldest_counted(session, condition, window, now, limit), now)


def check(session: Session, inviter: User, email: str, now: datetime) -> Decision:
    """429 over a rate; otherwise whether to mail the invitation (and what to say if not)."""
    _bound(session, Invitation.invited_by == inviter.id, "INVITATIONS_PER_USER_HOUR",
           "INVITATIONS_PER_USER_DAY", now, "inviter", email)
    mailed_to = (Invitation.email == email) & Invitation.mailed
    _bound(session, mailed_to, "INVITATIONS_PER_ADDRESS_HOUR", "INVITATIONS_PER_ADDRESS_DAY",
           now, "address", email)
    if inviter.verified_at is None:
        return Decision(False, Said(N_(
            "{email} is not mailed: confirm your own address first (open the link mailed to you; "
            "`iridescia confirm --resend` sends a new one). Meanwhile give them the join code "
            "yourself."), email=email))
    owner = session.exec(select(User.id, User.verified_at).where(User.email == email)).first()
    if owner is not None and owner.verified_at is not None:
        return Decision(True)
    quiet = _limit("INVITATION_QUIET_DAYS")
    if owner is None and _window(session, mailed_to, timedelta(days=quiet), now)[0] == 0:
        return Decision(True)  # the first mail this address gets from us
    return Decision(False, Said(N_(
        "{email} is not mailed: an address whose owner has not confirmed it to Iridescia is "
        "mailed one invitation, then none for {quiet} days. Give them the join code yourself."),
        email=email, quiet=quiet))


def check_open_games(session: Session, user: User) -> None:
    """422 when the user already has the most open games they may create."""
    limit = _limit("OPEN_GAMES_PER_USER")
    count = session.exec(select(func.count()).select_from(Game).where(
        Game.created_by == user.id, Game.status == "open")).one()
    if limit > 0 and count >= limit:
        fail(422, Said(N_("you have {count} open games, the most one player may have: start or "
                          "leave one of them before creating another (`iridescia games` lists "
                          "them)"), count=count), open_games=count, limit=limit)
