"""Bot seats through the API: named, visibly bots, counted as seats, validated with clear 4xx."""

from __future__ import annotations

import engine
from tests.server.helpers import assert_error


def create(client, player, **options):
    response = client.post("/api/v1/games", json=options, headers=player.headers)
    assert response.status_code == 201, response.json
    return response.json


def test_bots_take_seats_named_and_marked_as_bots(client, ada, bob, eve):
    # "strong", the name hard had, is still accepted: the seat is a hard bot.
    game = create(client, ada, seats=3, bots=1, bot_policy="strong")
    assert game["status"] == "open"
    assert game["players"] == [
        {"seat": None, "user_id": ada.id, "name": "ada", "kind": "human", "absent": False,
         "bot_policy": None, "away_until": None, "wants_pause": False,
         "rating": 1000, "rating_provisional": True},
        {"seat": None, "user_id": None, "name": "Bot Amber (hard)", "kind": "bot",
         "absent": False, "bot_policy": "hard", "away_until": None, "wants_pause": False},
    ]
    joined = client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob.headers)
    assert joined.status_code == 200, joined.json
    # The bot counts as a seat: with Bob the game is full, and it starts.
    assert_error(client.post("/api/v1/games/join", json={"code": game["join_code"]},
                             headers=eve.headers), 409, "is full (3 seats)")
    started = client.post(f"/api/v1/games/{game['id']}/start", headers=ada.headers)
    assert started.status_code == 200, started.json
    players = client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["players"]
    assert sorted(p["seat"] for p in players) == [0, 1, 2]
    [bot] = [p for p in players if p["kind"] == "bot"]
    view = client.get(f"/api/v1/games/{game['id']}/view", headers=ada.headers).json
    assert view["players"][bot["seat"]]["kind"] == "bot"  # as GET /games/{id} says it
    assert len(view["players"]) == 3


def test_a_game_of_me_and_bots_starts_at_once(client, ada):
    game = create(client, ada, seats=3, bots=2, bot_policy="medium")
    assert game["status"] == "active"
    names = [p["name"] for p in game["players"] if p["kind"] == "bot"]
    assert sorted(names) == ["Bot Amber (medium)", "Bot Beryl (medium)"]
    state_view = client.get(f"/api/v1/games/{game['id']}/view", headers=ada.headers).json
    assert state_view["rules_version"] == engine.RULES_VERSION


def test_bot_options_are_validated_with_what_to_do(client, ada):
    post = client.post
    assert_error(post("/api/v1/games", json={"seats": 2, "bots": 2}, headers=ada.headers), 422,
                 "a game of 2 seats has room for at most 1 bot", "fewer bots")
    assert_error(post("/api/v1/games", json={"seats": 1, "bots": 1}, headers=ada.headers), 422,
                 "at most 0 bots")
    assert_error(post("/api/v1/games", json={"seats": 3, "bots": 1, "bot_policy": "clever"},
                      headers=ada.headers), 422, "bot_policy",
                 "there is no bot level 'clever': choose easy, medium or hard")
    assert_error(post("/api/v1/games", json={"seats": 3, "bots": "1"}, headers=ada.headers), 422,
                 "bots")
    assert_error(post("/api/v1/games", json={"seats": 4, "bots": -1}, headers=ada.headers), 422,
                 "bots")


def test_each_old_bot_name_is_read_as_its_level(client, ada):
    for old, level in (("greedy", "medium"), ("random", "easy"), ("cautious", "easy"),
                       ("HARD", "hard")):
        game = create(client, ada, seats=2, bots=1, bot_policy=old)
        [bot] = [p for p in game["players"] if p["kind"] == "bot"]
        assert (bot["bot_policy"], bot["name"]) == (level, f"Bot Amber ({level})")
