"""Human names for component ids, and turning what a user typed back into an id.

The names come from the engine's data module, the one place the card texts live; the client
only falls back to a readable form of the id when the engine does not know it.
"""

from __future__ import annotations

GEMS = ("amethyst", "citrine", "emerald", "sapphire")
GEM_LETTERS = {"amethyst": "A", "citrine": "C", "emerald": "E", "sapphire": "S"}


def _engine_data():
    try:
        from engine import data
    except ImportError:  # the client can draw a view without the engine installed
        return None
    return data


def display_name(component_id: str) -> str:
    data = _engine_data()
    if data is not None and hasattr(data, "display_name"):
        try:
            return str(data.display_name(component_id))
        except (KeyError, ValueError, LookupError):
            pass
    return component_id.replace("_", " ").replace("-", " ").title()


def to_id(text: str) -> str:
    """`Jolty Jackhammer`, `jolty-jackhammer` and `jolty_jackhammer` all name one item."""
    return "_".join(text.strip().lower().replace("-", " ").replace("'", "").split())


def parse_gem(text: str) -> str:
    """A gem by name or by its first letter(s): `emerald`, `Em`, `e`."""
    word = text.strip().lower()
    matches = [gem for gem in GEMS if gem.startswith(word)] if word else []
    if len(matches) != 1:
        raise ValueError(f"{text!r} is not a gem: use amethyst, citrine, emerald or sapphire")
    return matches[0]


def item_label(item_id: str) -> str:
    """`Jolty Jackhammer (2c)`: the name and the price in coins, when the engine knows it."""
    data = _engine_data()
    item = getattr(data, "ITEMS", {}).get(item_id) if data is not None else None
    name = display_name(item_id)
    return f"{name} ({item.cost}c)" if item is not None else name


def relic_label(relic_id: str) -> str:
    """`Sapphire Spyglass (2S1C 5p)`: the name, the gems it needs and its royalty points."""
    data = _engine_data()
    relic = getattr(data, "RELICS", {}).get(relic_id) if data is not None else None
    name = display_name(relic_id)
    if relic is None:
        return name
    needs = "".join(f"{count}{GEM_LETTERS[gem]}" for gem, count in relic.requirement().items())
    return f"{name} ({needs} {relic.points}p)"
