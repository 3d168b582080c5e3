"""The game's settings page's webhook form: set, shown to its owner only, removed; the SSRF
guard's 422. The game page itself has no webhook form (settings are off the board)."""

from __future__ import annotations

import re
import socket

import pytest

from tests.server.web.conftest import csrf_token, signed_in


@pytest.fixture
def public_dns(monkeypatch):
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "hooks.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def test_a_player_sets_and_removes_their_webhook_from_the_game_page(app, client, game, ada, bob,
                                                                    public_dns):
    page_path = f"/games/{game['id']}"
    settings = f"{page_path}/settings"
    browser = signed_in(app, ada)
    assert "webhook" not in browser.get(page_path).get_data(as_text=True).split("<main")[1].split(
        "settings-link")[0].lower()
    html = browser.get(settings).get_data(as_text=True)
    assert f'action="/games/{game["id"]}/webhook"' in html and "Set the webhook" in html
    token = csrf_token(html)

    refused = browser.post(f"{page_path}/webhook", data={"csrf_token": token,
                                                         "url": "http://169.254.169.254/"})
    assert refused.status_code == 422
    assert "169.254.169.254, a link-local address" in refused.get_data(as_text=True)
    assert browser.post(f"{page_path}/webhook", data={"url": "https://hooks.example/x"}
                        ).status_code == 400  # no CSRF token: another site's form

    done = browser.post(f"{page_path}/webhook", data={
        "csrf_token": token, "url": "https://hooks.example/x?t=<b>", "format": "discord"})
    assert done.status_code == 200
    words = done.get_data(as_text=True)
    assert re.search(r"shown only now, signs every delivery .*: [0-9a-f]{64}", words)
    assert "https://hooks.example/x?t=&lt;b&gt; (discord)" in words  # escaped

    html = browser.get(settings).get_data(as_text=True)
    assert "POSTed to <code>https://hooks.example/x?t=&lt;b&gt;</code> (discord)" in html
    assert not re.search(r"[0-9a-f]{64}", html.split("<h2>Webhook</h2>")[1].split("</form>")[0])
    # Nobody else sees it: not the other player, not a spectator of the public game.
    assert "hooks.example" not in signed_in(app, bob).get(settings).get_data(as_text=True)
    assert "hooks.example" not in signed_in(app, bob).get(page_path).get_data(as_text=True)
    spectator = client.get(page_path).get_data(as_text=True)
    assert "hooks.example" not in spectator and "<h2>Webhook</h2>" not in spectator
    assert client.get(settings).status_code == 401

    removed = browser.post(f"{page_path}/webhook/remove", data={"csrf_token": token})
    assert removed.status_code == 303
    html = browser.get(settings).get_data(as_text=True)
    assert "hooks.example" not in html and "Set the webhook" in html
    assert client.get(f"/api/v1/games/{game['id']}/webhook",
                      headers=ada.headers).status_code == 404
