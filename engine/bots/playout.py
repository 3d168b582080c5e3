"""Fast playouts: finish a (sampled) game with a cheap heuristic for every seat.

The search in `strong.py` plays tens of thousands of commands per decision, so the playout policy
reads the engine state directly instead of building a view (building one costs more than the rest
of a step). It plays like `engine.bots.policies.greedy_choice`: restore the most valuable relic, move
toward the gems the relic row needs, mine when the odds are fair and the hold has room, buy the
items worth having, sell surplus gems when short of coins; in a solo game it goes sideways while
it can instead of racing the Rhom. It runs only on sampled states inside
the search, so reading the (sampled) state hides nothing.
"""

from __future__ import annotations

import random

from engine.api import current_player, legal_commands
from engine.board import row_of
from engine.bots import policies
from engine.data import CASTLE_ROW, GEMS, HOLD_LIMIT, ITEMS, RELICS, TILES
from engine.rules.decide import decide
from engine.rules.evolve import evolve
from engine.state import State

# A game ends long before this many commands; the bound only stops a runaway playout.
MAX_PLAYOUT_COMMANDS = 3000
_REQUIRES = {r: RELICS[r].requires for r in RELICS}
_POINTS = {r: RELICS[r].points for r in RELICS}
# How much a solo playout prefers a tile beside it to one ahead (see _tile_score).
SIDEWAYS = 20.0
_BONUS = {"coins": 0.5, "points": 1.0, "stone_die": 1.0}
# The knobs below were tuned on solo playouts against the Rhom (800 games a setting, docs/
# bots.md): selling surplus gems sooner and mining at worse odds, with more room kept in the
# hold, took the playouts from 29 % of wins to about 50 %.
# Mining: the least chance a die succeeds, and how much the expected gems must outweigh the cost.
MINE_MIN_ODDS = 1 / 6
MINE_WORTH = 0.6
# Free hold slots mining needs (a lucky roll on a full hold only feeds the others).
MINE_ROOM = 3
# An item is bought when its wish less 0.3 a coin of its cost exceeds this.
BUY_MARGIN = 0.8
# Sell surplus gems of a value at least this when the hold is nearly full.
SELL_VALUE = 3
# Sell surplus when holding at least this many gems, or when short of coins for this many mines.
SELL_HELD = 5
SELL_COINS = 1
# Coins piled up unused (37 at the end of a solo playout on average): two items turn them into
# relics. A Regal Reference Book (2 coins) reserves the relic, from the row or the deck, with the
# most points less REF_MISSING a gem still missing, if at most BOOK_MISSING are; a Cauldron of
# Fortune (4) trades two gems for the one worth most. Each is bought from this many coins held
# (a Cauldron bought sooner starves mining: 49 % of wins from 5 coins, 63 % from 8).
BOOK_COINS = 4
BOOK_MISSING = 2
REF_MISSING = 2.0
CAULDRON_COINS = 8
CAULDRON_GAIN = 0.5


def gem_worth(state: State, seat: int) -> dict[str, float]:
    """What one more gem of each type is worth to `seat`, in royalty points (as greedy sees it)."""
    p = state.players[seat]
    hold = p.hold
    best = dict.fromkeys(GEMS, 0.0)
    for relic in state.relic_row + p.reserved_relics:
        requires = _REQUIRES[relic]
        missing = 0
        for gem, n in requires:
            if hold[gem] < n:
                missing += n - hold[gem]
        if missing:
            share = _POINTS[relic] / missing
            for gem, n in requires:
                if hold[gem] < n and share > best[gem]:
                    best[gem] = share
    values = state.gem_values
    return {gem: best[gem] + 0.15 * values[gem] + 0.25 for gem in GEMS}


def _excess(state: State, seat: int, gem: str) -> int:
    p = state.players[seat]
    needed = max((dict(_REQUIRES[r]).get(gem, 0) for r in state.relic_row + p.reserved_relics), default=0)
    return max(0, p.hold[gem] - needed)


def _best(commands, score, rng):
    top = max(score(c) for c in commands)
    return rng.choice([c for c in commands if score(c) == top])


def _tile_score(state: State, seat: int, hex_: str, worth: dict[str, float]) -> float:
    p = state.players[seat]
    tile = TILES[state.board[hex_]]
    gem = tile.gem or max(GEMS, key=worth.__getitem__)
    score = worth[gem] if p.gems < HOLD_LIMIT else 0.0
    if p.coins >= state.options.mining_cost:
        score += 0.8 * (7 - state.gem_values[gem]) / 6 * worth[gem]
    if tile.iridia:
        score += 10
    if tile.bonus is not None:
        score += _BONUS[tile.bonus.kind] * tile.bonus.amount
    if TILE_SETS:
        score += TILE_SETS * _set_progress(p.tiles, tile.gem)
    row = row_of(hex_)
    if _alone(state, seat):
        # Solo: the Rhom never removes tiles and the player plays on alone once it has finished,
        # so every turn more on the board is a tile, a gem and a chance to mine: go sideways
        # while one can (playouts win 9 % of solo games rushing ahead, 32 % this way).
        return score - SIDEWAYS * (row - row_of(p.position))
    score += 1.2 * (row - (row_of(p.position) if p.position else 0))
    if row == CASTLE_ROW:
        score += 8
    return score


# Tiles of one gem score 3, 7 and 12 points at 3, 5 and 7 of them (a rainbow counts as any gem).
_TILE_SET_POINTS = ((3, 3), (5, 7), (7, 12))
# How much a move weighs the progress its tile makes toward a set (0: not at all).
TILE_SETS = 0.0


def _set_progress(tiles, gem) -> float:
    """Points per tile still needed toward the next set of `gem` tiles (any gem for a rainbow)."""
    counts = dict.fromkeys(GEMS, 0)
    rainbows = 0
    for t in tiles:
        g = TILES[t].gem
        if g is None:
            rainbows += 1
        else:
            counts[g] += 1
    gems = (gem,) if gem else GEMS
    best = 0.0
    for g in gems:
        n, before = counts[g] + rainbows, 0
        for size, points in _TILE_SET_POINTS:
            if n < size:
                best = max(best, (points - before) / (size - n))
                break
            before = points
    return best


def _alone(state: State, seat: int) -> bool:
    """The seat's only rival is the Rhom (a solo game), and the seat is on the board."""
    return state.players[seat].position is not None and all(
        q.kind == "rhom" for q in state.players if q.seat != seat)


def playout_choice(state: State, seat: int, commands: list, rng: random.Random):
    """The heuristic's command for `seat` among its legal `commands`."""
    if len(commands) == 1:
        return commands[0]
    grouped: dict[str, list] = {}
    for c in commands:
        grouped.setdefault(c.type, []).append(c)
    # Pending decisions, reveals and rolls never share a list, so the order below only saves work.
    if "reveal" in grouped:
        ahead = -1 if _alone(state, seat) else 1
        return _best(grouped["reveal"], lambda c: sum(10 + ahead * row_of(h) for h in c.hexes), rng)
    if "discard_objective" in grouped:
        return rng.choice(grouped["discard_objective"])
    if "remove_tile" in grouped:
        return grouped["remove_tile"][0]
    worth = gem_worth(state, seat)
    if "choose_gem" in grouped:
        return _best(grouped["choose_gem"], lambda c: worth[c.gem], rng)
    if "give_gem" in grouped:
        return _best(grouped["give_gem"], lambda c: -worth[c.gem], rng)
    if "keep_roll" in grouped:
        return _roll(state, seat, grouped, worth, rng)
    if "move" in grouped:
        return _best(grouped["move"], lambda c: _tile_score(state, seat, c.hex, worth), rng)
    if "relocate" in grouped:
        return _best(grouped["relocate"], lambda c: row_of(c.hex), rng)
    action = _action(state, seat, grouped, worth, rng)
    if action is not None:
        return action
    if "restore" in grouped:
        return _best(grouped["restore"], lambda c: RELICS[c.relic].points, rng)
    if "end_turn" in grouped:
        return grouped["end_turn"][0]
    return rng.choice(commands)


def _roll(state: State, seat: int, grouped, worth, rng):
    t = state.turn
    if t.roll.kind == "mine" and t.tile_gem and state.players[seat].gems < HOLD_LIMIT:
        target = state.gem_values[t.tile_gem]
        dice = t.roll.values
        for c in grouped.get("modify_die", ()):
            if c.die.startswith("roll:"):
                value = dice[int(c.die[5:])]
                if value < target <= value + c.delta <= 6:
                    return c
    return _best(grouped["keep_roll"], lambda c: worth[c.gem] if c.gem else 0.0, rng)


def _items(grouped, item):
    return [c for c in grouped.get("play_item", ()) if c.item == item]


def _action(state: State, seat: int, grouped, worth, rng):
    """An optional action worth taking now, or None (then restore, then end the turn)."""
    p = state.players[seat]
    cost = state.options.mining_cost
    spend = _coin_sinks(state, seat, grouped, worth)
    if spend is not None:
        return spend
    elixir = _items(grouped, "epic_elixir")
    if elixir:
        return elixir[0]
    buys = [
        c for c in grouped.get("buy", ())
        if c.item in policies.ITEM_WISH and p.coins - ITEMS[c.item].cost >= cost
        and policies.ITEM_WISH[c.item] - 0.3 * ITEMS[c.item].cost > BUY_MARGIN
    ]
    if buys:
        return max(buys, key=lambda c: (policies.ITEM_WISH[c.item] - 0.3 * ITEMS[c.item].cost, c.item))
    sells = [c for c in grouped.get("sell", ()) if c.count <= _excess(state, seat, c.gem)]
    if sells and (p.coins < cost + SELL_COINS or p.gems >= SELL_HELD):
        best = max(sells, key=lambda c: (c.count * state.gem_values[c.gem], c.gem))
        if p.coins < cost + SELL_COINS or state.gem_values[best.gem] >= SELL_VALUE:
            return best
    axes = _items(grouped, "axe_of_awesomeness")
    if axes and p.gems < HOLD_LIMIT:
        return max(axes, key=lambda c: (worth[c.gem], c.gem))
    wells = _items(grouped, "wishing_well")
    if wells and p.gems < HOLD_LIMIT:
        return wells[0]
    mines = grouped.get("mine")
    gem = state.turn.tile_gem
    if mines and gem and p.coins >= cost and p.gems <= HOLD_LIMIT - MINE_ROOM:
        odds = (7 - state.gem_values[gem]) / 6
        if odds >= MINE_MIN_ODDS and odds * 2 * worth[gem] > cost * MINE_WORTH:
            for item in ("prosperous_pickaxe", "marvelous_mine_cart"):
                declared = _items(grouped, item)
                if declared:
                    return rng.choice(declared)
            stones = max(c.stone_dice for c in mines) if state.gem_values[gem] >= 4 else 0
            return next((c for c in mines if c.stone_dice == stones), mines[0])
    return None


def _missing(state: State, seat: int, relic: str) -> int:
    hold = state.players[seat].hold
    return sum(max(0, n - hold[gem]) for gem, n in _REQUIRES[relic])


def _coin_sinks(state: State, seat: int, grouped, worth):
    """A Cauldron trade or a Reference Book reservation worth making, or buying either."""
    p = state.players[seat]
    trades = _items(grouped, "cauldron_of_fortune")
    if trades:
        def gain(c):
            return worth[c.take] - sum(worth[g] for g in c.give)

        best = max(trades, key=lambda c: (gain(c), c.take, tuple(c.give)))
        if gain(best) > CAULDRON_GAIN:
            return best
    buys = {c.item: c for c in grouped.get("buy", ())}
    if p.coins >= CAULDRON_COINS and "cauldron_of_fortune" not in p.items and "cauldron_of_fortune" in buys:
        return buys["cauldron_of_fortune"]
    books = _items(grouped, "regal_reference_book")
    if books:
        best = max(books, key=lambda c: (_POINTS[c.relic] - REF_MISSING * _missing(state, seat, c.relic), c.relic))
        if _missing(state, seat, best.relic) <= BOOK_MISSING:
            return best
    if p.coins >= BOOK_COINS and "regal_reference_book" not in p.items and "regal_reference_book" in buys:
        return buys["regal_reference_book"]
    return None


def apply(state: State, command, rng: random.Random) -> State:
    for event in decide(state, command, rng):
        state = evolve(state, event)
    return state


def play_out(state: State, rng: random.Random, max_commands: int = MAX_PLAYOUT_COMMANDS) -> State:
    """Play `state` to its end with `playout_choice` for every seat; the final state."""
    for _ in range(max_commands):
        if state.over:
            return state
        command = policies.automatic_command(state)
        if command is None:
            seat = current_player(state)
            legal = [c for c in legal_commands(state, seat) if c.type != "undo"]  # never undo
            command = playout_choice(state, seat, legal, rng)
        state = apply(state, command, rng)
    return state
