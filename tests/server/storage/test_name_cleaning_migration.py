"""Issue 32, N1: names stored before the API refused control characters are cleaned by the
migration 0005_hardening_sessions (each run of them becomes a space), on SQLite and PostgreSQL;
a clean name is left as it is."""

import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from server.storage.db import dispose_engine
from server.storage.migrate import upgrade
from tests.conftest import POSTGRES_URL


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_url(request, tmp_path):
    """An empty database of its own (the shared ones are already at the head)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
        yield url
        dispose_engine(url)
        return
    schema = f"iridescia_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(POSTGRES_URL)
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    try:
        yield url
    finally:
        dispose_engine(url)
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def test_the_migration_cleans_control_characters_out_of_stored_names(fresh_url):
    upgrade(fresh_url, "0005_i18n_language_sorts")
    engine = sa.create_engine(fresh_url)
    names = {"osc@example.org": "Ada\x1b]0;pwned\x07 Lovelace",
             "c1@example.org": "Bob\x9b2J\u202e",
             "only@example.org": "\x1b\x07",
             "ok@example.org": "Zoë 🎲"}
    with engine.begin() as connection:
        for number, (email, name) in enumerate(names.items()):
            connection.execute(sa.text(
                "INSERT INTO users (name, email, token_hash, email_preference, created_at, "
                "choose_removals, time_zone, digest_hour) VALUES (:name, :email, :hash, "
                "'every_turn', :now, false, 'UTC', 8)"),
                {"name": name, "email": email, "hash": f"{number:064d}",
                 "now": datetime(2026, 3, 1, tzinfo=UTC)})
    upgrade(fresh_url)
    with engine.connect() as connection:
        after = dict(connection.execute(sa.text("SELECT email, name FROM users")).all())
    engine.dispose()
    assert after == {"osc@example.org": "Ada ]0;pwned Lovelace", "c1@example.org": "Bob 2J",
                     "only@example.org": "player", "ok@example.org": "Zoë 🎲"}
