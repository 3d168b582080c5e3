"""Signing in from an email: signed, expiring, single-use magic links and the page sessions
they start.

A magic link carries the user's id, a fingerprint of their current API token and the page to
open, signed with IRIDESCIA_SECRET_KEY (itsdangerous). Opening it shows a page with a button;
its POST (CSRF-protected: another site cannot sign a browser in to its own account) starts a
page session: a row of ``page_sessions`` holding the hash of a random session id and the link's
digest, unique, so a link starts one session only and a forwarded mail hands nobody the
player's session. Flask's signed session cookie (HttpOnly, SameSite=Lax, Secure on an https base
URL) carries the user, the token's fingerprint and the session id. Every page checks all three:
signing out ends the session's row (a copy of the cookie is then worth nothing), rotating the
token ends every session and every link already sent, and disabling the account ends them too.

A row is deleted once it is over (signed out, or older than the session's lifetime) and the
link that started it can no longer be used (MAGIC_LINK_HOURS after it was made: until then the
row is what refuses the link a second time): at sign-out when no link started it, at the next
sign-in for that player's other rows, and by the scheduler every hour for everyone's
(`prune_sessions`).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, g, has_app_context, session
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from sqlalchemy import and_, delete, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from server.config import Settings
from server.i18n import N_, Said
from server.storage.models import PageSession, User, utcnow

SALT = "iridescia-magic-link"
FINGERPRINT_LENGTH = 20


class LinkRefused(Exception):
    """A magic link that is tampered with, expired or no longer valid; the message (an
    i18n.Said, `args[0]`) says why."""


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
        raise LinkRefused(Said(N_("this sign-in link is more than {hours} hours old: ask for a "
                                  "new one on the home page"), hours=hours)) from None
    except (BadSignature, ValueError, TypeError):
        raise LinkRefused(Said(N_("this sign-in link is not valid (cut short or changed?): ask "
                                  "for a new one on the home page"))) from None
    user = users(user_id) if isinstance(user_id, int) else None
    if user is None or fingerprint(user.token_hash) != print_:
        raise LinkRefused(Said(N_("this sign-in link was made before your API token was "
                                  "rotated: ask for a new one on the home page")))
    if not isinstance(page, str) or not page.startswith("/") or page.startswith("//"):
        page = "/"
    return user, page


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


USED = Said(N_("this sign-in link was used already (each link signs in once): ask for a new one "
                "on the home page"))


def link_used(db: Any, token: str) -> bool:
    """Whether the link ``token`` started a session already."""
    return db.exec(select(PageSession.id_hash)
                   .where(PageSession.link_digest == _digest(token))).first() is not None


def sign_in(db: Any, user: User, now: datetime, link: str | None = None) -> None:
    """Start a page session for ``user`` (committed with the caller's transaction), by the
    sign-in link ``link`` when there is one: LinkRefused if that link started one already."""
    prune_sessions(db, now, _lifetime(), current_app.config["MAGIC_LINK_HOURS"], user.id)
    secret = secrets.token_urlsafe(32)
    db.add(PageSession(id_hash=_digest(secret), user_id=user.id, created_at=now,
                       link_digest=None if link is None else _digest(link)))
    try:
        db.flush()
    except IntegrityError:
        db.rollback()
        raise LinkRefused(USED) from None
    session.clear()
    session.permanent = True
    session["uid"] = user.id
    session["tok"] = fingerprint(user.token_hash)
    session["sid"] = secret


def sign_out(db: Any, now: datetime) -> None:
    """End this browser's session, here and in the database: its cookie, even copied, no longer
    signs anyone in."""
    secret = session.get("sid")
    if isinstance(secret, str):
        mine = PageSession.id_hash == _digest(secret)
        db.execute(delete(PageSession).where(mine, PageSession.link_digest.is_(None)))
        db.execute(update(PageSession).where(mine, PageSession.ended_at.is_(None))
                   .values(ended_at=now))  # kept while its link could be used again
    session.clear()


def _lifetime() -> timedelta:
    return timedelta(seconds=current_app.permanent_session_lifetime.total_seconds())


def _over(now: datetime, lifetime: timedelta, link_hours: float):  # noqa: ANN202
    """The rows that may be deleted: over, and their link (if any) dead."""
    return and_(or_(PageSession.ended_at.is_not(None), PageSession.created_at <= now - lifetime),
                or_(PageSession.link_digest.is_(None),
                    PageSession.created_at <= now - timedelta(hours=link_hours)))


def prune_sessions(db: Any, now: datetime, lifetime: timedelta, link_hours: float,
                   user_id: int | None = None) -> int:
    """Delete the page sessions that are over and whose sign-in link can no longer be used
    (``user_id``'s only, or everyone's); the number deleted. The caller commits."""
    where = _over(now, lifetime, link_hours)
    if user_id is not None:
        where = and_(where, PageSession.user_id == user_id)
    return db.execute(delete(PageSession).where(where)).rowcount or 0


def _session_on(db: Any, user: User, now: datetime) -> bool:
    secret = session.get("sid")
    if not isinstance(secret, str):
        return False  # a cookie from before sessions were kept: signed out
    row = db.get(PageSession, _digest(secret))
    return (row is not None and row.user_id == user.id and row.ended_at is None
            and row.created_at > now - _lifetime())


def page_user(db: Any, now: datetime | None = None) -> User | None:
    """The signed-in user of this page request, None when nobody is (or their token was
    rotated since, or an operator disabled the account: that session is over and its cookie is
    cleared)."""
    if "page_user" in g:
        return g.page_user
    user = None
    user_id = session.get("uid")
    if isinstance(user_id, int):
        user = db.get(User, user_id)
        if user is None or fingerprint(user.token_hash) != session.get("tok") \
                or user.disabled_at is not None \
                or not _session_on(db, user, now or utcnow()):
            user = None
            session.clear()
    g.page_user = user
    return user
