"""Confirming addresses and recovering tokens, for the API, the pages and other ways in.

`mark_verified(user)` is the one way an account becomes confirmed; play by email calls it for a
user created by a mail from the address itself (the mail proves it as well as a link would)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from server.http.errors import fail
from server.http.rate_limits import KNOWN_TOKENS
from server.http.tokens import hash_token, new_token
from server.i18n import N_, Said
from server.storage.models import User, utcnow
from server.users import links


def mark_verified(user: User, now: datetime | None = None) -> bool:
    """Record that the owner of ``user.email`` proved it (the caller commits): confirmed, and no
    longer bouncing (server/inbound/bounces.py). False when it was confirmed and not bouncing
    already."""
    if user.verified_at is not None and user.email_bouncing_at is None:
        return False
    user.verified_at = user.verified_at or now or utcnow()
    user.email_bouncing_at = None
    return True


def claim_by_mail(user: User, now: datetime) -> bool:
    """A mail from ``user.email`` itself (a reply to a mail only that address got) claims the
    account. An unconfirmed account may have been registered by someone else with this
    address (they kept the token: an account pre-hijack, issue 32 H3), so its token is
    rotated, ending the registrant's token, page sessions and sign-in links, before the account
    is confirmed; a confirmed one was proved by its owner and stays as it is. The caller
    commits; True when the account was claimed."""
    if user.verified_at is not None:
        return False
    KNOWN_TOKENS.forget(user.token_hash)
    user.token_hash = hash_token(new_token())  # shown to nobody: the player plays by mail
    mark_verified(user, now)
    return True


def _user(session: Session, code: links.Code) -> User:
    user = session.get(User, code.user_id)
    if user is None:
        fail(422, Said(N_("this link is for an account that no longer exists")))
    return user


def user_to_confirm(session: Session, code_text: str) -> User:
    """The account a confirmation code is for (only reads)."""
    code = links.read_code(links.CONFIRM, code_text)
    user = _user(session, code)
    if code.proof != user.email:
        fail(422, Said(N_("this link was sent to another address than the account's")))
    return user


def confirm(session: Session, code_text: str, now: datetime) -> tuple[User, str | None]:
    """Confirm the code's address. An unconfirmed account's token is rotated and the new one
    returned: its owner gets it here (registering showed it to nobody), and a token made before
    the address was proved (an account pre-hijack, issue 32 H3; accounts registered before
    tokens travelled by mail) stops working, with its page sessions and sign-in links. An
    account confirmed before (one whose mail bounced, confirming again) keeps its token: None."""
    user = user_to_confirm(session, code_text)
    token = None
    if user.verified_at is None:
        token = new_token()
        KNOWN_TOKENS.forget(user.token_hash)
        user.token_hash = hash_token(token)
    if mark_verified(user, now) or token is not None:
        session.add(user)
    return user, token


def user_to_recover(session: Session, code_text: str) -> User:
    """The account a recovery code is for, while the code is unused (only reads)."""
    code = links.read_code(links.RECOVER, code_text)
    user = _user(session, code)
    if code.proof != links.token_fingerprint(user):
        fail(422, Said(N_("this link was used already (or the token changed since it was sent): "
                          "ask for a new one with `iridescia recover --email ADDRESS`")))
    return user


def recover(session: Session, code_text: str, now: datetime) -> tuple[User, str]:
    """A new token for the code's account (the old one stops working). Reaching the link
    proves the address, so the account is confirmed too."""
    user = user_to_recover(session, code_text)
    token = new_token()
    KNOWN_TOKENS.forget(user.token_hash)
    user.token_hash = hash_token(token)
    mark_verified(user, now)
    session.add(user)
    return user, token
