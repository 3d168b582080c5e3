"""The Flask application factory."""

from __future__ import annotations

import gc
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel
from flask_smorest import Api

from server import i18n, reactions, wakeups, web
from server.api import engine_schemas
from server.api.community.open_routes import blp as finding_blp
from server.api.community.player_routes import blp as players_blp
from server.api.community.routes import blp as community_blp
from server.api.examples import SuccessExamples
from server.api.games import paths
from server.api.games.hint_routes import blp as hint_blp
from server.api.games.play_routes import blp as play_blp
from server.api.games.routes import blp as games_blp
from server.api.health.routes import blp as health_blp
from server.api.mail.routes import blp as mail_blp
from server.api.messages.routes import blp as messages_blp
from server.api.notifications.routes import blp as notifications_blp
from server.api.plans.routes import blp as plans_blp
from server.api.rules.routes import blp as rules_blp
from server.api.schema_rules import SchemaRules
from server.api.users.routes import blp as users_blp
from server.api.vacations.routes import blp as vacations_blp
from server.api.webhooks import deliveries as webhook_deliveries
from server.api.webhooks.routes import blp as webhooks_blp
from server.config import Settings
from server.games import service
from server.http import (
    caching,
    chunked_bodies,
    cors,
    errors,
    parsing,
    rate_limits,
    security_headers,
)
from server.storage import db, json_codec
from server.web.account_pages import pages as account_pages
from server.web.language import page_language
from server.web.settings import blp as settings_pages

API_PREFIX = "/api/v1"


class IridesciaApi(Api):
    ERROR_SCHEMA = errors.ErrorSchema

    def handle_http_exception(self, error):  # noqa: ANN001
        return errors.error_response(error)


_COMPACT = {"separators": (",", ":")}


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON with orjson underneath (server/storage/json_codec.py); Flask's own ``default`` still
    decides how dates and other objects are written. Compact output (what `jsonify` asks for
    outside debug mode) is orjson's own; any other option (indenting in debug) goes to
    Flask's."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs and kwargs != _COMPACT:
            return super().dumps(obj, **kwargs)
        return json_codec.dumps(obj, default=self.default)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        if kwargs:
            return super().loads(s, **kwargs)
        return json_codec.loads(s)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` overrides settings by their bare names (see server.config)."""
    settings = Settings.load(config)
    app = Flask("server")
    app.config.update(settings.as_flask_config())
    app.config.update(
        API_TITLE="Iridescia",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",  # 3.1: JSON Schema, where a typed value may also be null
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=web.DOCS_ASSETS,  # Swagger UI 5, from flask-swagger-ui (server/web)
        API_SPEC_OPTIONS={
            "info": {
                "description": (
                    "Play Gems of Iridescia by email. Every game is an append-only event log "
                    "replayed through the rules engine. Errors always have the body "
                    "{code, status, message, details}."
                )
            },
            "servers": [{"url": "/"}],
        },
        JSON_SORT_KEYS=False,
    )
    app.json = FastJSONProvider(app)
    app.json.sort_keys = False
    db.init_app(app)
    wakeups.init_app(app)

    app.url_map.converters["game_id"] = paths.GameIdConverter
    api = IridesciaApi(app, spec_kwargs={"extra_plugins": [engine_schemas.OperationIds(),
                                                              SchemaRules(), SuccessExamples()]})
    engine_schemas.init_api(api)
    webhook_deliveries.document(api)
    api.register_converter(paths.GameIdConverter, paths.parameter_schema)
    api.spec.components.security_scheme(
        "bearerAuth",
        {"type": "http", "scheme": "bearer", "description": "The API token from POST /users"},
    )
    errors.init_app(app)
    rate_limits.init_app(app)
    # English or Japanese (server/i18n/): the pages' gettext, their language chosen per request.
    app.config.update(BABEL_DEFAULT_LOCALE=i18n.DEFAULT,
                      BABEL_TRANSLATION_DIRECTORIES=str(i18n.TRANSLATIONS))
    Babel(app, locale_selector=page_language)
    web.init_app(app)  # page sessions (none for the API), /docs' own files, pages' errors
    parsing.init_app(app)
    chunked_bodies.init_app(app)
    caching.init_app(app)
    cors.init_app(app)
    security_headers.init_app(app)  # every answer, pages and API alike
    service.init_app(app)
    reactions.init_app(app)  # what the core's facts set off (server/reactions.py)
    api.register_blueprint(users_blp, url_prefix=f"{API_PREFIX}/users")
    api.register_blueprint(games_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(play_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(hint_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(messages_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(plans_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(webhooks_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(health_blp, url_prefix=f"{API_PREFIX}/health")
    api.register_blueprint(mail_blp, url_prefix=f"{API_PREFIX}/mail")
    api.register_blueprint(rules_blp, url_prefix=f"{API_PREFIX}/rules")
    api.register_blueprint(vacations_blp, url_prefix=API_PREFIX)
    api.register_blueprint(notifications_blp, url_prefix=API_PREFIX)
    api.register_blueprint(community_blp, url_prefix=API_PREFIX)
    api.register_blueprint(finding_blp, url_prefix=API_PREFIX)
    api.register_blueprint(players_blp, url_prefix=API_PREFIX)
    app.register_blueprint(account_pages)
    app.register_blueprint(settings_pages)  # language and display settings (docs/i18n.md)
    app.extensions["iridescia_api"] = api
    if not app.testing:
        _freeze_the_startup_heap()
    return app


def _freeze_the_startup_heap() -> None:
    """Move what the process built at startup out of the cyclic garbage collector's sight.

    About 100,000 objects (modules, the app, the spec, the engine's tables) live as long as the
    process; each full collection walked them all, about 50 ms here, and it landed inside
    whichever request happened to trigger it (bench/scale's game-list p99). `gc.freeze()`, as
    gunicorn deployments commonly do after loading the app, leaves them to reference counting.
    Tests build many apps and skip this (frozen objects are never collected)."""

    gc.collect()
    gc.freeze()
