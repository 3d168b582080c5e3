"""The language of a page (issue 30): the signed-in player's choice once they made one
(PATCH /users/me/preferences, the settings page, `iridescia prefs`, the mail word), else the
browser's Accept-Language. Flask-Babel asks `page_language` once per request."""

from __future__ import annotations

from flask import has_request_context, request

from server import i18n
from server.storage.db import db_session
from server.users import sign_in


def page_language() -> str:
    if not has_request_context():
        return i18n.DEFAULT
    if not request.path.startswith("/api/"):  # the API keeps no page session
        chosen = i18n.language_of(sign_in.page_user(db_session()))
        if chosen:
            return i18n.normal(chosen)
    return i18n.best_match(request.headers.get("Accept-Language"))
