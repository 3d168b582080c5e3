"""CORS: off by default; with IRIDESCIA_CORS_ORIGINS, a page on a named origin may call /api/
with a token (preflight, readable answers and headers), and no other origin may."""

from __future__ import annotations

import pytest

from server import create_app
from tests.accounts import sign_up

APP_ORIGIN = "https://app.example.org"


def _app(database_url, origins: str | None):
    config = {"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
              "ACCOUNT_REQUESTS_PER_HOUR": 100_000}
    if origins is not None:
        config["CORS_ORIGINS"] = origins
    return create_app(config)


def _token(client) -> str:
    return sign_up(client, "ada", "ada@example.org")["token"]


def _preflight(client, path="/api/v1/games", origin=APP_ORIGIN):
    return client.options(path, headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, if-match"})


def test_off_by_default(database_url):
    client = _app(database_url, None).test_client()
    token = _token(client)
    preflight = _preflight(client)
    assert "Access-Control-Allow-Origin" not in preflight.headers
    answer = client.get("/api/v1/users/me", headers={"Origin": APP_ORIGIN,
                                                     "Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer.headers


def test_a_named_origin_may_call_the_api_with_a_token(database_url):
    client = _app(database_url, f"{APP_ORIGIN}, http://localhost:3000").test_client()
    token = _token(client)
    preflight = _preflight(client)
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    allowed = {h.strip().lower()
               for h in preflight.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match"} <= allowed
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in preflight.headers  # tokens, not cookies

    created = client.post("/api/v1/games", json={"seats": 2},
                          headers={"Origin": APP_ORIGIN, "Authorization": f"Bearer {token}"})
    assert created.status_code == 201
    assert created.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    exposed = {h.strip() for h in created.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "Link", "X-Pagination", "Retry-After"} <= exposed
    assert "Origin" in created.headers["Vary"]
    other = client.get("/api/v1/users/me", headers={"Origin": "http://localhost:3000",
                                                    "Authorization": f"Bearer {token}"})
    assert other.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"


def test_another_origin_gets_no_permission(database_url):
    client = _app(database_url, APP_ORIGIN).test_client()
    token = _token(client)
    assert "Access-Control-Allow-Origin" not in _preflight(client, origin="https://evil.example"
                                                           ).headers
    answer = client.get("/api/v1/users/me", headers={"Origin": "https://evil.example",
                                                     "Authorization": f"Bearer {token}"})
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_errors_are_readable_by_the_origin_too(database_url):
    client = _app(database_url, APP_ORIGIN).test_client()
    answer = client.get("/api/v1/users/me", headers={"Origin": APP_ORIGIN})
    assert answer.status_code == 401
    assert answer.headers["Access-Control-Allow-Origin"] == APP_ORIGIN


@pytest.mark.parametrize("path", ["/", "/docs"])
def test_only_the_api(database_url, path):
    client = _app(database_url, "*").test_client()
    assert "Access-Control-Allow-Origin" not in client.get(path, headers={"Origin": APP_ORIGIN}
                                                           ).headers
    assert client.get("/api/v1/health", headers={"Origin": APP_ORIGIN}
                      ).headers["Access-Control-Allow-Origin"] == APP_ORIGIN


def test_the_fronts_refusal_of_one_wait_too_many_is_readable_across_origins(database_url):
    """The ASGI front refuses a long poll beyond the client's open waits; the browser on the
    named origin can read why (the answer carries CORS like every other)."""
    import requests

    from tests.server.front import served_front
    from tests.server.helpers import Player
    from tests.server.play import create_started_game

    app = _app(database_url, APP_ORIGIN)
    app.config["LONG_POLL_MAX_PER_CLIENT"] = 0  # any wait is one too many
    client = app.test_client()
    ada, bob = (Player(b["id"], b["name"], b["email"], b["token"]) for b in (
        sign_up(client, n, f"{n}@example.org")
        for n in ("ada", "bob")))
    game = create_started_game(client, [ada, bob])
    with served_front(app) as base:
        refused = requests.get(f"{base}/api/v1/games/{game['id']}/events?after=0&wait=5",
                               headers={"Origin": APP_ORIGIN, **ada.headers}, timeout=10)
        unmarked = requests.get(f"{base}/api/v1/games/{game['id']}/events?after=0",
                                headers={"Origin": APP_ORIGIN, **ada.headers}, timeout=10)
    assert refused.status_code == 429, refused.text
    assert refused.json()["message"] == ("you already have 0 open waits (events?wait=) on this "
                                         "server: close one, or ask without wait")
    assert refused.json()["details"] == {"limit": 0}
    assert refused.headers["Retry-After"] == "1"
    assert refused.headers["Access-Control-Allow-Origin"] == APP_ORIGIN
    assert "Retry-After" in refused.headers["Access-Control-Expose-Headers"]
    assert unmarked.status_code == 200 and unmarked.json()["events"]  # no wait: answered
