"""The baselines the API is measured against, served by the same gunicorn setup as the app.

    gunicorn 'bench.api.baseline:create_app()'      (IRIDESCIA_DATABASE_URL names the database)

``GET /noop`` does nothing but answer JSON: the cost of gunicorn, Flask and the loopback.
``POST /insert`` inserts one row in its own transaction, through the server's own engine setup
(WAL, busy timeout and BEGIN IMMEDIATE on SQLite): the least any write request can cost.
``POST /bare-insert`` inserts the same row with the bare driver (the standard library's
``sqlite3``, or ``psycopg``), one connection per worker kept open, nothing of SQLAlchemy or of
the server's engine setup: the honest floor of a write request with this web stack.
``POST /shaped`` does a command post's database work with nothing else (no auth, no ORM, no
rules, no schemas): it reads a row in a read-only transaction, then in a write transaction
inserts two rows in one executemany (the events) and one more (the command), reads one (the
seats) and updates the first row where its version is still the one it read. The least a
command post can cost with this stack and this statement shape.
Not part of the product; it lives here so that nobody can reach it in production.
"""

from __future__ import annotations

import json
import os
import sqlite3

import sqlalchemy as sa
from flask import Flask, jsonify, request

from server.storage.db import default_sqlite_path, get_engine, read_only

metadata = sa.MetaData()
rows = sa.Table(
    "bench_baseline_rows",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("payload", sa.Text, nullable=False),
)


tables = sa.Table(
    "bench_baseline_tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
)
_READ_TABLE = sa.select(tables.c.version).where(tables.c.id == sa.bindparam("table_id"))
_INSERT_ROWS = rows.insert()
_NEW_TABLE = tables.insert()
_BUMP_TABLE = (
    tables.update()
    .where(tables.c.id == sa.bindparam("table_id"), tables.c.version == sa.bindparam("seen"))
    .values(version=sa.bindparam("new_version"))
)


def create_tables(url: str) -> None:
    """Called once by the driver before gunicorn starts, so workers never race to create it."""
    metadata.create_all(get_engine(url))


BARE_INSERT = "INSERT INTO bench_baseline_rows (payload) VALUES ({})"


def bare_connection(url: str):
    """The worker's own driver connection (made after the fork) and its INSERT."""
    path = default_sqlite_path(url)
    if path is not None:
        # Python's default transaction handling: a BEGIN before the INSERT, the commit after.
        connection = sqlite3.connect(path, timeout=5, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        return connection, BARE_INSERT.format("?")
    import psycopg
    from sqlalchemy.engine import make_url

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    return psycopg.connect(dsn), BARE_INSERT.format("%s")


def create_app() -> Flask:
    url = os.environ["IRIDESCIA_DATABASE_URL"]
    engine = get_engine(url)
    app = Flask("bench_baseline")
    bare: list = []

    @app.post("/bare-insert")
    def bare_insert():
        payload = json.dumps(request.get_json(force=True))
        if not bare:
            bare.extend(bare_connection(url))
        connection, statement = bare
        connection.execute(statement, (payload,))
        connection.commit()
        return jsonify({"ok": True}), 201

    @app.get("/noop")
    def noop():
        return jsonify({"ok": True})

    @app.post("/insert")
    def insert():
        payload = json.dumps(request.get_json(force=True))
        with engine.begin() as connection:
            row_id = connection.execute(rows.insert().values(payload=payload)).inserted_primary_key[0]
        return jsonify({"id": row_id}), 201

    @app.post("/shaped")
    def shaped():
        body = request.get_json(force=True)
        table_id = str(body["table"])
        payload = json.dumps(body)
        with read_only(engine).connect() as connection, connection.begin():
            seen = connection.execute(_READ_TABLE, {"table_id": table_id}).scalar()
        with engine.begin() as connection:
            connection.execute(_INSERT_ROWS, [{"payload": payload}, {"payload": payload}])
            connection.execute(_INSERT_ROWS, [{"payload": payload}])
            connection.execute(_READ_TABLE, {"table_id": table_id}).scalar()
            if seen is None:
                connection.execute(_NEW_TABLE, {"id": table_id, "version": 1})
            else:
                bumped = connection.execute(
                    _BUMP_TABLE, {"table_id": table_id, "seen": seen, "new_version": seen + 1})
                if bumped.rowcount != 1:
                    return jsonify({"error": "stale"}), 409
        return jsonify({"version": (seen or 0) + 1}), 201

    return app
