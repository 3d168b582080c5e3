"""POST /api/v1/games/{id}/rematch: the table of a finished game plays again."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView

from server.api.community.schemas import RematchRequestSchema
from server.api.docs import NO_SUCH_GAME, document_errors, location
from server.api.games.paths import game_path
from server.api.games.schemas import GameSchema
from server.games import lobby, rematch
from server.http.auth import SECURITY_REQUIRED
from server.http.parsing import Blueprint
from server.ratings import derived
from server.storage.db import db_session
from server.storage.models import utcnow

blp = Blueprint("community", __name__, description="Playing again: rematches (docs/community.md)")


@blp.route("/games/<game_id:game_id>/rematch")
class Rematch(MethodView):
    @blp.arguments(RematchRequestSchema())
    @blp.response(201, GameSchema, headers=location("/api/v1/games/{id}: the rematch"))
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 403, 404, 409, 413, 415, 422, 429, e404=NO_SUCH_GAME,
                     e403="you did not play in game k3x9q2ab: only its players may ask for a "
                          "rematch",
                     e409="game k3x9q2ab is not over: a rematch is offered at its end",
                     e422="invalid request: contribution: give one word of up to 64 letters, "
                          "digits, '-' or '_', or leave it out")
    def post(self, data: dict, game_id: str):
        """Ask for a rematch of a finished game you played, or accept the one another player
        asked for: the same players, seat kinds and settings, a new seed. The first to ask makes
        the game (the others are invited by mail); it starts by itself when every player has
        asked or joined. Answers the rematch."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        new, _made = rematch.ask(session, game, seat, user, utcnow(),
                                 current_app.config["BASE_URL"], data.get("contribution"))
        session.commit()
        return (derived.rated_game(session, lobby.game_json(session, new, user)),
                {"Location": game_path(new.id)})
