"""What the policies read: a seat's legal commands, grouped by type, and its view (`Seen`).

`_commands` lists a seat's legal commands on an engine state, less `undo` (a bot never undoes);
`Seen` wraps one seat's view with the values every heuristic needs: what a gem is worth to a
player, how many of my gems no relic within reach needs, which row a hex is in. `_tile_worth` is
what moving onto a tile is worth to the seat.
"""

from __future__ import annotations

import engine
from engine import data

GEMS = ("amethyst", "citrine", "emerald", "sapphire")
HOLD_LIMIT = 7
CASTLE_ROW = 9


def command_type(command) -> str:
    """The command's JSON `type` ("reveal", "end_turn", ...)."""
    return command.type


def _commands(state, seat) -> list:
    # A bot never undoes: it would only go round in circles (its choices are its own to keep).
    commands = [c for c in engine.legal_commands(state, seat) if c.type != "undo"]
    if not commands:
        raise ValueError(f"seat {seat} has nothing to decide now")
    return commands


def _by_type(commands) -> dict[str, list]:
    grouped: dict[str, list] = {}
    for command in commands:
        same = grouped.get(command.type)
        if same is None:
            grouped[command.type] = [command]
        else:
            same.append(command)
    return grouped


def _relic_gems(relic_id) -> dict[str, int]:
    return data.RELICS[relic_id].requirement()


def _relic_points(relic_id) -> int:
    return data.RELICS[relic_id].points


class Seen:
    """A seat's view of the game, with the derived values the heuristics share."""

    def __init__(self, view):
        self.view = v = view
        self.seat = seat = v["viewer"]
        self.players = v["players"]
        self.me = self.players[seat]
        self.values = v["market"]["gem_values"]
        self.supply = v["market"]["supply"]
        self.relics = list(v["market"]["relics"])
        self.tiles = {h["hex"]: (row["row"], h) for row in v["board"] for h in row["hexes"]}

    def targets(self, player) -> list[str]:
        """The relics this player could restore: the row, plus their own reservations."""
        return self.relics + list(player.get("reserved_relics") or [])

    def worth(self, gem, player=None) -> float:
        """What one more `gem` is worth to `player` (default: me), in royalty points."""
        player = player or self.me
        hold = player["hold"]
        best = 0.0
        for relic in self.targets(player):
            needs = _relic_gems(relic)
            if hold.get(gem, 0) < needs.get(gem, 0):
                missing = sum(max(0, n - hold.get(g, 0)) for g, n in needs.items())
                best = max(best, _relic_points(relic) / missing)
        # A gem nobody's relic needs still sells, and counts half a point at the end.
        return best + 0.15 * self.values[gem] + 0.25

    def excess(self, gem) -> int:
        """How many of my `gem` no relic within reach needs."""
        held = self.me["hold"].get(gem, 0)
        needed = max((_relic_gems(r).get(gem, 0) for r in self.targets(self.me)), default=0)
        return max(0, held - needed)

    def held(self) -> int:
        return sum(self.me["hold"].values())

    def hex_row(self, name) -> int:
        return self.tiles[name][0]

    def my_row(self) -> int:
        position = self.me.get("position")
        return self.hex_row(position) if position else 0


def _tile_worth(seen: Seen, name: str, mining: bool) -> float:
    row, hex_ = seen.tiles[name]
    tile = hex_.get("tile") or {}
    gems = GEMS if (tile.get("rainbow") or tile.get("iridia")) else (tile.get("gem"),)
    gems = [g for g in gems if g]
    best_gem = max(gems, key=seen.worth) if gems else None
    score = 0.0
    if best_gem and seen.held() < HOLD_LIMIT:
        score += seen.worth(best_gem)
    if mining and best_gem:
        odds = (7 - seen.values[best_gem]) / 6
        score += 0.8 * odds * seen.worth(best_gem)
    if tile.get("iridia"):
        score += 10
    score += _bonus_worth(tile.get("bonus"))
    score += 1.2 * (row - seen.my_row())
    if row == CASTLE_ROW:
        score += 8
    return score


def _bonus_worth(bonus) -> float:
    if not bonus:
        return 0.0
    if isinstance(bonus, dict):
        kind, amount = bonus.get("kind") or bonus.get("type"), bonus.get("amount", 1)
    else:
        kind, amount = str(bonus), 1
    if "point" in kind:
        return float(amount)
    if "coin" in kind:
        return 0.5 * amount
    return 1.0  # a stone die
