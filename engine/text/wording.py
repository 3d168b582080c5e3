"""Words for game things: counts with their article, gems, coins, points, cards and dice.

The wording narration, score lines and emails share; names come from engine/data.py. The module's
functions write English; `Words(translations)` writes the same things in the language of a
gettext-like catalog (engine/text/language.py: the engine reads no file, the server loads the
catalog and passes it in).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.data import ITEMS, OBJECTIVES, RELICS, TILES, display_name
from engine.text.card_text import item_text as item_timing_and_effect
from engine.text.card_text import objective_condition
from engine.text.language import ENGLISH, Catalog

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


def item_label(item_id: str, translations: Catalog | None = None) -> str:
    """`Jolty Jackhammer (2c)`: the name and the price in coins."""
    item = ITEMS.get(item_id)
    name = (translations or ENGLISH).gettext(component_name(item_id))
    return f"{name} ({item.cost}c)" if item is not None else name


def relic_category(relic_id: str, translations: Catalog | None = None) -> str:
    """`Sapphire Spyglass (tech)`: a restored relic as the sets and objectives count it."""
    _ = (translations or ENGLISH).gettext
    relic = RELICS.get(relic_id)
    name = _(component_name(relic_id))
    if relic is None:
        return name
    return _("{name} ({category})").format(name=name, category=_(relic.category))


def relic_label(relic_id: str, translations: Catalog | None = None) -> str:
    """`Sapphire Spyglass (tech, 1C2S, 5p)`: name, category, the gems it needs, its points."""
    _ = (translations or ENGLISH).gettext
    relic = RELICS.get(relic_id)
    name = _(component_name(relic_id))
    if relic is None:
        return name
    needs = "".join(f"{count}{GEM_LETTERS[gem]}" for gem, count in relic.requirement().items())
    return _("{name} ({category}, {needs}, {points}p)").format(
        name=name, category=_(relic.category), needs=needs, points=relic.points)


def objective_label(objective_id: str, translations: Catalog | None = None) -> str:
    """`Glimmering Gold (7p)`: the name and the points it scores when met."""
    _ = (translations or ENGLISH).gettext
    objective = OBJECTIVES.get(objective_id)
    name = _(component_name(objective_id))
    if objective is None:
        return name
    return _("{name} ({points}p)").format(name=name, points=objective.points)


def objective_text(objective_id: str, rules_version: str | None = None,
                   translations: Catalog | None = None) -> str:
    """`Glimmering Gold (7p): The most coins at the end ...` (engine/text/card_text.py)."""
    if objective_id not in OBJECTIVES:
        return component_name(objective_id)
    condition = objective_condition(objective_id, rules_version, translations)
    return (translations or ENGLISH).gettext("{label}: {text}").format(
        label=objective_label(objective_id, translations), text=condition)


def item_text(item_id: str, rules_version: str | None = None,
              translations: Catalog | None = None) -> str:
    """`Jolty Jackhammer (2c): Change one die ... (when: ...)` (engine/text/card_text.py)."""
    if item_id not in ITEMS:
        return component_name(item_id)
    timing, effect = item_timing_and_effect(item_id, rules_version, translations)
    return (translations or ENGLISH).gettext("{label}: {effect} When: {timing}.").format(
        label=item_label(item_id, translations), effect=effect, timing=timing)


class Words:
    """The wording above in the language of `translations` (ENGLISH: the same as the module's
    functions). Each phrase is one whole message, so a language orders its words its own way."""

    def __init__(self, translations: Catalog | None = None):
        self.translations = translations or ENGLISH
        self._ = self.translations.gettext
        self.ngettext = self.translations.ngettext

    def and_list(self, parts: list[str]) -> str:
        if len(parts) == 1:
            return parts[0]
        return self._("{items} and {last}").format(items=self._(", ").join(parts[:-1]),
                                                   last=parts[-1])

    def gems(self, gem: str, n: int) -> str:
        ngettext = self.ngettext
        phrases = {
            "amethyst": ngettext("an amethyst", "{n} amethysts", n),
            "citrine": ngettext("a citrine", "{n} citrines", n),
            "emerald": ngettext("an emerald", "{n} emeralds", n),
            "sapphire": ngettext("a sapphire", "{n} sapphires", n),
        }
        return phrases[gem].format(n=n) if gem in phrases else count(n, gem)

    def gem(self, gem: str) -> str:
        """A gem's name alone, in lower case in English ("emerald")."""
        return self._(gem)

    def coins(self, n: int) -> str:
        return self.ngettext("{n} coin", "{n} coins", n).format(n=n)

    def points(self, n: int) -> str:
        return self.ngettext("{n} point", "{n} points", n).format(n=n)

    def stone_dice(self, n: int) -> str:
        return self.ngettext("a stone die", "{n} stone dice", n).format(n=n)

    def dice(self, n: int) -> str:
        return self.ngettext("a die", "{n} dice", n).format(n=n)

    def successes(self, n: int) -> str:
        return self.ngettext("a success", "{n} successes", n).format(n=n)

    def steps(self, n: int) -> str:
        return self.ngettext("a step", "{n} steps", n).format(n=n)

    def name(self, component_id: str | None) -> str:
        """A component's printed name in the catalog's language (engine/text/printed_names.py
        puts every printed name of engine/data.py in the catalog)."""
        return self._(component_name(component_id))

    def the(self, component_id: str) -> str:
        printed = self.name(component_id)
        if printed.startswith("The "):
            return printed
        return self._("the {name}").format(name=printed)

    def die(self, die_id: str) -> str:
        kind, _, rest = die_id.partition(":")
        if kind == "market":
            return self._("the {gem} market die").format(gem=self.gem(rest))
        ordinals = (self._("the first die"), self._("the second die"), self._("the third die"),
                    self._("the fourth die"), self._("the fifth die"), self._("the sixth die"))
        index = int(rest) if rest.isdigit() else -1
        return ordinals[index] if 0 <= index < len(ordinals) else self.dice(1)

    def numbers(self, values) -> str:
        return self.and_list([str(v) for v in values]) if values else self._("nothing")

    def gem_list(self, counts: Mapping[str, int]) -> str:
        return self.and_list([self.gems(g, n) for g, n in counts.items() if n]) or self._("no gems")

    def region(self, region: str) -> str:
        return self._(region.capitalize())

    def category(self, category: str) -> str:
        """A relic category as the sets count it: jewelry, tech, lore, iridia."""
        return self._(category)

    def tile_region(self, tile_id: str) -> str:
        tile = TILES.get(tile_id)
        return self.region(tile.region) if tile else "?"
