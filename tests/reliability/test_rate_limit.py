"""Abuse: request rate limits (issue 8, then issue 16 finding 4).

A budget belongs to an authenticated user (a token the server accepted), else to the client's
address; a token the server does not know never gets a budget of its own, failed
authentications are limited per address, registrations per address, a trusted proxy's
X-Forwarded-For gives each client behind it its own budget, and with Redis several app
instances or processes share one budget. Limits are configured low here."""

from __future__ import annotations

import secrets
import threading
import uuid

import pytest
import requests
from werkzeug.serving import make_server

from server import create_app
from tests.reliability.helpers import Api, event_log
from tests.reliability.processes import ServerProcess, free_port

LIMIT = 10
CLIENTS = 24
REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def redis_url():
    """The local Redis (127.0.0.1:6379); the tests that need it fail when it does not answer."""
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_timeout=5).ping()
    except redis.RedisError as error:
        pytest.fail(f"Redis is not reachable at {REDIS_URL}: {error}", pytrace=False)
    return REDIS_URL


def _app(database_url, tmp_path, **settings):
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": LIMIT,
                       "OUTBOX_DIR": str(tmp_path / "outbox"),
                       # a budget of its own for each test, also in a shared Redis
                       "RATE_LIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}", **settings})


@pytest.fixture
def limited_app(database_url, tmp_path):
    return _app(database_url, tmp_path)


def _guess() -> dict[str, str]:
    return {"Authorization": f"Bearer {secrets.token_urlsafe(32)}"}


def test_a_token_over_the_limit_gets_429_with_retry_after(limited_app, database_url):
    api = Api(limited_app.test_client())
    # 4 anonymous requests: each registers, then confirms the address with the mailed code
    ada, bob = api.register("ada"), api.register("bob")
    db = limited_app.extensions["iridescia_db"]
    game_id = api.new_game(ada, [bob])  # ada: 2 requests, bob: 1
    statuses = [api.call("GET", f"/games/{game_id}", ada)[0] for _ in range(LIMIT - 2)]
    assert statuses == [200] * (LIMIT - 2)
    before = event_log(db)

    status, body, headers = api.call("POST", f"/games/{game_id}/commands", ada,
                                     {"command": {"type": "end_turn"}, "expected_version": 2})
    assert status == 429, (status, body)
    retry_after = int(headers["Retry-After"])
    assert 1 <= retry_after <= 60
    assert body["message"] == (f"too many requests: at most {LIMIT} a minute; "
                               f"retry in {retry_after} seconds")
    assert body["details"]["retry_after"] == retry_after
    assert event_log(db) == before

    # Bob's token has its own budget.
    assert api.call("GET", f"/games/{game_id}", bob)[0] == 200

    # Without a token the budget is the client address's (the registrations spent 4 of it).
    statuses = [api.call("GET", "/health")[0] for _ in range(LIMIT - 3)]
    assert statuses == [200] * (LIMIT - 4) + [429], statuses


def test_answers_carry_the_rate_limit_headers(limited_app):
    api = Api(limited_app.test_client())
    ada = api.register("ada")
    seen = []
    for _ in range(3):
        status, _, headers = api.call("GET", "/users/me", ada)
        assert status == 200
        seen.append((headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]))
        assert int(headers["X-RateLimit-Reset"]) > 0
    assert seen == [(str(LIMIT), str(LIMIT - n)) for n in (1, 2, 3)]


def test_guessing_tokens_gets_429_after_a_few_failures(database_url, tmp_path):
    """Each unknown token once had a budget of its own, so guessing was unlimited. Now every
    failed authentication counts against the client's address."""
    app = _app(database_url, tmp_path, RATE_LIMIT=1000, AUTH_FAILURE_LIMIT=5)
    api = Api(app.test_client())
    ada = api.register("ada")
    answers = [api.call("GET", "/users/me", headers=_guess()) for _ in range(12)]
    statuses = [status for status, _, _ in answers]
    print(f"rate limit: 12 guessed tokens, 5 failures allowed a minute: {statuses}")
    assert statuses == [401] * 5 + [429] * 7
    status, body, headers = answers[-1]
    retry_after = int(headers["Retry-After"])
    assert body["message"] == ("too many failed authentications from your address: at most 5 "
                               f"a minute; retry in {retry_after} seconds")
    # A guess at the game post, the hottest path, is refused the same way.
    assert api.call("POST", "/games/x/commands", json_body={}, headers=_guess())[0] == 429
    # The player's own token still works from that address.
    assert api.call("GET", "/users/me", ada)[0] == 200


def test_a_random_bearer_header_does_not_bypass_the_anonymous_limit(limited_app):
    api = Api(limited_app.test_client())
    assert [api.call("GET", "/health")[0] for _ in range(LIMIT)] == [200] * LIMIT
    status, body, _ = api.call("POST", "/users", json_body={"name": "Eve",
                               "email": "eve@example.org"}, headers=_guess())
    assert status == 429, body


def test_registrations_are_limited_per_address(database_url, tmp_path):
    app = _app(database_url, tmp_path, RATE_LIMIT=1000, ACCOUNT_REQUESTS_PER_HOUR=3)
    api = Api(app.test_client())
    answers = [api.call("POST", "/users", json_body={"name": f"p{n}",
                        "email": f"p{n}@example.org"}, headers=_guess() if n % 2 else None)
               for n in range(5)]
    assert [status for status, _, _ in answers] == [202] * 3 + [429] * 2
    status, body, headers = answers[-1]
    assert body["message"].startswith("too many account requests from your address: at most 3 "
                                      "an hour; retry in ")
    assert 1 <= int(headers["Retry-After"]) <= 3600


def test_behind_a_trusted_proxy_each_client_has_its_own_budget(database_url, tmp_path):
    def budgets(app):
        api = Api(app.test_client())
        first = [api.call("GET", "/health", headers={"X-Forwarded-For": "203.0.113.7"})[0]
                 for _ in range(LIMIT + 1)]
        second = api.call("GET", "/health", headers={"X-Forwarded-For": "198.51.100.9"})[0]
        return first, second

    first, second = budgets(_app(database_url, tmp_path, TRUSTED_PROXIES=1))
    assert first == [200] * LIMIT + [429]
    assert second == 200  # another client behind the same proxy
    # Without a trusted proxy the header is anybody's to write: it buys no fresh budget.
    first, second = budgets(_app(database_url, tmp_path))
    assert (first, second) == ([200] * LIMIT + [429], 429)


def test_two_app_instances_share_one_budget_through_redis(database_url, tmp_path, redis_url):
    prefix = f"test-{uuid.uuid4().hex}"
    apps = [_app(database_url, tmp_path, RATE_LIMIT_STORAGE=redis_url,
                 RATE_LIMIT_KEY_PREFIX=prefix) for _ in range(2)]
    one, two = Api(apps[0].test_client()), Api(apps[1].test_client())
    ada = one.register("ada")  # anonymous: the address's budget
    statuses = [one.call("GET", "/users/me", ada)[0] for _ in range(6)]
    statuses += [two.call("GET", "/users/me", ada)[0] for _ in range(6)]
    assert statuses == [200] * LIMIT + [429] * 2, statuses


def test_two_server_processes_share_one_budget_through_redis(database_url, tmp_path, redis_url):
    settings = {"IRIDESCIA_RATE_LIMIT": str(LIMIT), "IRIDESCIA_RATE_LIMIT_STORAGE": redis_url,
                "IRIDESCIA_RATE_LIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    servers = [ServerProcess(tmp_path, database_url, "serve", "--no-scheduler",
                             port=free_port(), settings=settings, name=f"server{n}")
               for n in range(2)]
    for server in servers:
        server.start()  # each asks /health once while starting: 2 of the address's budget
    try:
        statuses = []
        for n in range(LIMIT):
            base = servers[n % 2].base
            statuses.append(requests.get(f"{base}/api/v1/health", timeout=30).status_code)
    finally:
        for server in servers:
            server.stop()
    print(f"rate limit: 2 processes, one Redis, limit {LIMIT}/min: {statuses}")
    assert statuses == [200] * (LIMIT - 2) + [429] * 2


def test_rate_limit_0_turns_every_request_limit_off(database_url, tmp_path):
    app = _app(database_url, tmp_path, RATE_LIMIT=0, AUTH_FAILURE_LIMIT=1,
               ACCOUNT_REQUESTS_PER_HOUR=1)
    api = Api(app.test_client())
    assert [api.call("GET", "/users/me", headers=_guess())[0] for _ in range(5)] == [401] * 5
    assert [api.call("POST", "/users", json_body={"name": f"p{n}", "email": f"p{n}@x.org"})[0]
            for n in range(3)] == [202] * 3
    assert "X-RateLimit-Limit" not in api.call("GET", "/health")[2]


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
    assert all(1 <= int(retry) <= 60 for status, retry in results if status == 429)
    print(f"rate limit: {CLIENTS} concurrent requests of one token, limit {LIMIT}/min: "
          f"{LIMIT} answered, {CLIENTS - LIMIT} got 429 with Retry-After")


def test_an_unreachable_redis_falls_back_to_counting_in_memory(database_url, tmp_path):
    app = _app(database_url, tmp_path, RATE_LIMIT=3, RATE_LIMIT_STORAGE="redis://127.0.0.1:1/0")
    api = Api(app.test_client())
    assert [api.call("GET", "/health")[0] for _ in range(5)] == [200] * 3 + [429] * 2
