"""Every command explains itself: `--help` works and shows an example that starts with the
command's own name."""

from __future__ import annotations

import click
import pytest

from client.cli import cli

READING_COMMANDS = {
    "whoami", "prefs", "games", "new", "invite", "join", "start", "leave", "show", "legal",
    "watch", "wait", "simulate", "config show", "replay", "verify",
}


def walk(group: click.Group, prefix: tuple[str, ...] = ()):
    yield prefix, group
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from walk(command, (*prefix, name))
        else:
            yield (*prefix, name), command


ALL = list(walk(cli))


def test_the_tree_has_every_command_the_issue_names():
    names = {" ".join(path) for path, _ in ALL}
    wanted = {
        "register", "whoami", "games", "new", "invite", "join", "start", "leave", "prefs",
        "show", "legal", "reveal", "move", "relocate", "choose", "give", "mine", "keep", "reroll",
        "modify", "roll-market", "buy", "sell", "play", "restore", "end", "remove",
        "undo", "discard-objective", "watch", "wait", "autoplay", "log", "replay", "verify", "simulate",
        "back",
    }
    assert wanted <= names, wanted - names


@pytest.mark.parametrize("path", [p for p, _ in ALL], ids=lambda p: " ".join(p) or "iridescia")
def test_every_command_has_help_with_an_example(run, path):
    result = run(*path, "--help")
    assert result.exit_code == 0, result.output
    assert "Example:" in result.output
    example = result.output.split("Example:", 1)[1].strip().splitlines()[0].strip()
    assert example.startswith("iridescia")
    words = [w for w in example.split() if not w.startswith("-")]
    if path:
        # `iridescia --profile x config set ...` names the command after its global options.
        assert " ".join(path) in " ".join(words), example


@pytest.mark.parametrize("name", sorted(READING_COMMANDS))
def test_every_reading_command_has_json(name):
    command = dict((" ".join(p), c) for p, c in ALL)[name]
    assert "--json" in [opt for param in command.params for opt in param.opts]
