"""The random policy: a uniform pick, stratified by command type.

Long lists (every way to sell, every pair of hexes to reveal) would drown out ending the turn if
every command were equally likely; picking a type first keeps games going to their end.
"""

from __future__ import annotations

from engine.bots.seen import _by_type, _commands

# Types the random policy picks less or more often than the others.
RANDOM_WEIGHTS = {"restore": 4.0, "move": 2.0, "reveal": 2.0, "buy": 0.5, "sell": 0.5}


def random_policy(state, seat, rng):
    """A legal command chosen at random: first a command type, then a command of that type."""
    return random_choice(None, _commands(state, seat), rng)


def random_choice(view, commands, rng):
    """`random_policy` on a seat's legal commands (the view is not needed)."""
    grouped = _by_type(commands)
    if "end_turn" in grouped and ("move" in grouped or "relocate" in grouped):
        # Ending the turn before moving would only waste the turn; keep games moving forward.
        del grouped["end_turn"]
    if len(grouped) == 1:
        (only,) = grouped.values()
        return only[0] if len(only) == 1 else rng.choice(only)
    types = sorted(grouped)
    weights = [RANDOM_WEIGHTS.get(t, 1.0) for t in types]
    point = rng.random() * sum(weights)
    kind = types[-1]
    for name, weight in zip(types, weights, strict=True):
        point -= weight
        if point < 0:
            kind = name
            break
    return rng.choice(grouped[kind])
