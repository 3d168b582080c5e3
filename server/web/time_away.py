"""Time away from the page: a game's pause and resume buttons (its settings page) and the
account's vacation form (the settings page). The rules and their refusals are the API's (server/vacations); the page adds its sign-in
and the forms' CSRF token."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, redirect, request, url_for
from flask_babel import gettext as _

from server.clock import now
from server.games import lobby
from server.http.errors import fail
from server.storage.db import db_session
from server.vacations import away, pauses
from server.web.routes import protect_forms, seated_player, signed_in_user

blp = Blueprint("time_away", __name__)
blp.before_request(protect_forms)


def _back_to_game(game_id: str):
    return redirect(url_for("settings_pages.game_settings", game_id=game_id), 303)


@blp.post("/games/<game_id>/pause")
def ask_pause(game_id: str):
    """The game page's "Ask to pause": POST /api/v1/games/<id>/pause's rules."""
    session = db_session()
    user, game = seated_player(session, game_id)
    pauses.ask_pause(session, game, lobby.seat_of(session, game, user), now())
    session.commit()
    return _back_to_game(game.id)


@blp.post("/games/<game_id>/resume")
def resume(game_id: str):
    """The game page's "Resume": POST /api/v1/games/<id>/resume's rules."""
    session = db_session()
    _user, game = seated_player(session, game_id)
    pauses.resume(session, game, now())
    session.commit()
    return _back_to_game(game.id)


def _signed_in():
    return db_session(), signed_in_user()


@blp.post("/vacation")
def start_vacation():
    """The home page's vacation form: away until a day (POST /api/v1/users/me/vacation)."""
    session, user = _signed_in()
    raw = (request.form.get("until") or "").strip()
    try:
        until = date.fromisoformat(raw)
    except ValueError:
        fail(422, _("give the day you are back as YYYY-MM-DD, like 2027-01-04, not %(value)r",
                    value=raw))
    away.start_vacation(session, user, until, now())
    session.commit()
    return redirect(url_for("settings_pages.account_settings"), 303)


@blp.post("/vacation/end")
def end_vacation():
    """The home page's "I am back" (DELETE /api/v1/users/me/vacation)."""
    session, user = _signed_in()
    away.end_vacation(session, user, now())
    session.commit()
    return redirect(url_for("settings_pages.account_settings"), 303)
