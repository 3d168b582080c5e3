"""Who may reach a game: every /games/{id} endpoint answers the same 401s and 404s (the caller,
the game and the caller's seat are read in one statement, server.games.lobby.caller_and_game)."""

from __future__ import annotations

import pytest

from tests.server.helpers import assert_error
from tests.server.play import create_started_game

# (method, path under /api/v1/games/{id}, a token is required)
ENDPOINTS = [
    ("GET", "", False),
    ("GET", "/view", False),
    ("GET", "/events", False),
    ("GET", "/export", False),
    ("GET", "/legal", True),
    ("POST", "/commands", True),
    ("POST", "/invitations", True),
    ("POST", "/leave", True),
    ("POST", "/start", True),
    ("POST", "/back", True),
]
BODIES = {"/commands": {"command": {"type": "end_turn"}, "expected_version": 1},
          "/invitations": {"email": "zoe@example.org"}}


def _call(client, method: str, path: str, headers: dict | None = None):
    game_path = path.split("/api/v1/games/", 1)[1]
    suffix = "/" + game_path.split("/", 1)[1] if "/" in game_path else ""
    return client.open(path, method=method, headers=headers or {}, json=BODIES.get(suffix))


@pytest.mark.parametrize(("method", "suffix", "required"), ENDPOINTS)
def test_tokens_and_visibility_on_every_game_endpoint(client, ada, bob, eve, method, suffix,
                                                      required):
    private = create_started_game(client, [ada, bob])["id"]
    public = create_started_game(client, [ada, bob], public=True)["id"]

    bad = {"Authorization": "Bearer not-a-token"}
    assert_error(_call(client, method, f"/api/v1/games/{private}{suffix}", bad), 401,
                 "not valid")
    assert_error(_call(client, method, f"/api/v1/games/nosuchgame{suffix}", bad), 401,
                 "not valid")
    malformed = {"Authorization": "Basic eDp5"}
    assert_error(_call(client, method, f"/api/v1/games/{private}{suffix}", malformed), 401,
                 "Authorization: Bearer")

    # A valid token that does not play in a private game, or an unknown game: 404 alike.
    for game_id in (private, "nosuchgame"):
        assert_error(_call(client, method, f"/api/v1/games/{game_id}{suffix}", eve.headers),
                     404, "you can see")

    anonymous = _call(client, method, f"/api/v1/games/{public}{suffix}")
    if required:
        assert_error(anonymous, 401, "Authorization: Bearer")
    else:
        assert_error(_call(client, method, f"/api/v1/games/{private}{suffix}"), 404,
                     "you can see")
        assert anonymous.status_code in (200, 409), anonymous.json  # export: 409, not over

    # A player of the game gets past the door (whatever the endpoint then says of the request).
    answer = _call(client, method, f"/api/v1/games/{private}{suffix}", ada.headers)
    assert answer.status_code not in (401, 404), (answer.status_code, answer.json)
