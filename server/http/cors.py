"""Cross-origin use of the API (CORS), for browser clients served from another origin.

Off unless ``IRIDESCIA_CORS_ORIGINS`` names origins: then flask-cors answers the preflights of
/api/ and marks the answers readable by those origins. The API authenticates by bearer token,
never by cookie, so no credentials are allowed: a page on another origin can use the API only
with a token its user gave it. The pages and their cookie session stay same-origin.
"""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

# What a client sends beyond the simple headers, and what it may read of an answer.
REQUEST_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match",
                   "Idempotency-Key")
ANSWER_HEADERS = ("ETag", "Location", "Link", "X-Pagination", "Retry-After", "WWW-Authenticate",
                  "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
PREFLIGHT_CACHE_SECONDS = 600


def origins(setting: str) -> list[str] | str:
    """The setting as flask-cors takes it: ``*``, or the list of origins it names."""
    names = [name.strip().rstrip("/") for name in setting.split(",") if name.strip()]
    return "*" if "*" in names else names


def init_app(app: Flask) -> None:
    allowed = origins(app.config.get("CORS_ORIGINS", ""))
    if not allowed:
        return
    CORS(app, resources={r"/api/*": {"origins": allowed}}, allow_headers=list(REQUEST_HEADERS),
         expose_headers=list(ANSWER_HEADERS), supports_credentials=False,
         max_age=PREFLIGHT_CACHE_SECONDS)
