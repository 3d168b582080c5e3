"""The account mails: confirm your address, someone tried to register your address, get a new
token. Each carries a signed link (server/users/links.py); server/mail/consent.py lets them
through to unconfirmed addresses, so each address gets at most ACCOUNT_MAILS_PER_ADDRESS_DAY of
them a day, whoever asks (a request over the cap is answered as usual and mails nothing)."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import func
from sqlmodel import Session, select

from server import i18n, wakeups
from server.i18n import N_, plain_mail
from server.i18n.plain_mail import Line
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


def _queue(session: Session, user: User, kind: str, subject: str, parts: list,
           now: datetime, key: str | None = None) -> bool:
    """Queue `parts` (plain_mail.bodies) to the user, in their language, under the cap."""
    if _mails_today(session, user, now) >= current_app.config["ACCOUNT_MAILS_PER_ADDRESS_DAY"]:
        return False
    text, html = plain_mail.bodies(i18n.mail_language(user), subject, parts)
    session.add(Outbox(
        dedupe_key=key or f"{kind}:{user.id}:{now.timestamp():.6f}", user_id=user.id,
        to_email=user.email, kind=kind, subject=subject, text_body=text, html_body=html,
        status="pending", next_attempt_at=now, created_at=now,
    ))
    session.flush()
    wakeups.note(session, "mail")  # the mail job sends it at the commit
    return True


def _words(user: User):  # noqa: ANN202
    """The user's language's translate: say(N_("..."), field=value)."""
    return functools.partial(i18n.translate, i18n.mail_language(user))


def confirmation(session: Session, user: User, now: datetime, join: str | None = None) -> bool:
    """Queue the mail that confirms the account's address (its link opens the join code
    ``join`` after); False when the cap stopped it. Confirming gives the confirmer the
    account's API token (server/users/verification.confirm)."""
    say = _words(user)
    code = links.make_code(links.CONFIRM, user)
    url = links.link(links.CONFIRM, code, join=join)
    return _queue(session, user, VERIFY_EMAIL, say(N_("Confirm your address for Iridescia")), [
        say(N_("Hello {name},"), name=user.name),
        say(N_("someone (we hope you) registered {email} at Iridescia. Open this link to "
               "confirm that the address is yours:"), email=user.email),
        Line(url),
        say(N_("or with the command line client:")),
        Line(f"iridescia confirm --code {code}"),
        say(N_("The link is good for {hours} hours. Until the address is confirmed, Iridescia "
               "sends it no other mail (no turns, no reminders, no invitations).\nIf you did "
               "not register, ignore this mail: nothing more will come."),
            hours=links.hours(links.CONFIRM)),
    ], now)


def _recovery_text(user: User) -> tuple[str, str]:
    code = links.make_code(links.RECOVER, user)
    return code, links.link(links.RECOVER, code)


def registered_again(session: Session, user: User, now: datetime) -> bool:
    """Someone tried to register the account's address: tell its owner, with a way back in."""
    say = _words(user)
    code, url = _recovery_text(user)
    return _queue(session, user, REGISTERED_AGAIN,
                  say(N_("Someone tried to register your address")), [
        say(N_("Hello {name},"), name=user.name),
        say(N_("someone tried to register {email} at Iridescia, which already has an "
               "account."), email=user.email),
        say(N_("If it was you and you have lost your token, get a new one here:")),
        Line(url),
        say(N_("or with the command line client:")),
        Line(f"iridescia recover --code {code}"),
        say(N_("The link is good for {hours} hours; using it stops your old token. If it was "
               "not you, ignore this mail: your account is unchanged."),
            hours=links.hours(links.RECOVER)),
    ], now)


def recovery(session: Session, user: User, now: datetime) -> bool:
    """The link that gives the account a new token."""
    say = _words(user)
    code, url = _recovery_text(user)
    return _queue(session, user, RECOVER_TOKEN, say(N_("A new token for Iridescia")), [
        say(N_("Hello {name},"), name=user.name),
        say(N_("a new API token for {email} was asked for. Get it here:"), email=user.email),
        Line(url),
        say(N_("or with the command line client:")),
        Line(f"iridescia recover --code {code}"),
        say(N_("The link is good for {hours} hours and works once; using it stops your old "
               "token. If you did not ask, ignore this mail: your token is unchanged."),
            hours=links.hours(links.RECOVER)),
    ], now)


def sign_in_link(session: Session, user: User, link: str, hours: int, now: datetime) -> None:
    """The home page's sign-in link (the caller checked the cap and how lately one went)."""
    say = _words(user)
    _queue(session, user, SIGN_IN, say(N_("Your Gems of Iridescia sign-in link")), [
        say(N_("Hello {name},"), name=user.name),
        say(N_("Open this link to sign in:")),
        Line(link),
        say(N_("It works for {hours} hours. If you did not ask for it, ignore this email."),
            hours=hours),
    ], now, key=f"sign-in:{user.id}:{now.isoformat()}")
