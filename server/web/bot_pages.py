"""Bots on the pages: the stand-in a player chooses in their settings (stand_in_form.html),
and "What would the bot do?", the command the hard bot would play for the signed-in player now,
computed from their own view only (server/games/hints.py)."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import gettext as _

from engine.bots import LEVELS
from server.games import service
from server.games.hints import hint
from server.http.errors import fail
from server.storage.db import db_session
from server.storage.models import utcnow
from server.web.commands import label
from server.web.game_page import seat_names
from server.web.language import page_words
from server.web.page_filters import level as level_words
from server.web.routes import protect_forms, seated_viewer, signed_in_user

blp = Blueprint("bot_pages", __name__)
blp.before_request(protect_forms)


@blp.post("/settings/stand-in")
def choose_stand_in():
    """The account's stand-in: the bot level that plays a turn whose deadline passed."""
    user = signed_in_user()
    level = (request.form.get("level") or "").strip().lower()
    if level not in LEVELS:
        fail(400, _("choose the stand-in among %(levels)s, not %(value)r",
                    levels=", ".join(LEVELS), value=level))
    session = db_session()
    user.stand_in = level
    session.add(user)
    session.commit()
    return render_template("message.html", user=user, title=_("Stand-in"),
                           message=_("When a deadline of yours passes, the %(level)s bot plays "
                                     "your turn.", level=level_words(level)), back=None)


@blp.get("/games/<game_id>/hint")
def hint_page(game_id: str):
    session = db_session()
    user, game, seat = seated_viewer(session, game_id)
    state = service.load_state(session, game) if game.status == "active" else None
    answer = hint(game, state, seat, utcnow()) if state is not None else None
    if answer is None:
        fail(409, _("you have nothing to decide in game %(game)s now: a hint is for your turn "
                    "(or a question the game asks you)", game=game_id))
    _info, names = seat_names(session, game, user)
    action = label(answer["command"], names, page_words())
    return render_template("message.html", user=user, title=_("What would the bot do?"),
                           message=_("The %(level)s bot would play: %(action)s (worked out from "
                                     "what you see only; the choice is yours)",
                                     level=level_words(answer["level"]), action=action),
                           notation=answer["line"],
                           back=f"/games/{game_id}")
