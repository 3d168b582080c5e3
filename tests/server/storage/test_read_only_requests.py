"""Reads never wait for writes: a GET's transaction only reads, and on SQLite takes no lock."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.engine import make_url
from sqlmodel import select

from server import create_app
from server.storage.db import WriteInReadOnlyTransaction, db_session
from server.storage.models import User, utcnow
from tests.accounts import sign_up
from tests.server.helpers import Player
from tests.server.play import create_started_game


def test_a_get_request_cannot_write(app):
    with app.test_request_context("/api/v1/games", method="GET"):
        session = db_session()
        session.add(User(name="mallory", email="m@example.org", token_hash="0" * 64,
                         created_at=utcnow()))
        with pytest.raises(WriteInReadOnlyTransaction, match="read-only request tried to write"):
            session.commit()


def test_a_post_request_writes(app):
    with app.test_request_context("/api/v1/users", method="POST"):
        session = db_session()
        session.add(User(name="grace", email="g@example.org", token_hash="1" * 64,
                         created_at=utcnow()))
        session.commit()
    with app.test_request_context("/api/v1/users", method="GET"):
        names = [u.name for u in db_session().exec(select(User)).all()]
    assert names == ["grace"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_reads_go_on_while_another_process_holds_the_write_lock(database_url, tmp_path):
    # A short busy timeout: a read that queued for the write lock would fail with a 500.
    app = create_app({"DATABASE_URL": database_url, "TESTING": True,
                      "SQLITE_BUSY_TIMEOUT_MS": 100})
    client = app.test_client()
    players = []
    for name in ("ada", "bob"):
        body = sign_up(client, name, f"{name}@example.org")
        players.append(Player(body["id"], body["name"], body["email"], body["token"]))
    game = create_started_game(client, players)
    actor = next(p for p in players if p.id == game["players"][game["current_seat"]]["user_id"])
    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=actor.headers).json

    writer = sqlite3.connect(make_url(database_url).database, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        for path in ("", "/view", "/legal", "/events"):
            response = client.get(f"/api/v1/games/{game['id']}{path}", headers=players[0].headers)
            assert response.status_code == 200, (path, response.get_data(as_text=True))
        assert client.get("/api/v1/games", headers=players[1].headers).status_code == 200
        # A write waits for the lock, and says so once the busy timeout has passed.
        response = client.post("/api/v1/games", json={"seats": 2}, headers=players[0].headers)
        assert response.status_code == 503, response.get_data(as_text=True)
        assert "try again shortly" in response.json["message"]
        response = client.post(f"/api/v1/games/{game['id']}/commands", headers=actor.headers,
                               json={"command": legal["commands"][0],
                                     "expected_version": legal["version"]})
        assert response.status_code == 503, response.get_data(as_text=True)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    # Nothing of the refused command was kept: the game is where it was.
    assert client.get(f"/api/v1/games/{game['id']}", headers=actor.headers).json["version"] == (
        legal["version"])
