"""The plans' tests take the mail suite's set (tests/server/inbound/conftest.py): the app on
SQLite and PostgreSQL with its mail going to a real SMTP sink, the table, the post office and a
started duel, by name."""

from tests.server.inbound.conftest import (  # noqa: F401  (fixtures, by name)
    app,
    clock,
    duel,
    post,
    settings,
    sink,
    table,
)
from tests.server.scheduler_fixtures import db_url, smtp_server  # noqa: F401
