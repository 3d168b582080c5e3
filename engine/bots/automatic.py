"""The commands the engine plays by itself: the Rhom's turn, and the default removal turn.

`automatic_command` is what the scheduler and the simulator play when no human has a decision to
make; `default_removal` is the removal a finished player who does not choose gets, by the game's
rules version (engine/rules/removal.py from version 2, the tile that hurts least in version 1).
"""

from __future__ import annotations

import engine
from engine.rules.removal import rearmost_removal


def automatic_command(state):
    """The command the engine plays by itself now: the Rhom's turn, or a default removal turn.

    None when a human has a decision to make (or the game is over).
    """
    kind = engine.pending_kind(state)
    if kind not in ("rhom", "removal"):
        return None
    seat = engine.current_player(state)
    commands = engine.legal_commands(state, seat)
    if kind == "rhom":
        return commands[0]
    return default_removal(engine.view(state, None), commands)



def default_removal(view, commands):
    """The server's removal for a finished player who does not choose, by the game's rules
    version: from version 2 a tile the rearmost explorer could move onto next (R28,
    engine/rules/removal.py); version 1 (below) the tile that hurts least.

    Version 1's preference: a tile behind every explorer still exploring (nobody can reach it any more), then
    the tile farthest from them; ties go to the lowest row, then the leftmost hex. Deterministic,
    so a removal played by the scheduler is the same whenever it runs.
    """
    if engine.rules_for(view.get("rules_version")).removal_near_rearmost:

        return rearmost_removal(view, commands)
    rows = {h["hex"]: row["row"] for row in view["board"] for h in row["hexes"]}
    explorers = [p.get("position") for p in view["players"] if not p.get("finished")]
    places = [_coordinates(p, rows) if p else (0, None) for p in explorers]

    def harm(command):
        row, column = _coordinates(command.hex, rows)
        reachable = [(r, c) for r, c in places if r <= row]
        if not reachable:
            return (0, 0, row, column)
        nearest = min(_distance((row, column), place) for place in reachable)
        return (len(reachable), -nearest, row, column)

    return min(commands, key=harm)


def _coordinates(name, rows):
    """(row, doubled column) of a hex name like "4c": 7-hex rows use even columns."""
    row = rows.get(name) or int(name[:-1])
    index = ord(name[-1]) - ord("a")
    return row, 2 * index + (0 if row % 2 == 0 else 1)


def _distance(a, b) -> int:
    (r1, c1), (r2, c2) = a, b
    if c2 is None:  # the airship: adjacent to every hex of row 1
        return r1
    dr, dc = abs(r1 - r2), abs(c1 - c2)
    return dr + max(0, (dc - dr) // 2)
