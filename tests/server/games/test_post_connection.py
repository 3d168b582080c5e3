"""The command post's connection (server/games/posting.py): a plain SQLAlchemy Connection, read-only
until switched, whose commit publishes the wake-ups its transaction noted and whose rollback or
close drops them; on SQLite and on PostgreSQL, with a lost connection and the pool."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from server import create_app, wakeups
from server.games import posting
from server.storage import db
from server.storage.db import READ_ONLY_OPTION, WriteInReadOnlyTransaction, get_engine
from server.storage.migrate import upgrade
from server.storage.models import User
from server.storage.prepared import Prepared
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


@pytest.fixture
def app(database_url):
    return create_app({"DATABASE_URL": database_url, "TESTING": True})


@pytest.fixture
def post_connection(app):
    """``posting.connect`` as a command post opens it, in an app context."""
    with app.app_context():
        yield posting.connect


def _writing(connection):
    connection.execution_options(**{READ_ONLY_OPTION: False})
    return connection


def test_what_is_committed_stays_and_what_is_not_is_rolled_back_at_close(database_url,
                                                                         post_connection):
    engine = get_engine(database_url)
    with post_connection() as connection:
        _writing(connection)
        _INSERT_USER.run(connection, _user("ada@example.com"))
        assert connection.in_transaction()
        posting.commit(connection)
        assert not connection.in_transaction()
        _INSERT_USER.run(connection, _user("bob@example.com"))
        assert [row.email for row in _EMAILS.all(connection, {})] == [
            "ada@example.com", "bob@example.com"]
    assert _emails(engine) == ["ada@example.com"]
    assert engine.pool.checkedout() == 0  # the connection went back to the pool


def test_a_rollback_drops_the_transactions_writes(post_connection):
    with post_connection() as connection:
        _writing(connection)
        _INSERT_USER.run(connection, _user("ada@example.com"))
        posting.rollback(connection)
        assert not connection.in_transaction()
        assert _EMAILS.all(connection, {}) == []


def test_a_reading_connection_refuses_writes_until_it_is_switched(database_url,
                                                                   post_connection):
    engine = get_engine(database_url)
    with post_connection() as connection:
        with pytest.raises(WriteInReadOnlyTransaction):
            _INSERT_USER.run(connection, _user("ada@example.com"))
        assert _EMAILS.all(connection, {}) == []
        posting.start_writing(connection)
        _INSERT_USER.run(connection, _user("ada@example.com"))
        posting.commit(connection)
    assert _emails(engine) == ["ada@example.com"]


def test_each_transaction_has_its_own_identity(post_connection):
    # Caches kept for one transaction (the notifications' seats) compare it.
    with post_connection() as connection:
        assert connection.get_transaction() is None
        _EMAILS.all(connection, {})
        first = connection.get_transaction()
        assert _EMAILS.all(connection, {}) == [] and connection.get_transaction() is first
        connection.commit()
        _EMAILS.all(connection, {})
        assert connection.get_transaction() not in (None, first)


def test_on_sqlite_a_writer_waits_for_the_write_lock_and_a_reader_does_not(tmp_path):
    url = f"sqlite:///{tmp_path / 'locks.db'}"
    upgrade(url)
    app = create_app({"DATABASE_URL": url, "TESTING": True, "SQLITE_BUSY_TIMEOUT_MS": 200})
    try:
        holder = sqlite3.connect(tmp_path / "locks.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process's writer holds the lock
        with app.app_context(), posting.connect() as connection:
            assert _EMAILS.all(connection, {}) == []  # a snapshot, no lock needed
            posting.start_writing(connection)
            with pytest.raises(sa.exc.OperationalError, match="database is locked"):
                _INSERT_USER.run(connection, _user("ada@example.com"))
            assert not connection.in_transaction()
        holder.execute("ROLLBACK")
        with app.app_context(), posting.connect() as connection:
            posting.start_writing(connection)
            _INSERT_USER.run(connection, _user("ada@example.com"))
            posting.commit(connection)
        assert _emails(get_engine(url)) == ["ada@example.com"]
        holder.close()
    finally:
        db.dispose_engine(url)


@pytest.fixture
def postgres_engine():
    engine = db._create_engine(POSTGRES_URL, db.DEFAULT_BUSY_TIMEOUT_MS)
    yield engine
    engine.dispose()


def test_a_lost_postgresql_connection_is_invalidated_and_the_next_one_is_fresh(
        postgres_engine, monkeypatch):
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 3600.0)  # no ping: the statement finds out
    backend = Prepared(sa.select(sa.func.pg_backend_pid().label("pid")))
    reading = db.read_only(postgres_engine)  # what posting.connect connects with
    with reading.connect() as connection:
        first = backend.first(connection, {}).pid
        connection.commit()
    admin = sa.create_engine(POSTGRES_URL)
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f"SELECT pg_terminate_backend({int(first)})")
    finally:
        admin.dispose()
    with reading.connect() as connection:
        with pytest.raises(sa.exc.OperationalError) as raised:
            backend.first(connection, {})
        assert raised.value.connection_invalidated
    with reading.connect() as connection:
        assert backend.first(connection, {}).pid != first
    assert postgres_engine.pool.checkedout() == 0


@pytest.fixture
def mail_waiter(app):
    """A waiter on the ``mail`` topic of this process's hub (the mail job's); the channel to other
    processes is not started (its first connection wakes every waiter once)."""
    hub = wakeups.of(app).hub
    hub.on_first_waiter = None
    with hub.thread_waiter("mail") as waiter:
        yield waiter


def _noting_mail(connection) -> None:
    posting.start_writing(connection)
    _INSERT_USER.run(connection, _user("ada@example.com"))
    wakeups.note(connection, "mail")


def test_the_posts_commit_wakes_who_waits_on_what_it_noted(post_connection, mail_waiter):
    with post_connection() as connection:
        _noting_mail(connection)
        assert not mail_waiter.woken  # not before the commit: the mail is not there yet
        posting.commit(connection)
        assert mail_waiter.woken


def test_a_rolled_back_or_abandoned_post_wakes_nobody_then_or_later(database_url,
                                                                     post_connection, mail_waiter):
    with post_connection() as connection:
        _noting_mail(connection)
        posting.rollback(connection)
        posting.start_writing(connection)
        _INSERT_USER.run(connection, _user("bob@example.com"))
        posting.commit(connection)  # a later commit of this connection noted nothing
    with post_connection() as connection:
        _noting_mail(connection)  # left without a commit: rolled back at the end
    # The pooled connection goes on serving requests; what was noted on it went with its
    # transaction.
    for _ in range(2):
        with post_connection() as connection:
            posting.start_writing(connection)
            _INSERT_USER.run(connection, _user(f"c{_}@example.com"))
            posting.commit(connection)
    assert not mail_waiter.woken
    assert _emails(get_engine(database_url)) == ["bob@example.com", "c0@example.com",
                                                 "c1@example.com"]


UNREACHABLE = "postgresql+psycopg://nobody@127.0.0.1:1/none"


def test_posting_and_the_legal_read_answer_503_when_the_database_is_down():
    client = create_app({"DATABASE_URL": UNREACHABLE}).test_client()
    headers = {"Authorization": "Bearer some-token"}
    assert_error(client.get("/api/v1/games/g1/legal", headers=headers), 503, "database")
    assert_error(client.post("/api/v1/games/g1/commands", headers=headers,
                             json={"command": {"type": "end_turn"}, "expected_version": 1}),
                 503, "database")
