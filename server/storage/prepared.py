"""The statements every command runs, compiled once per dialect and run on the driver's cursor.

A command post runs five statements. Through SQLAlchemy Core each paid about 70 µs in the
workers (building an execution context, the compiled cache's key, events, a Result) for a
database call of about 10 µs: together about a third of a post. A `Prepared` statement is still built
with Core (one SQL text for SQLite and PostgreSQL, with the dialect's own bind casts) and
converts its values with the same type processors SQLAlchemy would use; only the execution is
done here: the SQL text, the order of its parameters and the processors are worked out at the
first use on a dialect, and each run is one cursor call.

It runs on a SQLAlchemy Connection (a Session's, or the command post's plain one), in that
connection's transaction: it begins one as Core would (so SQLite's write lock and read-only
transactions work the same), refuses to write in a read-only one, and turns driver errors into
SQLAlchemy's (IntegrityError, OperationalError; a lost connection is invalidated), so callers
catch the same exceptions either way.

Only plain statements: no IN lists (expanding parameters) and no executemany with RETURNING,
which Core rewrites per driver; those stay on `Connection.execute`.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import Insert, UpdateBase

from server.storage.db import READ_ONLY_OPTION, WriteInReadOnlyTransaction, driver_error

Params = Mapping[str, Any]


@dataclass(frozen=True)
class _Plan:
    """A statement as one dialect runs it."""

    sql: str
    positional: bool
    names: tuple[str, ...]  # its parameters, in the order the SQL takes them
    defaults: dict[str, Any]  # what a parameter not given takes (INSERT columns' defaults)
    bind_processors: tuple[tuple[int, Callable[[Any], Any]], ...]  # (position, processor)
    row: type | None  # a namedtuple of the result columns, None when there are none
    result_processors: tuple[tuple[int, Callable[[Any], Any]], ...]

    def parameters(self, values: Params) -> tuple | dict:
        if self.defaults:
            values = {**self.defaults, **values}
        try:
            converted = [values[name] for name in self.names]
        except KeyError:
            missing = sorted(name for name in self.names if name not in values)
            raise KeyError(f"the statement needs a value for {missing}: {self.sql}") from None
        for position, process in self.bind_processors:
            converted[position] = process(converted[position])
        if self.positional:
            return converted
        return dict(zip(self.names, converted, strict=True))

    def rows(self, fetched: Iterable[tuple]) -> list:
        if self.row is None:
            return []
        make = self.row._make
        if not self.result_processors:
            return [make(row) for row in fetched]
        rows = []
        for row in fetched:
            values = list(row)
            for position, process in self.result_processors:
                values[position] = process(values[position])
            rows.append(make(values))
        return rows


class Prepared:
    """A Core statement run on the driver's cursor. ``run`` and ``run_many`` execute it (the
    cursor's ``rowcount`` is returned); ``all`` and ``first`` return its rows as named tuples.

        _VERSION = Prepared(select(Game.version).where(Game.id == bindparam("game_id")))
        row = _VERSION.first(connection, {"game_id": game_id})
    """

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self.writes = isinstance(statement, UpdateBase)
        # By the dialect itself, not its id: a disposed engine's id may come back for another.
        self._plans: dict[tuple[Dialect, frozenset[str]], _Plan] = {}

    def run(self, connection: Connection, values: Params) -> int:
        plan = self._plan(connection, values)
        return self._call(connection, plan, plan.parameters(values), many=False)[0]

    def run_many(self, connection: Connection, rows: list[Params]) -> int:
        """One executemany; every row gives the same keys."""
        if not rows:
            return 0
        plan = self._plan(connection, rows[0])
        return self._call(connection, plan, [plan.parameters(row) for row in rows], many=True)[0]

    def all(self, connection: Connection, values: Params) -> list:
        plan = self._plan(connection, values)
        return plan.rows(self._call(connection, plan, plan.parameters(values), many=False)[1])

    def first(self, connection: Connection, values: Params) -> Any:
        rows = self.all(connection, values)
        return rows[0] if rows else None

    def _plan(self, connection: Connection, values: Params) -> _Plan:
        # An INSERT names only the columns it is given (the others take their defaults).
        keys = frozenset(values) if isinstance(self.statement, Insert) else frozenset()
        key = (connection.dialect, keys)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _compile(self.statement, connection.dialect, keys)
        return plan

    def _call(self, connection: Connection, plan: _Plan, parameters: Any, *, many: bool):
        if self.writes and connection.get_execution_options().get(READ_ONLY_OPTION):
            raise WriteInReadOnlyTransaction(f"a read-only request tried to write: {plan.sql}")
        if not connection.in_transaction():
            connection.begin()  # as Core's autobegin: SQLite's BEGIN (IMMEDIATE) is issued here
        cursor = connection.connection.driver_connection.cursor()
        try:
            if many:
                cursor.executemany(plan.sql, parameters)
            else:
                cursor.execute(plan.sql, parameters)
            fetched = cursor.fetchall() if plan.row is not None else ()
            return cursor.rowcount, fetched
        except connection.dialect.loaded_dbapi.Error as error:
            raise driver_error(connection, plan.sql, parameters, cursor, error) from error
        finally:
            cursor.close()


def _python_type(type_: Any) -> type | None:
    try:
        return type_.python_type
    except NotImplementedError:
        return None


def _compile(statement: Executable, dialect: Dialect, keys: frozenset[str]) -> _Plan:
    compiled = statement.compile(dialect=dialect, column_keys=sorted(keys) or None)
    if compiled.literal_execute_params or compiled.post_compile_params:
        raise ValueError(f"a Prepared statement cannot expand parameters: {compiled.string}")
    # The parameters under the names the SQL text uses (an anonymous one, such as LIMIT's, is
    # named only when rendered).
    rendered = {name: parameter for parameter, name in compiled.bind_names.items()}
    names = tuple(compiled.positiontup if compiled.positional else rendered)
    defaults, bind_processors = {}, []
    for position, name in enumerate(names):
        parameter = rendered[name]
        column = statement.table.c.get(name) if isinstance(statement, Insert) else None
        if column is not None and name not in keys:
            if column.default is None or not column.default.is_scalar:
                raise ValueError(f"give a value for column {name!r}: it has no constant default")
            defaults[name] = column.default.arg
        elif not parameter.required:
            defaults[name] = parameter.value
        process = parameter.type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            if _python_type(parameter.type) is datetime:
                # A batch's rows mostly carry the same few times (every row of a turn its
                # `now`): each converted once (a time's conversion costs several calls).
                process = functools.lru_cache(maxsize=64)(process)
            bind_processors.append((position, process))
    columns = list(statement.exported_columns) if statement.exported_columns else []
    row = namedtuple("Row", [c.key for c in columns], rename=True) if columns else None
    result_processors = []
    for position, column in enumerate(columns):
        process = column.type.dialect_impl(dialect).result_processor(dialect, None)
        if process is not None:
            result_processors.append((position, process))
    return _Plan(compiled.string, compiled.positional, names, defaults, tuple(bind_processors),
                 row, tuple(result_processors))
