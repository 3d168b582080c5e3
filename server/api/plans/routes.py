"""/api/v1/games/{id}/plan: your plan for your next turn. Only you read it: no other seat's
view, feed, export, page or mail shows it until its lines are played."""

from __future__ import annotations

from flask.views import MethodView

from server.api.docs import NO_SUCH_GAME as E404
from server.api.docs import document_errors
from server.api.plans.schemas import PlanRequestSchema, PlanSchema
from server.games import lobby
from server.http.auth import SECURITY_REQUIRED
from server.http.errors import fail
from server.http.parsing import Blueprint
from server.plans import store
from server.storage.db import db_session
from server.storage.models import utcnow

blp = Blueprint("plans", __name__, description="Plans: the lines of your next turn, left while "
                                               "it is not your turn and played when it comes")


def _as_json(plan) -> dict:
    return {"game_id": plan.game_id, "lines": list(plan.lines), "source": plan.source,
            "made_at": plan.made_at}


def _player(session, game_id: str):
    user, game, seat = lobby.caller_and_game(session, game_id, required=True)
    if seat is None or seat.seat is None:
        fail(403, f"only the players of game {game.id} make plans in it"
                  + ("" if game.status != "open" else ", once it has started"))
    return user, game, seat


@blp.route("/<game_id:game_id>/plan")
class Plan(MethodView):
    @blp.arguments(PlanRequestSchema())
    @blp.response(200, PlanSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 403, 404, 409, 415, 422, 429, e404=E404,
                     e403="only the players of game k3x9q2ab make plans in it",
                     e409="it is your turn now: play your commands instead of planning them",
                     e422='line 2, "mvoe 3c", is not a command: did you mean `move 3c`?')
    def put(self, data: dict, game_id: str):
        """Leave the lines of your next turn (replacing any plan you had) while it is not your
        turn. When your turn comes the server plays them at once, each while it is legal, and
        stops at the first that is not; your turn's mail says what was played and what is left.
        Playing any command clears the plan."""
        session = db_session()
        user, game, seat = _player(session, game_id)
        try:
            plan = store.save(session, game, seat.seat, user.id, data["lines"], utcnow(), "api")
        except store.PlanRefused as error:
            session.rollback()
            fail(error.status, error.message)
        session.commit()
        return _as_json(plan)

    @blp.response(200, PlanSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 429, e404="you have no plan in game k3x9q2ab",
                     e403="only the players of game k3x9q2ab make plans in it")
    def get(self, game_id: str):
        """Your plan for your next turn (yours alone: nobody else can read it)."""
        session = db_session()
        _user, game, seat = _player(session, game_id)
        plan = store.get(session, game.id, seat.seat)
        if plan is None:
            fail(404, f"you have no plan in game {game.id}")
        return _as_json(plan)

    @blp.response(204)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 429, e404="you have no plan in game k3x9q2ab",
                     e403="only the players of game k3x9q2ab make plans in it")
    def delete(self, game_id: str):
        """Drop your plan: your next turn is yours to play."""
        session = db_session()
        _user, game, seat = _player(session, game_id)
        if not store.clear(session, game.id, seat.seat):
            fail(404, f"you have no plan in game {game.id}")
        session.commit()
