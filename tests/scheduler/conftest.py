"""Fixtures for the scheduler and mail tests: a database on SQLite and on PostgreSQL, a real SMTP
server on a free local port, and a clock the test moves by hand."""

import asyncio
import socket
from datetime import UTC, datetime

import pytest
from aiosmtpd.controller import Controller

from server.db import get_engine
from tests.conftest import empty_every_table
from tests.scheduler.helpers import Clock, MailHandler, Table


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request):
    """A migrated, empty database: the session's shared schema of tests/conftest.py, emptied after
    each test. Parametrise it indirectly to pick one backend; an unreachable PostgreSQL fails."""
    url = request.getfixturevalue(f"_migrated_{request.param}")
    yield url
    empty_every_table(url)


@pytest.fixture
def db_engine(db_url):
    return get_engine(db_url)


@pytest.fixture
def clock():
    return Clock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server():
    """A real SMTP server on 127.0.0.1; yields (handler, port)."""
    handler = MailHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield handler, controller.port
    finally:
        controller.stop()
        asyncio.set_event_loop(None)


@pytest.fixture
def app(db_url, tmp_path):
    """The server app on the test database; mail without SMTP goes to tmp_path/outbox."""
    from server import create_app

    return create_app(
        {
            "DATABASE_URL": db_url,
            "OUTBOX_DIR": str(tmp_path / "outbox"),
            "BASE_URL": "https://iridescia.test",
            "TESTING": True,
        }
    )


@pytest.fixture
def table(app):
    return Table(app)
