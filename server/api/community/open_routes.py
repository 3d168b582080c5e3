"""GET /api/v1/games/open and /api/v1/seeks: finding a game (server/seeking)."""

from __future__ import annotations

from flask.views import MethodView

from server.api.community.schemas import (
    OpenGamesQuerySchema,
    SeekRequestSchema,
    SeekSchema,
)
from server.api.docs import document_errors, location
from server.api.games.schemas import GameSchema
from server.games import lobby
from server.http.auth import SECURITY_OPTIONAL, SECURITY_REQUIRED, current_user, require_user
from server.http.parsing import Blueprint
from server.ratings import derived
from server.seeking import open_games, seeks
from server.storage.db import db_session
from server.storage.models import utcnow

blp = Blueprint("finding", __name__, description="Finding a game: the open games and seeks "
                                                  "(docs/community.md)")
PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


@blp.route("/games/open")
class OpenGames(MethodView):
    @blp.arguments(OpenGamesQuerySchema(), location="query")
    @blp.response(200, GameSchema(many=True))
    @blp.paginate(page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE)
    @blp.doc(security=SECURITY_OPTIONAL)
    @document_errors(401, 422, 429, e422="invalid request: pace: Must be one of: 1d, 3d, 7d, none.")
    def get(self, query: dict, pagination_parameters):  # noqa: ANN001
        """The public games waiting for players, newest first, a page at a time; ``seats``,
        ``pace`` and ``rules_version`` filter them. Signed in, each carries its join code: join
        it with POST /games/join. Each person carries their rating on the game's track."""
        session = db_session()
        user = current_user()
        page, pagination_parameters.item_count = open_games.open_games(
            session, pagination_parameters.first_item, pagination_parameters.page_size, **query)
        listed = lobby.games_json(session, page, user)
        if user is not None:  # a public open game is anyone's to join
            codes = {game.id: game.join_code for game in page}
            listed = [{**game, "join_code": codes[game["id"]]} for game in listed]
        return derived.with_ratings(derived.ratings(session), listed)


@blp.route("/seeks")
class Seeks(MethodView):
    @blp.arguments(SeekRequestSchema())
    @blp.response(201, SeekSchema, headers=location("/api/v1/seeks/{id}: the seek"))
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 409, 413, 415, 422, 429,
                     e409="you already seek a game of 2 seats at pace 3d: wait for it, or "
                          "cancel it first",
                     e422="invalid request: seats: Must be greater than or equal to 2 and less "
                          "than or equal to 4.")
    def post(self, data: dict):
        """Seek a game: so many seats at such a pace. When enough players seek the same, a
        public game is made for them and starts by itself; ``game_id`` names it (null: still
        waiting)."""
        user = require_user()
        session = db_session()
        made = seeks.seek(session, user, data["seats"], data["pace"], data.get("contribution"),
                          utcnow())
        session.commit()
        return seeks.seek_json(made), {"Location": f"/api/v1/seeks/{made.id}"}

    @blp.response(200, SeekSchema(many=True))
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 429)
    def get(self):
        """Your seeks: those waiting, then those that made a game, newest first."""
        session = db_session()
        return [seeks.seek_json(s) for s in seeks.seeks_of(session, require_user())]


@blp.route("/seeks/<int:seek_id>")
class OneSeek(MethodView):
    @blp.response(200, SeekSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 404, 429, e404="you have no seek 7: `iridescia seeks` lists yours")
    def get(self, seek_id: int):
        """One of your seeks."""
        return seeks.seek_json(seeks.seek_of(db_session(), require_user(), seek_id))

    @blp.response(204)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 404, 409, 429, e404="you have no seek 7: `iridescia seeks` lists yours",
                     e409="seek 7 has made game k3x9q2ab already: play it there")
    def delete(self, seek_id: int):
        """Cancel a seek still waiting."""
        session = db_session()
        seeks.cancel(session, require_user(), seek_id)
        session.commit()
