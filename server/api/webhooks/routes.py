"""/api/v1/games/<id>/webhook: a player's own webhook on a game (docs/webhooks.md)."""

from __future__ import annotations

from flask.views import MethodView

from server.api.docs import document_errors
from server.api.webhooks.schemas import WebhookCreatedSchema, WebhookRequestSchema, WebhookSchema
from server.games import lobby
from server.http.auth import SECURITY_REQUIRED
from server.http.errors import fail
from server.http.parsing import Blueprint
from server.storage.db import db_session
from server.storage.models import utcnow
from server.webhooks import registry

blp = Blueprint("webhooks", __name__,
                description="Webhooks: a game's turns and end POSTed to your URL, signed")
E404 = "there is no game 'k3x9q2ab' you can see"
E403 = "you do not play in game k3x9q2ab: join it with its join code first"
E422 = ("webhook URL refused: the host 'intranet.example' resolves to 10.0.0.7, a private "
        "address: a webhook must be reachable on the public internet")


@blp.route("/<game_id:game_id>/webhook")
class GameWebhook(MethodView):
    @blp.arguments(WebhookRequestSchema())
    @blp.response(200, WebhookCreatedSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 403, 404, 409, 413, 415, 422, 429, e403=E403, e404=E404, e422=E422,
                     e409="game k3x9q2ab is finished: it tells no more turns")
    def put(self, data: dict, game_id: str):
        """Set (or replace) your webhook on a game you play in: each turn change and the end
        are POSTed to it, signed with the secret this answer shows once."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        lobby.require_member(game, seat)
        url, format = registry.checked(data["url"], data.get("format"))
        hook = registry.set_webhook(session, game, user.id, url, format, utcnow())
        session.commit()
        return registry.answer(hook, secret=True)

    @blp.response(200, WebhookSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 429, e403=E403,
                     e404="you have no webhook on game k3x9q2ab: set one with PUT")
    def get(self, game_id: str):
        """Your webhook on a game (without its secret)."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        lobby.require_member(game, seat)
        hook = registry.of(session, game.id, user.id)
        if hook is None:
            fail(404, f"you have no webhook on game {game.id}: set one with PUT")
        return registry.answer(hook, secret=False)

    @blp.response(204)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 429, e403=E403,
                     e404="you have no webhook on game k3x9q2ab: set one with PUT")
    def delete(self, game_id: str):
        """Remove your webhook on a game; what it was still owed is not sent."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        lobby.require_member(game, seat)
        registry.remove(session, game.id, user.id)
        session.commit()
