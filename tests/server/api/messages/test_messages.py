"""Table talk over the API (issue 21): post and list, the two channels and who may use them,
the length and rate limits, and what is made of control characters."""

from __future__ import annotations

import pytest

from server import create_app
from tests.server.helpers import assert_error
from tests.server.play import create_started_game


def say(client, player, game_id, text, **body):
    return client.post(f"/api/v1/games/{game_id}/messages", json={"text": text, **body},
                       headers=player.headers)


def listed(client, game_id, player=None, **query):
    response = client.get(f"/api/v1/games/{game_id}/messages", query_string=query,
                          headers=player.headers if player else {})
    assert response.status_code == 200, response.json
    return response.json


def test_players_talk_and_read_both_channels_spectators_only_theirs(client, ada, bob, eve):
    game = create_started_game(client, [ada, bob], public=True)
    posted = say(client, ada, game["id"], "Good luck, Bob!")
    assert posted.status_code == 201, posted.json
    assert posted.json["channel"] == "players" and posted.json["name"] == "ada"
    assert posted.json["player"] is True and posted.json["seat"] in (0, 1)
    watching = say(client, eve, game["id"], "Go Ada")  # not a player: the spectators' channel
    assert watching.status_code == 201 and watching.json["channel"] == "spectators"
    assert watching.json["player"] is False and watching.json["seat"] is None

    bobs = listed(client, game["id"], bob)
    assert bobs["channels"] == ["players", "spectators"]
    assert [(m["channel"], m["name"], m["text"]) for m in bobs["messages"]] == [
        ("players", "ada", "Good luck, Bob!"), ("spectators", "eve", "Go Ada")]
    for reader in (eve, None):  # a spectator, and anyone without a token on a public game
        theirs = listed(client, game["id"], reader)
        assert theirs["channels"] == ["spectators"]
        assert [m["text"] for m in theirs["messages"]] == ["Go Ada"]
    assert_error(client.get(f"/api/v1/games/{game['id']}/messages?channel=players",
                            headers=eve.headers), 403, "players")
    assert_error(say(client, eve, game["id"], "let me in", channel="players"), 403,
                 "only the players of game", "spectators' channel")
    # A player may talk to the watchers too.
    assert say(client, bob, game["id"], "hello watchers", channel="spectators").status_code == 201
    assert [m["text"] for m in listed(client, game["id"], eve)["messages"]] == [
        "Go Ada", "hello watchers"]


def test_since_and_limit(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    ids = [say(client, ada if i % 2 else bob, game["id"], f"message {i}").json["id"]
           for i in range(4)]
    newest = listed(client, game["id"], ada, limit=2)
    assert [m["text"] for m in newest["messages"]] == ["message 2", "message 3"]
    assert newest["last_id"] == ids[3]
    after = listed(client, game["id"], bob, since=ids[0], limit=2)
    assert [m["text"] for m in after["messages"]] == ["message 1", "message 2"]
    assert listed(client, game["id"], bob, since=ids[3]) == {
        "game_id": game["id"], "channels": ["players", "spectators"], "messages": [],
        "last_id": ids[3]}
    assert_error(client.get(f"/api/v1/games/{game['id']}/messages?limit=0",
                            headers=ada.headers), 422, "limit")


def test_a_private_game_is_404_to_outsiders_and_has_no_spectators(client, ada, bob, eve):
    game = create_started_game(client, [ada, bob])
    for response in (say(client, eve, game["id"], "hi"),
                     client.get(f"/api/v1/games/{game['id']}/messages", headers=eve.headers),
                     client.get(f"/api/v1/games/{game['id']}/messages")):
        assert_error(response, 404, f"there is no game {game['id']!r} you can see")
    assert_error(say(client, ada, game["id"], "hi", channel="spectators"), 422,
                 "private", "no spectators' channel")
    assert_error(client.post(f"/api/v1/games/{game['id']}/messages", json={"text": "x"}), 401)


def test_length_and_control_characters(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    assert say(client, ada, game["id"], "x" * 1000).status_code == 201
    assert_error(say(client, ada, game["id"], "x" * 1001), 422,
                 "a message has at most 1,000 characters; yours has 1,001")
    assert_error(say(client, ada, game["id"], " \n\t "), 422, "the message is empty")
    hostile = say(client, ada, game["id"], "line one\r\nline two\x1b]0;pwned\x07\x1b[2J\u202e!")
    assert hostile.status_code == 201
    assert hostile.json["text"] == "line one line two]0;pwned[2J!"
    assert_error(client.post(f"/api/v1/games/{game['id']}/messages", json={"channel": "x"},
                             headers=ada.headers), 422, "text")


@pytest.fixture
def limited_client(database_url):
    app = create_app({"DATABASE_URL": database_url, "TESTING": True,
                      "MESSAGES_PER_GAME_MINUTE": 3, "MESSAGES_PER_GAME_HOUR": 100,
                      "ACCOUNT_REQUESTS_PER_HOUR": 100_000})
    return app.test_client()


def test_the_rate_limit_is_per_user_and_game(limited_client, register):
    client = limited_client
    ada, bob = (register(n) for n in ("ada", "bob"))
    game = create_started_game(client, [ada, bob])
    other = create_started_game(client, [ada, bob])
    for i in range(3):
        assert say(client, ada, game["id"], f"{i}").status_code == 201
    refused = say(client, ada, game["id"], "one too many")
    body = assert_error(refused, 429, f"you have posted 3 messages in game {game['id']} in the "
                                      "past minute, the most allowed: wait")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert body["details"]["retry_after"] == int(refused.headers["Retry-After"])
    assert say(client, bob, game["id"], "my turn to talk").status_code == 201
    assert say(client, ada, other["id"], "another game").status_code == 201
    assert [m["text"] for m in listed(client, game["id"], bob)["messages"]] == [
        "0", "1", "2", "my turn to talk"]
