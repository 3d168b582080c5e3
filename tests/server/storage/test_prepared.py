"""Prepared statements (server/storage/prepared.py) store and read exactly what Core would, and fail the
same way, on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from server.storage.db import READ_ONLY_OPTION, WriteInReadOnlyTransaction, get_engine
from server.storage.models import Event, Game, User
from server.storage.prepared import Prepared

_USERS, _GAMES, _EVENTS = User.__table__, Game.__table__, Event.__table__
_INSERT_USER = Prepared(sa.insert(_USERS))
_INSERT_EVENT = Prepared(sa.insert(_EVENTS))
_EVENTS_OF = Prepared(
    sa.select(_EVENTS.c.seq, _EVENTS.c.payload, _EVENTS.c.at)
    .where(_EVENTS.c.game_id == sa.bindparam("game_id"))
    .order_by(_EVENTS.c.seq)
)
_BUMP = Prepared(
    sa.update(_GAMES)
    .where(_GAMES.c.id == sa.bindparam("row_id"), _GAMES.c.version == sa.bindparam("seen"))
    .values(version=sa.bindparam("new_version"))
)
ON_THE_HOUR = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
LATER = datetime(2026, 11, 30, 12, 0, 0, 250_000, tzinfo=UTC)


def _user_and_game(connection) -> None:
    _INSERT_USER.run(connection, {"id": 1, "name": "Ada", "email": "ada@example.com",
                                  "token_hash": "h" * 64, "created_at": ON_THE_HOUR})
    connection.execute(sa.insert(_GAMES).values(
        id="g1", created_by=1, created_at=ON_THE_HOUR, join_code="J1", seats=2, variants=[],
        seed="s", seed_hash="h"))


def _event(seq: int, at: datetime) -> dict:
    return {"game_id": "g1", "seq": seq, "type": "tile_taken", "payload": {"n": seq, "gem": "é"},
            "actor": "1", "at": at, "rules_version": "1"}


def test_rows_written_by_prepared_statements_read_back_as_core_reads_them(database_url):
    with get_engine(database_url).connect() as connection:
        _user_and_game(connection)
        _INSERT_EVENT.run_many(connection, [_event(1, ON_THE_HOUR), _event(2, LATER)])
        connection.commit()
        through_core = connection.execute(
            sa.select(_EVENTS.c.seq, _EVENTS.c.payload, _EVENTS.c.at)
            .where(_EVENTS.c.game_id == "g1").order_by(_EVENTS.c.seq)).all()
        # Ordering by time works across rows with and without a fraction of a second.
        by_time = connection.execute(
            sa.select(_EVENTS.c.seq).where(_EVENTS.c.at > ON_THE_HOUR)).scalars().all()
        prepared = _EVENTS_OF.all(connection, {"game_id": "g1"})
        user = connection.execute(sa.select(_USERS.c.email_preference)).scalar()
    assert [tuple(row) for row in through_core] == [tuple(row) for row in prepared] == [
        (1, {"n": 1, "gem": "é"}, ON_THE_HOUR), (2, {"n": 2, "gem": "é"}, LATER)]
    assert prepared[1].at == LATER and prepared[1].payload["gem"] == "é"
    assert by_time == [2]
    assert user == "every_turn"  # a column left out takes its default


def test_a_duplicate_key_is_sqlalchemys_integrity_error(database_url):
    with get_engine(database_url).connect() as connection:
        _user_and_game(connection)
        _INSERT_EVENT.run(connection, _event(1, ON_THE_HOUR))
        with pytest.raises(sa.exc.IntegrityError):
            _INSERT_EVENT.run(connection, _event(1, LATER))
        connection.rollback()


def test_an_update_says_how_many_rows_it_changed(database_url):
    with get_engine(database_url).connect() as connection:
        _user_and_game(connection)
        assert _BUMP.run(connection, {"row_id": "g1", "seen": 0, "new_version": 3}) == 1
        assert _BUMP.run(connection, {"row_id": "g1", "seen": 0, "new_version": 4}) == 0
        connection.commit()
        assert connection.execute(sa.select(_GAMES.c.version)).scalar() == 3


def test_a_prepared_statement_joins_the_connections_transaction(database_url):
    engine = get_engine(database_url)
    with engine.connect() as connection:
        _INSERT_USER.run(connection, {"id": 1, "name": "Ada", "email": "ada@example.com",
                                      "token_hash": "h" * 64, "created_at": ON_THE_HOUR})
        assert connection.in_transaction()
        connection.rollback()
    with engine.connect() as connection:
        assert connection.execute(sa.select(sa.func.count()).select_from(_USERS)).scalar() == 0


def test_a_read_only_connection_cannot_write_through_one(database_url):
    with get_engine(database_url).connect() as connection:
        connection.execution_options(**{READ_ONLY_OPTION: True})
        with pytest.raises(WriteInReadOnlyTransaction):
            _INSERT_USER.run(connection, {"name": "Ada", "email": "ada@example.com",
                                          "token_hash": "h" * 64, "created_at": ON_THE_HOUR})


def test_an_insert_must_give_a_column_whose_default_is_computed(database_url):
    # Core computes such a default at each execution; a Prepared statement would not.
    stamped = sa.Table("stamped", sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True),
                       sa.Column("at", sa.DateTime, default=lambda: ON_THE_HOUR))
    with get_engine(database_url).connect() as connection:
        with pytest.raises(ValueError, match="give a value for column 'at'"):
            Prepared(sa.insert(stamped)).run(connection, {"id": 1})


def test_a_limit_is_bound_and_a_missing_value_is_named(database_url):
    latest = Prepared(sa.select(_EVENTS.c.seq).where(_EVENTS.c.game_id == sa.bindparam("game_id"))
                      .order_by(_EVENTS.c.seq.desc()).limit(1))
    with get_engine(database_url).connect() as connection:
        _user_and_game(connection)
        _INSERT_EVENT.run_many(connection, [_event(1, ON_THE_HOUR), _event(2, LATER)])
        assert [tuple(row) for row in latest.all(connection, {"game_id": "g1"})] == [(2,)]
        with pytest.raises(KeyError, match=r"needs a value for \['game_id'\]"):
            latest.all(connection, {"game": "g1"})
        connection.rollback()
