"""A random word for the dice (engine/seeds.py): made here, on the player's machine, so the
server cannot have chosen it."""

from __future__ import annotations

import secrets

_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


def random_word() -> str:
    """Two made-up words of three syllables, e.g. 'tolami-veruko' (about 41 bits)."""
    def part() -> str:
        return "".join(secrets.choice(_CONSONANTS) + secrets.choice(_VOWELS) for _ in range(3))
    return f"{part()}-{part()}"
