"""/games/join is the join route, never a game called "join"."""

from __future__ import annotations

import pytest

from tests.server.helpers import assert_error


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_other_methods_on_join_are_405_naming_post(client, ada, method):
    response = getattr(client, method)("/api/v1/games/join", headers=ada.headers)
    body = assert_error(response, 405, "allowed", "POST")
    assert "there is no game" not in body["message"]
    assert "POST" in response.headers["Allow"]


def test_a_game_path_under_join_is_not_a_game(client, ada):
    for path in ("/api/v1/games/join/view", "/api/v1/games/join/legal",
                 "/api/v1/games/join/events"):
        body = assert_error(client.get(path, headers=ada.headers), 404)
        assert "join" not in body["message"], path  # no "there is no game 'join'"


def test_post_join_still_joins_and_games_still_answer(client, ada, bob):
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    joined = client.post("/api/v1/games/join", json={"code": game["join_code"]},
                         headers=bob.headers)
    assert joined.status_code == 200 and joined.json["id"] == game["id"]
    assert client.get(f"/api/v1/games/{game['id']}", headers=bob.headers).status_code == 200
    # An id that merely starts with the word is a game id like any other.
    assert_error(client.get("/api/v1/games/joinery", headers=ada.headers), 404,
                 "there is no game 'joinery'")
