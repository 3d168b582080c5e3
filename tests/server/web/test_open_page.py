"""The /open page (server/web/community_pages.py): the public games waiting for players, a join
button on each, the seek form and the player's seeks."""

from __future__ import annotations

from tests.server.web.conftest import csrf_token, signed_in


def test_a_signed_in_player_joins_an_open_game_from_the_list(app, client, ada, bob):
    game = client.post("/api/v1/games", json={"seats": 2, "public": True, "pace": "1d"},
                       headers=ada.headers).json
    client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers)  # private

    anonymous = client.get("/open").get_data(as_text=True)
    assert f'<a href="/games/{game["id"]}">{game["id"]}</a>' in anonymous
    assert game["join_code"] not in anonymous  # the code is for the signed-in
    assert anonymous.count("<li><a href=\"/games/") == 1  # the one public game

    browser = signed_in(app, bob)
    page = browser.get("/open?seats=2&pace=1d").get_data(as_text=True)
    assert f'<input type="hidden" name="code" value="{game["join_code"]}">' in page
    assert "No public game waits for players with these choices" in browser.get(
        "/open?pace=7d").get_data(as_text=True)
    joined = browser.post("/join", data={"csrf_token": csrf_token(page),
                                         "code": game["join_code"], "word": "kesora"})
    assert joined.status_code == 303 and joined.headers["Location"] == f"/games/{game['id']}"
    assert "No public game waits for players" in browser.get("/open").get_data(as_text=True)


def test_two_seeks_from_the_page_make_a_game(app, ada, bob):
    first = signed_in(app, ada)
    page = first.get("/open").get_data(as_text=True)
    waiting = first.post("/seeks", data={"csrf_token": csrf_token(page), "seats": "2",
                                         "pace": "7d", "word": "tolami"})
    assert waiting.status_code == 303 and waiting.headers["Location"] == "/open"
    assert "2 players, a week per turn: waiting (1 seeking this)" in first.get("/open").get_data(
        as_text=True)

    second = signed_in(app, bob)
    page = second.get("/open").get_data(as_text=True)
    made = second.post("/seeks", data={"csrf_token": csrf_token(page), "seats": "2",
                                       "pace": "7d"})
    assert made.status_code == 303 and made.headers["Location"].startswith("/games/")
    game_id = made.headers["Location"].rsplit("/", 1)[1]
    assert f'made <a href="/games/{game_id}">game {game_id}</a>' in first.get("/open").get_data(
        as_text=True)


def test_bad_filters_and_seeks_are_clear_400s(app, client, ada):
    refused = client.get("/open?seats=9", headers={"Accept": "text/html"})  # as a browser asks
    assert refused.status_code == 400
    assert "?seats= takes one of 2, 3, 4, not &#39;9&#39;" in refused.get_data(as_text=True)
    browser = signed_in(app, ada)
    page = browser.get("/open").get_data(as_text=True)
    refused = browser.post("/seeks", data={"csrf_token": csrf_token(page), "seats": "1"},
                           headers={"Accept": "text/html"})
    assert refused.status_code == 400
    assert "choose 2, 3 or 4 players" in refused.get_data(as_text=True)
