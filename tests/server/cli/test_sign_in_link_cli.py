"""`iridescia-server sign-in-link`: prints the link an email would carry; it signs in."""

from __future__ import annotations

from click.testing import CliRunner

from server.cli import main

# The pages' fixtures (an app with BASE_URL, players with confirmed addresses, a started game):
# this folder's other tests use the API's (tests/server/conftest.py).
from tests.server.web.conftest import (  # noqa: F401
    BASE_URL,
    ada,
    app,
    bob,
    client,
    follow,
    game,
)


def test_the_printed_link_signs_the_player_in_on_the_games_page(app, client, game, ada,  # noqa: F811
                                                                  database_url):
    env = {"IRIDESCIA_DATABASE_URL": database_url, "IRIDESCIA_BASE_URL": BASE_URL}
    result = CliRunner().invoke(main, ["sign-in-link", "ADA@example.org", "--game", game["id"]],
                                env=env)
    assert result.exit_code == 0, result.output
    link = result.output.strip()
    assert link.startswith(f"{BASE_URL}/sign-in/") and result.output.count("\n") == 1
    browser = app.test_client()
    answer = follow(browser, link.removeprefix(BASE_URL))
    assert answer.status_code == 303 and answer.headers["Location"] == f"/games/{game['id']}"
    page = browser.get(answer.headers["Location"]).get_data(as_text=True)
    assert '<span class="player-name">Ada</span> (you)' in page  # her panel, as the player


def test_an_unknown_address_is_an_error_that_says_so(database_url):
    result = CliRunner().invoke(main, ["sign-in-link", "zed@example.org"],
                                env={"IRIDESCIA_DATABASE_URL": database_url})
    assert result.exit_code == 1
    assert result.output == "Error: no player is registered as 'zed@example.org'\n"
