"""The settings page's "Language and display" form (settings_pages.py shows it): a signed-in
player's language and the digital edition's display settings (tiles by gem or region, relics by
gem type or category), as PATCH /users/me/preferences sets them (docs/i18n.md)."""

from __future__ import annotations

from flask import Blueprint, redirect, request
from flask_babel import get_locale
from flask_babel import gettext as _

from server import i18n
from server.api.users.schemas import RELIC_SORTS, TILE_SORTS
from server.http.errors import fail
from server.storage.db import db_session
from server.web.routes import protect_forms, signed_in_user

blp = Blueprint("display_settings", __name__)
blp.before_request(protect_forms)

CHOICES = {"language": i18n.LANGUAGES, "tile_sort": TILE_SORTS, "relic_sort": RELIC_SORTS}


def page_context(user) -> dict:  # noqa: ANN001
    """What the settings page's form needs: the languages, the one shown, whether it was just
    saved."""
    return {"languages": i18n.NAMES, "shown": user.language or str(get_locale()),
            "saved": request.args.get("saved") == "1"}


@blp.post("/settings/display")
def save_settings():
    session = db_session()
    user = signed_in_user()
    for field, allowed in CHOICES.items():
        value = request.form.get(field)
        if value is None:
            continue
        if value not in allowed:
            fail(422, _("%(field)s is one of %(allowed)s, not %(value)r", field=field,
                        allowed=", ".join(allowed), value=value))
        setattr(user, field, value)
    session.add(user)
    session.commit()
    return redirect("/settings?saved=1", 303)
