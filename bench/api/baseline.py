"""The baselines the API is measured against, served by the same gunicorn setup as the app.

    gunicorn 'bench.api.baseline:create_app()'      (IRIDESCIA_DATABASE_URL names the database)

``GET /noop`` does nothing but answer JSON: the cost of gunicorn, Flask and the loopback.
``POST /insert`` inserts one row in its own transaction, through the server's own engine setup
(WAL, busy timeout and BEGIN IMMEDIATE on SQLite): the least any write request can cost.
Not part of the product; it lives here so that nobody can reach it in production.
"""

from __future__ import annotations

import json
import os

import sqlalchemy as sa
from flask import Flask, jsonify, request

from server.db import get_engine

metadata = sa.MetaData()
rows = sa.Table(
    "bench_baseline_rows",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("payload", sa.Text, nullable=False),
)


def create_tables(url: str) -> None:
    """Called once by the driver before gunicorn starts, so workers never race to create it."""
    metadata.create_all(get_engine(url))


def create_app() -> Flask:
    engine = get_engine(os.environ["IRIDESCIA_DATABASE_URL"])
    app = Flask("bench_baseline")

    @app.get("/noop")
    def noop():
        return jsonify({"ok": True})

    @app.post("/insert")
    def insert():
        payload = json.dumps(request.get_json(force=True))
        with engine.begin() as connection:
            row_id = connection.execute(rows.insert().values(payload=payload)).inserted_primary_key[0]
        return jsonify({"id": row_id}), 201

    return app
