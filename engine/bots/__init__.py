"""Bots by name: the levels players choose (`easy`, `medium`, `hard`: levels.py), the engine's
heuristic policies and the searches (strong.py, hard.py).

`choose(name, view, commands, rng)` decides from what one seat sees (its view and its legal
commands), as a client or a server-side bot seat can; `POLICIES[name](state, seat, rng)` makes the
same choice on an engine state (it builds the seat's view first, so no policy reads hidden state).
`level_policy(name)` is the policy of a level, given by its name or an old one (`strong`, ...).
"""

from __future__ import annotations

import engine
from engine.bots import policies, seen
from engine.bots.hard import HARD_BUDGET, hard_choice
from engine.bots.levels import LEVELS, NAMES, OLD_NAMES, UnknownLevel, level_of
from engine.bots.strong import DEFAULT_BUDGET, Budget, strong_choice

__all__ = [
    "CHOICES", "DEFAULT_BUDGET", "HARD_BUDGET", "LEVELS", "NAMES", "OLD_NAMES", "POLICIES",
    "Budget", "UnknownLevel", "choose", "hard_choice", "hard_policy", "level_choice",
    "level_of", "level_policy", "strong_choice", "strong_policy",
]


def strong_policy(state, seat, rng, budget: Budget | None = None):
    """`strong_choice` (the long search) on an engine state: it sees only `engine.view(state, seat)`."""
    return strong_choice(engine.view(state, seat), seen._commands(state, seat), rng, budget)


def hard_policy(state, seat, rng, budget: Budget | None = None):
    """`hard_choice` on an engine state: it sees only `engine.view(state, seat)`."""
    return hard_choice(engine.view(state, seat), seen._commands(state, seat), rng, budget)


LEVEL_CHOICES = {"easy": policies.cautious_choice, "medium": policies.greedy_choice, "hard": hard_choice}
LEVEL_POLICIES = {"easy": policies.cautious_policy, "medium": policies.greedy_policy, "hard": hard_policy}

# By name: the levels, the engine's own policies (`random` is the simulator's uniform player), and
# `strong`, the name `hard` had.
CHOICES = {**policies.CHOICES, **LEVEL_CHOICES, "strong": hard_choice}
POLICIES = {
    "random": policies.random_policy,
    "greedy": policies.greedy_policy,
    "cautious": policies.cautious_policy,
    **LEVEL_POLICIES,
    "strong": hard_policy,
}


def level_choice(name: str):
    """The choice function (`choice(view, commands, rng)`) of the level `name` or an old name."""
    return LEVEL_CHOICES[level_of(name)]


def level_policy(name: str):
    """The policy (`policy(state, seat, rng)`) of the level `name` or an old name."""
    return LEVEL_POLICIES[level_of(name)]


def choose(name: str, view: dict, commands: list, rng):
    """The command policy `name` picks from a seat's `view` and legal `commands`."""
    if name not in CHOICES:
        raise ValueError(f"unknown policy {name!r}: choose one of {', '.join(sorted(CHOICES))}")
    commands = [c for c in commands if c.type != "undo"]  # a bot never undoes
    if not commands:
        raise ValueError(f"seat {view['viewer']} has nothing to decide now")
    return CHOICES[name](view, commands, rng)
