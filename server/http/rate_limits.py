"""Request rate limits, with Flask-Limiter on the `limits` library.

One budget of ``RATE_LIMIT`` requests a minute per authenticated user, else per client address.
A user's budget is found without touching the database: `KNOWN_TOKENS` maps the hash of each
token this process has accepted (or issued) to its user, so the key is decided before the view
runs and the command post pays no query for it. A token this process has not accepted counts
against the client's address, whatever it is: an arbitrary Bearer header buys no budget. A
token that fails authentication costs the address one of its ``AUTH_FAILURE_LIMIT`` failures a
minute; once they are spent, requests with tokens this process does not know answer 429 unless
the token is valid (one indexed read), so a guesser never locks out its neighbours. Requests that send mail to an address the caller names (registration, token
recovery) have ``ACCOUNT_REQUESTS_PER_HOUR`` per client address.

The counters live in ``RATE_LIMIT_STORAGE``: memory (one process) by default, Redis
(``redis://host:6379``) when several processes serve, so that they share each budget. If Redis
stops answering, each process falls back to counting in memory until it is back.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict

from flask import Flask, current_app, g, request
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItemPerHour, RateLimitItemPerMinute
from sqlmodel import select
from werkzeug.middleware.proxy_fix import ProxyFix

from server.http.errors import error_response, fail
from server.http.tokens import bearer_token, hash_token
from server.storage.db import db_session
from server.storage.models import User

_EXEMPT_PREFIXES = ("/docs", "/openapi.json")


class KnownTokens:
    """A bounded, thread-safe map from the hash of an accepted token to its user id (least
    recently used entries go first). It only chooses budgets: authentication still asks the
    database, so a stale entry (a token rotated in another process) costs nothing but that
    user's budget, and the request is refused as before."""

    def __init__(self, size: int = 50_000) -> None:
        self._size = size
        self._users: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def user_of(self, token_hash: str) -> int | None:
        with self._lock:
            user_id = self._users.get(token_hash)
            if user_id is not None:
                self._users.move_to_end(token_hash)
            return user_id

    def remember(self, token_hash: str, user_id: int) -> None:
        with self._lock:
            self._users[token_hash] = user_id
            self._users.move_to_end(token_hash)
            if len(self._users) > self._size:
                self._users.popitem(last=False)

    def forget(self, token_hash: str) -> None:
        with self._lock:
            self._users.pop(token_hash, None)


KNOWN_TOKENS = KnownTokens()


def _token_hash() -> str | None:
    if "token_hash" not in g:
        token = bearer_token()
        g.token_hash = hash_token(token) if token is not None else None
    return g.token_hash


def client_address() -> str:
    """The client's address: REMOTE_ADDR, which ProxyFix sets from X-Forwarded-For when
    ``TRUSTED_PROXIES`` proxies are in front."""
    return request.remote_addr or "unknown"


def budget_key() -> str:
    token_hash = _token_hash()
    user_id = KNOWN_TOKENS.user_of(token_hash) if token_hash else None
    return f"user:{user_id}" if user_id is not None else f"address:{client_address()}"


def _limiter() -> Limiter:
    return current_app.extensions["iridescia_limiter"]


def _enabled() -> bool:
    return current_app.config["RATE_LIMIT"] > 0


def _retry_after(item, *identifiers: str) -> int:
    reset_at, _remaining = _limiter().limiter.get_window_stats(item, *identifiers)
    return min(item.get_expiry(), max(1, math.ceil(reset_at - time.time())))


def _refuse(what: str, item, *identifiers: str) -> None:
    retry = _retry_after(item, *identifiers)
    per = "a minute" if item.GRANULARITY.name == "minute" else "an hour"
    fail(429, f"{what}: at most {item.amount} {per}; retry in {retry} seconds",
         headers={"Retry-After": str(retry)}, retry_after=retry)


def _failures_item():
    return RateLimitItemPerMinute(current_app.config["AUTH_FAILURE_LIMIT"])


def _identifiers(kind: str) -> tuple[str, ...]:
    return (current_app.config["RATE_LIMIT_KEY_PREFIX"], kind, f"address:{client_address()}")


def authenticated(token_hash: str, user_id: int) -> None:
    """The database accepted this token: its requests count against its user from now on."""
    KNOWN_TOKENS.remember(token_hash, user_id)


def count_failed_authentication() -> None:
    """A token was refused: spend one of the address's failures (429 once they are spent)."""
    if not _enabled():
        return
    item = _failures_item()
    identifiers = _identifiers("auth-failures")
    if not _limiter().limiter.hit(item, *identifiers):
        _refuse("too many failed authentications from your address", item, *identifiers)


def spend_account_request() -> None:
    """One request that mails an address the caller chose (registration, recovery): 429 once
    the client's address has made ``ACCOUNT_REQUESTS_PER_HOUR`` this hour."""
    if not _enabled():
        return
    item = RateLimitItemPerHour(current_app.config["ACCOUNT_REQUESTS_PER_HOUR"])
    identifiers = _identifiers("account-requests")
    if not _limiter().limiter.hit(item, *identifiers):
        _refuse("too many account requests from your address", item, *identifiers)


def _refuse_known_guessers() -> None:
    """A token this process has not accepted, from an address whose failures are spent, is
    refused unless it is a valid token: a guesser behind a shared NAT or proxy must not lock
    its neighbours out (issue 32, N4; processes forget the tokens they knew at every restart).
    The check is one read by the token's unique index; the guesses stay bounded by the
    address's request budget."""
    token_hash = _token_hash()
    if token_hash is None or KNOWN_TOKENS.user_of(token_hash) is not None:
        return
    item = _failures_item()
    identifiers = _identifiers("auth-failures")
    if not _limiter().limiter.test(item, *identifiers):
        user_id = db_session().exec(select(User.id).where(User.token_hash == token_hash)).first()
        if user_id is None:
            _refuse("too many failed authentications from your address", item, *identifiers)
        KNOWN_TOKENS.remember(token_hash, user_id)


def _too_many_requests(error: RateLimitExceeded):
    limit = current_app.config["RATE_LIMIT"]
    current = _limiter().current_limit
    retry = min(60, max(1, math.ceil(current.window.reset_time - time.time()))) if current else 60
    error.data = {"message": f"too many requests: at most {limit} a minute; "  # type: ignore[attr-defined]
                             f"retry in {retry} seconds",
                  "details": {"retry_after": retry}, "headers": {"Retry-After": str(retry)}}
    return error_response(error)


def init_app(app: Flask) -> None:
    proxies = app.config["TRUSTED_PROXIES"]
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    limit = app.config["RATE_LIMIT"]
    app.config["RATELIMIT_ENABLED"] = limit > 0
    limiter = Limiter(
        budget_key,
        application_limits=[f"{max(limit, 1)} per minute"],
        storage_uri=app.config["RATE_LIMIT_STORAGE"],
        strategy="fixed-window",
        key_prefix=app.config["RATE_LIMIT_KEY_PREFIX"],
        # Our own headers (`_headers`): Flask-Limiter's would put a Retry-After on every answer.
        headers_enabled=False,
        in_memory_fallback_enabled=True,
        swallow_errors=True,
    )
    limiter.init_app(app)
    limiter.request_filter(lambda: request.path.startswith(_EXEMPT_PREFIXES))
    app.extensions["iridescia_limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, _too_many_requests)
    if limit > 0:
        app.before_request(_refuse_known_guessers)
        app.after_request(_headers)


def _headers(response):
    """X-RateLimit-Limit, -Remaining and -Reset (epoch seconds) of the request's budget."""
    current = _limiter().current_limit
    if current is not None:
        response.headers["X-RateLimit-Limit"] = str(current.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(current.remaining)
        response.headers["X-RateLimit-Reset"] = str(current.reset_at)
    return response
