"""Fixtures for the page tests: the app on each database, players, a started game, signing in
through a magic link, and the forms' CSRF token."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, timedelta

import pytest

from server import create_app
from server.http.auth import hash_token
from server.scheduler import start_embedded
from tests.accounts import sign_up
from tests.conftest import empty_every_table
from tests.server.helpers import Player
from tests.server.play import create_started_game
from tests.server.web.browser import LiveServer, chromium, free_port

BASE_URL = "http://iridescia.test"


@pytest.fixture
def app(database_url, tmp_path):
    return create_app({"DATABASE_URL": database_url, "TESTING": True, "BASE_URL": BASE_URL,
                       "OUTBOX_DIR": str(tmp_path / "outbox")})


@pytest.fixture
def client(app):
    return app.test_client()


def register(client, name: str, email: str) -> Player:
    body = sign_up(client, name, email)  # the token comes with the mailed link's confirmation
    return Player(body["id"], body["name"], body["email"], body["token"])


@pytest.fixture
def ada(client) -> Player:
    return register(client, "Ada", "ada@example.org")


@pytest.fixture
def bob(client) -> Player:
    return register(client, "Bob", "bob@example.org")


@pytest.fixture
def game(client, ada, bob) -> dict:
    """A public 2-player game, started."""
    return create_started_game(client, [ada, bob], public=True)


_LINKS_MADE = itertools.count()
_FIRST_LINK = datetime.now(UTC)


def link_for(app, player: Player, page: str = "/") -> str:
    """The path of a magic link for `player` (as the emails carry it). Each is a new link (a
    second earlier than the last): a link signs in once."""
    from server.users.sign_in import magic_link

    issued_at = _FIRST_LINK - timedelta(seconds=next(_LINKS_MADE))
    with app.app_context():
        link = magic_link(player.id, hash_token(player.token), page, issued_at=issued_at)
        return link.removeprefix(app.config["BASE_URL"].rstrip("/"))


def follow(browser, link: str):
    """Open a sign-in link as a player does: its page, then its button (a POST with the page's
    CSRF token). The answer to the POST, or to the GET when the link is refused."""
    shown = browser.get(link)
    if shown.status_code != 200:
        return shown
    return browser.post(link, data={"csrf_token": csrf_token(shown.get_data(as_text=True))})


def signed_in(app, player: Player, page: str = "/"):
    """A new browser-like client signed in as `player`."""
    browser = app.test_client()
    response = follow(browser, link_for(app, player, page))
    assert response.status_code == 303, response.get_data(as_text=True)
    return browser


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def forms(html: str) -> list[tuple[str, str, str]]:
    """(notation line, command JSON, expected version) of every play form on a page."""
    import html as html_lib

    found = re.findall(
        r'name="expected_version" value="(\d+)">\s*<input type="hidden" name="command" '
        r'value="([^"]*)">.*?<button class="choice[^"]*" data-command="([^"]*)"', html, re.S)
    return [(html_lib.unescape(w), html_lib.unescape(c), v) for v, c, w in found]


def whose_turn(client, game_id: str, players: list[Player]) -> tuple[Player, Player]:
    """(the player to act, the other)."""
    current = client.get(f"/api/v1/games/{game_id}", headers=players[0].headers).json
    seats = {client.get(f"/api/v1/games/{game_id}", headers=p.headers).json["my_seat"]: p
             for p in players}
    first = seats[current["current_seat"]]
    return first, next(p for p in players if p is not first)


@pytest.fixture
def register_eve(client) -> Player:
    return register(client, "Eve", "eve@example.org")


def page_time(app, moment, language: str = "en") -> str:
    """A date and time as a page in `language` writes it (server/web/language.py `when`)."""
    from server.web.language import when

    with app.test_request_context("/", headers={"Accept-Language": language}):
        return when(moment)


def midnight(day: str) -> datetime:
    """The start of a day (YYYY-MM-DD) in UTC, as a vacation ends."""
    return datetime.fromisoformat(day).replace(tzinfo=UTC)


@pytest.fixture
def site(request, tmp_path):
    """The app on a port, with its scheduler in-process (the Rhom's and the bots' turns), on
    SQLite unless a test asks for "postgresql" (``indirect`` parametrization)."""
    database_url = request.getfixturevalue(f"_migrated_{getattr(request, 'param', 'sqlite')}")
    port = free_port()
    app = create_app({"DATABASE_URL": database_url, "TESTING": True,
                      "BASE_URL": f"http://127.0.0.1:{port}",
                      "SCHEDULER_INTERVAL_SECONDS": 0.2,
                      "OUTBOX_DIR": str(tmp_path / "outbox")})
    server = LiveServer(app, port)
    scheduler = start_embedded(app)
    yield app, server.url
    scheduler.shutdown()
    server.stop()
    empty_every_table(database_url)


@pytest.fixture
def browser():
    driver = chromium()
    yield driver
    driver.quit()


@pytest.fixture
def table(site):
    """(app, url, api client, ada, bob, a public started game)."""
    app, url = site
    api = app.test_client()
    ada = register(api, "Ada", "ada@example.org")
    bob = register(api, "Bob <b>", "bob@example.org")
    game = create_started_game(api, [ada, bob], public=True)
    return app, url, api, ada, bob, game
