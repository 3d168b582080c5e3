"""ETag and If-None-Match on the game, the legal commands and the feed (the view has its own,
the version), and what caches are told: every answer that depends on the caller varies with
Authorization and is private."""

from __future__ import annotations

import threading
import time

import pytest
import requests

from server import create_app
from tests.accounts import sign_up
from tests.server.front import served_front
from tests.server.helpers import Player
from tests.server.play import create_started_game, seat_map


@pytest.fixture
def game(client, ada, bob):
    game = create_started_game(client, [ada, bob], public=True)
    return game["id"], seat_map(client, game["id"], [ada, bob])


def _play_first_legal(client, game_id, player):
    legal = client.get(f"/api/v1/games/{game_id}/legal", headers=player.headers).json
    response = client.post(f"/api/v1/games/{game_id}/commands",
                           json={"command": legal["commands"][0],
                                 "expected_version": legal["version"]}, headers=player.headers)
    assert response.status_code == 201, response.json


@pytest.mark.parametrize("resource", ["", "/legal", "/events"])
def test_an_unchanged_resource_is_304_and_a_changed_one_200(client, game, resource):
    game_id, seats = game
    url = f"/api/v1/games/{game_id}{resource}"
    first = client.get(url, headers=seats[0].headers)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and etag.endswith('"')
    unchanged = client.get(url, headers={**seats[0].headers, "If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert unchanged.headers["ETag"] == etag
    other = client.get(url, headers={**seats[0].headers, "If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.json == first.json

    _play_first_legal(client, game_id, seats[0])
    changed = client.get(url, headers={**seats[0].headers, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.json != first.json


def test_the_game_names_each_callers_answer_apart(client, game, eve):
    """A player sees the join code, a spectator does not: two answers, two ETags."""
    game_id, seats = game
    player = client.get(f"/api/v1/games/{game_id}", headers=seats[0].headers)
    spectator = client.get(f"/api/v1/games/{game_id}", headers=eve.headers)
    assert player.json["join_code"] and spectator.json["join_code"] is None
    assert player.headers["ETag"] != spectator.headers["ETag"]
    asked = client.get(f"/api/v1/games/{game_id}",
                       headers={**eve.headers, "If-None-Match": player.headers["ETag"]})
    assert asked.status_code == 200 and asked.json["join_code"] is None


def test_the_spec_documents_etag_and_304_on_each_read(client):
    paths = client.get("/openapi.json").json["paths"]
    for path in ("/api/v1/games/{game_id}", "/api/v1/games/{game_id}/legal",
                 "/api/v1/games/{game_id}/events", "/api/v1/games/{game_id}/view"):
        operation = paths[path]["get"]
        assert "ETag" in operation["responses"]["200"]["headers"], path
        assert "304" in operation["responses"], path
        assert "If-None-Match" in {p["name"] for p in operation["parameters"]}, path


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/games/{game}",
                                  "/api/v1/games/{game}/view", "/api/v1/games/{game}/legal",
                                  "/api/v1/games/{game}/events", "/api/v1/users/me",
                                  "/api/v1/games/nosuchgame"])
def test_caller_dependent_answers_vary_with_authorization_and_are_private(client, game, path):
    game_id, seats = game
    response = client.get(path.format(game=game_id), headers=seats[0].headers)
    assert "Authorization" in response.headers["Vary"]
    assert response.headers["Cache-Control"] == "private, no-cache"


def test_a_304_is_private_too(client, game):
    game_id, seats = game
    url = f"/api/v1/games/{game_id}/legal"
    etag = client.get(url, headers=seats[0].headers).headers["ETag"]
    unchanged = client.get(url, headers={**seats[0].headers, "If-None-Match": etag})
    assert unchanged.status_code == 304
    assert "Authorization" in unchanged.headers["Vary"]
    assert unchanged.headers["Cache-Control"] == "private, no-cache"


def test_the_health_check_is_the_same_for_everyone(client):
    response = client.get("/api/v1/health")
    assert "Vary" not in response.headers and "Cache-Control" not in response.headers


@pytest.fixture
def front_app(database_url):
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "RATE_LIMIT": 0,
                       "ACCOUNT_REQUESTS_PER_HOUR": 100_000})


def test_a_long_poll_with_if_none_match_waits_before_its_304(front_app):
    """A browser revalidates its cached feed with If-None-Match: the front still waits for a new
    event, and answers 304 only when the wait is over without one."""
    client = front_app.test_client()
    players = []
    for name in ("ada", "bob"):
        body = sign_up(client, name, f"{name}@example.org")
        players.append(Player(body["id"], body["name"], body["email"], body["token"]))
    game = create_started_game(client, players)
    seats = seat_map(client, game["id"], players)
    version = game["version"]
    with served_front(front_app) as base:
        url = f"{base}/api/v1/games/{game['id']}/events"
        headers = {"Authorization": f"Bearer {seats[0].token}"}
        empty = requests.get(url, params={"after": version}, headers=headers, timeout=10)
        etag = empty.headers["ETag"]
        assert empty.json()["events"] == []

        started = time.monotonic()
        waited = requests.get(url, params={"after": version, "wait": 1.5},
                              headers={**headers, "If-None-Match": etag}, timeout=10)
        assert waited.status_code == 304 and waited.content == b""
        assert time.monotonic() - started >= 1.4
        assert waited.headers["ETag"] == etag

        answers = []
        thread = threading.Thread(target=lambda: answers.append(requests.get(
            url, params={"after": version, "wait": 20},
            headers={**headers, "If-None-Match": etag}, timeout=30)))
        thread.start()
        time.sleep(0.5)
        started = time.monotonic()
        _play_first_legal(client, game["id"], seats[0])
        thread.join(timeout=30)
        (answer,) = answers
        assert answer.status_code == 200 and answer.json()["events"]
        assert time.monotonic() - started < 10
