"""Web pages, page sessions and the SVG board: ``init_app(app)`` adds them to the API's app.

- pages (server/web/routes.py): ``/``, ``/register``, ``/sign-in``, ``/games/ID`` and playing
  on its board (game_page.py, board.py, panels.py, commands.py; static/game.js keeps it live);
  the lobby (lobby_pages.py: ``/games/new``, ``/join/CODE``, invite, start, leave); settings
  (settings_pages.py, time_away.py); the board's stylesheet and the log's download
  (game_files.py); errors on these paths are pages, on ``/api/`` JSON as before;
- every page in the reader's language (language.py picks it: the player's choice, else
  Accept-Language; page_filters.py: dates, paces and levels in its words; docs/i18n.md);
- sessions (server/users/sign_in.py): Flask's signed cookie session on the pages only (the API
  keeps none), CSRF protection on every page form (Flask-WTF);
- ``/docs``: Swagger UI (5.x, which reads OpenAPI 3.1) from the flask-swagger-ui package's
  files, never a CDN.
"""

from __future__ import annotations

import http

from flask import Flask, render_template, request, send_from_directory
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from server import i18n
from server.http import errors
from server.web import page_filters, page_gettext
from server.web.bot_pages import blp as bot_pages
from server.web.community_pages import blp as community_pages
from server.web.csrf import csrf
from server.web.game_files import blp as game_files
from server.web.lobby_pages import blp as lobby_pages
from server.web.player_pages import blp as player_pages
from server.web.routes import blp
from server.web.settings_pages import blp as settings_pages
from server.web.time_away import blp as time_away
from server.web.verify_page import blp as verify_page

DOCS_ASSETS = "/docs/assets/"
# An error page's heading, in the page's language (others: the HTTP phrase).
TITLES = {400: lazy_gettext("Bad Request"), 401: lazy_gettext("Unauthorized"),
          403: lazy_gettext("Forbidden"), 404: lazy_gettext("Not Found"),
          405: lazy_gettext("Method Not Allowed"), 409: lazy_gettext("Conflict"),
          413: lazy_gettext("Content Too Large"), 422: lazy_gettext("Unprocessable Content"),
          429: lazy_gettext("Too Many Requests"), 500: lazy_gettext("Internal Server Error")}
# Flask-WTF's reasons for refusing a form, in the page's language.
CSRF_REASONS = {
    "The CSRF token is missing.": lazy_gettext("The form's token is missing."),
    "The CSRF session token is missing.": lazy_gettext("This browser's session has no token."),
    "The CSRF token has expired.": lazy_gettext("The form's token has expired."),
    "The CSRF token is invalid.": lazy_gettext("The form's token is invalid."),
    "The CSRF tokens do not match.": lazy_gettext("The form's token is not this session's."),
    "The referrer header is missing.": lazy_gettext("The Referer header is missing."),
    "The referrer does not match the host.": lazy_gettext("The Referer is another site."),
}


def is_api_path(path: str) -> bool:
    return path.startswith("/api/") or path == "/openapi.json"


class PageSessions(SecureCookieSessionInterface):
    """A signed cookie session for the pages; none for the API, which authenticates by bearer
    token (reading a cookie there would only cost time)."""

    def open_session(self, app, request):  # noqa: ANN001, ANN201
        if is_api_path(request.path):
            return None  # Flask then uses its null session, which refuses to be written
        return super().open_session(app, request)


def _wants_page() -> bool:
    """A page's error is a page; so is any other path's for a browser (it asks for HTML first);
    the API and other clients get the JSON error body."""
    if is_api_path(request.path):
        return False
    if request.blueprint == "pages":
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "text/html" and request.accept_mimetypes[best] > request.accept_mimetypes[
        "application/json"]


def _error(error: HTTPException):
    if not _wants_page():
        return errors.error_response(error)
    code = error.code or 500
    data = getattr(error, "data", None) or {}
    message = i18n.say(data.get("message"), page_filters.page_lang())
    if isinstance(error, CSRFError):
        message = _("this form was not sent by this site's page, or the page is out of date "
                    "(%(reason)s): reload the page and try again",
                    reason=CSRF_REASONS.get(error.description, error.description))
    if not message:
        message = errors.error_response(error).json["message"]
    title = TITLES.get(code) or (http.HTTPStatus(code).phrase
                                 if code in http.HTTPStatus._value2member_map_ else _("Error"))
    response = render_template("message.html", title=title, message=message, status=code)
    headers = {name: value for name, value in error.get_headers()
               if name.lower() != "content-type"}
    return response, code, headers


def _swagger_ui_files() -> str:
    """The Swagger UI distribution flask-swagger-ui ships (only its files are used: flask-smorest
    writes the /docs page)."""
    from pathlib import Path

    import flask_swagger_ui

    return str(Path(flask_swagger_ui.__file__).parent / "dist")


def init_app(app: Flask) -> None:
    base_url = app.config["BASE_URL"]
    app.config.update(
        SESSION_COOKIE_NAME="iridescia_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=base_url.startswith("https://"),
        PERMANENT_SESSION_LIFETIME=30 * 24 * 3600,
        WTF_CSRF_CHECK_DEFAULT=False,  # the API's posts carry a bearer token, not a cookie
        WTF_CSRF_TIME_LIMIT=None,  # the token lives as long as the page session
    )
    app.session_interface = PageSessions()
    page_gettext.install(app)  # after Babel(app), which app.py builds first
    csrf.init_app(app)


    app.register_blueprint(blp)
    app.register_blueprint(time_away)
    app.register_blueprint(game_files)
    app.register_blueprint(lobby_pages)
    app.register_blueprint(settings_pages)
    app.register_blueprint(bot_pages)
    app.register_blueprint(verify_page)
    app.register_blueprint(community_pages)
    app.register_blueprint(player_pages)
    assets = _swagger_ui_files()

    @app.get(DOCS_ASSETS + "<path:name>")
    def docs_asset(name: str):
        return send_from_directory(assets, name, max_age=86400)

    app.register_error_handler(HTTPException, _error)
