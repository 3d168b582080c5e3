"""Bots on the pages: the stand-in chosen in the settings and said on the game page, and "What
would the bot do?" for the player to act."""

from __future__ import annotations

import random

import engine
from engine import command_to_dict
from engine.bots import hard_choice
from engine.text import notation
from server.web.commands import label
from tests.server.web.conftest import csrf_token, signed_in, whose_turn


def test_the_stand_in_is_chosen_in_the_settings_and_said_on_the_game_page(app, client, game, ada):
    browser = signed_in(app, ada)
    settings = browser.get("/settings").get_data(as_text=True)
    assert "the <strong>hard</strong> bot plays it for you" in settings
    saved = browser.post("/settings/stand-in", data={"csrf_token": csrf_token(settings),
                                                     "level": "easy"})
    assert saved.status_code == 200
    assert "When a deadline of yours passes, the easy bot plays your turn." in saved.get_data(
        as_text=True)
    page = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "If a deadline of yours passes, the <strong>easy</strong> bot plays your turn" in page
    refused = browser.post("/settings/stand-in", data={"csrf_token": csrf_token(settings),
                                                       "level": "clever"},
                           headers={"Accept": "text/html"})
    assert refused.status_code == 400
    assert "choose the stand-in among easy, medium, hard, not &#39;clever&#39;" in \
        refused.get_data(as_text=True)


def test_what_would_the_bot_do_for_the_player_to_act(app, client, game, ada, bob):
    mover, waiter = whose_turn(client, game["id"], [ada, bob])
    browser = signed_in(app, mover)
    page = browser.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'<a href="/games/{game["id"]}/hint">What would the bot do?</a>' in page

    view = client.get(f"/api/v1/games/{game['id']}/view", headers=mover.headers).json
    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=mover.headers).json
    commands = [engine.command_from_dict(c) for c in legal["commands"] if c["type"] != "undo"]
    expected = hard_choice(view, commands, random.Random(
        f"hint/{game['id']}/{legal['version']}/{legal['seat']}"))
    shown = browser.get(f"/games/{game['id']}/hint").get_data(as_text=True)
    assert f"The hard bot would play: {label(command_to_dict(expected), {})}" in shown.replace(
        "&#39;", "'")
    assert f'<code class="notation">{notation.format(expected)}</code>' in shown
    api = client.get(f"/api/v1/games/{game['id']}/hint", headers=mover.headers).json
    assert api["line"] == notation.format(expected)

    other = signed_in(app, waiter)
    assert "What would the bot do?" not in other.get(f"/games/{game['id']}").get_data(as_text=True)
    assert other.get(f"/games/{game['id']}/hint").status_code == 409
