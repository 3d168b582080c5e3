"""The Rhom's whole turn (RULINGS §8), decided at once: card, dice and every consequence."""

from __future__ import annotations

import random
from collections import Counter

from engine import events as ev
from engine.board import column_of, row_hexes, row_of, step
from engine.data import CASTLE_ROW, GEMS, HOLD_LIMIT, IRIDIA_STONE_POINTS, ITEMS, RELICS, RHOM_CARDS
from engine.rules.acc import Acc
from engine.rules.market import refill_market, refill_relic_row
from engine.rules.queries import next_market_value, reachable, relocation_targets, tile_at
from engine.rules.turn_end import next_turn, take_royalty
from engine.state import State

RHOM = 0
_GAINS = {"double": 2, "triple": 3}


def weathervane(state: State) -> str:
    """The weathervane on the back of the top card of the Rhom deck."""
    return RHOM_CARDS[state.rhom_deck[0]].weathervane if state.rhom_deck else "left"


def _pick(options: list, key, vane: str):
    """The option with the highest key; ties go to the leftmost or rightmost (weathervane)."""
    best = max(key(o) for o in options)
    tied = [o for o in options if key(o) == best]
    return tied[0] if vane == "left" else tied[-1]


def _roll(acc: Acc, rng: random.Random, purpose: str) -> int:
    value = rng.randint(1, 6)
    acc.emit(ev.RhomDieRolled(RHOM, purpose, value))
    return value


def demand(state: State) -> dict[str, int]:
    """How many of each gem the relics in the row require."""
    total = Counter()
    for r in state.relic_row:
        total.update(RELICS[r].requirement())
    return {g: total[g] for g in GEMS}


def first_reveals(state: State, dice: tuple[int, int]) -> list[str]:
    """Row-1 tiles at the dice positions counted from the left among the row's tiles (cyclically);
    a repeat or an unavailable tile takes the next face-down tile in the weathervane's direction."""
    tiles = [h for h in row_hexes(1) if h in state.board]
    if not tiles:
        return []
    direction = -1 if weathervane(state) == "left" else 1
    chosen: list[str] = []
    for d in dice:
        i = (d - 1) % len(tiles)
        for k in range(len(tiles)):
            h = tiles[(i + k * direction) % len(tiles)]
            if h not in state.revealed and h not in state.barricades and h not in chosen:
                chosen.append(h)
                break
    return chosen


def priority_reveals(state: State, card: int) -> list[str]:
    pos = state.players[RHOM].position
    out = []
    for direction in RHOM_CARDS[card].priority:
        h = step(pos, direction)
        if h and h in state.board and h not in state.revealed and h not in state.barricades:
            out.append(h)
        if len(out) == 2:
            break
    return out


def choose_tile(state: State) -> str | None:
    options = sorted(reachable(state, RHOM), key=column_of)
    if not options:
        return None
    iridia = [h for h in options if tile_at(state, h).iridia]
    if iridia:
        return iridia[0]
    plain = [h for h in options if not tile_at(state, h).wild] or options
    want = demand(state)
    hold = state.players[RHOM].hold

    def key(h: str):
        gem = tile_at(state, h).gem
        if gem is None:
            return (0, 0)
        return (1 if hold[gem] == 0 else 0, want[gem])

    return _pick(plain, key, weathervane(state))


def rhom_gain(acc: Acc, gem: str, count: int) -> None:
    """Gain gems; past 7 the excess scores its market value, and a new type is kept by discarding
    the most numerous type instead (RULINGS §8, Gains)."""
    s = acc.state
    hold = s.players[RHOM].hold
    count = min(count, s.supply[gem])
    if count <= 0:
        return
    room = HOLD_LIMIT - sum(hold.values())
    if count <= room:
        acc.emit(ev.GemsGained(RHOM, gem, count, "tile"))
        return
    excess = count - room
    if hold[gem] == 0:
        left = dict(hold)
        discards: Counter = Counter()
        for _ in range(excess):
            others = [g for g in GEMS if left[g] > 0]
            g = _pick(others, lambda x: left[x], weathervane(s))
            left[g] -= 1
            discards[g] += 1
        acc.emit(
            ev.GemsReturned(RHOM, dict(discards), "rhom_overflow"),
            ev.GemsGained(RHOM, gem, count, "tile"),
            ev.PointsScored(RHOM, sum(s.gem_values[g] * n for g, n in discards.items()), "rhom_overflow"),
        )
        return
    if room > 0:
        acc.emit(ev.GemsGained(RHOM, gem, room, "tile"))
    acc.emit(ev.PointsScored(RHOM, excess * s.gem_values[gem], "rhom_overflow"))


def _enter(acc: Acc, hex_: str, gems: int, rng: random.Random) -> None:
    s = acc.state
    tile = tile_at(s, hex_)
    acc.emit(ev.ExplorerMoved(RHOM, hex_, "move"))
    gem = tile.gem
    if tile.wild:
        want = demand(acc.state)
        gem = _pick(list(GEMS), lambda g: want[g], weathervane(acc.state))
        acc.emit(ev.GemChosen(RHOM, gem))
    if tile.iridia:
        acc.emit(ev.IridiaStoneTaken(RHOM), ev.PointsScored(RHOM, IRIDIA_STONE_POINTS, "iridia_stone"))
    if tile.bonus is not None:
        b = tile.bonus
        if b.kind in ("coins", "points"):
            acc.emit(ev.PointsScored(RHOM, b.amount, f"tile_{b.kind}"))
        elif acc.state.stone_pool > 0:
            acc.emit(ev.PointsScored(RHOM, _roll(acc, rng, "stone_die"), "tile_stone_die"))
    rhom_gain(acc, gem, gems)


def _merchant(acc: Acc, rng: random.Random) -> None:
    value = _roll(acc, rng, "merchant")
    market = acc.state.market
    if not market:
        return
    slot = (value - 1) % len(market)
    item = market[slot]
    acc.emit(ev.ItemClaimed(RHOM, item, slot), ev.PointsScored(RHOM, ITEMS[item].cost, "merchant"))
    refill_market(acc, slot, rng)


def barricade_target(state: State) -> tuple[str, ...] | None:
    """The row above the next human explorer after the Rhom, or None when there is none."""
    for p in state.players[1:]:
        if p.kind == "human" and not p.finished:
            row = 1 if p.position is None else row_of(p.position) + 1
            return row_hexes(row) if row < CASTLE_ROW else None
    return None


def _barricade(acc: Acc, rng: random.Random) -> None:
    s = acc.state
    row = barricade_target(s)
    if row is None or s.barricades_left <= 0:
        return
    value = _roll(acc, rng, "barricade")
    hexes = row if weathervane(s) == "left" else tuple(reversed(row))
    explorers = {p.position for p in s.players}
    for h in hexes[value - 1 :]:
        if h not in explorers and h not in s.barricades:
            acc.emit(ev.BarricadePlaced(h))
            return


def restore_all(acc: Acc) -> None:
    """Restore every relic of the row the Rhom can, highest value first (RULINGS §8)."""
    while True:
        s = acc.state
        hold = s.players[RHOM].hold
        able = [r for r in s.relic_row if all(hold[g] >= n for g, n in RELICS[r].requires)]
        if not able:
            return
        relic = _pick(able, lambda r: RELICS[r].points, weathervane(s))
        slot = s.relic_row.index(relic)
        acc.emit(ev.RelicRestored(RHOM, relic, RELICS[relic].points))
        refill_relic_row(acc, slot)


def _relocate(acc: Acc) -> bool:
    """No revealed tile in reach: discard the latest tile and stand on the nearest empty hex."""
    s = acc.state
    targets = sorted(relocation_targets(s, RHOM), key=lambda h: (column_of(h), row_of(h)))
    if not targets:
        return False
    tiles = s.players[RHOM].tiles
    if tiles:
        acc.emit(ev.TileDiscarded(RHOM, tiles[-1]))
    target = targets[0] if weathervane(s) == "left" else targets[-1]
    acc.emit(ev.ExplorerMoved(RHOM, target, "relocate"))
    return True


def rhom_turn(acc: Acc, rng: random.Random) -> None:
    s = acc.state
    card = None
    if s.players[RHOM].position is None and not s.players[RHOM].tiles:
        dice = (_roll(acc, rng, "first_reveal"), _roll(acc, rng, "first_reveal"))
        hexes = first_reveals(acc.state, dice)
    else:
        card = s.rhom_deck[0]
        acc.emit(ev.RhomCardDrawn(card))
        if not acc.state.rhom_deck:
            deck = list(acc.state.rhom_discard)
            rng.shuffle(deck)
            acc.emit(ev.RhomDeckReshuffled(tuple(deck)))
        hexes = priority_reveals(acc.state, card)
    while True:
        if hexes:
            acc.emit(ev.TilesRevealed(RHOM, tuple(hexes), tuple(acc.state.board[h] for h in hexes)))
        target = choose_tile(acc.state)
        if target is not None:
            break
        if not _relocate(acc):
            next_turn(acc, rng)
            return
        # Relocated on its first turn (row 1 blocked): no card yet, so card 1's priority applies.
        hexes = priority_reveals(acc.state, card or 1)
    icon = RHOM_CARDS[card].icon if card else None
    _enter(acc, target, _GAINS.get(icon, 1), rng)
    if icon == "merchant":
        _merchant(acc, rng)
    elif icon == "barricade":
        _barricade(acc, rng)
    restore_all(acc)
    s = acc.state
    tile = tile_at(s, target)
    acc.emit(ev.TileCollected(RHOM, target, tile.id))
    if not tile.wild:
        acc.emit(ev.MarketAdjusted(tile.gem, next_market_value(acc.state.gem_values[tile.gem])))
    if row_of(target) == CASTLE_ROW:
        take_royalty(acc, RHOM)
    next_turn(acc, rng)
