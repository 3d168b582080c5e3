"""The action subcommands build exactly the engine's commands, and `legal` prints command lines
that build the very commands the server listed."""

from __future__ import annotations

import json

import pytest

import engine
from client.commands.acting import cli_argv, to_argv
from engine.text import notation

SAMPLES = [
    (["reveal", "g1", "3c", "3D"], {"type": "reveal", "hexes": ["3c", "3d"]}),
    (["move", "g1", "4b"], {"type": "move", "hex": "4b"}),
    (["relocate", "g1", "2a", "--discard-tile", "desert_emerald_2"],
     {"type": "relocate", "hex": "2a", "discard_tile": "desert_emerald_2"}),
    (["relocate", "g1", "2a"], {"type": "relocate", "hex": "2a", "discard_tile": None}),
    (["choose", "g1", "Sapphire"], {"type": "choose_gem", "gem": "sapphire"}),
    (["give", "g1", "cit", "--to", "2"], {"type": "give_gem", "gem": "citrine", "to": 2}),
    (["give", "g1", "e", "--to", "supply"], {"type": "give_gem", "gem": "emerald", "to": None}),
    (["discard-objective", "g1", "Master Miner"],
     {"type": "discard_objective", "objective": "master_miner"}),
    (["mine", "g1"], {"type": "mine", "stone_dice": 0}),
    (["mine", "g1", "--stone-dice", "2"], {"type": "mine", "stone_dice": 2}),
    (["keep", "g1"], {"type": "keep_roll", "gem": None}),
    (["keep", "g1", "--gem", "amethyst"], {"type": "keep_roll", "gem": "amethyst"}),
    (["reroll", "g1", "0", "2"], {"type": "reroll", "dice": [0, 2]}),
    (["modify", "g1", "roll:1", "+1", "--item", "jolty_jackhammer"],
     {"type": "modify_die", "item": "jolty_jackhammer", "die": "roll:1", "delta": 1}),
    (["modify", "g1", "emerald", "-2"],
     {"type": "modify_die", "item": "dazzling_dynamite", "die": "market:emerald", "delta": -2}),
    (["roll-market", "g1", "emerald", "sapphire"],
     {"type": "roll_market", "gems": ["emerald", "sapphire"]}),
    (["buy", "g1", "epic-elixir"], {"type": "buy", "item": "epic_elixir"}),
    (["sell", "g1", "emerald", "3"], {"type": "sell", "gem": "emerald", "count": 3}),
    (["play", "g1", "cauldron_of_fortune", "--give", "emerald", "--give", "citrine", "--take",
      "sapphire"],
     {"type": "play_item", "item": "cauldron_of_fortune", "give": ["emerald", "citrine"],
      "take": "sapphire"}),
    (["play", "g1", "epic_elixir"], {"type": "play_item", "item": "epic_elixir"}),
    (["play", "g1", "axe_of_awesomeness", "--gem", "amethyst"],
     {"type": "play_item", "item": "axe_of_awesomeness", "gem": "amethyst"}),
    (["play", "g1", "regal_reference_book", "--relic", "iridia_crown"],
     {"type": "play_item", "item": "regal_reference_book", "relic": "iridia_crown"}),
    (["play", "g1", "prosperous_pickaxe", "--hex", "4d"],
     {"type": "play_item", "item": "prosperous_pickaxe", "hex": "4d"}),
    (["play", "g1", "swapping_stones", "--target", "3"],
     {"type": "play_item", "item": "swapping_stones", "target": 3}),
    (["play", "g1", "clever_catapult", "--hex", "2c"],
     {"type": "play_item", "item": "clever_catapult", "hex": "2c"}),
    (["restore", "g1", "Sapphire Spyglass"], {"type": "restore", "relic": "sapphire_spyglass"}),
    (["end", "g1"], {"type": "end_turn"}),
    (["remove", "g1", "6b"], {"type": "remove_tile", "hex": "6b"}),
    (["undo", "g1"], {"type": "undo"}),
]


@pytest.mark.parametrize("argv,command", SAMPLES, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_each_action_builds_the_engine_command(run, argv, command):
    result = run(*argv, "--dry-run")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == command


@pytest.mark.parametrize("command", [c for _, c in SAMPLES], ids=lambda c: c["type"])
def test_legal_lines_build_the_listed_command(run, command):
    argv = to_argv(dict(command, seat=1), "g1")
    result = run(*argv, "--dry-run")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == command


@pytest.mark.parametrize("argv,message", [
    (["move", "g1", "c5"], "'c5' is not a hex: write a row number and a letter, like 5c"),
    (["choose", "g1", "ruby"], "'ruby' is not a gem: use amethyst, citrine, emerald or sapphire"),
    (["reveal", "g1", "1a", "1b", "1c"], "reveal takes at most two hexes"),
    (["play", "g1", "prosperous_pickaxe"], "prosperous_pickaxe needs --hex"),
    (["play", "g1", "jolty_jackhammer"], "jolty_jackhammer is played with `iridescia modify`"),
    (["play", "g1", "epic_elixir", "--gem", "emerald"], "epic_elixir does not take --gem"),
    (["modify", "g1", "roll:1", "+3"], "'+3' is not a change: use +1, -1, +2 or -2"),
    (["give", "g1", "emerald", "--to", "bob"], "'bob' is not a seat number or 'supply'"),
])
def test_malformed_actions_are_usage_errors(run, argv, message):
    result = run(*argv, "--dry-run")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_legal_prints_commands_one_can_type(run, standin):
    standin.answer("GET", "/games/g1/legal", 200, {"version": 12, "seat": 1, "commands": [
        {"type": "reveal", "seat": 1, "hexes": ["3c"]},
        {"type": "reveal", "seat": 1, "hexes": ["3c", "3d"]},
        {"type": "play_item", "seat": 1, "item": "cauldron_of_fortune",
         "give": ["emerald", "emerald"], "take": "citrine"},
        {"type": "give_gem", "seat": 1, "gem": "emerald", "to": None},
    ]})
    result = run("legal", "g1", env={"IRIDESCIA_SERVER": standin.url, "IRIDESCIA_TOKEN": "t"})
    assert result.exit_code == 0, result.output
    assert result.output == (
        "reveal 3c\n"
        "reveal 3c 3d\n"
        "play cauldron_of_fortune --give emerald --give emerald --take citrine\n"
        "give emerald --to supply\n"
        "To play one here, put the game after its first word: "
        "iridescia give g1 emerald --to supply\n"
    )
    for line in result.output.splitlines()[:-1]:
        assert run(*cli_argv(line, "g1"), "--dry-run").exit_code == 0


def test_legal_prints_the_notation_of_every_listed_command(run, standin):
    """`format` of each legal command is what `legal` prints (a reveal listed in both orders
    is one line, in board order)."""
    listed = [c for c in legal_commands_of_real_games(limit_per_kind=3)
              if c["type"] != "rhom_turn"]
    standin.answer("GET", "/games/g1/legal", 200, {"version": 3, "seat": 1, "commands": listed})
    result = run("legal", "g1", env={"IRIDESCIA_SERVER": standin.url, "IRIDESCIA_TOKEN": "t"})
    assert result.exit_code == 0, result.output
    lines = list(dict.fromkeys(
        notation.format(engine.command_from_dict(dict(c, seat=1))) for c in listed))
    assert result.output.splitlines()[:-1] == lines


def legal_commands_of_real_games(limit_per_kind: int = 25) -> list[dict]:
    """Distinct legal commands met in a few simulated games (4 players: every item is in the
    deck), at most `limit_per_kind` of each command type / item."""
    import engine
    from engine import simulate
    from engine.bots import policies

    found: dict[str, dict] = {}
    per_kind: dict[str, int] = {}
    for players, seed in ((4, "argv-1"), (2, "argv-2"), (1, "argv-3")):
        options = simulate.make_options(players, catapult_4th=players == 4)
        for _step, state in simulate.steps(options, seed, policies.random_policy):
            seat = engine.current_player(state)
            if seat is None:
                continue
            for command in engine.legal_commands(state, seat):
                data = engine.command_to_dict(command)
                kind = data["type"] + "/" + str(data.get("item", ""))
                key = json.dumps(data, sort_keys=True)
                if key not in found and per_kind.get(kind, 0) < limit_per_kind:
                    found[key] = data
                    per_kind[kind] = per_kind.get(kind, 0) + 1
    return list(found.values())


def test_every_legal_command_of_real_games_can_be_typed(run):
    commands = legal_commands_of_real_games()
    kinds = {c["type"] for c in commands}
    assert {"reveal", "move", "end_turn", "mine", "keep_roll", "buy", "sell", "restore",
            "play_item", "remove_tile"} <= kinds
    for command in commands:
        argv = to_argv(command, "g1")
        if command["type"] == "rhom_turn":
            assert argv is None
            continue
        result = run(*argv, "--dry-run")
        assert result.exit_code == 0, (argv, result.output)
        canonical = notation.canonical(engine.command_from_dict(command))
        expected = {k: v for k, v in engine.command_to_dict(canonical).items() if k != "seat"}
        assert json.loads(result.output) == expected, argv


def test_legal_says_when_the_server_will_decide(run, standin):
    standin.answer("GET", "/games/g1/legal", 200, {
        "version": 12, "seat": 1, "server_decides_at": "2026-12-03T04:03:42.749+00:00",
        "commands": [{"type": "remove_tile", "seat": 1, "hex": "3c"}]})
    result = run("legal", "g1", env={"IRIDESCIA_SERVER": standin.url, "IRIDESCIA_TOKEN": "t"})
    assert result.exit_code == 0, result.output
    assert result.output == (
        "remove 3c\n"
        "To play one here, put the game after its first word: iridescia remove g1 3c\n"
        "The server will decide at 2026-12-03 04:03 UTC.\n"
    )


def test_legal_says_the_server_decides_a_removal_it_is_about_to_play(run, standin):
    standin.answer("GET", "/games/g1/legal", 200, {
        "version": 12, "seat": 1, "server_decides_at": "2026-12-03T04:03:42+00:00",
        "commands": []})
    standin.answer("GET", "/games/g1", 200, {
        "id": "g1", "status": "active", "is_my_turn": True, "pending_kind": "removal",
        "current_seat": 1, "players": []})
    result = run("legal", "g1", env={"IRIDESCIA_SERVER": standin.url, "IRIDESCIA_TOKEN": "t"})
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Nothing to do now. Your move (removal).\n"
        "The server will decide at 2026-12-03 04:03 UTC.\n"
    )
