"""/api/v1/rules/cards: every item, objective, relic and tile with its words. Public: it
describes the cards, never which cards anyone holds."""

from __future__ import annotations

from flask import request
from flask.views import MethodView

import engine
from engine.text.card_help import catalogue
from server import i18n
from server.api.docs import document_errors
from server.api.rules.schemas import CardsQuerySchema, CardsSchema
from server.http.errors import fail
from server.http.parsing import Blueprint

blp = Blueprint("rules", __name__, description="Rules: what each card does")


@blp.route("/cards")
class Cards(MethodView):
    @blp.arguments(CardsQuerySchema(), location="query")
    @blp.response(200, CardsSchema)
    @document_errors(422, 429, e422="this server cannot play rules version '9': it plays 1, 2 "
                                    "(new games get 2)")
    def get(self, query: dict):
        """Each item's effect and timing, each secret objective's condition, each relic's gems,
        points, category and lead gem, each tile's gem and bonus, as the rules version
        (``?rules_version=``, default the current one) words them, in English or Japanese as
        ``Accept-Language`` asks (``ja``: names and texts in Japanese; the ids stay)."""

        language = i18n.best_match(request.headers.get("Accept-Language"))
        try:
            return catalogue(query.get("rules_version"), i18n.engine_catalog(language)), {
                "Vary": "Accept-Language", "Content-Language": language}
        except engine.UnsupportedRulesVersion as error:
            fail(422, i18n.refusal(error, language), rules_version=query.get("rules_version"))
