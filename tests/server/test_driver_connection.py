"""The command post's connection (server/driver_connection.py): transactions begun and ended on
the driver, on SQLite and on PostgreSQL, with what a Connection would do on commit, rollback,
read-only, a lost connection and the pool."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from server import create_app, db
from server.db import READ_ONLY_OPTION, WriteInReadOnlyTransaction, get_engine
from server.driver_connection import DriverConnection
from server.migrate import upgrade
from server.models import User
from server.prepared import Prepared
from tests.conftest import POSTGRES_URL
from tests.server.helpers import assert_error

_USERS = User.__table__
_INSERT_USER = Prepared(sa.insert(_USERS))
_EMAILS = Prepared(sa.select(_USERS.c.email).order_by(_USERS.c.email))
ON_THE_HOUR = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)


def _user(email: str) -> dict:
    return {"name": email.split("@")[0], "email": email, "token_hash": email.ljust(64, "h"),
            "created_at": ON_THE_HOUR}


def _emails(engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.execute(sa.select(_USERS.c.email).order_by(_USERS.c.email))
                    .scalars())


def test_what_is_committed_stays_and_what_is_not_is_rolled_back_at_close(database_url):
    engine = get_engine(database_url)
    with DriverConnection(engine, read_only=False) as connection:
        _INSERT_USER.run(connection, _user("ada@example.com"))
        assert connection.in_transaction()
        connection.commit()
        assert not connection.in_transaction()
        _INSERT_USER.run(connection, _user("bob@example.com"))
        assert [row.email for row in _EMAILS.all(connection, {})] == [
            "ada@example.com", "bob@example.com"]
    assert _emails(engine) == ["ada@example.com"]
    assert engine.pool.checkedout() == 0  # the connection went back to the pool


def test_a_rollback_drops_the_transactions_writes(database_url):
    engine = get_engine(database_url)
    with DriverConnection(engine, read_only=False) as connection:
        _INSERT_USER.run(connection, _user("ada@example.com"))
        connection.rollback()
        assert not connection.in_transaction()
        assert _EMAILS.all(connection, {}) == []


def test_a_reading_connection_refuses_writes_until_it_is_switched(database_url):
    engine = get_engine(database_url)
    with DriverConnection(engine) as connection:
        with pytest.raises(WriteInReadOnlyTransaction):
            _INSERT_USER.run(connection, _user("ada@example.com"))
        assert _EMAILS.all(connection, {}) == []
        with pytest.raises(sa.exc.InvalidRequestError, match="end the transaction"):
            connection.execution_options(**{READ_ONLY_OPTION: False})
        connection.commit()
        connection.execution_options(**{READ_ONLY_OPTION: False})
        _INSERT_USER.run(connection, _user("ada@example.com"))
        connection.commit()
    assert _emails(engine) == ["ada@example.com"]


def test_each_transaction_has_its_own_identity(database_url):
    # Caches kept for one transaction (the notifications' seats) compare it.
    with DriverConnection(get_engine(database_url)) as connection:
        assert connection.get_transaction() is None
        _EMAILS.all(connection, {})
        first = connection.get_transaction()
        assert _EMAILS.all(connection, {}) == [] and connection.get_transaction() is first
        connection.commit()
        _EMAILS.all(connection, {})
        assert connection.get_transaction() not in (None, first)


def test_only_the_read_only_option_is_taken(database_url):
    with DriverConnection(get_engine(database_url)) as connection:
        with pytest.raises(TypeError, match="isolation_level"):
            connection.execution_options(isolation_level="SERIALIZABLE")


def test_on_sqlite_a_writer_waits_for_the_write_lock_and_a_reader_does_not(tmp_path):
    url = f"sqlite:///{tmp_path / 'locks.db'}"
    upgrade(url)
    engine = db._create_engine(url, busy_timeout_ms=200)
    try:
        holder = sqlite3.connect(tmp_path / "locks.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process's writer holds the lock
        with DriverConnection(engine) as connection:
            assert _EMAILS.all(connection, {}) == []  # a snapshot, no lock needed
            connection.commit()
            connection.execution_options(**{READ_ONLY_OPTION: False})
            with pytest.raises(sa.exc.OperationalError, match="database is locked"):
                _INSERT_USER.run(connection, _user("ada@example.com"))
            assert not connection.in_transaction()
        holder.execute("ROLLBACK")
        with DriverConnection(engine, read_only=False) as connection:
            _INSERT_USER.run(connection, _user("ada@example.com"))
            connection.commit()
        assert _emails(engine) == ["ada@example.com"]
        holder.close()
    finally:
        engine.dispose()


@pytest.fixture
def postgres_engine():
    engine = db._create_engine(POSTGRES_URL, db.DEFAULT_BUSY_TIMEOUT_MS)
    yield engine
    engine.dispose()


def test_a_lost_postgresql_connection_is_invalidated_and_the_next_one_is_fresh(
        postgres_engine, monkeypatch):
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 3600.0)  # no ping: the statement finds out
    backend = Prepared(sa.select(sa.func.pg_backend_pid().label("pid")))
    with DriverConnection(postgres_engine) as connection:
        first = backend.first(connection, {}).pid
        connection.commit()
    admin = sa.create_engine(POSTGRES_URL)
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f"SELECT pg_terminate_backend({int(first)})")
    finally:
        admin.dispose()
    with DriverConnection(postgres_engine) as connection:
        with pytest.raises(sa.exc.OperationalError) as raised:
            backend.first(connection, {})
        assert raised.value.connection_invalidated
    with DriverConnection(postgres_engine) as connection:
        assert backend.first(connection, {}).pid != first
    assert postgres_engine.pool.checkedout() == 0


UNREACHABLE = "postgresql+psycopg://nobody@127.0.0.1:1/none"


def test_a_database_that_cannot_be_reached_is_sqlalchemys_operational_error():
    engine = db._create_engine(UNREACHABLE, db.DEFAULT_BUSY_TIMEOUT_MS)
    try:
        with pytest.raises(sa.exc.OperationalError):
            DriverConnection(engine)
    finally:
        engine.dispose()


def test_posting_and_the_legal_read_answer_503_when_the_database_is_down():
    client = create_app({"DATABASE_URL": UNREACHABLE}).test_client()
    headers = {"Authorization": "Bearer some-token"}
    assert_error(client.get("/api/v1/games/g1/legal", headers=headers), 503, "database")
    assert_error(client.post("/api/v1/games/g1/commands", headers=headers,
                             json={"command": {"type": "end_turn"}, "expected_version": 1}),
                 503, "database")
