"""A command posted as a notation line plays exactly as its JSON form; a line that does not
parse is a 422 that quotes it."""

from __future__ import annotations

import pytest

import engine
from engine.text import notation
from tests.server.helpers import assert_error
from tests.server.play import create_started_game, seat_map


@pytest.fixture
def game(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    return game["id"], seat_map(client, game["id"], [ada, bob])


def post(client, game_id, player, body):
    return client.post(f"/api/v1/games/{game_id}/commands", json=body, headers=player.headers)


def test_a_turn_played_as_lines_plays_the_listed_commands(client, game):
    game_id, seats = game
    mover = seats[0]
    for _ in range(3):  # reveal, move, then whatever comes next
        legal = client.get(f"/api/v1/games/{game_id}/legal", headers=mover.headers).json
        command = engine.command_from_dict(legal["commands"][-1])
        line = notation.format(command)
        response = post(client, game_id, mover, {"notation": line,
                                                 "expected_version": legal["version"]})
        assert response.status_code == 201, response.json
        feed = client.get(f"/api/v1/games/{game_id}/events?after={legal['version']}",
                          headers=mover.headers).json
        assert feed["events"] == response.json["events"]
        if not response.json["legal"]:
            break


def test_a_line_that_does_not_parse_is_a_422_quoting_it(client, game):
    game_id, seats = game
    version = client.get(f"/api/v1/games/{game_id}", headers=seats[0].headers).json["version"]
    response = post(client, game_id, seats[0], {"notation": "fly 4b", "expected_version": version})
    body = assert_error(response, 422, "'fly 4b': unknown command 'fly'; the commands are reveal, "
                                       "move, relocate")
    assert body["details"] == {"notation": "fly 4b"}
    after = client.get(f"/api/v1/games/{game_id}", headers=seats[0].headers).json["version"]
    assert after == version


def test_a_legal_line_out_of_turn_gets_the_engines_reason(client, game):
    game_id, seats = game
    version = client.get(f"/api/v1/games/{game_id}", headers=seats[1].headers).json["version"]
    response = post(client, game_id, seats[1], {"notation": "end", "expected_version": version})
    assert_error(response, 422, "turn")


@pytest.mark.parametrize("body,fragment", [
    ({"notation": "end", "command": {"type": "end_turn"}}, "not both"),
    ({"expected_version": 1}, "either as `command`"),
    ({"notation": "", "expected_version": 1}, "notation"),
])
def test_a_body_gives_one_command(client, game, body, fragment):
    game_id, seats = game
    response = post(client, game_id, seats[0], body)
    assert_error(response, 422)
    assert fragment in str(response.json["details"]) + response.json["message"]


def test_a_line_that_does_not_parse_is_refused_in_the_callers_language(client, game):
    """Accept-Language: ja (no language chosen yet): the notation's reason in Japanese, the line
    and the command words as typed."""
    game_id, seats = game
    version = client.get(f"/api/v1/games/{game_id}", headers=seats[0].headers).json["version"]
    response = client.post(f"/api/v1/games/{game_id}/commands",
                           json={"notation": "move 9z", "expected_version": version},
                           headers={**seats[0].headers, "Accept-Language": "ja"})
    assert_error(response, 422, "'move 9z': '9z' はマスの名前ではありません（'3b' のように、1〜9の"
                                "行と英字1つ）（書き方：move HEX）")
    response = client.post(f"/api/v1/games/{game_id}/commands",
                           json={"notation": "fly 4b", "expected_version": version},
                           headers={**seats[0].headers, "Accept-Language": "ja"})
    assert_error(response, 422, "'fly 4b': 「fly」というコマンドはありません。コマンドは reveal、"
                                "move、relocate、")
    response = post(client, game_id, seats[0], {"notation": "move 9z", "expected_version": version})
    assert_error(response, 422, "'move 9z': '9z' is not a hex name (expected a row 1-9 and a "
                                "letter, like '3b') (write: move HEX)")
