"""Table talk on the game's page (issue 21): the messages shown and escaped, the form posting
them (CSRF-protected), each viewer's channels; on SQLite and PostgreSQL."""

from __future__ import annotations

import re

from tests.server.play import create_started_game
from tests.server.web.conftest import csrf_token, signed_in

SCRIPT = "<script>alert('x')</script>"


def _talk(html: str) -> str:
    return html.split('<section class="talk" id="talk"')[1].split("</section>")[0]


def test_the_page_shows_messages_escaped_and_posts_from_its_form(app, client, game, ada, bob,
                                                                register_eve):
    eve = register_eve
    client.post(f"/api/v1/games/{game['id']}/messages", json={"text": f"{SCRIPT} hi & bye"},
                headers=ada.headers)
    client.post(f"/api/v1/games/{game['id']}/messages", json={"text": "Go <b>Ada</b>"},
                headers=eve.headers)
    browser = signed_in(app, bob)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    talk = _talk(html)
    assert "<script>" not in talk and "<b>Ada" not in talk
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; hi &amp; bye" in talk
    assert '<strong class="author">Ada</strong>' in talk
    assert "Eve</strong> (watching)" in talk and "Go &lt;b&gt;Ada&lt;/b&gt;" in talk
    # A player of a public game may post to either channel.
    assert '<option value="players">' in talk and '<option value="spectators">' in talk

    posted = browser.post(f"/games/{game['id']}/messages", data={
        "csrf_token": csrf_token(html), "text": "Bob's <i>reply</i>", "channel": "players"})
    assert posted.status_code == 303 and posted.headers["Location"].endswith("#talk")
    listed = client.get(f"/api/v1/games/{game['id']}/messages", headers=ada.headers).json
    assert listed["messages"][-1]["text"] == "Bob's <i>reply</i>"
    assert listed["messages"][-1]["name"] == "Bob"
    after = _talk(browser.get(f"/games/{game['id']}").get_data(as_text=True))
    assert "Bob&#39;s &lt;i&gt;reply&lt;/i&gt;" in after


def test_the_form_is_csrf_protected_and_keeps_the_limits(app, client, game, bob):
    browser = signed_in(app, bob)
    html = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    refused = browser.post(f"/games/{game['id']}/messages", data={"text": "forged"})
    assert refused.status_code == 400
    too_long = browser.post(f"/games/{game['id']}/messages", data={
        "csrf_token": csrf_token(html), "text": "x" * 1001})
    assert too_long.status_code == 422
    assert "at most 1,000 characters" in too_long.get_data(as_text=True)
    assert client.get(f"/api/v1/games/{game['id']}/messages", headers=bob.headers
                      ).json["messages"] == []


def test_what_each_viewer_reads_and_may_post(app, client, ada, bob, register_eve):
    eve = register_eve
    public = create_started_game(client, [ada, bob], public=True)
    private = create_started_game(client, [ada, bob])
    client.post(f"/api/v1/games/{public['id']}/messages", json={"text": "players only"},
                headers=ada.headers)
    # Someone not signed in reads a public game's spectators' channel only and is asked to sign in.
    anonymous = _talk(client.get(f"/games/{public['id']}").get_data(as_text=True))
    assert "players only" not in anonymous and "Sign in to post a message." in anonymous
    # A signed-in spectator may post to the spectators only.
    watcher = signed_in(app, eve)
    page = watcher.get(f"/games/{public['id']}").get_data(as_text=True)
    talk = _talk(page)
    assert "players only" not in talk
    assert re.search(r'<input type="hidden" name="channel" value="spectators">', talk)
    refused = watcher.post(f"/games/{public['id']}/messages", data={
        "csrf_token": csrf_token(page), "text": "let me in", "channel": "players"})
    assert refused.status_code == 403
    # A private game: its players talk among themselves; outsiders get the 404 page.
    player_page = signed_in(app, ada).get(f"/games/{private['id']}").get_data(as_text=True)
    assert '<input type="hidden" name="channel" value="players">' in _talk(player_page)
    assert watcher.get(f"/games/{private['id']}").status_code == 404
    assert watcher.post(f"/games/{private['id']}/messages", data={
        "csrf_token": csrf_token(page), "text": "hi"}).status_code == 404
