"""The community's page actions: the Rematch button of a finished game's page (the rules and
refusals are server/games/rematch.py's, as for POST /api/v1/games/{id}/rematch)."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request, url_for

from server.clock import now
from server.games import lobby, rematch
from server.storage.db import db_session
from server.web.routes import protect_forms, signed_in_user

blp = Blueprint("community_pages", __name__, template_folder="templates")
blp.before_request(protect_forms)


@blp.post("/games/<game_id>/rematch")
def ask_rematch(game_id: str):
    user = signed_in_user()
    session = db_session()
    game, seat = lobby.visible_game(session, game_id, user)
    new, _made = rematch.ask(session, game, seat, user, now(), current_app.config["BASE_URL"],
                             request.form.get("word"))
    session.commit()
    return redirect(url_for("pages.game_page", game_id=new.id), 303)
