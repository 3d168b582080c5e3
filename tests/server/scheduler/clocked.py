"""An app whose requests and scheduler share one injected clock, for the tests of time controls,
vacations, pauses and the mail players choose. A test module imports the fixtures it uses:
``from tests.server.scheduler.clocked import app, clock, table  # noqa: F401``."""

import pytest

from server import create_app
from server.storage.models import utcnow
from tests.server.scheduler.helpers import Clock, Table


@pytest.fixture
def clock():
    return Clock(utcnow().replace(microsecond=0))


@pytest.fixture
def app(db_url, tmp_path, clock):
    return create_app({"DATABASE_URL": db_url, "OUTBOX_DIR": str(tmp_path / "outbox"),
                       "BASE_URL": "https://iridescia.test", "TESTING": True, "CLOCK": clock})


@pytest.fixture
def table(app):
    return Table(app)
