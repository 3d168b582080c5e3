"""Fixtures for the reliability tests: the app on SQLite and PostgreSQL (``database_url``), the
same app served over real HTTP by a threaded werkzeug server on a free local port, and players."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import requests
from werkzeug.serving import make_server

from server import create_app
from server.storage.db import get_engine
from tests.reliability.helpers import Api, Player


@pytest.fixture
def app(database_url, tmp_path):
    # No rate limit here: the race and fuzz tests send far more than a player would;
    # test_rate_limit configures its own low limit.
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
                       "OUTBOX_DIR": str(tmp_path / "outbox"), "LONG_POLL_MAX_SECONDS": 1})


@pytest.fixture
def db(database_url):
    return get_engine(database_url)


@pytest.fixture
def api(app) -> Api:
    return Api(app.test_client())


@pytest.fixture
def served(app) -> Iterator[str]:
    """The base URL of ``app`` served by a threaded werkzeug server (a thread per request)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture
def http_api(served, app) -> Iterator[Api]:
    with requests.Session() as session:
        yield Api(session, served, db=app)


@pytest.fixture
def ada(api) -> Player:
    return api.register("ada")


@pytest.fixture
def bob(api) -> Player:
    return api.register("bob")


@pytest.fixture
def eve(api) -> Player:
    return api.register("eve")
