"""Whether an account's address gets mail: `email_status` as the API, the CLIs and the pages
tell it. An address is marked bouncing by server/inbound/bounces.py and cleared by confirming
it again (server/users/verification.py)."""

from __future__ import annotations

from sqlmodel import Session, select

from server.storage.models import User


def email_status(user: User) -> str:
    """"bouncing" (mail to the address comes back: no game mail until it is confirmed again),
    "unconfirmed" or "ok"."""
    if user.email_bouncing_at is not None:
        return "bouncing"
    return "ok" if user.verified_at is not None else "unconfirmed"


def accounts(session: Session, bouncing_only: bool = False) -> list[User]:
    """Every account by id (only those whose address bounces, when asked)."""
    statement = select(User).order_by(User.id)
    if bouncing_only:
        statement = statement.where(User.email_bouncing_at.is_not(None))
    return list(session.exec(statement).all())
