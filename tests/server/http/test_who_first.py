"""Issue 32, an integrator's view: the token is checked before the body (no token and a bad
body: 401 with WWW-Authenticate, not 422), and a game that does not exist is looked up before
the body is read (404, not 422)."""

from __future__ import annotations


def test_no_token_and_a_bad_body_is_401_with_www_authenticate(client, ada):
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    for path, body in ((f"/api/v1/games/{game['id']}/commands", {"command": 7}),
                       ("/api/v1/games", {"seats": "many"}),
                       (f"/api/v1/games/{game['id']}/messages", {"text": None})):
        answer = client.post(path, json=body)
        assert answer.status_code == 401, (path, answer.json)
        assert answer.headers["WWW-Authenticate"] == "Bearer"
        assert answer.json["code"] == 401


def test_a_game_that_does_not_exist_is_404_before_its_body(client, ada):
    answer = client.post("/api/v1/games/nosuch00/commands", json={"command": 7},
                         headers=ada.headers)
    assert answer.status_code == 404
    assert answer.json["message"] == "there is no game 'nosuch00' you can see"


def test_a_good_request_is_answered_as_before(client, ada):
    created = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers)
    assert created.status_code == 201
    assert client.get(f"/api/v1/games/{created.json['id']}").status_code in (200, 404)
    bad = client.post("/api/v1/games", json={"seats": "many"}, headers=ada.headers)
    assert bad.status_code == 422
