"""Who is calling: the user of the request's API token (server/http/tokens.py).

Every token the database accepts is reported to the rate limiter (its requests then count
against its user) and every one it refuses counts as a failed authentication of the client's
address (server/http/rate_limits.py).
"""

from __future__ import annotations

from flask import g, request
from sqlalchemy import bindparam
from sqlmodel import select

from server.http import rate_limits
from server.http.errors import fail
from server.http.tokens import EXPECTED_FORM, bearer_token, hash_token, new_token
from server.storage.db import db_session
from server.storage.models import User

__all__ = ["bearer_token", "hash_token", "new_token", "current_user", "require_user",
           "refuse_token", "authenticated"]

BEARER = {"bearerAuth": []}
SECURITY_REQUIRED = [BEARER]
SECURITY_OPTIONAL = [{}, BEARER]


def refuse_token() -> None:
    rate_limits.count_failed_authentication()
    fail(401, "this API token is not valid (rotated?): use your current token",
         headers={"WWW-Authenticate": "Bearer"})


def refuse_if_disabled(disabled_at) -> None:  # noqa: ANN001
    """403 for the token of an account an operator disabled (`iridescia-server users disable`)."""
    if disabled_at is not None:
        fail(403, "this account was disabled by the server's operator: ask them to enable it")


def authenticated(token_hash: str, user_id: int) -> None:
    """The database accepted this token for this user."""
    rate_limits.authenticated(token_hash, user_id)


# Built once: this runs on nearly every request, and building it cost more than running it.
_USER_BY_TOKEN = select(User).where(User.token_hash == bindparam("token_hash"))


def current_user() -> User | None:
    """The authenticated user, None without a token; 401 for a token that is not valid."""
    if "current_user" in g:
        return g.current_user
    token = bearer_token()
    user = None
    if token is not None:
        token_hash = hash_token(token)
        user = db_session().exec(
            _USER_BY_TOKEN, params={"token_hash": token_hash}  # type: ignore[call-overload]
        ).first()
        if user is None:
            refuse_token()
        authenticated(token_hash, user.id)
        refuse_if_disabled(user.disabled_at)
    elif "Authorization" in request.headers:
        rate_limits.count_failed_authentication()
        fail(401, EXPECTED_FORM, headers={"WWW-Authenticate": "Bearer"},
             authorization="not of the form 'Bearer <token>'")
    g.current_user = user
    return user


def require_user() -> User:
    user = current_user()
    if user is None:
        fail(401, "send your API token as 'Authorization: Bearer <token>'",
             headers={"WWW-Authenticate": "Bearer"})
    return user
