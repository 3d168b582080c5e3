"""Bots on the pages: the stand-in a player chooses in their settings (stand_in_form.html),
and "What would the bot do?", the command the hard bot would play for the signed-in player now,
computed from their own view only (server/games/hints.py)."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from engine.bots import LEVELS
from server.games import service
from server.games.hints import hint
from server.http.errors import fail
from server.storage.db import db_session
from server.storage.models import utcnow
from server.web.routes import protect_forms, seated_viewer, signed_in_user

blp = Blueprint("bot_pages", __name__)
blp.before_request(protect_forms)


@blp.post("/settings/stand-in")
def choose_stand_in():
    """The account's stand-in: the bot level that plays a turn whose deadline passed."""
    user = signed_in_user()
    level = (request.form.get("level") or "").strip().lower()
    if level not in LEVELS:
        fail(400, f"choose the stand-in among {', '.join(LEVELS)}, not {level!r}")
    session = db_session()
    user.stand_in = level
    session.add(user)
    session.commit()
    return render_template("message.html", user=user, title="Stand-in",
                           message=f"When a deadline of yours passes, the {level} bot plays "
                                   "your turn.", back=None)


@blp.get("/games/<game_id>/hint")
def hint_page(game_id: str):
    session = db_session()
    user, game, seat = seated_viewer(session, game_id)
    state = service.load_state(session, game) if game.status == "active" else None
    answer = hint(game, state, seat, utcnow()) if state is not None else None
    if answer is None:
        fail(409, f"you have nothing to decide in game {game_id} now: a hint is for your turn "
                  "(or a question the game asks you)")
    line = answer["line"] or answer["command"]["type"]
    return render_template("message.html", user=user, title="What would the bot do?",
                           message=f"The {answer['level']} bot would play: {line} (worked out "
                                   "from what you see only; the choice is yours)",
                           back=f"/games/{game_id}")
