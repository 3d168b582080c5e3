"""`iridescia hint`, `--stand-in` on `new` and `join`, and `prefs --stand-in`, against the real
server over HTTP."""

from __future__ import annotations

import json
import random

import engine
from engine.bots import hard_choice
from engine.text import notation
from tests.client.test_end_to_end import profile_runner, register


def test_hint_says_what_the_hard_bot_would_play_from_my_view(run, live):
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    game = json.loads(cli("ada", "new", "--seats", "1", "--json").output)["id"]
    assert cli("ada", "wait", game, "--timeout", "30").exit_code == 0

    # The same choice worked out on the client from what the server shows Ada: her view.
    view = json.loads(cli("ada", "show", game, "--json").output)
    legal = json.loads(cli("ada", "legal", game, "--json").output)
    commands = [engine.command_from_dict(c) for c in legal["commands"] if c["type"] != "undo"]
    seat, version = view["viewer"], legal["version"]
    expected = hard_choice(view, commands, random.Random(f"hint/{game}/{version}/{seat}"))

    hinted = cli("ada", "hint", game)
    assert hinted.exit_code == 0, hinted.output
    assert hinted.output == f"The hard bot would play: {notation.format(expected)}\n"
    assert cli("ada", "hint", game).output == hinted.output  # asked twice, one answer


def test_hint_out_of_turn_says_why(run, live):
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    game = json.loads(cli("ada", "new", "--seats", "2", "--json").output)["id"]
    refused = cli("ada", "hint", game)
    assert refused.exit_code == 1
    assert (f"you have nothing to decide in game {game} now: a hint is for your turn"
            in refused.output)


def test_stand_in_chosen_on_new_join_and_in_preferences(run, live):
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    register(cli, "bob", "Bob", live)
    assert cli("bob", "prefs").output.splitlines()[-1] == "stand-in at the deadline: hard"
    changed = cli("bob", "prefs", "--stand-in", "medium")
    assert "stand-in at the deadline: medium" in changed.output.splitlines()

    created = json.loads(cli("ada", "new", "--seats", "2", "--stand-in", "easy", "--json").output)
    assert created["my_stand_in"] == "easy"
    joined = json.loads(cli("bob", "join", created["join_code"], "--json").output)
    assert joined["my_stand_in"] == "medium"  # his preference, as he chose none for the game
    ben = cli("bob", "join", created["join_code"], "--stand-in", "clever")
    assert ben.exit_code == 2 and "'clever' is not one of" in ben.output
