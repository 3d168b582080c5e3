"""The player's legal commands as controls placed where they apply on the page: a hex's reveal,
move or removal on that hex, a buy on the market card, a restore on the relic, a play on the item,
a gem's choice or gift on the gem, the roll's choices beside the dice, the end of the turn and the
undo in the bar that stays on screen.

Each control is a form posting the command itself (so it works without JavaScript), labelled in
words with names from engine/data.py, and carrying its notation line (engine/text/notation.py:
what `iridescia legal` prints and a reply by mail may say) in `data-command`. The commands are the
server's `legal` ones: the page decides no rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine import command_to_dict
from engine.data import display_name
from engine.text import notation


@dataclass(frozen=True)
class Control:
    notation: str  # the notation line, as `iridescia legal` prints it (data-command)
    label: str  # what the button says, in words a player reads
    command: str  # its JSON, posted back as it is
    kind: str  # the command's type


def name_or_id(component: str) -> str:
    try:
        return display_name(component)
    except KeyError:
        return component.replace("_", " ")


def _gem(gem: str, count: int = 1) -> str:
    if count == 1:
        return f"{'an' if gem[0] in 'aeiou' else 'a'} {gem}"
    return f"{count} {gem}s"


def _die(die: str) -> str:
    kind, _, rest = die.partition(":")
    if kind == "market":
        return f"the {rest} market die"
    return f"die {int(rest) + 1}" if rest.isdigit() else die


def label(command: dict, names: dict[int, str]) -> str:
    """The words of one command (its dict form) for a button."""
    kind = command["type"]
    if kind == "reveal":
        return "Reveal " + " and ".join(command["hexes"])
    if kind == "move":
        return f"Move to {command['hex']}"
    if kind == "relocate":
        words = f"Relocate to {command['hex']}"
        if command.get("discard_tile"):
            words += f", discarding {name_or_id(command['discard_tile'])}"
        return words
    if kind == "remove_tile":
        return f"Remove the tile on {command['hex']}"
    if kind == "choose_gem":
        return f"Take {command['gem']}"
    if kind == "give_gem":
        to = command.get("to")
        if to is None:
            return f"Give {_gem(command['gem'])} back to the supply"
        return f"Give {_gem(command['gem'])} to {names.get(to, 'another player')}"
    if kind == "discard_objective":
        return f"Discard {name_or_id(command['objective'])}"
    if kind == "mine":
        stones = command.get("stone_dice") or 0
        return "Mine" + (f" with {stones} stone {'die' if stones == 1 else 'dice'}" if stones else "")
    if kind == "keep_roll":
        return f"Keep the roll and take {command['gem']}" if command.get("gem") else "Keep the roll"
    if kind == "reroll":
        return "Reroll " + " and ".join(f"die {d + 1}" for d in command["dice"])
    if kind == "modify_die":
        return f"{name_or_id(command['item'])}: {_die(command['die'])} {command['delta']:+d}"
    if kind == "roll_market":
        return "Roll the market for " + ", ".join(command["gems"])
    if kind == "buy":
        return f"Buy {name_or_id(command['item'])}"
    if kind == "sell":
        return f"Sell {_gem(command['gem'], command['count'])}"
    if kind == "restore":
        return f"Restore {name_or_id(command['relic'])}"
    if kind == "play_item":
        return _play_label(command, names)
    if kind == "end_turn":
        return "End the turn"
    if kind == "undo":
        return "Undo"
    return kind.replace("_", " ").capitalize()


def _play_label(command: dict, names: dict[int, str]) -> str:
    words = f"Play {name_or_id(command['item'])}"
    details = []
    if command.get("give"):
        details.append("give " + " and ".join(command["give"]))
    if command.get("take"):
        details.append(f"take {command['take']}")
    if command.get("gem"):
        details.append(command["gem"])
    if command.get("relic"):
        details.append(name_or_id(command["relic"]))
    if command.get("hex"):
        details.append(f"on {command['hex']}")
    if command.get("target") is not None:
        details.append(f"with {names.get(command['target'], 'another player')}")
    return words + (": " + ", ".join(details) if details else "")


def place(command: dict) -> str:
    """Where on the page a command's control goes: `hex:3c`, `buy:ITEM`, `relic:RELIC`,
    `item:ITEM`, `gem`, `objective`, `roll`, `market` or `bar`."""
    kind = command["type"]
    if kind == "reveal":
        return f"hex:{command['hexes'][0]}"
    if kind in ("move", "relocate", "remove_tile"):
        return f"hex:{command['hex']}"
    if kind == "buy":
        return f"buy:{command['item']}"
    if kind == "restore":
        return f"relic:{command['relic']}"
    if kind == "play_item":
        return f"item:{command['item']}"
    if kind in ("choose_gem", "give_gem"):
        return "gem"
    if kind == "discard_objective":
        return "objective"
    if kind in ("keep_roll", "reroll", "modify_die", "mine"):
        return "roll"
    if kind in ("sell", "roll_market"):
        return "market"
    return "bar"


def placed(commands: list, names: dict[int, str]) -> dict[str, list[Control]]:
    """The legal engine commands as controls, by place, in the order `legal` gives them; the
    commands nobody types are left out, and one control stands for two orders of one reveal."""
    out: dict[str, list[Control]] = {}
    seen: set[str] = set()
    for command in commands:
        if not notation.has_notation(command):
            continue
        line = notation.format(command)
        if line in seen:
            continue
        seen.add(line)
        as_dict = command_to_dict(notation.canonical(command))
        control = Control(line, label(as_dict, names),
                          json.dumps(as_dict, sort_keys=True, separators=(",", ":")),
                          as_dict["type"])
        out.setdefault(place(as_dict), []).append(control)
    return out
