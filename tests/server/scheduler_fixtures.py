"""The fixtures of the tests that run the scheduler and send mail: a database on SQLite and on
PostgreSQL (``db_url``, ``db_engine``), a real SMTP server on a free local port (``smtp_server``),
a clock the test moves by hand (``clock``), the app they drive (``app``, on the clock in a module
marked ``clocked``) and its ``table``.

Defined here once, for the folders whose tests use them: the ``conftest.py`` of
tests/server/scheduler, mail, notifications, vacations, wakeups and webhooks imports them all,
tests/server/inbound takes ``smtp_server``, and a test module in a folder whose conftest serves
another app imports the ones it uses by name."""

import asyncio
import socket
from datetime import UTC, datetime

import pytest
from aiosmtpd.controller import Controller

from server.storage.db import get_engine
from tests.conftest import empty_every_table
from tests.server.scheduler.helpers import Clock, MailHandler, Table


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
def clock(request):
    """A clock the test moves by hand. In a module marked ``clocked`` it starts now, and the app's
    requests read the time from it as the scheduler does (time controls, vacations, pauses, the
    mail players choose)."""
    if request.node.get_closest_marker("clocked"):
        return Clock(datetime.now(UTC).replace(microsecond=0))
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
def app(request, db_url, tmp_path):
    """The server app on the test database; mail without SMTP goes to tmp_path/outbox. In a
    module marked ``clocked`` its requests read the time from the test's clock."""
    from server import create_app

    settings = {
        "DATABASE_URL": db_url,
        "OUTBOX_DIR": str(tmp_path / "outbox"),
        "BASE_URL": "https://iridescia.test",
        "TESTING": True,
    }
    if request.node.get_closest_marker("clocked"):
        settings["CLOCK"] = request.getfixturevalue("clock")
    return create_app(settings)


@pytest.fixture
def table(app):
    return Table(app)
