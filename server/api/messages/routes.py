"""/api/v1/games/{id}/messages: table talk (server/messages/service.py says who may do what)."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView

from server.api.docs import NO_SUCH_GAME as E404
from server.api.docs import document_errors, location
from server.api.messages.schemas import (
    MessageListSchema,
    MessagePostSchema,
    MessageQuerySchema,
    MessageSchema,
)
from server.games import lobby
from server.http.auth import SECURITY_OPTIONAL, SECURITY_REQUIRED
from server.http.errors import fail
from server.http.parsing import Blueprint
from server.messages import service
from server.storage.db import db_session
from server.storage.models import utcnow

blp = Blueprint("messages", __name__, description="Table talk: the players' and spectators' "
                                                  "messages of a game")


def refuse(error: service.MessageRefused):
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after else None
    details = {"retry_after": error.retry_after} if error.retry_after else {}
    fail(error.status, error.message, headers=headers, **details)


@blp.route("/<game_id:game_id>/messages")
class Messages(MethodView):
    @blp.arguments(MessagePostSchema())
    @blp.response(201, MessageSchema,
                  headers=location("/api/v1/games/{id}/messages?since=N: the table talk from "
                                   "this message on"))
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 403, 404, 413, 415, 422, 429, e404=E404,
                     e403="only the players of game k3x9q2ab talk on its players' channel",
                     e422="a message has at most 1,000 characters; yours has 1,204: shorten it "
                          "or say it in two messages",
                     e429="you have posted 5 messages in game k3x9q2ab in the past minute, the "
                          "most allowed: wait 41 seconds")
    def post(self, data: dict, game_id: str):
        """Say something to the table: the players' channel (players only), or a public game's
        spectators' channel (anyone signed in)."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        try:
            message = service.post(session, game, user, seat is not None, data["text"],
                                   utcnow(), service.Limits.of(current_app.config),
                                   channel=data.get("channel"))
        except service.MessageRefused as error:
            session.rollback()
            refuse(error)
        session.commit()
        answer = service.as_json(message, user.name, seat.seat if seat else None,
                                 seat.id if seat else None)
        since = f"?since={message.id - 1}&channel={message.channel}"
        return answer, {"Location": f"/api/v1/games/{game.id}/messages{since}"}

    @blp.arguments(MessageQuerySchema(), location="query")
    @blp.response(200, MessageListSchema)
    @blp.doc(security=SECURITY_OPTIONAL)
    @document_errors(401, 403, 404, 422, 429, e404=E404,
                     e403="only the game's players read its players' channel",
                     e422="invalid request: limit: Must be greater than or equal to 1 and "
                          "less than or equal to 200.")
    def get(self, query: dict, game_id: str):
        """The messages you may read, each marked with its channel: a player reads both, anyone
        else a public game's spectators' channel. ``since`` gives only newer ones."""
        session = db_session()
        _user, game, seat = lobby.caller_and_game(session, game_id, required=False)
        try:
            channels = service.readable_channels(seat is not None, query.get("channel"))
        except service.MessageRefused as error:
            refuse(error)
        messages = service.listing(session, game, channels, query.get("since"), query["limit"])
        last = messages[-1]["id"] if messages else query.get("since")
        return {"game_id": game.id, "channels": list(channels), "messages": messages,
                "last_id": last}
