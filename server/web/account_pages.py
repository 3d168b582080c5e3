"""The pages the account mails link to: ``/verify?code=…`` and ``/recover?code=…``.

Opening a link only shows what it will do, with a button that posts the code: a GET never
writes (DEVELOPERS.md), and the link scanners of mail providers, which open every link in a
mail, thus confirm nothing and use up no recovery link."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from server import i18n
from server.clock import now
from server.storage.db import db_session
from server.storage.models import utcnow
from server.users import sign_in, verification
from server.users.mail_choices import DESCRIBED, choose, read_link
from server.web.page_filters import page_lang

pages = Blueprint("account_pages", __name__, template_folder="templates")


def _page(status: int = 200, **values):
    values.setdefault("lines", [])
    response = render_template("account_page.html", **values)
    # The recovery page shows a token: keep it out of caches.
    return response, status, {"Cache-Control": "no-store"}


def _problem(error: HTTPException):
    message = (getattr(error, "data", None) or {}).get("message") or error.description
    message = i18n.say(message, page_lang())
    return _page(error.code or 400, title=_("This link does not work"), problem=message)


def told(user, choice: str, game_id: str | None = None) -> str:  # noqa: ANN001
    """The mail a player now gets, in the page's words (mail_choices.choose's sentence)."""
    words = _(DESCRIBED[choice])
    if choice == "digest":
        words = _("%(choice)s at %(hour)s:00 (%(zone)s)", choice=words, hour=user.digest_hour,
                  zone=user.time_zone)
    if game_id:
        return _("Mail for game %(game)s: %(choice)s.", game=game_id, choice=words)
    return _("Mail for all your games: %(choice)s.", choice=words)


def _code() -> str:
    return (request.values.get("code") or "").strip()


def _join() -> str:
    """The join code the confirmation link carries (registering from an invitation's page)."""
    join = (request.values.get("join") or "").strip()
    return join if join.isalnum() and len(join) <= 32 else ""


@pages.get("/verify")
def show_confirmation():
    try:
        user = verification.user_to_confirm(db_session(), _code())
    except HTTPException as error:
        return _problem(error)
    if user.verified_at is not None and user.email_bouncing_at is None:
        return _page(title=_("Address confirmed"),
                     lines=[_("%(email)s is confirmed already.", email=user.email)])
    return _page(title=_("Confirm your address"), lines=[
        _("Confirm that %(email)s is yours and may be sent Iridescia's mail.",
          email=user.email)], button=_("Confirm"), action="/verify", code=_code(),
        join=_join())


@pages.post("/verify")
def confirm():
    session = db_session()
    try:
        user, token = verification.confirm(session, _code(), utcnow())
    except HTTPException as error:
        return _problem(error)
    if token is None:
        session.commit()
        return _page(title=_("Address confirmed"), lines=[
            _("Thank you: %(email)s is confirmed. Iridescia mails it your turns from now on.",
              email=user.email)])
    sign_in.sign_in(session, user, utcnow())  # the new token ended every session before
    session.commit()
    page = render_template("registered.html", user=user, token=token,
                           server=current_app.config["BASE_URL"], join=_join())
    return page, 200, {"Cache-Control": "no-store"}


@pages.get("/recover")
def show_recovery():
    try:
        user = verification.user_to_recover(db_session(), _code())
    except HTTPException as error:
        return _problem(error)
    return _page(title=_("A new token"), lines=[
        _("Get a new API token for %(email)s. Your old token stops working.",
          email=user.email)], button=_("Get a new token"), action="/recover", code=_code())


@pages.post("/recover")
def recover():
    session = db_session()
    try:
        user, token = verification.recover(session, _code(), utcnow())
    except HTTPException as error:
        return _problem(error)
    session.commit()
    return _page(title=_("A new token"), token=token,
                 lines=[_("The new token of %(email)s.", email=user.email)])


@pages.get("/mail-choice")
def show_mail_choice():
    """A mail's one-click link: what it will change, and the button that does it."""

    try:
        user, choice, game_id = read_link(db_session(), _code())
    except HTTPException as error:
        return _problem(error)
    line = (_("Mail for game %(game)s to %(email)s: %(choice)s.", game=game_id,
              email=user.email, choice=_(DESCRIBED[choice])) if game_id else
            _("Mail for all your games to %(email)s: %(choice)s.", email=user.email,
              choice=_(DESCRIBED[choice])))
    return _page(title=_("Your mail"), lines=[line], button=_("Change it"),
                 action="/mail-choice", code=_code())


@pages.post("/mail-choice")
def mail_choice():

    session = db_session()
    try:
        user, choice, game_id = read_link(session, _code())
        choose(session, user, choice, now(), game_id=game_id)
    except HTTPException as error:
        return _problem(error)
    session.commit()
    return _page(title=_("Your mail"), lines=[
        told(user, choice, game_id),
        _("Change it again from any mail, or with `iridescia prefs --notify`.")])
