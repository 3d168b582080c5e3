"""`iridescia plan GAME LINE...` against the real server over HTTP: kept, shown, refused with the
server's reason, dropped."""

from __future__ import annotations

import json
import time

import pytest

from tests.client.test_end_to_end import game_json, profile_runner, register

PLAN = ["move 3c or move 3d", "choose emerald", "mine", "keep", "end"]
REVEALS = "reveal 1b or reveal 1c or reveal 1d or reveal 1e or reveal 2b or reveal 2c"


@pytest.fixture
def live_on(tmp_path, database_url):
    """The real server over HTTP on each database, its scheduler loop playing what is due."""
    from tests.client.live import LiveServer

    server = LiveServer(tmp_path, database_url)
    yield server
    server.close()


def test_a_plan_is_kept_shown_refused_dropped_and_played(run, live_on):
    live = live_on
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    register(cli, "bob", "Bob", live)
    game = json.loads(cli("ada", "new", "--seats", "2", "--json").output)["id"]
    invited = cli("ada", "invite", game, "bob@example.org", "--json")
    assert cli("bob", "join", json.loads(invited.output)["join_code"]).exit_code == 0
    assert cli("ada", "start", game).exit_code == 0
    mover, waiting = (("ada", "bob") if game_json(cli, "ada", game)["is_my_turn"]
                      else ("bob", "ada"))

    kept = cli(waiting, "plan", game, *PLAN)
    assert kept.exit_code == 0, kept.output
    assert kept.output == (
        f"Your plan for your next turn in game {game}:\n"
        "  move 3c or move 3d\n  choose emerald\n  mine\n  keep\n  end\n"
        "It is played as soon as your turn comes, each line while it is legal.\n")
    assert cli(waiting, "plan", game).output == kept.output
    assert json.loads(cli(waiting, "plan", game, "--json").output)["lines"] == PLAN

    typo = cli(waiting, "plan", game, "mvoe 3c")
    assert typo.exit_code == 1
    assert typo.output == ('Error: rejected: line 1, "mvoe 3c", is not a command: did you mean '
                           "`move 3c`?\n")
    its_turn = cli(mover, "plan", game, "end")
    assert its_turn.exit_code == 1
    assert its_turn.output == (
        "Error: conflict: it is your turn now: play your commands instead of planning them\n")
    nobody_else = cli(mover, "plan", game)
    assert nobody_else.output == f"Error: not found: you have no plan in game {game}\n"

    dropped = cli(waiting, "plan", game, "--clear")
    assert dropped.output == f"Dropped your plan in game {game}.\n"
    assert cli(waiting, "plan", game).output == f"Error: not found: you have no plan in game {game}\n"
    misuse = cli(waiting, "plan", game, "end", "--clear")
    assert misuse.exit_code == 2 and "--clear takes no LINE" in misuse.output

    # Kept again, then played by the server's scheduler loop as soon as the turn comes.
    assert cli(waiting, "plan", game, REVEALS).exit_code == 0
    assert cli(mover, "autoplay", game, "--policy", "greedy", "--seed", "2",
               "--quiet").exit_code == 0
    for _ in range(200):
        if cli(waiting, "plan", game).exit_code == 1:
            break
        time.sleep(0.05)
    assert game_json(cli, waiting, game)["is_my_turn"]
    legal = cli(waiting, "legal", game).output
    assert "move " in legal and "reveal " not in legal  # the plan's reveal was played
