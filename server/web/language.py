"""The language of a page (issue 30): the signed-in player's choice once they made one
(PATCH /users/me/preferences, the settings page, `iridescia prefs`, the mail word), else the
browser's Accept-Language. Flask-Babel asks `page_language` once per request."""

from __future__ import annotations

from datetime import datetime

from flask import has_request_context, request
from flask_babel import format_date, format_time, get_locale

from engine.text.wording import Words
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


def page_words() -> Words:
    """The engine's wording (printed names, gems, counts) in the page's language."""
    return Words(i18n.engine_catalog(str(get_locale())))


def when(moment: datetime | str | None, with_zone: bool = True) -> str:
    """A date and time as the page's language writes them (Flask-Babel's format_date and
    format_time, in the app's time zone, UTC): "Dec 24, 2026, 3:00 PM UTC" / "2026/12/24
    15:00 UTC"."""
    if moment is None:
        return ""
    if isinstance(moment, str):  # an API body's ISO 8601 time
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    locale = get_locale()
    pattern = locale.datetime_formats["medium"] if locale else "{1} {0}"
    text = pattern.replace("{1}", format_date(moment, "medium")).replace(
        "{0}", format_time(moment, "short"))
    return f"{text} UTC" if with_zone else text


def day(moment: datetime | None) -> str:
    """A date alone, as the page's language writes it."""
    return format_date(moment, "medium") if moment is not None else ""
