"""/verify: anyone drops a finished game's export on the page and the server checks it as
`iridescia verify` does (engine/audit.py): the seed against the hash published at the start,
the players' words, every command re-decided. A plain form upload: no JavaScript needed, no
sign-in, nothing stored."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import gettext as _

from engine import audit
from server import i18n
from server.web import account_pages
from server.web.page_filters import page_lang
from server.web.routes import _page_user, protect_forms

blp = Blueprint("verify", __name__, template_folder="templates")
# A whole game's log is far larger than any other form or API body (MAX_BODY_BYTES).
LOG_MAX_BYTES = 16 * 1024 * 1024


@blp.before_request
def allow_a_whole_log() -> None:
    if request.path == "/verify":
        request.max_content_length = LOG_MAX_BYTES


def _an_address_confirmation() -> bool:
    """/verify?code=… is also the link of the mail that confirms an address
    (server/users/links.py, links already sent included): a request with a code and no log is
    that page's, served by account_pages (whose code is its credential: no CSRF token)."""
    return bool(request.values.get("code")) and "log" not in request.files


@blp.before_request
def protect_the_upload():
    if not _an_address_confirmation():
        return protect_forms()
    return None


@blp.get("/verify")
def verify_form():
    if _an_address_confirmation():
        return account_pages.show_confirmation()
    return render_template("verify.html", user=_page_user(), result=None)


def _refused(problem: str):
    """The form again, saying what to send instead (a page, whatever the client accepts)."""
    return render_template("verify.html", user=_page_user(), result=None, refused=problem), 400


@blp.post("/verify")
def verify_upload():
    if _an_address_confirmation():
        return account_pages.confirm()
    upload = request.files.get("log")
    if upload is None or not upload.filename:
        return _refused(_("choose a game's log file (from `iridescia log GAME -o FILE` or the "
                          "game's export) and send the form again"))
    name = upload.filename
    try:
        text = upload.read().decode("utf-8")
        words = i18n.engine_catalog(page_lang())  # the check's lines in the page's language
        lines = audit.verify_export(audit.parse_log(text, words), words)
    except UnicodeDecodeError:
        return _refused(_("%(file)r is not a text file: send the game's log as `iridescia log` "
                          "writes it", file=name))
    except audit.NotALog as problem:
        return _refused(_("%(file)r is %(problem)s: send the game's log as `iridescia log` "
                          "writes it", file=name, problem=problem))
    except audit.Diverges as diverges:
        result = {"ok": False, "name": name, "problem": diverges.message}
    except (KeyError, TypeError, AttributeError, ValueError) as problem:  # missing parts
        result = {"ok": False, "name": name,
                  "problem": _("the log is incomplete or malformed (%(kind)s: %(problem)s)",
                               kind=type(problem).__name__, problem=problem)}
    else:
        result = {"ok": True, "name": name, "lines": lines}
    return render_template("verify.html", user=_page_user(), result=result)
