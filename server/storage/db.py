"""Database engines and sessions, usable inside a request and outside one (the scheduler).

    engine = get_engine(url)
    with session_scope(engine) as session:   # commits on success, rolls back on an exception
        ...

Inside a request, ``db_session()`` returns the request's session (committed by the view code).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from threading import Lock

import sqlalchemy as sa
from flask import Flask, current_app, g, has_request_context, request
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session

from server.storage import json_codec
from server.storage.models import SchedulerTick, utcnow
from server.storage.sqlite_writers import QueuedWriterConnection

_engines: dict[str, Engine] = {}
_engines_lock = Lock()
DEFAULT_BUSY_TIMEOUT_MS = 5000
READ_ONLY_OPTION = "iridescia_read_only"
# Requests with these methods never write (a test holds every GET to that).
READ_ONLY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def get_engine(url: str, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> Engine:
    """One shared engine per URL. SQLite gets WAL, a busy timeout and foreign keys; a file
    database's directory is created when missing."""
    with _engines_lock:
        engine = _engines.get(url)
        if engine is None:
            engine = _create_engine(url, busy_timeout_ms)
            _engines[url] = engine
        return engine


def dispose_engine(url: str) -> None:
    with _engines_lock:
        engine = _engines.pop(url, None)
    if engine is not None:
        engine.dispose()


class WriteInReadOnlyTransaction(RuntimeError):
    """A bug: a request that only reads (a GET) tried to write."""


def _guard_read_only(engine: Engine) -> None:
    @sa.event.listens_for(engine, "before_cursor_execute")
    def _no_writes(connection, _cursor, statement, _parameters, context, _executemany):  # noqa: ANN001
        if (
            context is not None
            and (context.isinsert or context.isupdate or context.isdelete)
            and connection.get_execution_options().get(READ_ONLY_OPTION)
        ):
            raise WriteInReadOnlyTransaction(f"a read-only request tried to write: {statement}")


# A pooled connection unused for longer than this is checked before use: the database may have
# restarted meanwhile. One in steady use is not (SQLAlchemy's pool_pre_ping would check every
# checkout: a round trip per request, about a third of a PostgreSQL read's CPU time here); if
# the database restarts under load, the first statement on a dead connection fails (503, "try
# again") and invalidates the pool, so the next request reconnects.
IDLE_PING_SECONDS = 10.0


def _ping_when_idle(engine: Engine) -> None:
    @sa.event.listens_for(engine, "checkin")
    def _remember(_dbapi_connection, record):  # noqa: ANN001
        record.info["checked_in_at"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _ping(dbapi_connection, record, _proxy):  # noqa: ANN001
        idle = time.monotonic() - record.info.get("checked_in_at", time.monotonic())
        if idle <= IDLE_PING_SECONDS:
            return
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            dbapi_connection.rollback()
        except Exception as error:  # any failure: let the pool connect afresh
            raise sa.exc.DisconnectionError(f"idle connection is gone: {error}") from error


def _create_engine(url: str, busy_timeout_ms: int) -> Engine:
    parsed = sa.engine.make_url(url)
    # The JSON columns (event payloads, commands, snapshots) through orjson: server/storage/json_codec.py.
    json_codec_args = {"json_serializer": json_codec.dumps, "json_deserializer": json_codec.loads}
    if parsed.get_backend_name() != "sqlite":
        engine = sa.create_engine(url, future=True, **json_codec_args)
        _guard_read_only(engine)
        _ping_when_idle(engine)
        return engine
    database = parsed.database or ""
    in_memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if not in_memory:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    connect_args = {"check_same_thread": False, "timeout": busy_timeout_ms / 1000,
                    "factory": QueuedWriterConnection}
    kwargs: dict = {"connect_args": connect_args, **json_codec_args}
    if in_memory:
        kwargs["poolclass"] = sa.pool.StaticPool
    engine = sa.create_engine(url, **kwargs)
    _guard_read_only(engine)

    @sa.event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection, _record):  # noqa: ANN001
        # The driver's own transaction handling would defer BEGIN; we issue it ourselves (see
        # _sqlite_begin).
        dbapi_connection.isolation_level = None
        dbapi_connection.busy_timeout_seconds = busy_timeout_ms / 1000
        if not in_memory:
            dbapi_connection.use_writer_queue(os.path.abspath(database))
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _sqlite_begin(connection):  # noqa: ANN001
        begin_sqlite(connection, bool(connection.get_execution_options().get(READ_ONLY_OPTION)))

    return engine


def begin_sqlite(connection: Connection, read_only: bool) -> None:
    """Begin ``connection``'s transaction on SQLite (through the engine's begin event).

    IMMEDIATE takes the write lock up front: a deferred transaction that read first and then
    writes fails at once ("database is locked") when another writer got in between, whereas
    IMMEDIATE waits for the busy timeout. Transactions here are short. A read-only transaction
    (see `read_only`) takes no lock at all: in WAL mode it reads a snapshot while writers go on,
    instead of queueing behind them for the write lock. (On the driver's connection: through
    `exec_driver_sql`, a BEGIN cost as much as a statement.)"""
    driver = connection.connection.driver_connection
    if read_only:
        _begin(connection, driver, "BEGIN")
        return
    try:
        driver.wait_for_write_turn(driver.busy_timeout_seconds)
    except sqlite3.Error as error:
        raise driver_error(connection, "BEGIN IMMEDIATE", (), None, error) from error
    try:
        _begin(connection, driver, "BEGIN IMMEDIATE")
    except BaseException:
        driver.end_write_turn()
        raise


def _begin(connection: Connection, driver: QueuedWriterConnection, statement: str) -> None:
    try:
        driver.execute(statement)
    except sqlite3.Error as error:
        raise driver_error(connection, statement, (), None, error) from error


def driver_error(connection: Connection, statement: str, parameters: object, cursor: object,
                 error: Exception) -> sa.exc.DBAPIError:
    """A driver's error from a statement run on the driver's own connection, as SQLAlchemy
    would raise it (IntegrityError, OperationalError, ...). A lost connection is invalidated,
    so that the pool opens a fresh one for the next request."""
    dialect = connection.dialect
    lost = dialect.is_disconnect(error, connection.connection.dbapi_connection, cursor)
    if lost:
        connection.invalidate(error)
    return sa.exc.DBAPIError.instance(statement, parameters, error, dialect.loaded_dbapi.Error,
                                      connection_invalidated=lost, dialect=dialect)


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """A session in a transaction: committed when the block ends, rolled back on an exception."""
    session = Session(engine, expire_on_commit=False)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def init_app(app: Flask) -> None:
    app.extensions["iridescia_db"] = get_engine(
        app.config["DATABASE_URL"], app.config["SQLITE_BUSY_TIMEOUT_MS"]
    )
    app.extensions["iridescia_db_read_only"] = read_only(app.extensions["iridescia_db"])

    @app.teardown_appcontext
    def _close_session(exc: BaseException | None) -> None:
        session = g.pop("db_session", None)
        if session is not None:
            if exc is not None:
                session.rollback()
            session.close()


def app_engine(app: Flask | None = None) -> Engine:
    return (app or current_app).extensions["iridescia_db"]


def read_only(engine: Engine) -> Engine:
    """The same engine (pool, events) for transactions that only read: on SQLite they begin
    without taking the write lock. Writing through it raises `WriteInReadOnlyTransaction`."""
    return engine.execution_options(**{READ_ONLY_OPTION: True})


def sql(unit: Session | Connection) -> Connection:
    """The connection to run Core statements on: a Session's (which begins its transaction) or
    the Connection itself. The command post works on a plain Connection, with no ORM session
    (see server/games/posting.py); the scheduler and the other requests work on Sessions, and
    the functions both use take either."""
    return unit.connection() if isinstance(unit, OrmSession) else unit


def db_session() -> Session:
    """The current request's session (opened on first use, closed at teardown); a GET's
    session only reads (see `read_only`)."""
    if "db_session" not in g:
        engine = app_engine()
        if has_request_context() and request.method in READ_ONLY_METHODS:
            engine = current_app.extensions["iridescia_db_read_only"]
        g.db_session = Session(engine, expire_on_commit=False)
    return g.db_session


def default_sqlite_path(url: str) -> str | None:
    """The file path when ``url`` is a SQLite file database, else None."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return os.path.abspath(parsed.database)
    return None


def check_writable(url: str) -> None:
    """Write (and roll back) one row, so that a server that cannot save anything (a read-only
    file or directory, a full disk) says so when it starts rather than at a player's first
    move. Raises the OSError or SQLAlchemy error that says why."""

    engine = get_engine(url)
    with engine.connect() as connection:
        transaction = connection.begin()
        try:
            connection.execute(sa.insert(SchedulerTick.__table__).values(
                name="iridescia-server serve: write check", last_tick_at=utcnow()))
        finally:
            transaction.rollback()
