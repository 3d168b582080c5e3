"""Bots by name: the engine's heuristic policies and the `strong` search (strong.py).

`choose(name, view, commands, rng)` decides from what one seat sees (its view and its legal
commands), as a client or a server-side bot seat can; `POLICIES[name](state, seat, rng)` makes the
same choice on an engine state (it builds the seat's view first, so no policy reads hidden state).
"""

from __future__ import annotations

import engine
from engine.bots import policies, seen
from engine.bots.strong import DEFAULT_BUDGET, Budget, strong_choice

__all__ = ["CHOICES", "POLICIES", "Budget", "DEFAULT_BUDGET", "choose", "strong_choice", "strong_policy"]


def strong_policy(state, seat, rng, budget: Budget | None = None):
    """`strong_choice` on an engine state: it sees only `engine.view(state, seat)`."""
    return strong_choice(engine.view(state, seat), seen._commands(state, seat), rng, budget)


CHOICES = {**policies.CHOICES, "strong": strong_choice}
POLICIES = {
    "random": policies.random_policy,
    "greedy": policies.greedy_policy,
    "cautious": policies.cautious_policy,
    "strong": strong_policy,
}


def choose(name: str, view: dict, commands: list, rng):
    """The command policy `name` picks from a seat's `view` and legal `commands`."""
    if name not in CHOICES:
        raise ValueError(f"unknown policy {name!r}: choose one of {', '.join(sorted(CHOICES))}")
    commands = [c for c in commands if c.type != "undo"]  # a bot never undoes
    if not commands:
        raise ValueError(f"seat {view['viewer']} has nothing to decide now")
    return CHOICES[name](view, commands, rng)
