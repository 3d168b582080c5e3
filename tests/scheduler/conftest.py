"""Fixtures for the scheduler and mail tests: a database on SQLite and on PostgreSQL, a real SMTP
server on a free local port, and a clock the test moves by hand."""

import asyncio
import os
import socket
import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller

from server.db import dispose_engine, get_engine
from server.migrate import upgrade
from tests.scheduler.helpers import Clock, MailHandler, Table

POSTGRES_URL = os.environ.get(
    "IRIDESCIA_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A migrated, empty database. PostgreSQL gets a schema of its own, so runs in parallel
    never see each other's rows; an unreachable PostgreSQL fails the test."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'iridescia.db'}"
        upgrade(url)
        yield url
        dispose_engine(url)
        return
    schema = f"sched_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(POSTGRES_URL)
    try:
        with admin.begin() as connection:
            connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    except sa.exc.OperationalError as error:
        admin.dispose()
        pytest.fail(f"PostgreSQL is not reachable at {POSTGRES_URL}: {error}", pytrace=False)
    url = f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    try:
        upgrade(url)
        yield url
    finally:
        dispose_engine(url)
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


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
