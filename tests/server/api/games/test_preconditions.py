"""Which version a command is played against: If-Match first (RFC 9110), expected_version,
one of them required. A failed precondition is never applied."""

from __future__ import annotations

import pytest

from tests.server.helpers import assert_error
from tests.server.play import create_started_game, seat_map


@pytest.fixture
def game(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    return game["id"], seat_map(client, game["id"], [ada, bob])


def _turn(client, game_id, seats):
    mover = seats[0]
    legal = client.get(f"/api/v1/games/{game_id}/legal", headers=mover.headers).json
    return mover, legal


def _version(client, game_id, player) -> int:
    return client.get(f"/api/v1/games/{game_id}", headers=player.headers).json["version"]


def _post(client, game_id, player, body, **headers):
    return client.post(f"/api/v1/games/{game_id}/commands", json=body,
                       headers={**player.headers, **headers})


def test_a_stale_if_match_beside_a_current_expected_version_is_412_and_not_applied(client,
                                                                                    game):
    game_id, seats = game
    mover, legal = _turn(client, game_id, seats)
    stale = legal["version"] - 1
    response = _post(client, game_id, mover,
                     {"command": legal["commands"][0], "expected_version": legal["version"]},
                     **{"If-Match": f'"{stale}"'})
    body = assert_error(response, 412, f"If-Match said {stale}", "nothing was played")
    assert body["details"]["current_version"] == legal["version"]
    assert _version(client, game_id, mover) == legal["version"]


def test_a_current_if_match_beside_a_stale_expected_version_is_409(client, game):
    game_id, seats = game
    mover, legal = _turn(client, game_id, seats)
    response = _post(client, game_id, mover,
                     {"command": legal["commands"][0], "expected_version": legal["version"] - 1},
                     **{"If-Match": f'"{legal["version"]}"'})
    assert_error(response, 409, f"you sent {legal['version'] - 1}")
    assert _version(client, game_id, mover) == legal["version"]


def test_both_current_is_applied(client, game):
    game_id, seats = game
    mover, legal = _turn(client, game_id, seats)
    response = _post(client, game_id, mover,
                     {"command": legal["commands"][0], "expected_version": legal["version"]},
                     **{"If-Match": f'"{legal["version"]}"'})
    assert response.status_code == 201, response.json


def test_an_if_match_list_naming_the_current_version_is_applied(client, game):
    game_id, seats = game
    mover, legal = _turn(client, game_id, seats)
    response = _post(client, game_id, mover, {"command": legal["commands"][0]},
                     **{"If-Match": f'"{legal["version"] - 1}", "{legal["version"]}"'})
    assert response.status_code == 201, response.json


def test_a_weak_if_match_matches_no_version(client, game):
    """If-Match compares strongly (RFC 9110 13.1.1): W/"12" is not version 12."""
    game_id, seats = game
    mover, legal = _turn(client, game_id, seats)
    response = _post(client, game_id, mover, {"command": legal["commands"][0]},
                     **{"If-Match": f'W/"{legal["version"]}"'})
    assert_error(response, 412, f"If-Match said W/{legal['version']}")
    assert _version(client, game_id, mover) == legal["version"]


@pytest.mark.parametrize("header", ["*", "12", '"twelve"', '"1', ""])
def test_an_if_match_that_names_no_version_is_422(client, game, header):
    game_id, seats = game
    mover, legal = _turn(client, game_id, seats)
    response = _post(client, game_id, mover, {"command": legal["commands"][0]},
                     **{"If-Match": header})
    assert_error(response, 422, "If-Match must be a game version in quotes")
    assert _version(client, game_id, mover) == legal["version"]


def test_neither_is_428_and_the_spec_says_so(client, game):
    game_id, seats = game
    mover, legal = _turn(client, game_id, seats)
    assert_error(_post(client, game_id, mover, {"command": legal["commands"][0]}), 428,
                 "'expected_version' in the body or an If-Match header")
    operation = client.get("/openapi.json").json["paths"][
        "/api/v1/games/{game_id}/commands"]["post"]
    assert "428" in operation["responses"]
    if_match = next(p for p in operation["parameters"] if p["name"] == "If-Match")
    assert "neither: 428" in if_match["description"]
    assert "nothing is played (412)" in if_match["description"]
