"""Turning what a user typed back into an id or a gem (the names themselves are the engine's:
engine/data.py and engine/text/wording.py)."""

from __future__ import annotations

GEMS = ("amethyst", "citrine", "emerald", "sapphire")


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
