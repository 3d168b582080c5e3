"""Making an account: one way for the API's POST /users and the register page."""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from server.auth import hash_token, new_token
from server.models import User


class AlreadyRegistered(Exception):
    """The address has an account already."""


def register_user(session: Session, name: str, email: str) -> tuple[User, str]:
    """Add and commit the user (name and email already validated by UserCreateSchema); the new
    user and their API token, which only its hash is kept of."""
    if session.exec(select(User).where(User.email == email)).first() is not None:
        raise AlreadyRegistered(email)
    token = new_token()
    user = User(name=name, email=email, token_hash=hash_token(token))
    session.add(user)
    try:
        session.commit()
    except IntegrityError:  # registered at the same moment by another request
        session.rollback()
        raise AlreadyRegistered(email) from None
    return user, token
