"""The templates' gettext, with the request's catalog looked up once.

Flask-Babel gives Jinja callables that find the catalog again for every string: the request's
Babel namespace, its domain, its locale, each through Flask's context proxies, about ten
lookups a string. A game page has some forty strings: a fifth of its CPU (bench/turn_cost,
issue 31). These keep the catalog on the same namespace beside the locale it was found for;
`flask_babel.refresh()` (a changed language) drops that locale, so the next string finds the
new catalog.
"""

from __future__ import annotations

from typing import Any

import flask_babel
from flask import Flask, g

_KEPT = "iridescia_translations"


def _translations() -> Any:
    ctx = g.get("_flask_babel")
    kept = getattr(ctx, _KEPT, None) if ctx is not None else None
    if kept is not None and kept[0] is getattr(ctx, "babel_locale", None) \
            and kept[1] is getattr(ctx, "babel_domain", None):
        return kept[2]
    translations = flask_babel.get_translations()
    ctx = g.get("_flask_babel")
    if ctx is not None and getattr(ctx, "babel_locale", None) is not None:
        setattr(ctx, _KEPT, (ctx.babel_locale, getattr(ctx, "babel_domain", None),
                             translations))
    return translations


def install(app: Flask) -> None:
    """Replace Flask-Babel's template callables (after `Babel(app)`) by the same, faster."""
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _translations().ugettext(s),
        ngettext=lambda s, p, n: _translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: _translations().unpgettext(c, s, p, n),
    )
