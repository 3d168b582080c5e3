"""Shared fixtures: ``database_url``, a migrated empty database on SQLite and on PostgreSQL.

PostgreSQL is the local server (127.0.0.1:5432, user postgres, trust auth, database ``test``;
override with IRIDESCIA_TEST_POSTGRES_URL). Each test session migrates one schema of its own,
``iridescia_<random>``, reached through ``search_path`` in the URL and dropped at the end, so
parallel runs never collide. When PostgreSQL does not answer, the tests that use it fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

POSTGRES_URL = os.environ.get(
    "IRIDESCIA_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@pytest.fixture(scope="session")
def _migrated_sqlite(tmp_path_factory) -> Iterator[str]:
    from server.storage.db import dispose_engine
    from server.storage.migrate import upgrade

    url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'iridescia.db'}"
    upgrade(url)
    yield url
    dispose_engine(url)


@pytest.fixture(scope="session")
def _migrated_postgresql() -> Iterator[str]:
    from server.storage.db import dispose_engine
    from server.storage.migrate import upgrade

    schema = f"iridescia_{uuid.uuid4().hex[:12]}"
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


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request) -> Iterator[str]:
    """The URL of a migrated database with every table empty, once on SQLite and once on
    PostgreSQL (the test runs twice; ids show ``[sqlite]`` / ``[postgresql]``).

    Use it with ``server.storage.db.get_engine(database_url)`` and ``session_scope``, or pass it to
    ``create_app({"DATABASE_URL": database_url})``. The rows a test writes are deleted after it.
    """
    url = request.getfixturevalue(f"_migrated_{request.param}")
    yield url
    empty_every_table(url)


def empty_every_table(url: str) -> None:
    from sqlmodel import SQLModel

    import server.storage.models  # noqa: F401  (registers the tables)
    from server.games.cache import CACHE
    from server.storage.db import get_engine

    engine = get_engine(url)
    tables = [table.name for table in SQLModel.metadata.sorted_tables]
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            names = ", ".join(f'"{name}"' for name in tables)
            connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        else:
            for name in reversed(tables):
                connection.execute(sa.text(f'DELETE FROM "{name}"'))
    CACHE.clear()
