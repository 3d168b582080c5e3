"""`iridescia undo` against the real server: refused after a reveal with the engine's reason,
listed by `legal` with how many steps it takes back, and a finished game with undos still
exports and verifies."""

from __future__ import annotations

import json

from tests.client.test_end_to_end import (
    check_log_replay_verify,
    game_json,
    listed_lines,
    profile_runner,
    register,
    typed,
)


def test_legal_says_how_many_steps_an_undo_takes_back(run, standin):
    standin.answer("GET", "/games/g1/legal", 200, {
        "version": 12, "seat": 1, "undo_steps": 2,
        "commands": [{"type": "end_turn", "seat": 1}, {"type": "undo", "seat": 1}]})
    result = run("legal", "g1", env={"IRIDESCIA_SERVER": standin.url, "IRIDESCIA_TOKEN": "t"})
    assert result.exit_code == 0, result.output
    assert result.output == (
        "end\n"
        "undo\n"
        "(undo takes back 2 steps of this turn)\n"
        "To play one here, put the game after its first word: iridescia undo g1\n"
    )


def test_undo_from_the_terminal_in_a_solo_game_that_then_verifies(run, live, tmp_path):
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    created = cli("ada", "new", "--seats", "1", "--rhom-delay", "0", "--json")
    game = json.loads(created.output)["id"]
    assert cli("ada", "wait", game, "--timeout", "30").exit_code == 0

    refused = cli("ada", "undo", game)
    assert refused.exit_code == 1
    assert refused.output == ("Error: rejected: nothing to take back: you have not played a step this "
                              "turn\n")
    reveal = next(line for line in listed_lines(cli, "ada", game) if line.startswith("reveal "))
    assert typed(cli, "ada", game, reveal).exit_code == 0
    hexes = " and ".join(reveal.split()[1:])
    refused = cli("ada", "undo", game)
    assert refused.exit_code == 1
    assert refused.output == (f"Error: rejected: nothing to take back since your reveal of {hexes}: a "
                              "step that revealed something or drew chance cannot be taken "
                              "back\n")

    move = next(line for line in listed_lines(cli, "ada", game) if line.startswith("move "))
    moved = typed(cli, "ada", game, move)
    assert moved.exit_code == 0, moved.output
    version = game_json(cli, "ada", game)["version"]
    legal = cli("ada", "legal", game).output.splitlines()
    assert "undo" in legal
    steps = next(line for line in legal if line.startswith("(undo takes back "))
    assert steps in ("(undo takes back 1 step of this turn)",
                     "(undo takes back 2 steps of this turn)")
    undone = cli("ada", "undo", game)
    assert undone.exit_code == 0, undone.output
    lines = undone.output.splitlines()
    count = "a step" if steps.startswith("(undo takes back 1 ") else "2 steps"
    # The steps are named: the move the player just made is among them.
    assert lines[0].startswith(f"You took back {count}: "), lines
    assert f"moved to {move.split()[1]}" in lines[0], lines
    assert lines[1:] == ["Your turn."]
    assert game_json(cli, "ada", game)["version"] == version + 1  # the undo is one more event
    # The turn goes on from the reveal: the same move is offered again.
    assert move in listed_lines(cli, "ada", game)
    result = cli("ada", "autoplay", game, "--policy", "greedy", "--until-end", "--quiet",
                 "--seed", "1")
    assert result.exit_code == 0, result.output
    check_log_replay_verify(cli, "ada", game, tmp_path)
