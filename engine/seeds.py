"""The seed rules: how a game's dice seed is made from the server's seed and the players' words.

Rule "server" (every game made before the players' words existed, and any game without a rule):
the dice seed is the server's secret seed itself. Rule "mixed-1": the server publishes the sha256
of its seed when the game is made; each player adds a word when they sit down; at the start the
dice seed is the sha256 of the server's seed and the words in the order of the start command's
``player_ids`` (the table order); when no player gave a word, the server's seed alone. The
server committed before it saw a word, and a player never sees the server's seed, so neither can
steer the dice. A game keeps the rule it was made under.
"""

from __future__ import annotations

import hashlib
import re

SERVER_ONLY = "server"
MIXED = "mixed-1"
SEED_RULES = (SERVER_ONLY, MIXED)
# A word: letters, digits, '-' and '_' (no space or newline can blur where one word ends).
CONTRIBUTION = re.compile(r"[A-Za-z0-9_-]{1,64}")
CONTRIBUTION_HINT = "one word of up to 64 letters, digits, '-' or '_'"


def is_contribution(word: str) -> bool:
    return CONTRIBUTION.fullmatch(word) is not None


def seed_hash(seed: str) -> str:
    """The sha256 the server publishes when the game is made."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def dice_seed(server_seed: str, contributions: list[str], rule: str | None) -> str:
    """The seed every die of the game is drawn from (``engine.rng_for(dice_seed, version)``).
    ``contributions``: the players' words in table order, "" for a seat that gave none."""
    if rule in (None, SERVER_ONLY):
        return server_seed
    if rule != MIXED:
        raise ValueError(f"unknown seed rule {rule!r}: this engine knows {', '.join(SEED_RULES)}")
    if not any(contributions):
        # No word to mix: a hash of the seed alone would be the server's choice all the same.
        return server_seed
    text = "\n".join(["iridescia-seed", server_seed, *contributions])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
