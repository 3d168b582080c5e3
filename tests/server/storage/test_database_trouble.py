"""Issue 16, finding 8: a database that cannot be written answers 503 with the cause, not a 500
or "the database is not answering": a read-only SQLite file, a writers' lock file the server
may not open, a full disk (SQLite's SQLITE_FULL, PostgreSQL's 53100). `serve` refuses to start
on a database it cannot write, in one line.

The tests run as root on CI, where file modes stop nothing: SQLite's own read-only mode
(``PRAGMA query_only``) and page limit (``max_page_count``) make its real errors, and the lock
file's open is refused the way a read-only directory refuses it."""

from __future__ import annotations

import errno
import os

import psycopg
import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from server import create_app
from server.cli import main as server_cli
from server.http.errors import database_trouble
from server.storage.migrate import upgrade
from tests.server.helpers import assert_error

NEW_USER = {"name": "Ada", "email": "ada@example.org"}


@pytest.fixture
def sqlite_app(tmp_path):
    from server.storage.db import dispose_engine

    url = f"sqlite:///{tmp_path / 'game.db'}"
    upgrade(url)
    # Many registrations from one address: the account-request limit is not what is tested.
    app = create_app({"DATABASE_URL": url, "TESTING": True, "ACCOUNT_REQUESTS_PER_HOUR": 100_000})
    yield app, tmp_path / "game.db"
    dispose_engine(url)


def _on_connect(app, pragma: str) -> None:
    engine = app.extensions["iridescia_db"]
    engine.dispose()

    @sa.event.listens_for(engine, "connect")
    def _pragma(dbapi_connection, _record):  # noqa: ANN001
        dbapi_connection.execute(pragma)


def test_a_read_only_sqlite_database_answers_503_saying_so(sqlite_app):
    app, _path = sqlite_app
    _on_connect(app, "PRAGMA query_only = 1")
    response = app.test_client().post("/api/v1/users", json=NEW_USER)
    assert_error(response, 503, "the database is read-only (attempt to write a readonly "
                                "database)", "makes the database file and its directory writable")


def _refuse_the_lock_file(monkeypatch) -> None:
    """The writers' lock file's open fails as in a read-only directory."""
    real_open = os.open

    def refuse_lock_file(name, *args, **kwargs):
        if str(name).endswith("-writers"):
            raise PermissionError(errno.EACCES, "Permission denied", name)
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr("server.storage.sqlite_writers.os.open", refuse_lock_file)


def test_a_lock_file_the_server_may_not_open_answers_503_saying_so(sqlite_app, monkeypatch):
    app, path = sqlite_app
    _refuse_the_lock_file(monkeypatch)
    response = app.test_client().post("/api/v1/users", json=NEW_USER)
    assert_error(response, 503, f"the database is read-only (cannot open the writers' lock file "
                                f"{path}-writers: Permission denied)")


def test_a_full_sqlite_disk_answers_503_saying_so(sqlite_app):
    app, path = sqlite_app
    pages = sa.create_engine(f"sqlite:///{path}").connect().exec_driver_sql(
        "PRAGMA page_count").scalar_one()
    _on_connect(app, f"PRAGMA max_page_count = {pages}")
    client = app.test_client()
    answers = [client.post("/api/v1/users", json={"name": "x" * 80, "email": f"p{i}@example.org"})
               for i in range(200)]
    refused = [a for a in answers if a.status_code != 202]
    assert refused, "the database never filled up"
    assert_error(refused[0], 503, "the database's disk is full (database or disk is full)",
                 "frees space")


def test_postgresqls_disk_full_error_is_named():
    error = sa.exc.OperationalError("INSERT", {}, psycopg.errors.DiskFull(
        'could not extend file "base/16384/2619": No space left on device'))
    assert database_trouble(error) == (
        "the database's disk is full (could not extend file \"base/16384/2619\": No space left on "
        "device): nothing can be saved until an operator frees space; try again later")


def test_serve_refuses_a_database_it_cannot_write_in_one_line(tmp_path):
    (tmp_path / "not-a-directory").write_text("")
    url = f"sqlite:///{tmp_path / 'not-a-directory' / 'game.db'}"
    result = CliRunner().invoke(server_cli, ["serve"], env={"IRIDESCIA_DATABASE_URL": url})
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.startswith(f"Error: cannot write the database {url}: ")
    assert len(result.output.splitlines()) == 1, result.output


def test_serve_refuses_a_read_only_lock_file_in_one_line(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'game.db'}"
    upgrade(url)
    _refuse_the_lock_file(monkeypatch)
    result = CliRunner().invoke(server_cli, ["serve"], env={"IRIDESCIA_DATABASE_URL": url})
    assert result.exit_code == 1
    assert result.output == (f"Error: cannot write the database {url}: cannot open the writers' "
                             f"lock file {tmp_path / 'game.db'}-writers: Permission denied\n")
