"""Bots that choose one command at a time, only ever from `legal_commands`.

- `random_policy`: a uniform pick, stratified by command type so that long lists (every way to sell,
  every pair of hexes to reveal) do not drown out ending the turn; games therefore end.
- `greedy_policy`: a one-step heuristic player (mines when the odds are good, restores the most
  valuable relic, moves toward the gems the relic row needs, buys useful items).
- `cautious_policy`: the server's stand-in for an absent player: never spends coins or items;
  reveals, moves, answers pending decisions, restores what it can, ends the turn.
- `automatic_command`: the Rhom's turn, and the server's default removal turn: a tile the rearmost
  explorer still exploring could move onto next (engine/rules/removal.py); games of rules version 1
  keep the tile that hurts the players still exploring the least (see `default_removal`).

Each policy is a pair: `*_choice(view, commands, rng)` decides from what one seat may see (its
`view` and its legal commands), so a client can run it on what the server shows it; `*_policy(state,
seat, rng)` is the same choice made on an engine state. `choose(name, view, commands, rng)` picks by
name. Every policy is deterministic given what it sees and the generator passed in.

The parts: seen.py (a seat's legal commands and view, as the heuristics read them),
decisions.py (the choices the heuristic policies share), one module a policy
(uniform.py for the random one, greedy.py, cautious.py) and automatic.py (the Rhom's turn
and the default removal). Every public name is imported from here.
"""

from __future__ import annotations

from engine.bots.automatic import automatic_command, default_removal
from engine.bots.cautious import cautious_choice, cautious_policy
from engine.bots.greedy import ITEM_WISH, greedy_choice, greedy_policy
from engine.bots.seen import CASTLE_ROW, GEMS, HOLD_LIMIT, Seen, command_type
from engine.bots.uniform import RANDOM_WEIGHTS, random_choice, random_policy

__all__ = [
    "CASTLE_ROW", "CHOICES", "GEMS", "HOLD_LIMIT", "ITEM_WISH", "RANDOM_WEIGHTS", "Seen",
    "automatic_command", "cautious_choice", "cautious_policy", "choose", "command_type",
    "default_removal", "greedy_choice", "greedy_policy", "random_choice", "random_policy",
]

CHOICES = {"random": random_choice, "greedy": greedy_choice, "cautious": cautious_choice}


def choose(name, view, commands, rng):
    """The command policy `name` ("random", "greedy", "cautious") picks from a seat's `view` and
    legal `commands`: what a client that sees only the server's answers can run. A bot never
    undoes: that would only go round in circles."""
    commands = [c for c in commands if c.type != "undo"]
    if not commands:
        raise ValueError(f"seat {view['viewer']} has nothing to decide now")
    return CHOICES[name](view, commands, rng)
