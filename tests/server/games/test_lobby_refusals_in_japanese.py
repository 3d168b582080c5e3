"""The lobby's refusals (server/games/lobby.py) in the reader's language (issue 30): the API
says them in the language the calling player chose, else the one its Accept-Language asks for;
a page in the page's language. English for everyone else, as before."""

from __future__ import annotations

from tests.server.helpers import assert_error
from tests.server.web.conftest import csrf_token, signed_in


def _choose(client, player, language: str) -> None:
    answer = client.patch("/api/v1/users/me/preferences", json={"language": language},
                          headers=player.headers)
    assert answer.status_code == 200, answer.json


def test_there_is_no_game_in_each_callers_language(client, ada, bob):
    _choose(client, ada, "ja")
    body = assert_error(client.get("/api/v1/games/nosuchgm", headers=ada.headers), 404)
    assert body["message"] == "あなたが見られるゲーム「nosuchgm」はありません"
    assert body["details"] == {"game_id": "nosuchgm"}
    body = assert_error(client.get("/api/v1/games/nosuchgm", headers=bob.headers), 404)
    assert body["message"] == "there is no game 'nosuchgm' you can see"
    # Said in a language the caller asked for: a cache must not answer another caller with it.
    for player, language in ((ada, "ja"), (bob, "en")):
        answer = client.get("/api/v1/games/nosuchgm", headers=player.headers)
        assert answer.headers["Content-Language"] == language
        assert "Accept-Language" in answer.headers["Vary"]
    # No choice made: the request's Accept-Language, as GET /rules reads it.
    body = assert_error(client.get("/api/v1/games/nosuchgm", headers={
        **bob.headers, "Accept-Language": "ja"}), 404)
    assert body["message"] == "あなたが見られるゲーム「nosuchgm」はありません"
    # A choice beats the header.
    body = assert_error(client.get("/api/v1/games/nosuchgm", headers={
        **ada.headers, "Accept-Language": "en"}), 404)
    assert body["message"] == "あなたが見られるゲーム「nosuchgm」はありません"


def test_a_refused_join_in_each_callers_language(client, ada, bob, eve):
    _choose(client, eve, "ja")
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    code, game_id = game["join_code"], game["id"]
    assert client.post("/api/v1/games/join", json={"code": code},
                       headers=bob.headers).status_code == 200
    full = assert_error(client.post("/api/v1/games/join", json={"code": code},
                                    headers=eve.headers), 409)
    assert full["message"] == f"ゲーム{game_id}は満席です（2席）"
    again = assert_error(client.post("/api/v1/games/join", json={"code": code},
                                     headers=bob.headers), 409)
    assert again["message"] == f"you already play in game {game_id}"
    unknown = assert_error(client.post("/api/v1/games/join", json={"code": "nosuchcode"},
                                       headers=eve.headers), 404)
    assert unknown["message"] == ("参加コード「nosuchcode」のゲームはありません。招待してくれた人に"
                                  "確かめてください")
    assert client.post(f"/api/v1/games/{game_id}/start", headers=ada.headers).status_code == 200
    started = assert_error(client.post(f"/api/v1/games/{game_id}/leave", headers=bob.headers),
                           409)
    assert started["message"] == (f"game {game_id} has already started: you can only leave "
                                  "before the start")


def test_a_refused_join_on_the_page_in_the_pages_language(app, client, ada, bob, eve):
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob.headers)
    _choose(client, eve, "ja")
    browser = signed_in(app, eve)
    token = csrf_token(browser.get("/").get_data(as_text=True))
    answer = browser.post("/join", data={"code": game["join_code"], "csrf_token": token})
    assert answer.status_code == 409
    assert f"ゲーム{game['id']}は満席です（2席）" in answer.get_data(as_text=True)
    _choose(client, eve, "en")
    answer = browser.post("/join", data={"code": game["join_code"], "csrf_token": token})
    assert f"game {game['id']} is full (2 seats)" in answer.get_data(as_text=True)
