"""Settings, off the board: the account's (the mail it is sent, vacations) and a game's (its
webhook, pausing it). The rules are the API's (server/users/mail_choices.py, server/vacations,
server/webhooks); pausing and vacations post to time_away.py, the webhook's forms here."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext

from server import clock
from server.games import lobby
from server.games.seat_kinds import stand_in
from server.http.errors import fail
from server.storage.db import db_session
from server.storage.models import utcnow
from server.users import mail_choices
from server.vacations import away
from server.web import settings as display_settings
from server.web.account_pages import told
from server.web.routes import protect_forms, seated_player, signed_in_user
from server.webhooks import registry

blp = Blueprint("settings_pages", __name__)
# The stand-ins a player may choose (engine/bots/levels.py), in words (bot_pages.py saves them).
STAND_IN_CHOICES = (
    ("easy", lazy_gettext("easy: plays safe, never spends a coin or an item of yours")),
    ("medium", lazy_gettext("medium: a one-step heuristic")),
    ("hard", lazy_gettext("hard: the strongest, thinks ahead")))
blp.before_request(protect_forms)


@blp.get("/settings")
def account_settings():
    user = signed_in_user()
    session = db_session()
    now = _(mail_choices.DESCRIBED.get(user.email_preference or "every_turn",
                                       "a mail every turn"))
    return render_template(
        "settings.html", user=user, vacation=away.summary(session, user, clock.now()),
        mail_now=now, mail_choices=[(value, _(words))
                                    for value, words in mail_choices.DESCRIBED.items()],
        stand_in_now=stand_in(user.stand_in), stand_in_choices=STAND_IN_CHOICES,
        **display_settings.page_context(user))


@blp.post("/settings/mail")
def choose_mail():
    user = signed_in_user()
    session = db_session()
    choice = request.form.get("choice") or ""
    mail_choices.choose(session, user, choice, clock.now())
    session.commit()
    return render_template("message.html", user=user, title=_("Mail"), back=None,
                           message=told(user, choice))


@blp.get("/games/<game_id>/settings")
def game_settings(game_id: str):
    session = db_session()
    user, game = seated_player(session, game_id)
    seat = lobby.seat_of(session, game, user)
    return render_template(
        "game_settings.html", user=user, game=game, seat=seat.seat,
        info=lobby.game_json(session, game, user),
        webhook=registry.of(session, game.id, user.id),
        webhook_form=game.status not in registry.OVER)


@blp.post("/games/<game_id>/webhook")
def set_webhook(game_id: str):
    """The game page's webhook form: PUT /api/v1/games/<id>/webhook's checks and answer."""

    session = db_session()
    user, game = seated_player(session, game_id)
    format = request.form.get("format") or None
    if format not in (None, "json", "discord", "slack"):
        fail(422, _("format %(value)r: choose JSON, Discord or Slack", value=format))
    url, format = registry.checked((request.form.get("url") or "").strip(), format)
    hook = registry.set_webhook(session, game, user.id, url, format, utcnow())
    session.commit()
    return render_template(
        "message.html", title=_("Webhook set"), user=user,
        back=url_for("settings_pages.game_settings", game_id=game.id),
        message=_("The turns and end of game %(game)s go to %(url)s (%(format)s). Its secret, "
                  "shown only now, signs every delivery (docs/webhooks.md tells how to check "
                  "it): %(secret)s", game=game.id, url=hook.url, format=hook.format,
                  secret=hook.secret))


@blp.post("/games/<game_id>/webhook/remove")
def remove_webhook(game_id: str):

    session = db_session()
    user, game = seated_player(session, game_id)
    registry.remove(session, game.id, user.id)
    session.commit()
    return redirect(url_for("settings_pages.game_settings", game_id=game.id), 303)
