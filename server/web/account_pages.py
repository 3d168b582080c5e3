"""The pages the account mails link to: ``/verify?code=…`` and ``/recover?code=…``.

Opening a link only shows what it will do, with a button that posts the code: a GET never
writes (DEVELOPERS.md), and the link scanners of mail providers, which open every link in a
mail, thus confirm nothing and use up no recovery link."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from werkzeug.exceptions import HTTPException

from server.clock import now
from server.storage.db import db_session
from server.storage.models import utcnow
from server.users import verification
from server.users.mail_choices import DESCRIBED, choose, read_link

pages = Blueprint("account_pages", __name__, template_folder="templates")


def _page(status: int = 200, **values):
    values.setdefault("lines", [])
    response = render_template("account_page.html", **values)
    # The recovery page shows a token: keep it out of caches.
    return response, status, {"Cache-Control": "no-store"}


def _problem(title: str, error: HTTPException):
    message = (getattr(error, "data", None) or {}).get("message") or error.description
    return _page(error.code or 400, title=title, problem=message)


def _code() -> str:
    return (request.values.get("code") or "").strip()


@pages.get("/verify")
def show_confirmation():
    try:
        user = verification.user_to_confirm(db_session(), _code())
    except HTTPException as error:
        return _problem("This link does not work", error)
    if user.verified_at is not None and user.email_bouncing_at is None:
        return _page(title="Address confirmed", lines=[f"{user.email} is confirmed already."])
    return _page(title="Confirm your address", lines=[
        f"Confirm that {user.email} is yours and may be sent Iridescia's mail."],
        button="Confirm", action="/verify", code=_code())


@pages.post("/verify")
def confirm():
    session = db_session()
    try:
        user = verification.confirm(session, _code(), utcnow())
    except HTTPException as error:
        return _problem("This link does not work", error)
    session.commit()
    return _page(title="Address confirmed", lines=[
        f"Thank you: {user.email} is confirmed. Iridescia mails it your turns from now on."])


@pages.get("/recover")
def show_recovery():
    try:
        user = verification.user_to_recover(db_session(), _code())
    except HTTPException as error:
        return _problem("This link does not work", error)
    return _page(title="A new token", lines=[
        f"Get a new API token for {user.email}. Your old token stops working."],
        button="Get a new token", action="/recover", code=_code())


@pages.post("/recover")
def recover():
    session = db_session()
    try:
        user, token = verification.recover(session, _code(), utcnow())
    except HTTPException as error:
        return _problem("This link does not work", error)
    session.commit()
    return _page(title="A new token", token=token, lines=[f"The new token of {user.email}."])


@pages.get("/mail-choice")
def show_mail_choice():
    """A mail's one-click link: what it will change, and the button that does it."""

    try:
        user, choice, game_id = read_link(db_session(), _code())
    except HTTPException as error:
        return _problem("This link does not work", error)
    where = f"game {game_id}" if game_id else "all your games"
    return _page(title="Your mail", lines=[
        f"Mail for {where} to {user.email}: {DESCRIBED[choice]}."],
        button="Change it", action="/mail-choice", code=_code())


@pages.post("/mail-choice")
def mail_choice():

    session = db_session()
    try:
        user, choice, game_id = read_link(session, _code())
        told = choose(session, user, choice, now(), game_id=game_id)
    except HTTPException as error:
        return _problem("This link does not work", error)
    session.commit()
    return _page(title="Your mail", lines=[told, "Change it again from any mail, or with "
                                                 "`iridescia prefs --notify`."])
