"""The commands worth searching: a short list drawn from a seat's legal commands.

Legal lists can be long (every way to sell, every die an item may change, every relic a Reference
Book may reserve); the search spends its playouts better on a few distinct choices. Every item a
seat holds keeps at least one of its plays in the list (the Catapult's landings, Swapping Stones'
targets, Lucky Libation's market rolls included), so the search can play any of them.
"""

from __future__ import annotations

from engine.bots import decisions, policies
from engine.data import GEMS, RELICS

# Beyond this many relics a Reference Book may reserve, keep the ones closest to being restored.
BOOK_CHOICES = 3


def _by_type(commands) -> dict[str, list]:
    grouped: dict[str, list] = {}
    for c in commands:
        grouped.setdefault(c.type, []).append(c)
    return grouped


def shortlist(view: dict, commands: list) -> list:
    """Distinct, plausible commands among `commands` (in their order; never empty)."""
    grouped = _by_type(commands)
    if set(grouped) == {"remove_tile"}:
        return [policies.default_removal(view, commands)]
    seen = policies.Seen(view)
    out: list = []
    for kind, same in grouped.items():
        pick = _PICKS.get(kind)
        out += same if pick is None else pick(seen, same)
    return list(dict.fromkeys(out)) or list(commands[:1])


def _reveals(seen, commands):
    # A reveal of two hexes is the same whatever their order; two are kept over one when possible.
    pairs = {frozenset(c.hexes): c for c in commands if len(c.hexes) == 2}
    return list(pairs.values()) or commands


def _relocations(seen, commands):
    best: dict[str, object] = {}
    for c in commands:
        if c.hex not in best:
            best[c.hex] = decisions._relocate(seen, [d for d in commands if d.hex == c.hex], _NoRandom())
    return list(best.values())


def _mines(seen, commands):
    fewest = min(commands, key=lambda c: c.stone_dice)
    most = max(commands, key=lambda c: c.stone_dice)
    return [fewest, most]


def _sells(seen, commands):
    out = []
    for gem in GEMS:
        same = [c for c in commands if c.gem == gem]
        if same:
            out += [min(same, key=lambda c: c.count), max(same, key=lambda c: c.count)]
    return out


def _gives(seen, commands):
    # One recipient per gem: the rival it helps least (fewest points).
    out = {}
    for c in sorted(commands, key=lambda c: seen.players[c.to]["points"] if c.to is not None else 0):
        out.setdefault(c.gem, c)
    return list(out.values())


def _modify_die(seen, commands):
    """Die changes that can matter: a failed mining die made good, or a market die moved the way
    that helps me (my tile's gem cheaper to mine, a gem I hold dearer to sell)."""
    roll = seen.view.get("roll") or {}
    dice = list(roll.get("dice", [])) + list(roll.get("stone", []))
    target = roll.get("target")
    tile_gem = (seen.view.get("turn") or {}).get("tile_gem")
    most_held = max(GEMS, key=lambda g: seen.me["hold"].get(g, 0))
    out = {}
    for c in commands:
        kind, name = c.die.split(":")
        if kind == "roll":
            value = dice[int(name)]
            if target is not None and value < target <= value + c.delta <= 6:
                out.setdefault(("roll", c.item), c)
        elif name == tile_gem and c.delta < 0:
            out.setdefault((c.die, c.item, c.delta), c)
        elif name == most_held and c.delta > 0 and seen.values[name] + c.delta <= 6:
            out.setdefault((c.die, c.item, c.delta), c)
    return list(out.values())


def _rerolls(seen, commands):
    return [max(commands, key=lambda c: len(c.dice)), min(commands, key=lambda c: len(c.dice))]


def _market_rolls(seen, commands):
    # Roll one die (each gem), or all four.
    return [c for c in commands if len(c.gems) in (1, 4)]


def _items(seen, commands):
    out = []
    by_item: dict[str, list] = {}
    for c in commands:
        by_item.setdefault(c.item, []).append(c)
    for item, plays in by_item.items():
        if item == "regal_reference_book":
            out += sorted(plays, key=lambda c: _closeness(seen, c.relic), reverse=True)[:BOOK_CHOICES]
        elif item == "cauldron_of_fortune":
            def trade(c):
                return (seen.worth(c.take) - sum(seen.worth(g) for g in c.give), c.take, tuple(c.give))

            out += sorted(plays, key=trade, reverse=True)[:2]
        else:
            out += plays
    return out


def _closeness(seen, relic: str) -> tuple:
    """A relic's points less two per gem still missing: the Reference Book's best reservations."""
    hold = seen.me["hold"]
    missing = sum(max(0, n - hold.get(g, 0)) for g, n in RELICS[relic].requirement().items())
    return (RELICS[relic].points - 2 * missing, relic)


class _NoRandom:
    """Ties broken by order: the shortlist must not draw from the search's generator."""

    @staticmethod
    def choice(options):
        return options[0]


_PICKS = {
    "reveal": _reveals,
    "relocate": _relocations,
    "mine": _mines,
    "sell": _sells,
    "give_gem": _gives,
    "modify_die": _modify_die,
    "reroll": _rerolls,
    "roll_market": _market_rolls,
    "play_item": _items,
}
