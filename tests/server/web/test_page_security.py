"""What the pages refuse: forms without their CSRF token, links that are tampered with, expired
or older than a token rotation, a session after the rotation, acting for another seat; and what
they escape: every name, everywhere."""

from __future__ import annotations

import json

import pytest

from server import create_app
from tests.accounts import mailed_code
from tests.server.play import create_started_game
from tests.server.web.conftest import (
    csrf_token,
    follow,
    forms,
    link_for,
    register,
    signed_in,
    whose_turn,
)


def _version(client, game, _player=None) -> int:
    return client.get(f"/api/v1/games/{game['id']}").json["version"]  # a public game


def test_a_form_posted_without_its_csrf_token_is_refused_and_plays_nothing(app, client, game,
                                                                          ada, bob):
    first, _ = whose_turn(client, game["id"], [ada, bob])
    browser = signed_in(app, first)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    _words, command, version = forms(html)[0]
    for token in (None, "forged-token"):
        data = {"command": command, "expected_version": version}
        if token:
            data["csrf_token"] = token
        refused = browser.post(f"/games/{game['id']}/play", data=data)
        assert refused.status_code == 400
        assert "reload the page" in refused.get_data(as_text=True)
    # Another browser's token is no good either: it belongs to another session.
    other = signed_in(app, first).get("/").get_data(as_text=True)
    refused = browser.post(f"/games/{game['id']}/play", data={
        "csrf_token": csrf_token(other), "command": command, "expected_version": version})
    assert refused.status_code == 400
    assert _version(client, game, ada) == int(version)


def test_a_tampered_link_is_refused(app, ada):
    link = link_for(app, ada)
    payload, stamp, signature = link.removeprefix("/sign-in/").split(".")
    changed = signature[:-2] + ("AA" if signature[-2:] != "AA" else "BB")
    browser = app.test_client()
    for bad in (f"/sign-in/{payload}.{stamp}.{changed}", link[:-5], "/sign-in/nonsense"):
        answer = browser.get(bad)
        assert answer.status_code == 403, bad
        assert "not valid" in answer.get_data(as_text=True)
    assert "Signed in as" not in browser.get("/").get_data(as_text=True)


def test_an_expired_link_is_refused(app, ada, monkeypatch):
    from datetime import UTC, datetime, timedelta

    from server.http.auth import hash_token
    from server.users.sign_in import magic_link

    hours = app.config["MAGIC_LINK_HOURS"]
    with app.app_context():
        old = magic_link(ada.id, hash_token(ada.token), "/",
                         issued_at=datetime.now(UTC) - timedelta(hours=hours, seconds=60))
    old = old.removeprefix(app.config["BASE_URL"])
    answer = app.test_client().get(old)
    assert answer.status_code == 403
    assert f"more than {hours} hours old" in answer.get_data(as_text=True)
    assert follow(app.test_client(), link_for(app, ada)).status_code == 303  # a fresh one works


def test_rotating_the_token_ends_the_session_and_the_links_already_sent(app, client, game, ada,
                                                                       bob):
    first, _ = whose_turn(client, game["id"], [ada, bob])
    browser = signed_in(app, first)
    old_link = link_for(app, first)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "It is your turn." in html and forms(html)
    _words, command, version = forms(html)[0]
    rotated = client.post("/api/v1/users/me/token", headers=first.headers)
    assert rotated.status_code == 201
    after = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'class="me"' not in after and forms(after) == []
    # Even with a valid CSRF token of the (now anonymous) session, nothing is played.
    token = csrf_token(browser.get("/").get_data(as_text=True))
    refused = browser.post(f"/games/{game['id']}/play", data={
        "csrf_token": token, "command": command, "expected_version": version})
    assert refused.status_code == 401 and "sign in first" in refused.get_data(as_text=True)
    assert app.test_client().get(old_link).status_code == 403
    assert _version(client, game, ada) == int(version)


def test_one_players_session_cannot_act_for_another_seat(app, client, game, ada, bob):
    first, second = whose_turn(client, game["id"], [ada, bob])
    their_page = signed_in(app, first).get(f"/games/{game['id']}").get_data(as_text=True)
    _words, command, version = forms(their_page)[0]
    browser = signed_in(app, second)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert forms(html) == []
    # The other seat's command, as it is (it names their seat): refused.
    refused = browser.post(f"/games/{game['id']}/play", data={
        "csrf_token": csrf_token(html), "command": command, "expected_version": version})
    assert refused.status_code == 403
    assert "plays for another player" in refused.get_data(as_text=True)
    # The same command for my own seat, out of turn: the engine refuses it.
    mine = dict(json.loads(command), seat=1 - json.loads(command)["seat"])
    refused = browser.post(f"/games/{game['id']}/play", data={
        "csrf_token": csrf_token(html), "command": json.dumps(mine), "expected_version": version})
    assert refused.status_code == 422
    assert _version(client, game, ada) == int(version)


def test_an_outsider_cannot_play_even_a_public_game(app, client, game):
    eve = register(client, "Eve", "eve@example.org")
    browser = signed_in(app, eve)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    refused = browser.post(f"/games/{game['id']}/play", data={
        "csrf_token": csrf_token(html), "command": '{"type": "end_turn"}',
        "expected_version": "1"})
    assert refused.status_code == 403


HOSTILE = "<script>alert('x')</script>"


def test_every_page_shows_a_hostile_name_as_text(app, client):
    villain = register(client, HOSTILE, "villain@example.org")
    bob = register(client, "Bob", "bob@example.org")
    game = create_started_game(client, [villain, bob], public=True)
    pages = [
        client.get(f"/games/{game['id']}"),
        client.get(f"/games/{game['id']}?at=1"),
        signed_in(app, villain).get("/"),
        signed_in(app, villain).get(f"/games/{game['id']}"),
        signed_in(app, bob).get(f"/games/{game['id']}"),
    ]
    fresh = app.test_client()
    form = fresh.get("/register").get_data(as_text=True)
    fresh.post("/register", data={"csrf_token": csrf_token(form), "name": HOSTILE,
                                  "email": "second@example.org"})
    # The page the mailed link's button opens: "Welcome, NAME" and the token.
    pages.append(fresh.post("/verify", data={"code": mailed_code(app, "second@example.org")}))
    for page in pages:
        html = page.get_data(as_text=True)
        assert page.status_code == 200
        assert HOSTILE not in html
        assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html or (
            "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html)


@pytest.mark.parametrize("base_url, secure", [("http://iridescia.test", False),
                                              ("https://iridescia.test", True)])
def test_the_session_cookie_is_httponly_lax_and_secure_on_https(database_url, base_url, secure):
    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "BASE_URL": base_url})
    ada = register(app.test_client(), "Ada", "ada@example.org")
    answer = follow(app.test_client(), link_for(app, ada).removeprefix(base_url))
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert ("Secure" in cookie) is secure
    # The API sets no cookie at all.
    api = app.test_client().get("/api/v1/users/me", headers=ada.headers)
    assert "Set-Cookie" not in api.headers


def test_an_emails_link_counts_its_hours_from_the_game_moment_it_tells_about(app, ada):
    from datetime import UTC, datetime, timedelta

    from server.http.auth import hash_token
    from server.users.sign_in import magic_link

    hours = app.config["MAGIC_LINK_HOURS"]
    with app.app_context():
        moment = datetime.now(UTC) - timedelta(hours=hours, minutes=1)
        old = magic_link(ada.id, hash_token(ada.token), "/", issued_at=moment)
        again = magic_link(ada.id, hash_token(ada.token), "/", issued_at=moment)
        recent = magic_link(ada.id, hash_token(ada.token), "/",
                            issued_at=moment + timedelta(minutes=2))
    assert old == again  # the same email rendered twice says the same
    browser = app.test_client()
    assert browser.get(old.removeprefix(app.config["BASE_URL"])).status_code == 403
    assert follow(browser, recent.removeprefix(app.config["BASE_URL"])).status_code == 303
