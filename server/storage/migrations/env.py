"""Alembic environment: the URL comes from the caller (server.storage.migrate) or the settings."""

from alembic import context
from sqlmodel import SQLModel

import server.storage.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from server.config import Settings
from server.storage.db import get_engine

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.attributes.get("url") or Settings.load().DATABASE_URL
    with get_engine(url).connect() as connection:
        _run(connection)
        connection.commit()


def _run(connection) -> None:  # noqa: ANN001
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run `iridescia-server db upgrade`")
run_migrations_online()
