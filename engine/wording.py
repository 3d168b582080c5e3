"""English for game things: counts with their article, gems, coins, points, cards and dice.

The wording narration, score lines and emails share; names come from engine/data.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .data import ITEMS, OBJECTIVES, RELICS, display_name

# What a terminal or a mail reader would obey rather than show: C0 and C1 controls (CR, LF, TAB,
# ESC, BEL, the 8-bit CSI 0x9b...), DEL, and the invisible characters that reorder or break the
# text around them (bidi marks, overrides and isolates, the line and paragraph separators). The
# zero-width joiners stay: emoji names need them. One class for the engine's words, the server's
# refusals and headers, and the client's terminal.
CONTROL_CHARACTERS = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``text`` with each control character shown as its escape (``\\x1b``, ``\\u202e``), for a
    terminal: seen, not obeyed."""
    return CONTROL_CHARACTERS.sub(_escape, str(text))


def clean(text: object) -> str:
    """Text another person wrote (a name), without what a terminal or a mail reader would obey."""
    return CONTROL_CHARACTERS.sub("", str(text))


def and_list(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def count(n: int, singular: str, plural: str | None = None) -> str:
    if n == 1:
        article = "an" if singular[0] in "aeiou" else "a"
        return f"{article} {singular}"
    return f"{n} {plural or singular + 's'}"


def gems(gem: str, n: int) -> str:
    return count(n, gem)


def coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def component_name(component_id: str | None) -> str:
    if not component_id:
        return "?"
    try:
        return display_name(component_id)
    except KeyError:
        return component_id.replace("_", " ")


def the(component_id: str) -> str:
    printed = component_name(component_id)
    return printed if printed.startswith("The ") else f"the {printed}"


def die(die_id: str) -> str:
    """`roll:1` is "the second die", `market:emerald` "the emerald market die"."""
    kind, _, rest = die_id.partition(":")
    if kind == "market":
        return f"the {rest} market die"
    ordinal = ("first", "second", "third", "fourth", "fifth", "sixth")
    index = int(rest) if rest.isdigit() else -1
    return f"the {ordinal[index]} die" if 0 <= index < len(ordinal) else "a die"


def numbers(values) -> str:
    return and_list([str(v) for v in values]) if values else "nothing"


def gem_list(counts: Mapping[str, int]) -> str:
    return and_list([gems(g, n) for g, n in counts.items() if n]) or "no gems"


GEM_LETTERS = {"amethyst": "A", "citrine": "C", "emerald": "E", "sapphire": "S"}


def item_label(item_id: str) -> str:
    """`Jolty Jackhammer (2c)`: the name and the price in coins."""
    item = ITEMS.get(item_id)
    name = component_name(item_id)
    return f"{name} ({item.cost}c)" if item is not None else name


def relic_label(relic_id: str) -> str:
    """`Sapphire Spyglass (tech, 1C2S, 5p)`: name, category, the gems it needs, its points."""
    relic = RELICS.get(relic_id)
    name = component_name(relic_id)
    if relic is None:
        return name
    needs = "".join(f"{count}{GEM_LETTERS[gem]}" for gem, count in relic.requirement().items())
    return f"{name} ({relic.category}, {needs}, {relic.points}p)"


_OBJECTIVE_GOALS = {
    "most_coins": "the most coins at the end",
    "most_tiles": "the most {param} tiles (your rainbow tiles and the Iridia Stone are wild)",
    "relic_each_lead_gem": "a relic of each lead gem: amethyst, citrine, emerald and sapphire",
    "most_lead_gem_relics": "the most relics whose lead gem is {param} (Iridia relics are wild)",
    "relic_count": "{param} or more relics",
    "most_category": "the most {param} relics (Iridia relics are wild)",
    "relic_each_category": "a relic of each category: jewelry, tech and lore",
}


def objective_text(objective_id: str) -> str:
    """`Glimmering Gold (7p): the most coins at the end`; "most" is met on a tie (RULINGS §7)."""
    objective = OBJECTIVES.get(objective_id)
    if objective is None:
        return component_name(objective_id)
    goal = _OBJECTIVE_GOALS[objective.kind].format(param=objective.param)
    tie = "; a tie for most counts" if objective.kind.startswith("most") else ""
    return f"{objective.name} ({objective.points}p): {goal}{tie}"
