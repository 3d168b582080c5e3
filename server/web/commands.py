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

from flask_babel import gettext as _
from flask_babel import ngettext

from engine import command_to_dict
from engine.data import display_name
from engine.text import notation
from engine.text.wording import Words


@dataclass(frozen=True)
class Control:
    notation: str  # the notation line, as `iridescia legal` prints it (data-command)
    label: str  # what the button says, in words a player reads
    command: str  # its JSON, posted back as it is
    kind: str  # the command's type


def name_or_id(component: str, words: Words | None = None) -> str:
    """A component's printed name (in the page's language when `words` is given)."""
    try:
        display_name(component)
    except KeyError:
        return component.replace("_", " ")
    return words.name(component) if words is not None else display_name(component)


def _die(die: str, words: Words) -> str:
    kind, _sep, rest = die.partition(":")
    if kind == "market":
        return _("the %(gem)s market die", gem=words.gem(rest))
    return _("die %(number)s", number=int(rest) + 1) if rest.isdigit() else die


def label(command: dict, names: dict[int, str], words: Words | None = None) -> str:
    """The words of one command (its dict form) for a button, in the page's language."""
    w = words or Words()
    kind = command["type"]
    if kind == "reveal":
        return _("Reveal %(hexes)s", hexes=w.and_list(list(command["hexes"])))
    if kind == "move":
        return _("Move to %(hex)s", hex=command["hex"])
    if kind == "relocate":
        if command.get("discard_tile"):
            return _("Relocate to %(hex)s, discarding %(tile)s", hex=command["hex"],
                     tile=name_or_id(command["discard_tile"], w))
        return _("Relocate to %(hex)s", hex=command["hex"])
    if kind == "remove_tile":
        return _("Remove the tile on %(hex)s", hex=command["hex"])
    if kind == "choose_gem":
        return _("Take %(gem)s", gem=w.gem(command["gem"]))
    if kind == "give_gem":
        to = command.get("to")
        if to is None:
            return _("Give %(gems)s back to the supply", gems=w.gems(command["gem"], 1))
        return _("Give %(gems)s to %(player)s", gems=w.gems(command["gem"], 1),
                 player=names.get(to) or _("another player"))
    if kind == "discard_objective":
        return _("Discard %(objective)s", objective=name_or_id(command["objective"], w))
    if kind == "mine":
        stones = command.get("stone_dice") or 0
        if not stones:
            return _("Mine")
        return ngettext("Mine with %(num)d stone die", "Mine with %(num)d stone dice", stones)
    if kind == "keep_roll":
        if command.get("gem"):
            return _("Keep the roll and take %(gem)s", gem=w.gem(command["gem"]))
        return _("Keep the roll")
    if kind == "reroll":
        return _("Reroll %(dice)s", dice=w.and_list(
            [_("die %(number)s", number=d + 1) for d in command["dice"]]))
    if kind == "modify_die":
        return _("%(item)s: %(die)s %(delta)s", item=name_or_id(command["item"], w),
                 die=_die(command["die"], w), delta=f"{command['delta']:+d}")
    if kind == "roll_market":
        return _("Roll the market for %(gems)s",
                 gems=w.and_list([w.gem(g) for g in command["gems"]]))
    if kind == "buy":
        return _("Buy %(item)s", item=name_or_id(command["item"], w))
    if kind == "sell":
        return _("Sell %(gems)s", gems=w.gems(command["gem"], command["count"]))
    if kind == "restore":
        return _("Restore %(relic)s", relic=name_or_id(command["relic"], w))
    if kind == "play_item":
        return _play_label(command, names, w)
    if kind == "end_turn":
        return _("End the turn")
    if kind == "undo":
        return _("Undo")
    return kind.replace("_", " ").capitalize()


def _play_label(command: dict, names: dict[int, str], w: Words) -> str:
    item = name_or_id(command["item"], w)
    details = []
    if command.get("give"):
        details.append(_("give %(gems)s", gems=w.and_list([w.gem(g) for g in command["give"]])))
    if command.get("take"):
        details.append(_("take %(gem)s", gem=w.gem(command["take"])))
    if command.get("gem"):
        details.append(w.gem(command["gem"]))
    if command.get("relic"):
        details.append(name_or_id(command["relic"], w))
    if command.get("hex"):
        details.append(_("on %(hex)s", hex=command["hex"]))
    if command.get("target") is not None:
        details.append(_("with %(player)s",
                         player=names.get(command["target"]) or _("another player")))
    if not details:
        return _("Play %(item)s", item=item)
    return _("Play %(item)s: %(details)s", item=item, details=_(", ").join(details))


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


def placed(commands: list, names: dict[int, str],
           words: Words | None = None) -> dict[str, list[Control]]:
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
        control = Control(line, label(as_dict, names, words),
                          json.dumps(as_dict, sort_keys=True, separators=(",", ":")),
                          as_dict["type"])
        out.setdefault(place(as_dict), []).append(control)
    return out
