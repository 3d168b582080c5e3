"""The scheduler tests' fixtures (defined in tests/server/scheduler_fixtures.py): the database,
the clock, the SMTP server, the app and its table."""

from tests.server.scheduler_fixtures import (  # noqa: F401  (fixtures, by name)
    app,
    clock,
    db_engine,
    db_url,
    smtp_server,
    table,
)
