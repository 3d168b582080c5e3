"""The rules the server enforces across a body's fields are in the spec too (issue 32): what
the spec refuses the server refuses (422), and what it accepts the server accepts."""

from __future__ import annotations

import pytest

import engine
from tests.server.helpers import assert_error
from tests.server.play import create_started_game, seat_map
from tests.server.spec_validation import assert_valid, spec


def fits(body: dict, component: str) -> bool:
    try:
        assert_valid(body, component)
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize("body,refused", [
    ({"seats": 2, "pace": "3d", "turn_deadline_hours": 48}, "not both"),
    ({"seats": 2, "rules_version": "9"}, "rules version '9'"),
])
def test_game_rules_the_spec_states(client, ada, body, refused):
    assert not fits(body, "GameCreate")
    assert_error(client.post("/api/v1/games", json=body, headers=ada.headers), 422, refused)


@pytest.mark.parametrize("body", [{"seats": 2, "pace": "7d"}, {"seats": 2, "turn_deadline_hours": 5},
                                  {"seats": 2, "rules_version": "1"}])
def test_what_the_spec_accepts_the_server_creates(client, ada, body):
    assert fits(body, "GameCreate")
    assert client.post("/api/v1/games", json=body, headers=ada.headers).status_code == 201


@pytest.mark.parametrize("name,refused", [("   ", "blank"), ("A\x1bb", "control characters"),
                                          ("Ada\u202e", "control characters")])
def test_the_name_rule_is_in_the_spec(client, name, refused):
    body = {"name": name, "email": "someone@example.org"}
    assert not fits(body, "UserCreate")
    assert_error(client.post("/api/v1/users", json=body), 422, refused)
    assert fits({**body, "name": " Ada Lovelace "}, "UserCreate")
    assert fits({**body, "name": "エイダ"}, "UserCreate")


def test_a_command_is_given_one_way(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    seats = seat_map(client, game["id"], [ada, bob])
    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=seats[0].headers).json
    command = legal["commands"][0]
    both = {"command": command, "notation": "end", "expected_version": legal["version"]}
    neither = {"expected_version": legal["version"]}
    for body in (both, neither):
        assert not fits(body, "CommandRequest")
        assert_error(client.post(f"/api/v1/games/{game['id']}/commands", json=body,
                                 headers=seats[0].headers), 422, "either as `command`")
    assert fits({"command": command, "expected_version": 3}, "CommandRequest")
    assert fits({"notation": "end"}, "CommandRequest")  # the version by If-Match


def test_the_version_rule_is_said_where_it_cannot_be_a_schema():
    request = spec()["components"]["schemas"]["CommandRequest"]
    assert "If-Match" in request["description"] and "428" in request["description"]
    rules_version = spec()["components"]["schemas"]["GameCreate"]["properties"]["rules_version"]
    assert rules_version["enum"] == list(engine.SUPPORTED_VERSIONS)
