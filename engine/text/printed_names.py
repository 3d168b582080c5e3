"""Every printed name of engine/data.py and every card text of engine/text/card_text.py as a
message of the engine's catalog.

Words.name() and the card texts translate a message chosen at run time (`_(display_name(id))`,
`_(ITEM_TEXTS[id][1])`), which no extractor can find in the source: Babel calls `extract` for
engine/data.py (babel-engine.cfg) and gets each name, gem, region, relic category, Rhom icon and
card text as a message instead.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.data import (
    GEMS,
    ITEMS,
    OBJECTIVES,
    REGIONS,
    RELICS,
    RHOM_CARDS,
    ROYALTY_POINTS,
    TILES,
    display_name,
)
from engine.text import board, card_text

CATEGORIES = ("jewelry", "tech", "lore", "iridia")
# Words of a view the text board shows as they are: the turn's phases, the kinds of roll, the
# leftover-gems variant, the Rhom's weathervane.
VIEW_WORDS = ("reveal", "move", "actions", "restore", "mine", "wishing_well", "roll", "any",
              "same_type", "left", "right")


def printed_names() -> list[str]:
    """Each message once, in a stable order."""
    names: list[str] = []
    for table in (ITEMS, RELICS, OBJECTIVES, TILES, ROYALTY_POINTS):
        names.extend(display_name(component_id) for component_id in table)
    names.extend(gem.capitalize() for gem in GEMS)
    names.extend(GEMS)
    names.extend(region.capitalize() for region in REGIONS)
    names.extend(CATEGORIES)
    names.extend(card.icon for card in RHOM_CARDS.values())
    names.extend(category.capitalize() for category in CATEGORIES)
    for timing, effect in card_text.ITEM_TEXTS.values():
        names += [timing, effect]
    names.extend(card_text.OBJECTIVE_TEXTS.values())
    names.append(card_text._MOST)
    for wilds in card_text.WILDS.values():
        names.extend(wilds.values())
    for texts in card_text.VERSION_TEXTS.values():
        names.extend(texts.values())
    names.extend(VIEW_WORDS)
    names.extend(board.LEGEND)
    names.append(board.EXPLORERS)
    return list(dict.fromkeys(names))


def extract(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:  # noqa: ANN001
    """A Babel extraction method: the names, whatever the file says."""
    for name in printed_names():
        yield 1, "gettext", name, ["a printed name (engine/data.py)"]
