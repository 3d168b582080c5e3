"""/api/v1/games/{id}/hint: "What would the bot do?" — the command the hard bot would play for
you now, from your own view only (server/games/hints.py)."""

from __future__ import annotations

import marshmallow as ma
from flask.views import MethodView
from marshmallow import fields

from server.api.docs import document_errors
from server.api.engine_schemas import Typed
from server.api.games.routes import E404
from server.games import posting, service
from server.games.hints import hint
from server.http.auth import SECURITY_REQUIRED
from server.http.errors import fail
from server.http.parsing import Blueprint
from server.storage.models import utcnow

blp = Blueprint("hint", __name__, description="What the hard bot would play for you now")


class HintSchema(ma.Schema):
    version = fields.Integer(required=True, metadata={"description": "The game's version the "
                                                                     "hint was computed at"})
    level = fields.String(required=True, metadata={"enum": ["hard"],
                                                   "description": "The bot level that chose"})
    command = Typed("Command", required=True)
    line = fields.String(required=True, allow_none=True, metadata={
        "description": "The command as you would type it (iridescia play, or a mail line)",
        "example": "move 3c"})


@blp.route("/<game_id:game_id>/hint")
class Hint(MethodView):
    @blp.response(200, HintSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 404, 409, 429, e404=E404,
                     e409="you have nothing to decide in game k3x9q2ab now: a hint is for your "
                          "turn (or a question the game asks you)")
    def get(self, game_id: str):
        """What the hard bot would play for you now, computed from your own view only (what
        you see, never what is hidden). Only while you have something to decide."""
        with posting.connect() as connection:
            caller = posting.caller_and_game(connection, game_id)
            game, seat = caller.game, caller.seat
            playing = game.status == "active" and seat is not None
            state = service.load_state(connection, game) if playing else None
            answer = hint(game, state, seat, utcnow()) if playing else None
        if answer is None:
            fail(409, f"you have nothing to decide in game {game_id} now: a hint is for your "
                      "turn (or a question the game asks you)", game_id=game_id)
        return {"version": game.version, **answer}
