"""Security headers on every answer (issue 32, L4 and L11): no page may be framed, nothing is
sniffed into another type, no page's address leaks in a Referer, and no page (the one showing a
new API token above all) is kept in a cache."""

from __future__ import annotations

import pytest

from server import create_app
from tests.accounts import mailed_code


@pytest.fixture
def client(database_url):
    return create_app({"DATABASE_URL": database_url, "TESTING": True,
                       "ACCOUNT_REQUESTS_PER_HOUR": 100_000}).test_client()


def _assert_secured(answer) -> None:
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("path", ["/", "/register", "/sign-in/not-a-link", "/games/nope",
                                  "/api/v1/health", "/api/v1/games", "/openapi.json", "/docs"])
def test_every_answer_forbids_framing_and_sniffing(client, path):
    _assert_secured(client.get(path))


def test_the_page_showing_a_new_token_is_never_cached(client):
    page = client.get("/register")
    csrf = page.get_data(as_text=True).split('name="csrf_token" value="')[1].split('"')[0]
    client.post("/register", data={"name": "Ada", "email": "ada@example.org",
                                   "csrf_token": csrf})
    code = mailed_code(client, "ada@example.org")
    answer = client.post("/verify", data={"code": code})  # the mailed link's button
    assert answer.status_code == 200 and "API token" in answer.get_data(as_text=True)
    assert answer.headers["Cache-Control"] == "no-store"
    _assert_secured(answer)


def test_pages_are_not_stored_but_the_api_keeps_its_rules(client):
    assert client.get("/").headers["Cache-Control"] == "no-store"
    assert client.get("/api/v1/games").headers["Cache-Control"] == "private, no-cache"
