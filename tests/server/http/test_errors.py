"""The one JSON error body for routing errors, oversized bodies and the rate limit."""

from __future__ import annotations

import pytest

from server import create_app
from tests.server.helpers import assert_error


def test_unknown_routes_answer_404_json(client):
    assert_error(client.get("/api/v1/nothing-here"), 404, "/api/v1")
    assert_error(client.get("/favicon.ico"), 404)


def test_wrong_methods_answer_405_with_allow(client):
    response = client.delete("/api/v1/users/me")
    assert_error(response, 405, "GET")
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET"}
    assert "DELETE" not in response.headers["Allow"]


def test_oversized_bodies_answer_413(database_url):
    app = create_app({"DATABASE_URL": database_url, "MAX_BODY_BYTES": 200})
    client = app.test_client()
    response = client.post("/api/v1/users", json={"name": "x" * 500, "email": "a@b.org"})
    assert_error(response, 413, "200 bytes")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_rate_limit_answers_429_with_retry_after(database_url):
    app = create_app({"DATABASE_URL": database_url, "RATE_LIMIT": 3})
    client = app.test_client()
    headers = {"Authorization": "Bearer some-token"}
    for _ in range(3):
        assert client.get("/api/v1/health", headers=headers).status_code == 200
    response = client.get("/api/v1/health", headers=headers)
    assert_error(response, 429, "at most 3 a minute")
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    # a token the server never accepted buys no allowance of its own (issue 16)
    assert client.get("/api/v1/health", headers={"Authorization": "Bearer other"}).status_code == 429


def test_settings_come_from_the_environment(monkeypatch, database_url):
    monkeypatch.setenv("IRIDESCIA_RATE_LIMIT", "1")
    app = create_app({"DATABASE_URL": database_url})
    client = app.test_client()
    assert client.get("/api/v1/health").status_code == 200
    assert client.get("/api/v1/health").status_code == 429
    monkeypatch.setenv("IRIDESCIA_RATE_LIMIT", "lots")
    with pytest.raises(ValueError, match="IRIDESCIA_RATE_LIMIT must be a whole number"):
        create_app({"DATABASE_URL": database_url})


def test_health_reports_the_database_and_the_scheduler(client, database_url):
    import sqlalchemy as sa

    from server.storage.db import get_engine

    body = client.get("/api/v1/health").json
    assert body == {"database": "ok",
                    "scheduler": {"last_tick_at": None, "age_seconds": None, "status": "never_ran"}}
    with get_engine(database_url).begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO scheduler_ticks (name, last_tick_at) VALUES ('tick', :at)"),
            {"at": "2020-01-01 00:00:00"})
    body = client.get("/api/v1/health").json
    assert body["scheduler"]["status"] == "stale"
    assert body["scheduler"]["last_tick_at"].startswith("2020-01-01T00:00:00")


def test_health_answers_503_when_the_database_is_down(tmp_path):
    app = create_app({"DATABASE_URL": "postgresql+psycopg://nobody@127.0.0.1:1/none"})
    assert_error(app.test_client().get("/api/v1/health"), 503, "database")
