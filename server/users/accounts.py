"""Making an account: one way for the API's POST /users and the register page.

A new address gets its account and token at once (unconfirmed: it is mailed only the
confirmation link until that is used). A taken address gets no account: its owner is mailed that
someone tried, with a link to a new token, and the caller answers as for a new one, so that
registering does not tell who is registered."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.http.auth import authenticated, hash_token, new_token
from server.storage.models import User
from server.users import account_mail


class AlreadyRegistered(Exception):
    """The address has an account already (its owner has been mailed)."""


def by_email(session: Session, email: str) -> User | None:
    return session.exec(select(User).where(User.email == email)).first()


def register_user(session: Session, name: str, email: str, now: datetime) -> tuple[User, str]:
    """Add and commit the user (name and email already validated by UserCreateSchema) and queue
    the mail that confirms the address; the new user and their API token, of which only the hash
    is kept. A taken address raises AlreadyRegistered once its owner's mail is committed."""
    taken = by_email(session, email)
    if taken is None:
        token = new_token()
        user = User(name=name, email=email, token_hash=hash_token(token), created_at=now)
        session.add(user)
        try:
            session.flush()
            account_mail.confirmation(session, user, now)
            session.commit()
        except IntegrityError:  # registered at the same moment by another request
            session.rollback()
            taken = by_email(session, email)
            if taken is None:
                raise
        else:
            authenticated(user.token_hash, user.id)
            return user, token
    account_mail.registered_again(session, taken, now)
    session.commit()
    raise AlreadyRegistered(email)
