"""/api/v1/games/{id}/notifications: the mail a player chooses for one game."""

from __future__ import annotations

from flask.views import MethodView

from server import clock
from server.api.docs import NO_SUCH_GAME, OUTSIDER, document_errors
from server.api.users.schemas import GameChoiceSchema
from server.games import lobby
from server.http.auth import SECURITY_REQUIRED
from server.http.parsing import Blueprint
from server.storage.db import db_session
from server.users import mail_choices

blp = Blueprint("notifications", __name__, description="The mail you choose per game")


def _answer(seat) -> dict:
    return {"email": seat.email_preference}


@blp.route("/games/<game_id:game_id>/notifications")
class GameChoice(MethodView):
    @blp.response(200, GameChoiceSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 429, e403=OUTSIDER, e404=NO_SUCH_GAME)
    def get(self, game_id: str):
        """Your mail choice for this game (null: your account's)."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        return _answer(lobby.require_member(game, seat))

    @blp.arguments(GameChoiceSchema())
    @blp.response(200, GameChoiceSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 403, 404, 413, 415, 422, 429, e403=OUTSIDER, e404=NO_SUCH_GAME,
                     e422="invalid request: email: Must be one of: every_turn, digest, "
                          "reminders, none.")
    def put(self, data: dict, game_id: str):
        """Choose the mail of this game: every_turn, digest, reminders or none (null: as your
        account's preference, PATCH /users/me/preferences)."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        seat = lobby.require_member(game, seat)
        if data["email"] is None:
            seat.email_preference = None
            session.add(seat)
            mail_choices.reschedule(session, user, clock.now())
        else:
            mail_choices.choose(session, user, data["email"], clock.now(), game_id=game.id)
        session.commit()
        return _answer(seat)
