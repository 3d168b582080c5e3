"""Fixtures for the REST server tests: an app on each database and a client with helpers."""

from __future__ import annotations

import pytest

from server import create_app
from tests.accounts import sign_up
from tests.server.helpers import Player


@pytest.fixture
def app(database_url):
    # The request limit stays on; schemathesis sends many bad tokens and registrations, which
    # tests/reliability/test_rate_limit.py limits on purpose.
    return create_app({"DATABASE_URL": database_url, "TESTING": True,
                       "AUTH_FAILURE_LIMIT": 100_000, "ACCOUNT_REQUESTS_PER_HOUR": 100_000})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def register(client):
    """register("ada") -> Player, with a fresh account, its address confirmed with the mailed
    code (which gives the token)."""

    def _register(name: str, email: str | None = None) -> Player:
        body = sign_up(client, name, email or f"{name}@example.org")
        return Player(body["id"], body["name"], body["email"], body["token"])

    return _register


@pytest.fixture
def ada(register) -> Player:
    return register("ada")


@pytest.fixture
def bob(register) -> Player:
    return register("bob")


@pytest.fixture
def eve(register) -> Player:
    return register("eve")
