"""GET /api/v1/users/{id} (a player, with their ratings) and GET /api/v1/leaderboard."""

from __future__ import annotations

from flask.views import MethodView

from server.api.community.schemas import (
    LeaderboardEntrySchema,
    LeaderboardQuerySchema,
    PlayerProfileSchema,
)
from server.api.docs import document_errors
from server.http.auth import SECURITY_OPTIONAL, current_user
from server.http.parsing import Blueprint
from server.ratings import leaderboard, players
from server.storage.db import db_session

blp = Blueprint("players", __name__, description="Players, their ratings and the leaderboard "
                                                 "(docs/community.md)")


@blp.route("/users/<int:user_id>")
class Player(MethodView):
    @blp.response(200, PlayerProfileSchema)
    @blp.doc(security=SECURITY_OPTIONAL)
    @document_errors(401, 404, 429, e404="there is no player 7")
    def get(self, user_id: int):
        """A player: name, ratings (OpenSkill, per track: 2, 3 or 4 people, or solo against
        the Rhom; provisional before 5 games), finished games with results, running games and
        win rate per player count. Private games only if you played in them too."""
        session = db_session()
        return players.profile(session, players.public_user(session, user_id), current_user())


@blp.route("/leaderboard")
class Leaderboard(MethodView):
    @blp.arguments(LeaderboardQuerySchema(), location="query")
    @blp.response(200, LeaderboardEntrySchema(many=True))
    @blp.paginate(page_size=50, max_page_size=200)
    @blp.doc(security=SECURITY_OPTIONAL)
    @document_errors(401, 422, 429, e422="invalid request: track: Must be one of: 2, 3, 4, solo.")
    def get(self, query: dict, pagination_parameters):  # noqa: ANN001
        """The best rated players of a track (``track``: 2, 3, 4 or solo), best first, a page
        at a time."""
        rows = leaderboard.board(db_session(), query["track"])
        pagination_parameters.item_count = len(rows)
        first = pagination_parameters.first_item
        return rows[first:first + pagination_parameters.page_size]
