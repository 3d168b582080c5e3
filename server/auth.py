"""API tokens and the per-token rate limit.

A token is 32 random bytes (url-safe base64), shown once; the database keeps only its sha256, which
is enough for a token of that entropy. Clients send ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import threading
import time
from collections import defaultdict

from flask import Flask, current_app, g, request
from sqlalchemy import bindparam
from sqlmodel import select

from server.db import db_session
from server.errors import fail
from server.models import User

BEARER = {"bearerAuth": []}
SECURITY_REQUIRED = [BEARER]
SECURITY_OPTIONAL = [{}, BEARER]


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def refuse_token() -> None:
    fail(401, "this API token is not valid (rotated?): use your current token",
         headers={"WWW-Authenticate": "Bearer"})


def refuse_if_disabled(disabled_at) -> None:  # noqa: ANN001
    """403 for the token of an account an operator disabled (`iridescia-server users disable`)."""
    if disabled_at is not None:
        fail(403, "this account was disabled by the server's operator: ask them to enable it")


def bearer_token() -> str | None:
    """The token of an 'Authorization: Bearer' header, None without one."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


# Built once: this runs on nearly every request, and building it cost more than running it.
_USER_BY_TOKEN = select(User).where(User.token_hash == bindparam("token_hash"))


def current_user() -> User | None:
    """The authenticated user, None without a token; 401 for a token that is not valid."""
    if "current_user" in g:
        return g.current_user
    token = bearer_token()
    user = None
    if token is not None:
        user = db_session().exec(
            _USER_BY_TOKEN, params={"token_hash": hash_token(token)}  # type: ignore[call-overload]
        ).first()
        if user is None:
            refuse_token()
        refuse_if_disabled(user.disabled_at)
    elif request.headers.get("Authorization"):
        fail(401, "send your API token as 'Authorization: Bearer <token>'",
             headers={"WWW-Authenticate": "Bearer"})
    g.current_user = user
    return user


def require_user() -> User:
    user = current_user()
    if user is None:
        fail(401, "send your API token as 'Authorization: Bearer <token>'",
             headers={"WWW-Authenticate": "Bearer"})
    return user


class RateLimiter:
    """Fixed one-minute windows per client key; thread-safe, in-process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, int], int] = defaultdict(int)

    def hit(self, key: str, limit: int, now: float | None = None) -> int | None:
        """Count a request; None when allowed, else the seconds until the window ends."""
        now = time.time() if now is None else now
        window = int(now // 60)
        with self._lock:
            if len(self._counts) > 10_000:
                for stale in [k for k in self._counts if k[1] < window]:
                    del self._counts[stale]
            self._counts[(key, window)] += 1
            if self._counts[(key, window)] <= limit:
                return None
        return max(1, math.ceil((window + 1) * 60 - now))


def init_app(app: Flask) -> None:
    limiter = RateLimiter()
    app.extensions["iridescia_rate_limiter"] = limiter

    @app.before_request
    def _rate_limit() -> None:
        limit = current_app.config["RATE_LIMIT"]
        if limit <= 0 or not request.path.startswith("/api/"):
            return
        token = bearer_token()
        key = "t:" + hash_token(token) if token else "a:" + (request.remote_addr or "?")
        retry_after = limiter.hit(key, limit)
        if retry_after is not None:
            fail(429, f"too many requests: at most {limit} a minute; retry in {retry_after} seconds",
                 headers={"Retry-After": str(retry_after)}, retry_after=retry_after)
