"""A pooled PostgreSQL connection that died while idle (the database restarted, an idle timeout
cut it) is replaced before use; one in steady use is not checked on every checkout.

PostgreSQL-only by nature: a SQLite file has no server to lose."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from server.storage import db
from tests.conftest import POSTGRES_URL


@pytest.fixture
def engine():
    engine = db._create_engine(POSTGRES_URL, db.DEFAULT_BUSY_TIMEOUT_MS)
    yield engine
    engine.dispose()


def _backend_pid(engine) -> int:
    with engine.connect() as connection:
        return connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()


def _kill(pid: int) -> None:
    admin = sa.create_engine(POSTGRES_URL)
    try:
        with admin.connect() as connection:
            assert connection.exec_driver_sql(
                f"SELECT pg_terminate_backend({int(pid)})").scalar_one()
    finally:
        admin.dispose()


def test_a_connection_killed_while_idle_is_replaced_without_an_error(engine, monkeypatch):
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.0)  # every checkout counts as idle
    first = _backend_pid(engine)
    _kill(first)
    assert _backend_pid(engine) != first  # no error: the pool connected afresh


def test_a_connection_in_steady_use_is_not_pinged_and_a_dead_one_fails_once(engine, monkeypatch):
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 3600.0)
    first = _backend_pid(engine)
    _kill(first)
    with pytest.raises(sa.exc.OperationalError):  # the request answers 503 "try again"
        _backend_pid(engine)
    assert _backend_pid(engine) != first  # and the next one reconnects
