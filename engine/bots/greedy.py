"""The greedy policy: a one-step heuristic player that makes simulated games look like real ones.

It mines when the odds are good, restores the most valuable relic, moves toward the gems the relic
row needs and buys the items worth their price (`ITEM_WISH`, which engine/bots/playout.py reads
too). Decisions shared with the cautious stand-in are in decisions.py.
"""

from __future__ import annotations

import engine
from engine import data
from engine.bots.automatic import default_removal
from engine.bots.decisions import (
    _choose_gem,
    _discard_objective,
    _fallback,
    _give_gem,
    _keep_roll,
    _move,
    _pick,
    _relocate,
    _restore,
    _reveal,
)
from engine.bots.seen import (
    GEMS,
    HOLD_LIMIT,
    Seen,
    _by_type,
    _commands,
    _relic_gems,
    _relic_points,
)

# How much the greedy player wants each item, in royalty points; items not listed are not bought.
ITEM_WISH = {
    "epic_elixir": 6.0,
    "prosperous_pickaxe": 5.0,
    "marvelous_mine_cart": 3.5,
    "axe_of_awesomeness": 3.0,
    "cauldron_of_fortune": 2.0,
    "dazzling_dynamite": 2.0,
    "jolty_jackhammer": 1.5,
    "wishing_well": 2.0,
    "regal_reference_book": 1.0,
    "lucky_libation": 1.0,
}


def greedy_policy(state, seat, rng):
    """A one-step heuristic player: good enough to make simulated games look like real ones."""
    return greedy_choice(engine.view(state, seat), _commands(state, seat), rng)


def greedy_choice(view, commands, rng):
    """`greedy_policy` on what one seat sees: its view and its legal commands."""
    grouped = _by_type(commands)
    seen = Seen(view)
    only = next(iter(grouped)) if len(grouped) == 1 else None

    if only == "remove_tile":
        return default_removal(view, grouped["remove_tile"])
    for kind, decide in (
        ("choose_gem", _choose_gem),
        ("give_gem", _give_gem),
        ("discard_objective", _discard_objective),
    ):
        if kind in grouped:
            return decide(seen, grouped[kind], rng)
    if "keep_roll" in grouped:
        return _greedy_roll(seen, grouped, rng)
    if "reveal" in grouped:
        return _reveal(seen, grouped["reveal"], rng)
    if "move" in grouped:
        return _move(seen, grouped["move"], rng, mining=True)
    if "relocate" in grouped:
        return _relocate(seen, grouped["relocate"], rng)
    action = _greedy_action(seen, grouped, rng)
    if action is not None:
        return action
    if "restore" in grouped:
        return _restore(seen, grouped["restore"], rng)
    if "end_turn" in grouped:
        return grouped["end_turn"][0]
    return _fallback(grouped, rng)



def _items_played(grouped, item):
    return [c for c in grouped.get("play_item", []) if c.item == item]


def _greedy_roll(seen, grouped, rng):
    roll = seen.view.get("roll") or {}
    target = roll.get("target")
    dice = list(roll.get("dice", [])) + list(roll.get("stone", []))
    if target is not None and seen.held() < HOLD_LIMIT:
        fixes = []
        for c in grouped.get("modify_die", []):
            if c.die.startswith("roll:"):
                value = dice[int(c.die.split(":")[1])]
                if value < target <= value + c.delta <= 6:
                    fixes.append(c)
        if fixes:
            cheapest = {"jolty_jackhammer": 0, "dazzling_dynamite": 1}
            return min(fixes, key=lambda c: (cheapest.get(c.item, 2), c.delta, c.die))
        failed = [i for i, v in enumerate(dice) if v < target]
        for c in grouped.get("reroll", []):
            if failed and sorted(c.dice) == failed:
                return c
    return _keep_roll(seen, grouped["keep_roll"], rng)


def _greedy_action(seen, grouped, rng):
    """The next optional action worth taking (step 3), or None to move on to restoring."""
    me = seen.me
    coins = me["coins"]
    mining_cost = seen.view["options"].get("mining_cost", 1)

    elixir = _items_played(grouped, "epic_elixir")
    if elixir:
        return elixir[0]

    buys = [c for c in grouped.get("buy", []) if c.item in ITEM_WISH]
    if buys:
        costs = {c.item: data.ITEMS[c.item].cost for c in buys}
        affordable = [c for c in buys if coins - costs[c.item] >= mining_cost]
        if affordable:
            best = max(affordable, key=lambda c: (ITEM_WISH[c.item] - 0.3 * costs[c.item], c.item))
            if ITEM_WISH[best.item] - 0.3 * costs[best.item] > 0.8:
                return best

    sells = grouped.get("sell", [])
    if sells:
        short = coins < mining_cost + 1
        full = seen.held() >= HOLD_LIMIT - 1

        def sell_gain(c):
            if c.count > seen.excess(c.gem):
                return -1
            return c.count * seen.values[c.gem]

        best = max(sells, key=lambda c: (sell_gain(c), c.gem))
        if sell_gain(best) > 0 and (short or (full and seen.values[best.gem] >= 4)):
            return best

    axes = [c for c in _items_played(grouped, "axe_of_awesomeness")]
    if axes and seen.held() < HOLD_LIMIT:
        return max(axes, key=lambda c: (seen.worth(c.gem), c.gem))

    cauldrons = _items_played(grouped, "cauldron_of_fortune")
    if cauldrons:

        def trade(c):
            return seen.worth(c.take) - sum(seen.worth(g) for g in c.give)

        best = max(cauldrons, key=lambda c: (trade(c), c.take, tuple(c.give)))
        if trade(best) > 1.0:
            return best

    wells = _items_played(grouped, "wishing_well")
    if wells and seen.held() < HOLD_LIMIT:
        return wells[0]

    books = _items_played(grouped, "regal_reference_book")
    if books:
        return _pick(books, lambda c: _relic_points(c.relic) - 2 * _missing(seen, c.relic), rng)

    mines = grouped.get("mine", [])
    # Two free slots: a lucky roll on a full hold would only feed the others.
    if mines and coins >= mining_cost and seen.held() <= HOLD_LIMIT - 2:
        gem = _mined_gem(seen)
        if gem is not None:
            odds = (7 - seen.values[gem]) / 6
            if odds * 2 * seen.worth(gem) > mining_cost * 0.6 and odds >= 1 / 3:
                for item in ("prosperous_pickaxe", "marvelous_mine_cart"):
                    declared = _items_played(grouped, item)
                    if declared:
                        return rng.choice(declared)
                stone = max(c.stone_dice for c in mines) if seen.values[gem] >= 4 else 0
                return next((c for c in mines if c.stone_dice == stone), mines[0])
    return None


def _missing(seen, relic) -> int:
    hold = seen.me["hold"]
    return sum(max(0, n - hold.get(g, 0)) for g, n in _relic_gems(relic).items())


def _mined_gem(seen):
    """The gem mining would yield where I stand."""
    position = seen.me.get("position")
    if not position:
        return None
    tile = seen.tiles[position][1].get("tile") or {}
    gem = seen.view.get("turn", {}).get("gem") or tile.get("gem")
    if gem in GEMS:
        return gem
    return None
