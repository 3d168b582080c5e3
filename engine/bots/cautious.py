"""The cautious policy: the server's stand-in for an absent player.

Deliberately dull (docs/automatic-play.md): it spends nothing that is the player's, no coin and no
item; it reveals, moves, answers pending decisions, restores what it can and ends the turn.
"""

from __future__ import annotations

import engine
from engine.bots.automatic import default_removal
from engine.bots.decisions import (
    _choose_gem,
    _discard_objective,
    _fallback,
    _give_gem,
    _keep_roll,
    _move,
    _relocate,
    _restore,
    _reveal,
)
from engine.bots.seen import Seen, _by_type, _commands

_CAUTIOUS_NEVER = {
    "mine",
    "buy",
    "sell",
    "play_item",
    "modify_die",
    "reroll",
    "roll_market",
}


def cautious_policy(state, seat, rng):
    """A safe, boring turn for an absent player: no coin or item is ever spent."""
    return cautious_choice(engine.view(state, seat), _commands(state, seat), rng)


def cautious_choice(view, commands, rng):
    """`cautious_policy` on what one seat sees: its view and its legal commands."""
    grouped = _by_type(commands)
    if set(grouped) == {"remove_tile"}:
        return default_removal(view, grouped["remove_tile"])
    for kind in _CAUTIOUS_NEVER:
        grouped.pop(kind, None)
    seen = Seen(view)
    if "choose_gem" in grouped:
        return _choose_gem(seen, grouped["choose_gem"], rng)
    if "give_gem" in grouped:
        return _give_gem(seen, grouped["give_gem"], rng)
    if "discard_objective" in grouped:
        return _discard_objective(seen, grouped["discard_objective"], rng)
    if "keep_roll" in grouped:
        return _keep_roll(seen, grouped["keep_roll"], rng)
    if "reveal" in grouped:
        return _reveal(seen, grouped["reveal"], rng)
    if "move" in grouped:
        return _move(seen, grouped["move"], rng, mining=False)
    if "relocate" in grouped:
        return _relocate(seen, grouped["relocate"], rng)
    if "restore" in grouped:
        return _restore(seen, grouped["restore"], rng)
    if "end_turn" in grouped:
        return grouped["end_turn"][0]
    if not grouped:
        raise ValueError(f"seat {view['viewer']} can only spend coins or items now")
    return _fallback(grouped, rng)
