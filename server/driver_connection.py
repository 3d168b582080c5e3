"""A pooled connection whose transactions begin and end on the driver: the command post's.

A command post (and the legal-commands read that goes with it) runs every statement through
`server.prepared.Prepared`, on the driver's cursor. What was left of SQLAlchemy's Connection
around them was its bookkeeping: the Connection object, two RootTransactions with their events,
three execution-option copies and the close, about 45 µs of a post's 1.4 ms in process. Here a
connection is taken from the engine's pool as SQLAlchemy's own would be (the same checkout
events: a connection idle for a while is pinged first), and its transactions are the driver's:

    with DriverConnection(engine) as connection:      # reads: on SQLite a deferred BEGIN
        row = SOME_PREPARED.first(connection, {...})   # begins the transaction
        connection.commit()
        connection.execution_options(iridescia_read_only=False)
        ANOTHER_PREPARED.run(connection, {...})        # SQLite: the writers' queue, BEGIN IMMEDIATE
        connection.commit()

It offers the part of a Connection's interface that `Prepared` and the post's code use
(`dialect`, `connection`, `info`, `begin`, `commit`, `rollback`, `in_transaction`,
`get_transaction`, `execution_options` for the read-only option, `invalidate`), so those work
on either. Core statements (`execute`) are not offered: run them on a Connection.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, InvalidRequestError

from server import wakeups
from server.db import READ_ONLY_OPTION, begin_sqlite, driver_error


class _Transaction:
    """The identity of one transaction (`get_transaction`): caches scoped to it compare it."""


class DriverConnection:
    """One pooled connection for one request; its next transaction only reads unless told
    otherwise (``read_only``). Closing it rolls back what was not committed and gives the
    connection back to the pool."""

    def __init__(self, engine: Engine, *, read_only: bool = True) -> None:
        self.dialect = engine.dialect
        try:
            self.connection = engine.raw_connection()
        except self.dialect.loaded_dbapi.Error as error:
            # As Engine.connect says it: SQLAlchemy's error (the app answers 503 to one).
            raise DBAPIError.instance(None, None, error, self.dialect.loaded_dbapi.Error,
                                      dialect=self.dialect) from error
        self.info: dict[str, Any] = {}
        self._read_only = read_only
        self._transaction: _Transaction | None = None
        self._sqlite = self.dialect.name == "sqlite"

    def __enter__(self) -> DriverConnection:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def execution_options(self, **options: Any) -> DriverConnection:
        unknown = set(options) - {READ_ONLY_OPTION}
        if unknown:
            raise TypeError(f"a DriverConnection takes only {READ_ONLY_OPTION!r}, not {unknown}")
        if READ_ONLY_OPTION in options:
            if self._transaction is not None:
                raise InvalidRequestError("end the transaction before switching to or from "
                                          "read-only")
            self._read_only = bool(options[READ_ONLY_OPTION])
        return self

    def get_execution_options(self) -> dict[str, Any]:
        return {READ_ONLY_OPTION: self._read_only}

    def in_transaction(self) -> bool:
        return self._transaction is not None

    def get_transaction(self) -> _Transaction | None:
        return self._transaction

    def begin(self) -> None:
        if self._transaction is not None:
            raise InvalidRequestError("a transaction is already begun on this connection")
        if self._sqlite:
            begin_sqlite(self, read_only=self._read_only)
        # Other drivers (psycopg) begin one implicitly at the first statement.
        self._transaction = _Transaction()

    def commit(self) -> None:
        if self._transaction is not None:
            self._end("COMMIT", self.connection.driver_connection.commit)
            wakeups.committed(self.info)

    def rollback(self) -> None:
        wakeups.discarded(self.info)
        if self._transaction is not None:
            self._end("ROLLBACK", self.connection.driver_connection.rollback)

    def _end(self, statement: str, end: Any) -> None:
        try:
            end()
        except self.dialect.loaded_dbapi.Error as error:
            raise driver_error(self, statement, (), None, error) from error
        self._transaction = None

    def invalidate(self, exception: BaseException | None = None) -> None:
        """The connection is lost: the pool will not hand it out again."""
        self._transaction = None
        self.connection.invalidate(exception)

    def close(self) -> None:
        try:
            if self._transaction is not None and self.connection.is_valid:
                self.rollback()
        except DBAPIError:
            pass  # a lost connection is invalidated; the pool's reset rolls back any other
        finally:
            self._transaction = None
            self.connection.close()  # back to the pool, which resets it
