"""Setting a webhook: who may, what it answers, and the SSRF guard's refusals (422) with the
allow switch off."""

from __future__ import annotations

import socket

import pytest

from server import create_app
from server.webhooks import addresses
from tests.accounts import sign_up
from tests.server.helpers import assert_error


@pytest.fixture
def guarded_client(database_url):
    """The app as deployed: private addresses refused."""
    app = create_app({"DATABASE_URL": database_url, "TESTING": True,
                      "AUTH_FAILURE_LIMIT": 100_000, "ACCOUNT_REQUESTS_PER_HOUR": 100_000})
    assert not app.config["WEBHOOK_ALLOW_PRIVATE"]
    return app.test_client()


@pytest.fixture
def public_dns(monkeypatch):
    """`hooks.example` resolves to a public address (no test may depend on the real DNS);
    `rebind.example` to a public one and a private one; every other name as usual."""
    real = socket.getaddrinfo
    table = {"hooks.example": ["93.184.215.14"], "rebind.example": ["93.184.215.14", "10.1.2.3"]}

    def getaddrinfo(host, port, *args, **kwargs):
        if host in table:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port)) for ip in table[host]]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def _register(client, name):
    body = sign_up(client, name, f"{name}@example.org")
    return {"Authorization": f"Bearer {body['token']}"}


def _open_game(client, headers, **extra):
    response = client.post("/api/v1/games", json={"seats": 2, **extra}, headers=headers)
    return response


REFUSED = [
    ("http://127.0.0.1/hook", "127.0.0.1, a loopback address"),
    ("http://localhost:8080/hook", "a loopback address"),  # a name resolving to loopback
    ("https://10.0.0.7/hook", "10.0.0.7, a private address"),
    ("http://192.168.1.1/", "a private address"),
    ("http://169.254.169.254/latest/meta-data", "169.254.169.254, a link-local address"),
    ("http://[::1]/hook", "::1, a loopback address"),
    ("http://[fe80::1]/hook", "a link-local address"),
    ("http://[fd00::1]/hook", "a private address"),
    ("http://[::ffff:127.0.0.1]/hook", "a loopback address"),
    ("http://0.0.0.0/hook", "the unspecified address"),
    ("http://224.0.0.1/hook", "a multicast address"),
    ("http://100.64.0.1/hook", "a reserved (non-global) address"),
    ("http://rebind.example/hook", "10.1.2.3, a private address"),
    # NAT64 and 6to4 forms reach the IPv4 address they carry (issue 32, L7)
    ("http://[64:ff9b::7f00:1]/hook", "64:ff9b::7f00:1, a loopback address"),
    ("http://[64:ff9b::a9fe:a9fe]/hook", "a link-local address"),
    ("http://[64:ff9b::a00:7]/hook", "a private address"),
    ("http://[64:ff9b:1::a00:7]/hook", "a local-use NAT64 address"),
    ("http://[2002:7f00:1::]/hook", "2002:7f00:1::, a loopback address"),
    ("http://[2002:c0a8:101::1]/hook", "a private address"),
    # fullwidth digits and dots are read as the ASCII address they stand for (L6)
    ("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/hook", "127.0.0.1, a loopback address"),
    ("ftp://hooks.example/hook", "starts with https://"),
    ("file:///etc/passwd", "starts with https://"),
    ("https://user:pw@hooks.example/hook", "must not carry a user name or password"),
    ("https://no-such-host.invalid/hook", "does not resolve"),
    ("https://hooks.example/a b", "spaces or control characters"),
    ("https://hooks.example/?format=teams", "format='teams'"),
]


@pytest.mark.parametrize(("url", "why"), REFUSED)
def test_a_url_the_server_must_not_reach_is_refused_when_set(guarded_client, public_dns, url,
                                                             why):
    ada = _register(guarded_client, "ada")
    game = _open_game(guarded_client, ada).json
    response = guarded_client.put(f"/api/v1/games/{game['id']}/webhook", json={"url": url},
                                  headers=ada)
    assert_error(response, 422, "webhook URL refused", why)
    assert guarded_client.get(f"/api/v1/games/{game['id']}/webhook",
                              headers=ada).status_code == 404


def test_a_refused_webhook_at_creation_creates_no_game(guarded_client, public_dns):
    ada = _register(guarded_client, "ada")
    response = _open_game(guarded_client, ada, webhook={"url": "http://10.0.0.1/x"})
    assert_error(response, 422, "10.0.0.1, a private address", "public internet")
    assert guarded_client.get("/api/v1/games", headers=ada).json == []


def test_a_public_url_is_set_read_replaced_and_removed(guarded_client, public_dns):
    ada, bob, eve = (_register(guarded_client, name) for name in ("ada", "bob", "eve"))
    created = _open_game(guarded_client, ada,
                         webhook={"url": "https://hooks.example/t/1?format=slack"})
    assert created.status_code == 201, created.json
    game = created.json
    hook = game["webhook"]
    assert hook["url"] == "https://hooks.example/t/1" and hook["format"] == "slack"
    assert len(hook["secret"]) == 64
    assert "webhook" not in guarded_client.get(f"/api/v1/games/{game['id']}", headers=ada).json
    path = f"/api/v1/games/{game['id']}/webhook"
    shown = guarded_client.get(path, headers=ada).json
    assert shown == {"game_id": game["id"], "url": "https://hooks.example/t/1",
                     "format": "slack", "created_at": shown["created_at"]}  # no secret

    # A player sets their own; an outsider may not (a private game: they cannot even see it).
    assert_error(guarded_client.put(path, json={"url": "https://hooks.example/b"}, headers=bob),
                 404, "you can see")
    guarded_client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob)
    mine = guarded_client.put(path, json={"url": "https://hooks.example/b", "format": "discord"},
                              headers=bob)
    assert mine.status_code == 200 and mine.json["format"] == "discord"
    assert guarded_client.get(path, headers=ada).json["url"] == "https://hooks.example/t/1"
    assert_error(guarded_client.get(path, headers=eve), 404)

    again = guarded_client.put(path, json={"url": "https://hooks.example/t/2"}, headers=ada).json
    assert again["secret"] != hook["secret"] and again["format"] == "json"
    assert_error(guarded_client.put(path, json={"url": "https://hooks.example/?format=slack",
                                                "format": "discord"}, headers=ada),
                 422, "give one of them")
    assert guarded_client.delete(path, headers=ada).status_code == 204
    assert_error(guarded_client.delete(path, headers=ada), 404, "set one with PUT")
    assert_error(guarded_client.get(path, headers=ada), 404, "you have no webhook")
    assert guarded_client.get(path, headers=bob).status_code == 200


def test_a_player_who_leaves_loses_their_webhook(guarded_client, public_dns):
    ada, bob = _register(guarded_client, "ada"), _register(guarded_client, "bob")
    game = _open_game(guarded_client, ada).json
    guarded_client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob)
    path = f"/api/v1/games/{game['id']}/webhook"
    assert guarded_client.put(path, json={"url": "https://hooks.example/b"},
                              headers=bob).status_code == 200
    assert guarded_client.post(f"/api/v1/games/{game['id']}/leave", headers=bob).status_code == 200
    guarded_client.post("/api/v1/games/join", json={"code": game["join_code"]}, headers=bob)
    assert_error(guarded_client.get(path, headers=bob), 404, "you have no webhook")


def test_bad_bodies_get_clear_422s(guarded_client):
    ada = _register(guarded_client, "ada")
    game = _open_game(guarded_client, ada).json
    path = f"/api/v1/games/{game['id']}/webhook"
    assert_error(guarded_client.put(path, json={}, headers=ada), 422, "url")
    assert_error(guarded_client.put(path, json={"url": "https://a.example", "format": "xml"},
                                    headers=ada), 422, "format")
    assert_error(guarded_client.put(path, json={"url": "https://a.example/" + "x" * 2000},
                                    headers=ada), 422, "url")


def test_the_allow_switch_lets_loopback_through(client, ada):
    """`IRIDESCIA_WEBHOOK_ALLOW_PRIVATE=1` (tests, local use)."""
    client.application.config["WEBHOOK_ALLOW_PRIVATE"] = 1
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    response = client.put(f"/api/v1/games/{game['id']}/webhook",
                          json={"url": "http://127.0.0.1:9/hook"}, headers=ada.headers)
    assert response.status_code == 200, response.json


@pytest.mark.parametrize("address", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
                                     "8.8.8.8"])
def test_global_addresses_pass_the_guard(address):
    assert addresses.refusal(address) is None


@pytest.mark.parametrize("address", ["64:ff9b::808:808", "2002:808:808::1"])
def test_nat64_and_6to4_forms_of_a_global_address_pass_the_guard(address):
    assert addresses.refusal(address) is None


def test_a_fullwidth_host_is_checked_and_reached_as_its_ascii_form():
    """``http://８.８.８.８/`` passed the guard as written, then every delivery crashed on the
    Host header; the guard now reads it as 8.8.8.8, the address and the name the POST uses."""
    target = addresses.check("http://\uff18.\uff18.\uff18.\uff18/hook", allow_private=False)
    assert (target.host, target.address) == ("8.8.8.8", "8.8.8.8")


def test_a_delivery_connects_to_the_address_it_checked_and_names_the_host(monkeypatch):
    """The POST goes to the address the guard resolved (no second lookup of the name), with the
    name in the Host header."""
    from server.webhooks import http, signing
    from tests.webhook_sink import serve

    sink, server = serve()
    try:
        real = socket.getaddrinfo
        looked_up = []

        def getaddrinfo(host, port, *args, **kwargs):
            looked_up.append(host)
            if host == "hooks.example":
                return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
            return real(host, port, *args, **kwargs)

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
        target = addresses.check(f"http://hooks.example:{sink.port}/in?x=1", allow_private=True)
        assert target.address == "127.0.0.1"
        with pytest.raises(addresses.WebhookUrlError, match="a loopback address"):
            addresses.check(f"http://hooks.example:{sink.port}/in", allow_private=False)
        looked_up.clear()
        body = b'{"event":"turn"}'
        assert http.post(target, body, signing.headers("s" * 64, 1, body), timeout=5) == 204
        assert "hooks.example" not in looked_up
        [got] = sink.received
        assert got.path == "/in?x=1" and got.headers["Host"] == f"hooks.example:{sink.port}"
        assert got.body == body
    finally:
        server.shutdown()
        server.server_close()
