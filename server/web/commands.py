"""The player's legal commands as the page's forms: grouped by step of the turn, each labelled
with its notation line (engine/text/notation.py: what `iridescia legal` prints, and what a reply by
mail may say), each posting the command itself."""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine import command_to_dict
from engine.text import notation

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
    ("Undo", frozenset({"undo"})),
)


@dataclass(frozen=True)
class Choice:
    words: str  # the notation line, as `iridescia legal` prints it
    command: str  # its JSON, posted back as it is


def grouped(commands: list, game_id: str, undo_steps: int = 0) -> list[tuple[str, list[Choice]]]:
    """(step heading, choices) for engine commands, in the order of a turn; steps without a
    choice are left out, and so are commands nobody types. The undo's heading says how many
    steps it takes back (`undo_steps`, from the view)."""

    groups: dict[str, list[Choice]] = {}
    seen: set[str] = set()
    for command in commands:
        if not notation.has_notation(command):
            continue
        line = notation.format(command)
        if line in seen:  # two orders of the same reveal: one line, one form
            continue
        seen.add(line)
        as_dict = command_to_dict(notation.canonical(command))
        step = next((name for name, kinds in STEPS if as_dict["type"] in kinds), "Other")
        groups.setdefault(step, []).append(
            Choice(line, json.dumps(as_dict, sort_keys=True, separators=(",", ":"))))
    order = [name for name, _ in STEPS] + ["Other"]
    return [(_heading(name, undo_steps), groups[name]) for name in order if name in groups]


def _heading(name: str, undo_steps: int) -> str:
    if name != "Undo" or not undo_steps:
        return name
    return f"Undo: take back your last {undo_steps} step{'' if undo_steps == 1 else 's'}"
