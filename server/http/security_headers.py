"""Security headers on every answer: what a browser may do with our pages and answers.

- ``X-Frame-Options: DENY`` and ``Content-Security-Policy: frame-ancestors 'none'``: no other
  page (same site included) may frame ours, so a hidden frame cannot click "Ask to pause" for a
  signed-in player (clickjacking). The policy also forbids plugins, a foreign ``<base>`` and
  forms posting elsewhere; scripts and styles are left to the pages (Swagger UI at /docs runs
  its own), so the policy restricts what is framed and where forms go, not what a page draws.
- ``X-Content-Type-Options: nosniff``: an answer is read as the type it says (an SVG or a JSON
  answer is never run as a script or HTML).
- ``Referrer-Policy: no-referrer``: a page's address (a sign-in link, a mail-choice code) never
  leaves in a Referer header when a player follows a link out.
- ``Cache-Control: no-store`` on every page that is not a static file: a page may show a new API
  token, a player's objectives or a sign-in form, and none of them belongs in a disk cache or a
  shared one. The API keeps its own caching rules (server/http/caching.py).
"""

from __future__ import annotations

from flask import Flask, Response, request

CONTENT_SECURITY_POLICY = ("frame-ancestors 'none'; form-action 'self'; base-uri 'self'; "
                           "object-src 'none'")
ALWAYS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# Answers that are the same for everyone and hold nothing private: they may be cached.
CACHEABLE_PREFIXES = ("/api/", "/openapi.json", "/docs/assets/", "/static/")


def _secure(response: Response) -> Response:
    for name, value in ALWAYS.items():
        response.headers.setdefault(name, value)
    if not request.path.startswith(CACHEABLE_PREFIXES):
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    app.after_request(_secure)
