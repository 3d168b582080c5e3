"""SQLite's writers take turns through a flock beside the database (server/storage/sqlite_writers.py).

SQLite-only by nature: PostgreSQL has row locks and no single write lock to queue for."""

from __future__ import annotations

import fcntl
import os
import threading
import time

import pytest
import sqlalchemy as sa

from server.storage.db import dispose_engine, get_engine


@pytest.fixture
def url(tmp_path):
    url = f"sqlite:///{tmp_path / 'writers.db'}"
    yield url
    dispose_engine(url)


def _queue_is_free(tmp_path) -> bool:
    """Could another process take the writers' flock right now?"""
    fd = os.open(tmp_path / "writers.db-writers", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing drops the flock if we got it
    return True


def _table(engine) -> None:
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE moves (n INTEGER)")


def test_a_waiting_writer_goes_on_when_the_holder_commits(url, tmp_path):
    engine = get_engine(url, busy_timeout_ms=5000)
    _table(engine)
    order = []
    holder = engine.connect()
    holder.begin()
    holder.exec_driver_sql("INSERT INTO moves VALUES (1)")

    def second_writer():
        with engine.begin() as connection:
            order.append("second writer in")
            connection.exec_driver_sql("INSERT INTO moves VALUES (2)")

    assert not _queue_is_free(tmp_path)
    thread = threading.Thread(target=second_writer)
    thread.start()
    thread.join(timeout=0.3)
    assert thread.is_alive() and order == []  # it waits for its turn
    order.append("holder commits")
    holder.commit()
    holder.close()
    thread.join(timeout=5)
    assert order == ["holder commits", "second writer in"]
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT n FROM moves ORDER BY n").scalars().all() == [1, 2]
    assert _queue_is_free(tmp_path)


@pytest.mark.parametrize("end", ["rollback", "close"])
def test_the_turn_ends_with_a_rollback_or_a_closed_connection(url, end, tmp_path):
    engine = get_engine(url, busy_timeout_ms=5000)
    _table(engine)
    holder = engine.connect()
    holder.begin()
    holder.exec_driver_sql("INSERT INTO moves VALUES (1)")
    assert not _queue_is_free(tmp_path)
    if end == "rollback":
        holder.rollback()
    else:
        holder.invalidate()  # the connection is thrown away mid-transaction
    assert _queue_is_free(tmp_path)
    with engine.begin() as connection:
        connection.exec_driver_sql("INSERT INTO moves VALUES (2)")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT n FROM moves").scalars().all() == [2]
    holder.close()


def test_one_thread_holding_two_write_transactions_gets_an_error_not_a_hang(url, tmp_path):
    engine = get_engine(url, busy_timeout_ms=200)
    _table(engine)
    with engine.begin() as first:
        first.exec_driver_sql("INSERT INTO moves VALUES (1)")
        with pytest.raises(sa.exc.OperationalError, match="database is locked"):
            with engine.begin() as second:
                second.exec_driver_sql("INSERT INTO moves VALUES (2)")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT n FROM moves").scalars().all() == [1]
    # The second writer stopped waiting; its helper got the lock when the first committed and
    # let go of it at once: the queue is not left taken.
    for _ in range(100):
        if _queue_is_free(tmp_path):
            break
        time.sleep(0.01)
    assert _queue_is_free(tmp_path)
