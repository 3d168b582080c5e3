"""Abuse: a per-token rate limit (configured low here) answers 429 with Retry-After, for each
token separately, also under concurrent requests over real HTTP, and a refused command changes
nothing."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
import requests
from werkzeug.serving import make_server

from server import create_app
from tests.reliability.helpers import Api, event_log

LIMIT = 10
CLIENTS = 24


@pytest.fixture
def limited_app(database_url, tmp_path):
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": LIMIT,
                       "OUTBOX_DIR": str(tmp_path / "outbox")})


@pytest.fixture(autouse=True)
def frozen_minute(monkeypatch):
    """The limiter counts in fixed one-minute windows of time.time(): hold it 20 s into one, so
    no window ends during the test (the Retry-After is then 40 s)."""
    import server.auth

    monkeypatch.setattr(server.auth, "time", SimpleNamespace(time=lambda: 60 * 28_000_000 + 20.0))


def test_a_token_over_the_limit_gets_429_with_retry_after(limited_app, database_url):
    api = Api(limited_app.test_client())
    ada, bob = api.register("ada"), api.register("bob")  # 2 anonymous requests
    db = limited_app.extensions["iridescia_db"]
    game_id = api.new_game(ada, [bob])  # ada: 2 requests, bob: 1
    statuses = [api.call("GET", f"/games/{game_id}", ada)[0] for _ in range(LIMIT - 2)]
    assert statuses == [200] * (LIMIT - 2)
    before = event_log(db)

    status, body, headers = api.call("POST", f"/games/{game_id}/commands", ada,
                                     {"command": {"type": "end_turn"}, "expected_version": 2})
    assert status == 429, (status, body)
    retry_after = int(headers["Retry-After"])
    assert retry_after == 40
    assert f"at most {LIMIT} a minute" in body["message"]
    assert body["details"]["retry_after"] == retry_after
    assert event_log(db) == before

    # Bob's token has its own budget.
    assert api.call("GET", f"/games/{game_id}", bob)[0] == 200

    # Without a token the budget is the client address's (2 registrations spent it already).
    statuses = [api.call("GET", "/health")[0] for _ in range(LIMIT - 1)]
    assert statuses == [200] * (LIMIT - 2) + [429], statuses


def test_concurrent_requests_over_the_limit_are_refused_exactly(limited_app, database_url):
    api = Api(limited_app.test_client())
    ada = api.register("ada")
    server = make_server("127.0.0.1", 0, limited_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    barrier = threading.Barrier(CLIENTS)
    results: list = [None] * CLIENTS

    def client(index: int) -> None:
        with requests.Session() as session:
            barrier.wait(timeout=30)
            response = session.get(f"http://127.0.0.1:{server.server_port}/api/v1/users/me",
                                   headers=ada.headers, timeout=60)
            results[index] = (response.status_code, response.headers.get("Retry-After"))

    try:
        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for each in threads:
            each.start()
        for each in threads:
            each.join(timeout=60)
    finally:
        server.shutdown()
        thread.join(timeout=10)
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] * LIMIT + [429] * (CLIENTS - LIMIT), statuses
    assert all(retry == "40" for status, retry in results if status == 429)
    print(f"rate limit: {CLIENTS} concurrent requests of one token, limit {LIMIT}/min: "
          f"{LIMIT} answered, {CLIENTS - LIMIT} got 429 with Retry-After")
