"""Transactions that must not run side by side: each reads what the other is writing.

    serialized(connection, "seeks", 2)   # the rest of the transaction, one at a time

Two players who seek the same game at the same moment each insert a seek and then look for
the other's: on PostgreSQL (read committed) neither sees the other's row, not committed yet, so
each leaves a seek and no game is made. Taking a named lock first makes the second wait for
the first's commit, and its reads that follow see the first's row.

PostgreSQL: a transaction-scoped advisory lock (`pg_advisory_xact_lock`), released at the
commit or rollback; its key is the name's sha256, so the same name is the same lock in every
process. SQLite: nothing more to do, since a writing transaction here begins IMMEDIATE
(server/storage/db.py) and holds the whole database until it ends; it must be a writing one.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import text
from sqlalchemy.engine import Connection

from server.storage.db import READ_ONLY_OPTION

_LOCK = text("SELECT pg_advisory_xact_lock(:key)")


def lock_key(*name: object) -> int:
    """A signed 64-bit key for the name (what pg_advisory_xact_lock takes)."""
    digest = hashlib.sha256(":".join(map(str, ("iridescia", *name))).encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def serialized(connection: Connection, *name: object) -> None:
    """Wait until no other transaction holds the lock ``name``, and hold it until this one
    ends."""
    if connection.get_execution_options().get(READ_ONLY_OPTION):
        raise RuntimeError("a read-only transaction cannot serialize writes")
    if connection.dialect.name == "postgresql":
        connection.execute(_LOCK, {"key": lock_key(*name)})
    elif not connection.in_transaction():
        connection.begin()  # SQLite: BEGIN IMMEDIATE, the database's write lock
