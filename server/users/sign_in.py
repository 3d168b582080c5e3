"""Signing in from an email: signed, expiring magic links and the page session they open.

A magic link carries the user's id, a fingerprint of their current API token and the page to
open, signed with IRIDESCIA_SECRET_KEY (itsdangerous). Following it puts the same two values in
Flask's signed session cookie (HttpOnly, SameSite=Lax, Secure on an https base URL). Every page
checks the fingerprint against the user's token now: rotating the token ends every session and
every link already sent.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import current_app, g, has_app_context, session
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

from server.config import Settings
from server.storage.models import User

SALT = "iridescia-magic-link"
FINGERPRINT_LENGTH = 20


class LinkRefused(Exception):
    """A magic link that is tampered with, expired or no longer valid; the message says why."""


def _settings() -> tuple[str, str, int]:
    if has_app_context():
        config = current_app.config
        return config["SECRET_KEY"], config["BASE_URL"], config["MAGIC_LINK_HOURS"]

    settings = Settings.load()
    return settings.SECRET_KEY, settings.BASE_URL, settings.MAGIC_LINK_HOURS


def fingerprint(token_hash: str) -> str:
    """Enough of the token's hash to tell a rotated token apart (the hash itself stays home)."""
    return token_hash[:FINGERPRINT_LENGTH]


def _serializer(secret: str, issued_at: datetime | None = None) -> URLSafeTimedSerializer:
    if issued_at is None:
        return URLSafeTimedSerializer(secret, salt=SALT)
    stamp = int(issued_at.timestamp())

    class IssuedAt(TimestampSigner):
        def get_timestamp(self) -> int:
            return stamp

    return URLSafeTimedSerializer(secret, salt=SALT, signer=IssuedAt)


def magic_link(user_id: int, token_hash: str, page: str = "/",
               issued_at: datetime | None = None) -> str:
    """The address that signs this user in and opens `page` (a path on this server); it
    expires MAGIC_LINK_HOURS after `issued_at` (default: now). An email's link is issued at the
    moment of the game it tells about, so rendering the email again gives the same words."""
    secret, base_url, _hours = _settings()
    token = _serializer(secret, issued_at).dumps([user_id, fingerprint(token_hash), page])
    return f"{base_url.rstrip('/')}/sign-in/{token}"


def read_magic_link(token: str, users) -> tuple[User, str]:  # noqa: ANN001
    """The user a link signs in and the page it opens; LinkRefused when it cannot be used.
    `users(user_id)` finds a user."""
    secret, _base_url, hours = _settings()
    serializer = _serializer(secret)
    try:
        user_id, print_, page = serializer.loads(token, max_age=hours * 3600)
    except SignatureExpired:
        raise LinkRefused(f"this sign-in link is more than {hours} hours old: ask for a new "
                          "one on the home page") from None
    except (BadSignature, ValueError, TypeError):
        raise LinkRefused("this sign-in link is not valid (cut short or changed?): ask for a "
                          "new one on the home page") from None
    user = users(user_id) if isinstance(user_id, int) else None
    if user is None or fingerprint(user.token_hash) != print_:
        raise LinkRefused("this sign-in link was made before your API token was rotated: ask "
                          "for a new one on the home page")
    if not isinstance(page, str) or not page.startswith("/") or page.startswith("//"):
        page = "/"
    return user, page


def sign_in(user: User) -> None:
    session.clear()
    session.permanent = True
    session["uid"] = user.id
    session["tok"] = fingerprint(user.token_hash)


def sign_out() -> None:
    session.clear()


def page_user(db: Any) -> User | None:
    """The signed-in user of this page request, None when nobody is (or their token was
    rotated since: that session is over and its cookie is cleared)."""
    if "page_user" in g:
        return g.page_user
    user = None
    user_id = session.get("uid")
    if isinstance(user_id, int):
        user = db.get(User, user_id)
        if user is None or fingerprint(user.token_hash) != session.get("tok"):
            user = None
            session.clear()
    g.page_user = user
    return user
