"""A game keeps the rules version it was created under: the API creates, shows and plays it."""

from __future__ import annotations

import json

import sqlalchemy as sa

import engine
from server.storage.db import get_engine
from tests.server.helpers import assert_error
from tests.server.play import create_started_game, seat_map


def test_a_game_under_a_version_the_server_cannot_play_is_refused(client, ada):
    body = assert_error(client.post("/api/v1/games", json={"seats": 2, "rules_version": "0.9"},
                                    headers=ada.headers), 422, "cannot play rules version '0.9'")
    assert "rules_version" in str(body["details"])


def test_a_new_game_gets_the_current_version_and_shows_it(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    assert game["rules_version"] == engine.RULES_VERSION == "2"
    assert client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["rules_version"] == "2"
    listed = client.get("/api/v1/games", headers=ada.headers).json
    assert [g["rules_version"] for g in listed] == ["2"]
    view = client.get(f"/api/v1/games/{game['id']}/view", headers=ada.headers).json
    assert view["rules_version"] == "2"


def _reveal_backwards(client, database_url, players, **options):
    """The first player reveals the rightmost and the leftmost row-1 hex, in that order; the
    stored command and the revealed event, as the database holds them."""
    game = create_started_game(client, players, **options)
    seats = seat_map(client, game["id"], players)
    player = seats[game["current_seat"]]
    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=player.headers).json
    pairs = [c["hexes"] for c in legal["commands"] if c["type"] == "reveal" and len(c["hexes"]) == 2]
    first, last = pairs[0][0], pairs[-1][-1]
    answer = client.post(f"/api/v1/games/{game['id']}/commands",
                         json={"command": {"type": "reveal", "hexes": [last, first]},
                               "expected_version": legal["version"]}, headers=player.headers)
    assert answer.status_code == 201, answer.json
    with get_engine(database_url).connect() as connection:
        stored = connection.execute(sa.text(
            "SELECT command FROM commands WHERE game_id = :g AND version = :v"),
            {"g": game["id"], "v": legal["version"]}).scalar_one()
        versions = connection.execute(sa.text(
            "SELECT DISTINCT rules_version FROM events WHERE game_id = :g"), {"g": game["id"]}
        ).scalars().all()
    stored = stored if isinstance(stored, dict) else json.loads(stored)
    return pairs, (first, last), stored["hexes"], answer.json["events"][0]["payload"]["hexes"], versions


def test_a_two_hex_reveal_is_listed_once_and_stored_in_board_order(client, database_url, ada, bob):
    pairs, (first, last), stored, revealed, versions = _reveal_backwards(client, database_url, [ada, bob])
    assert all(p == sorted(p) for p in pairs) and len(pairs) == len({tuple(sorted(p)) for p in pairs})
    assert stored == revealed == [first, last]
    assert versions == ["2"]


def test_a_version_1_game_keeps_version_1_rules_for_its_life(client, database_url, ada, bob):
    game = create_started_game(client, [ada, bob], rules_version="1")
    assert game["rules_version"] == "1"
    assert client.get(f"/api/v1/games/{game['id']}/view", headers=ada.headers).json[
        "rules_version"] == "1"
    pairs, (first, last), stored, revealed, versions = _reveal_backwards(
        client, database_url, [ada, bob], rules_version="1")
    assert len(pairs) > len({tuple(sorted(p)) for p in pairs}), "version 1 lists both orders"
    assert stored == revealed == [last, first]
    assert versions == ["1"]
