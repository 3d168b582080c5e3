"""/api/v1/users/me/vacation and /api/v1/games/{id}/pause, /resume."""

from __future__ import annotations

from flask.views import MethodView

from server.api.docs import NO_SUCH_GAME as E404
from server.api.docs import OUTSIDER, document_errors
from server.api.games.schemas import GameSchema
from server.api.vacations.schemas import VacationRequestSchema, VacationSchema
from server.clock import now
from server.games import lobby
from server.http.auth import SECURITY_REQUIRED, require_user
from server.http.parsing import Blueprint
from server.storage.db import db_session
from server.vacations import away, pauses

blp = Blueprint("vacations", __name__, description="Vacations and pauses: time away from the "
                                                     "table (docs/vacations.md)")


@blp.route("/users/me/vacation")
class Vacation(MethodView):
    @blp.response(200, VacationSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 429)
    def get(self):
        """Your vacation, and the days you have left this year."""
        return away.summary(db_session(), require_user(), now())

    @blp.arguments(VacationRequestSchema())
    @blp.response(200, VacationSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 413, 415, 422, 429,
                     e422="away until 2027-01-30 is 30 days in 2027, and you have 21 of your 21 "
                          "left that year (...): come back sooner")
    def post(self, data: dict):
        """Go on vacation until a day: the turns waiting for you stand still (no deadline, no
        reminder, no automatic turn) and the other players see you away until then."""
        user, session, moment = require_user(), db_session(), now()
        away.start_vacation(session, user, data["until"], moment)
        session.commit()
        return away.summary(session, user, moment)

    @blp.response(200, VacationSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 409, 429, e409="you are not on vacation: `iridescia vacation --until YYYY-MM-DD` starts one")
    def delete(self):
        """Back early: your turns' clocks run again, with the time they had left; the days not
        begun are given back."""
        user, session, moment = require_user(), db_session(), now()
        away.end_vacation(session, user, moment)
        session.commit()
        return away.summary(session, user, moment)


def _member_game(session, game_id: str):
    user, game, seat = lobby.caller_and_game(session, game_id, required=True)
    return user, game, lobby.require_member(game, seat)


@blp.route("/games/<game_id:game_id>/pause")
class Pause(MethodView):
    @blp.response(200, GameSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 409, 429, e403=OUTSIDER, e404=E404,
                     e409="game k3x9q2ab is paused already: `iridescia resume k3x9q2ab` starts "
                          "it again")
    def post(self, game_id: str):
        """Ask to pause the game; it pauses when every player has asked (`players[].wants_pause`
        says who has). Paused: no deadline, no reminder, no automatic turn."""
        session = db_session()
        user, game, seat = _member_game(session, game_id)
        pauses.ask_pause(session, game, seat, now())
        session.commit()
        return lobby.game_json(session, game, user)


@blp.route("/games/<game_id:game_id>/resume")
class Resume(MethodView):
    @blp.response(200, GameSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 409, 429, e403=OUTSIDER, e404=E404,
                     e409="game k3x9q2ab is not paused and nobody asked to pause it")
    def post(self, game_id: str):
        """Resume the game (any one player may), or withdraw the requests to pause it. Each
        waiting turn gets the time it had left."""
        session = db_session()
        user, game, _seat = _member_game(session, game_id)
        pauses.resume(session, game, now())
        session.commit()
        return lobby.game_json(session, game, user)
