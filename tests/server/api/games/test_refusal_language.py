"""A command the rules refuse is answered in the caller's language (issue 30), as the core's
other API messages are: the one the player chose, else the one the request's Accept-Language asks
for (the command line sends its LANG's), else English; the engine's names (gems) in the same
words."""

from __future__ import annotations

import engine
from engine.errors import Name
from server import i18n
from server.games import lobby
from tests.server.helpers import assert_error

END_TURN_JA = "手番を終える前に、探検家をタイルに移動してください"
END_TURN_EN = "move your explorer onto a tile before ending your turn"


def _version(client, game_id, player) -> int:
    return client.get(f"/api/v1/games/{game_id}/legal", headers=player.headers).json["version"]


def _refused(client, game_id, player, command, **headers) -> str:
    response = client.post(f"/api/v1/games/{game_id}/commands",
                           json={"command": command,
                                 "expected_version": _version(client, game_id, player)},
                           headers={**player.headers, **headers})
    return assert_error(response, 422)["message"]


def _choose(client, player, language):
    response = client.patch("/api/v1/users/me/preferences", json={"language": language},
                            headers=player.headers)
    assert response.status_code == 200, response.json


def test_a_refusal_is_in_the_language_accept_language_asks_for(client, game):
    game_id, seats = game
    assert _refused(client, game_id, seats[0], {"type": "end_turn"},
                    **{"Accept-Language": "ja,en;q=0.5"}) == END_TURN_JA
    assert _refused(client, game_id, seats[0], {"type": "end_turn"},
                    **{"Accept-Language": "en"}) == END_TURN_EN
    assert _refused(client, game_id, seats[0], {"type": "end_turn"}) == END_TURN_EN


def test_a_refusal_is_in_the_language_the_player_chose_before_the_requests(client, game):
    game_id, seats = game
    _choose(client, seats[0], "ja")
    assert _refused(client, game_id, seats[0], {"type": "end_turn"}) == END_TURN_JA
    assert _refused(client, game_id, seats[0], {"type": "end_turn"},
                    **{"Accept-Language": "en"}) == END_TURN_JA
    _choose(client, seats[0], "en")
    assert _refused(client, game_id, seats[0], {"type": "end_turn"},
                    **{"Accept-Language": "ja"}) == END_TURN_EN


def test_a_command_that_is_no_command_is_refused_with_the_gems_named_in_japanese(client, game):
    game_id, seats = game
    sell = {"type": "sell", "gem": "ruby", "count": 1}
    assert _refused(client, game_id, seats[0], sell, **{"Accept-Language": "ja"}) == (
        "gem はアメジスト、シトリン、エメラルド、サファイアのいずれかです（受け取ったもの：'ruby'）")
    assert _refused(client, game_id, seats[0], sell) == (
        "gem must be one of amethyst, citrine, emerald, sapphire, got 'ruby'")


def test_a_refusal_names_the_players_never_their_seat_numbers(client, game):
    game_id, seats = game
    first, second = seats[0].name, seats[1].name
    assert _refused(client, game_id, seats[1], {"type": "end_turn"}) == (
        f"it is {first}'s turn, not {second}'s")
    assert _refused(client, game_id, seats[1], {"type": "end_turn"},
                    **{"Accept-Language": "ja"}) == f"今は{first}の手番です（{second}の手番ではありません）"


def test_a_game_the_engine_will_not_start_is_refused_in_the_callers_language(client, ada, bob,
                                                                             monkeypatch):
    """"the game cannot start: {error}" (server/games/lobby.py): the engine's refusal inside it
    is said in the caller's language too, its names in the same words."""
    refusal = engine.IllegalCommand("you do not have the {item}", item=Name("Jolty Jackhammer"))

    def refused(*_args, **_kwargs):
        raise refusal

    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob.headers)
    monkeypatch.setattr(lobby.service, "apply_command", refused)
    start = f"/api/v1/games/{game['id']}/start"
    japanese = client.post(start, headers={**ada.headers, "Accept-Language": "ja"})
    assert assert_error(japanese, 422)["message"] == "ゲームを始められません：" + (
        refusal.translated(i18n.engine_catalog("ja")))
    assert "ガタガタ削岩機" in japanese.json["message"]
    english = client.post(start, headers=ada.headers)
    assert assert_error(english, 422)["message"] == (
        "the game cannot start: you do not have the Jolty Jackhammer")
