"""Pausing a game from its settings page and going on vacation from the account's settings: the
API's rules (server/vacations), with the page's sign-in and CSRF token."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.server.play import create_started_game
from tests.server.web.conftest import csrf_token, midnight, page_time, signed_in


def _post(browser, path: str, page: str, **fields):
    html = browser.get(page).get_data(as_text=True)
    return browser.post(path, data={"csrf_token": csrf_token(html), **fields})


def test_both_players_pause_from_the_page_and_one_resumes(app, client, ada, bob):
    game = create_started_game(client, [ada, bob])
    game_page = f"/games/{game['id']}"
    page = f"{game_page}/settings"
    at_ada, at_bob = signed_in(app, ada, page), signed_in(app, bob, page)
    assert f'href="{page}"' in at_ada.get(game_page).get_data(as_text=True)
    assert "Ask to pause the game" in at_ada.get(page).get_data(as_text=True)

    asked = _post(at_ada, f"{game_page}/pause", page)
    assert asked.status_code == 303 and asked.headers["Location"].endswith(page)
    html = at_ada.get(page).get_data(as_text=True)
    assert "Asks to pause the game." in at_ada.get(game_page).get_data(as_text=True)
    assert "Ask to pause the game" not in html
    assert "Withdraw the requests to pause" in html
    assert client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["paused"] is False

    _post(at_bob, f"{game_page}/pause", page)
    html = at_bob.get(page).get_data(as_text=True)
    assert "The game is paused" in html and "Resume the game" in html
    assert client.get(f"/api/v1/games/{game['id']}", headers=bob.headers).json["paused"] is True

    resumed = _post(at_bob, f"{game_page}/resume", page)
    assert resumed.status_code == 303
    html = at_bob.get(page).get_data(as_text=True)
    assert "The game is paused" not in html and "Ask to pause the game" in html
    assert client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["paused"] is False


def test_pausing_from_the_page_is_refused_clearly(app, client, ada, bob, register_eve):
    game = create_started_game(client, [ada, bob], public=True)
    page = f"/games/{game['id']}"
    watcher = signed_in(app, register_eve, page)
    html = watcher.get(page).get_data(as_text=True)
    assert "Ask to pause the game" not in html  # no button for a spectator
    refused = _post(watcher, f"{page}/pause", page)
    assert refused.status_code == 403
    assert f"you do not play in game {game['id']}" in refused.get_data(as_text=True)

    at_ada = signed_in(app, ada, page)
    nothing = _post(at_ada, f"{page}/resume", page)
    assert nothing.status_code == 409
    assert "is not paused and nobody asked to pause it" in nothing.get_data(as_text=True)
    forged = at_ada.post(f"{page}/pause", data={})  # another site's form: no CSRF token
    assert forged.status_code == 400
    assert client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json["paused"] is False


def test_a_vacation_from_the_settings_shows_on_the_game_and_ends_early(app, client, ada, bob):
    game = create_started_game(client, [ada, bob], public=True)
    at_bob = signed_in(app, bob)
    home = at_bob.get("/settings").get_data(as_text=True)
    assert "You are not away; 21 of 21 vacation days left" in home

    until = (datetime.now(UTC).date() + timedelta(days=3)).isoformat()
    went = _post(at_bob, "/vacation", "/settings", until=until)
    assert went.status_code == 303 and went.headers["Location"].endswith("/settings")
    home = at_bob.get("/settings").get_data(as_text=True)
    assert f"Away until {page_time(app, midnight(until))}: your turns wait for you" in home
    assert "I am back" in home
    assert f"Away until {page_time(app, midnight(until))}." in client.get(
        f"/games/{game['id']}").get_data(as_text=True)

    back = _post(at_bob, "/vacation/end", "/settings")
    assert back.status_code == 303
    home = at_bob.get("/settings").get_data(as_text=True)
    assert "You are not away" in home and "I am back" not in home
    assert client.get("/api/v1/users/me/vacation", headers=bob.headers).json["away_until"] is None


def test_a_vacation_form_with_a_bad_day_says_what_to_give(app, ada):
    at_ada = signed_in(app, ada)
    typo = _post(at_ada, "/vacation", "/settings", until="next friday")
    assert typo.status_code == 422
    assert "give the day you are back as YYYY-MM-DD" in typo.get_data(as_text=True)
    past = _post(at_ada, "/vacation", "/settings", until="2020-01-01")
    assert past.status_code == 422
    assert at_ada.get("/settings").get_data(as_text=True).count("You are not away") == 1
    anonymous = app.test_client()
    html = anonymous.get("/").get_data(as_text=True)
    assert "Go on vacation" not in html and anonymous.get("/settings").status_code == 401
    assert anonymous.post("/vacation", data={"csrf_token": csrf_token(html),
                                             "until": "2099-01-01"}).status_code == 401


def test_a_watcher_reloading_the_same_turn_sees_a_player_go_away_and_come_back(app, client, ada,
                                                                               bob):
    """The page's panels are drawn once a game version (server/web/game_page.py); going away
    moves no version, and still shows at once."""
    game = create_started_game(client, [ada, bob], public=True)
    page = f"/games/{game['id']}"
    assert "Away until" not in client.get(page).get_data(as_text=True)
    at_bob = signed_in(app, bob)
    until = (datetime.now(UTC).date() + timedelta(days=3)).isoformat()
    assert _post(at_bob, "/vacation", "/settings", until=until).status_code == 303
    assert f"Away until {page_time(app, midnight(until))}." in client.get(page).get_data(
        as_text=True)
    assert _post(at_bob, "/vacation/end", "/settings").status_code == 303
    assert "Away until" not in client.get(page).get_data(as_text=True)
