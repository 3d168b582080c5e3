"""Ruling L1 (docs/rulings.md): the creator leaving an open game passes the game on to the member
who joined next; the last member leaving closes it, and its join code stops working, so that a
stranger holding the code cannot take over an empty game nobody can see or cancel."""

from __future__ import annotations

import sqlalchemy as sa

from server.storage.db import get_engine
from tests.server.helpers import assert_error


def _created_by(database_url: str, game_id: str) -> int:
    with get_engine(database_url).connect() as connection:
        return connection.execute(sa.text("SELECT created_by FROM games WHERE id = :id"),
                                  {"id": game_id}).scalar_one()


def _new_game(client, player, **options) -> dict:
    response = client.post("/api/v1/games", json={"seats": 2, **options}, headers=player.headers)
    assert response.status_code == 201, response.json
    return response.json


def test_the_creator_leaving_passes_the_game_to_the_next_member(client, database_url, ada, bob,
                                                                  eve):
    game = _new_game(client, ada)
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob.headers)

    left = client.post(f"/api/v1/games/{game['id']}/leave", headers=ada.headers)

    assert left.status_code == 200, left.json
    assert left.json["status"] == "open"
    assert _created_by(database_url, game["id"]) == bob.id
    invited = client.post(f"/api/v1/games/{game['id']}/invitations",
                          json={"email": "eve@example.org"}, headers=bob.headers)
    assert invited.status_code == 201, invited.json
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=eve.headers)
    started = client.post(f"/api/v1/games/{game['id']}/start", headers=bob.headers)
    assert started.status_code == 200, started.json
    assert sorted(p["name"] for p in started.json["players"]) == ["bob", "eve"]


def test_the_last_member_leaving_closes_the_game_and_its_code_stops_working(client, ada, eve):
    game = _new_game(client, ada, public=True)

    left = client.post(f"/api/v1/games/{game['id']}/leave", headers=ada.headers)

    assert left.status_code == 200, left.json
    assert left.json["status"] == "closed"
    assert left.json["players"] == []
    assert_error(client.post("/api/v1/games/join", json={"code": game["join_code"]},
                             headers=eve.headers),
                 409, f"game {game['id']} was closed: every player left it before the start")
    watched = client.get(f"/api/v1/games/{game['id']}")
    assert watched.json["status"] == "closed" and watched.json["players"] == []
    assert client.get("/api/v1/games", headers=ada.headers).json == []


def test_a_private_empty_game_cannot_be_taken_over_with_its_code(client, ada, eve):
    game = _new_game(client, ada)
    client.post(f"/api/v1/games/{game['id']}/leave", headers=ada.headers)

    assert_error(client.post("/api/v1/games/join", json={"code": game["join_code"]},
                             headers=eve.headers), 409, "was closed")
    assert_error(client.post(f"/api/v1/games/{game['id']}/start", headers=eve.headers), 404)
    assert_error(client.get(f"/api/v1/games/{game['id']}", headers=eve.headers), 404)
