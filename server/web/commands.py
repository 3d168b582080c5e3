"""The player's legal commands as the page's forms: grouped by step of the turn, each labelled
with the words `iridescia legal` prints for it, each posting the command itself."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

STEPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Decide now", frozenset({"choose_gem", "give_gem", "discard_objective"})),
    ("Your roll", frozenset({"keep_roll", "reroll", "modify_die"})),
    ("Step 1: reveal", frozenset({"reveal"})),
    ("Step 2: move", frozenset({"move", "relocate"})),
    ("Step 3: mine", frozenset({"mine"})),
    ("Step 4: market and relics", frozenset({"roll_market", "buy", "sell", "restore"})),
    ("Items", frozenset({"play_item"})),
    ("Steps 5-6: collect your tile and end the turn", frozenset({"end_turn"})),
    ("Removal turn", frozenset({"remove_tile"})),
)


@dataclass(frozen=True)
class Choice:
    words: str  # the command line, as `iridescia legal` prints it
    command: str  # its JSON, posted back as it is


def words(command: dict, game_id: str) -> str | None:
    """The command line that plays `command` (None for a command nobody types)."""
    from client.commands.acting import to_argv  # the CLI's words until engine/notation.py lands

    argv = to_argv(command, game_id)
    return None if argv is None else "iridescia " + shlex.join(argv)


def grouped(commands: list[dict], game_id: str) -> list[tuple[str, list[Choice]]]:
    """(step heading, choices) in the order of a turn, steps without a choice left out."""
    groups: dict[str, list[Choice]] = {}
    for command in commands:
        line = words(command, game_id)
        if line is None:
            continue
        step = next((name for name, kinds in STEPS if command["type"] in kinds), "Other")
        groups.setdefault(step, []).append(
            Choice(line, json.dumps(command, sort_keys=True, separators=(",", ":"))))
    order = [name for name, _ in STEPS] + ["Other"]
    return [(name, groups[name]) for name in order if name in groups]
