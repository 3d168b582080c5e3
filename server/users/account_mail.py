"""The account mails: confirm your address, someone tried to register your address, get a new
token. Each carries a signed link (server/users/links.py); server/mail/consent.py lets them
through to unconfirmed addresses, so each address gets at most ACCOUNT_MAILS_PER_ADDRESS_DAY of
them a day, whoever asks (a request over the cap is answered as usual and mails nothing)."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import func
from sqlmodel import Session, select

from server import wakeups
from server.storage.models import Outbox, User
from server.users import links

# The account mails' kinds (server/mail/consent.py lets these through to unconfirmed addresses).
VERIFY_EMAIL = "verify_email"
REGISTERED_AGAIN = "registered_again"
RECOVER_TOKEN = "recover_token"
ACCOUNT_KINDS = frozenset({VERIFY_EMAIL, REGISTERED_AGAIN, RECOVER_TOKEN})
# The home page's sign-in link: it goes to confirmed addresses only (consent), but anyone can
# ask for it, so it counts against the same daily cap (issue 32, N3: up to 1,440 a day before).
SIGN_IN = "sign_in"
_CAPPED_KINDS = ACCOUNT_KINDS | {SIGN_IN}


def _mails_today(session: Session, user: User, now: datetime) -> int:
    return session.exec(
        select(func.count()).select_from(Outbox).where(
            Outbox.user_id == user.id, Outbox.kind.in_(_CAPPED_KINDS),  # type: ignore[attr-defined]
            Outbox.created_at > now - timedelta(days=1))
    ).one()


def under_the_daily_cap(session: Session, user: User, now: datetime) -> bool:
    """Whether ``user``'s address may get one more account mail (a sign-in link included)
    today."""
    return _mails_today(session, user, now) < current_app.config["ACCOUNT_MAILS_PER_ADDRESS_DAY"]


def _queue(session: Session, user: User, kind: str, subject: str, text: str,
           now: datetime) -> bool:
    if _mails_today(session, user, now) >= current_app.config["ACCOUNT_MAILS_PER_ADDRESS_DAY"]:
        return False
    session.add(Outbox(
        dedupe_key=f"{kind}:{user.id}:{now.timestamp():.6f}", user_id=user.id,
        to_email=user.email, kind=kind, subject=subject, text_body=text, status="pending",
        next_attempt_at=now, created_at=now,
    ))
    session.flush()
    wakeups.note(session, "mail")  # the mail job sends it at the commit
    return True


def confirmation(session: Session, user: User, now: datetime) -> bool:
    """Queue the mail that confirms the account's address; False when the cap stopped it."""
    url = links.link(links.CONFIRM, links.make_code(links.CONFIRM, user))
    return _queue(session, user, VERIFY_EMAIL, "Confirm your address for Iridescia", (
        f"Hello {user.name},\n\n"
        f"someone (we hope you) registered {user.email} at Iridescia. Open this link to confirm "
        f"that the address is yours:\n\n    {url}\n\n"
        f"The link is good for {links.hours(links.CONFIRM)} hours. Until the address is "
        "confirmed, Iridescia sends it no other mail (no turns, no reminders, no invitations).\n"
        "If you did not register, ignore this mail: nothing more will come.\n"
    ), now)


def _recovery_text(user: User) -> tuple[str, str]:
    code = links.make_code(links.RECOVER, user)
    return code, links.link(links.RECOVER, code)


def registered_again(session: Session, user: User, now: datetime) -> bool:
    """Someone tried to register the account's address: tell its owner, with a way back in."""
    code, url = _recovery_text(user)
    return _queue(session, user, REGISTERED_AGAIN, "Someone tried to register your address", (
        f"Hello {user.name},\n\n"
        f"someone tried to register {user.email} at Iridescia, which already has an account.\n\n"
        f"If it was you and you have lost your token, get a new one here:\n\n    {url}\n\n"
        f"or with the command line client:\n\n    iridescia recover --code {code}\n\n"
        f"The link is good for {links.hours(links.RECOVER)} hours; using it stops your old "
        "token. If it was not you, ignore this mail: your account is unchanged.\n"
    ), now)


def recovery(session: Session, user: User, now: datetime) -> bool:
    """The link that gives the account a new token."""
    code, url = _recovery_text(user)
    return _queue(session, user, RECOVER_TOKEN, "A new token for Iridescia", (
        f"Hello {user.name},\n\n"
        f"a new API token for {user.email} was asked for. Get it here:\n\n    {url}\n\n"
        f"or with the command line client:\n\n    iridescia recover --code {code}\n\n"
        f"The link is good for {links.hours(links.RECOVER)} hours and works once; using it stops "
        "your old token. If you did not ask, ignore this mail: your token is unchanged.\n"
    ), now)
