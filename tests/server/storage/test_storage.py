"""Storage: the migrations match the models; SQLite settings; the CLI migrates."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from click.testing import CliRunner
from sqlmodel import SQLModel

import server.storage.models  # noqa: F401
from server.cli import main
from server.storage.db import get_engine


def test_the_migrations_create_exactly_the_models_tables(database_url):
    with get_engine(database_url).connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, SQLModel.metadata)
    assert differences == []


def test_sqlite_runs_with_wal_foreign_keys_and_a_busy_timeout(tmp_path):
    url = f"sqlite:///{tmp_path / 'x' / 'app.db'}"
    with get_engine(url).connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
    assert (tmp_path / "x" / "app.db").exists()


def test_foreign_keys_are_enforced(database_url):
    engine = get_engine(database_url)
    with engine.connect() as connection:
        try:
            connection.execute(sa.text(
                "INSERT INTO seats (game_id, user_id, kind, joined_at, missed_turns, absent) "
                "VALUES ('nosuchgame', NULL, 'rhom', CURRENT_TIMESTAMP, 0, false)"))
            connection.commit()
        except sa.exc.IntegrityError:
            connection.rollback()
        else:
            raise AssertionError("a seat of a missing game was accepted")


def test_db_upgrade_migrates_the_configured_database(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    monkeypatch.setenv("IRIDESCIA_DATABASE_URL", url)
    result = CliRunner().invoke(main, ["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert "is at revision head" in result.output
    tables = set(sa.inspect(get_engine(url)).get_table_names())
    assert {"users", "games", "seats", "events", "commands", "idempotency", "snapshots",
            "outbox", "scheduler_ticks", "alembic_version"} <= tables


def test_db_upgrade_explains_an_unreachable_database(monkeypatch):
    monkeypatch.setenv("IRIDESCIA_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/x")
    result = CliRunner().invoke(main, ["db", "upgrade"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: could not migrate postgresql+psycopg://nobody@")
