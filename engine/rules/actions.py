"""Step 3 (mine, sell, buy, items) and step 4 (restore relics) of a human turn."""

from __future__ import annotations

import random
from collections import Counter

from engine import events as ev
from engine.board import AHEAD_OR_SIDE, neighbours, row_hexes, row_of, step
from engine.commands import (
    Buy,
    KeepRoll,
    Mine,
    ModifyDie,
    PlayItem,
    Reroll,
    Restore,
    RollMarket,
    Sell,
)
from engine.data import CASTLE_ROW, GEMS, ITEMS, MINING_DICE, RELICS, TILES
from engine.errors import IllegalCommand, Listed, Name, Refusal, Seat
from engine.rules.acc import Acc
from engine.rules.market import refill_market, refill_relic_row
from engine.rules.queries import occupied, wrap
from engine.rules.turn import enter_tile, gain
from engine.state import State


def require_on_tile(state: State, what: Refusal, restore_ok: bool = False) -> None:
    phase = state.turn.phase
    if phase in ("reveal", "move"):
        raise IllegalCommand("you can {what} only after moving onto a tile", what=what)
    if phase == "restore" and not restore_ok:
        raise IllegalCommand("you have started restoring relics; you can no longer {what} this turn",
                             what=what)


def _roll_dice(rng: random.Random, n: int) -> tuple[int, ...]:
    return tuple(rng.randint(1, 6) for _ in range(n))


def mine(acc: Acc, c: Mine, rng: random.Random) -> None:
    s = acc.state
    require_on_tile(s, Refusal("mine"))
    p, t = s.players[c.seat], s.turn
    cost = s.options.mining_cost
    if p.coins < cost:
        raise IllegalCommand("mining costs {cost} coin(s) and you have {coins}", cost=cost, coins=p.coins)
    if not 0 <= c.stone_dice <= p.stone_dice:
        raise IllegalCommand("you asked to activate {asked} stone dice and hold {held}",
                             asked=c.stone_dice, held=p.stone_dice)
    acc.emit(ev.CoinsSpent(c.seat, cost, "mining"))
    if c.stone_dice:
        acc.emit(ev.StoneDiceActivated(c.seat, c.stone_dice))
    stones = t.active_stone_dice + c.stone_dice
    acc.emit(ev.DiceRolled(c.seat, "mine", _roll_dice(rng, MINING_DICE), _roll_dice(rng, stones)))


def resolve_roll(acc: Acc, seat: int, gem: str | None) -> None:
    """Accept the pending roll: every die at or above the gem's value is a success (mining), or
    one gem worth at most the best die (Wishing Well)."""
    s = acc.state
    t = s.turn
    roll = t.roll
    if roll.kind == "mine":
        if gem is not None:
            raise IllegalCommand("a mining roll gives the gem of your tile; keep_roll takes no gem")
        target = s.gem_values[t.tile_gem]
        successes = sum(1 for v in roll.values if v >= target)
        acc.emit(ev.RollKept(seat, successes))
        gems = successes * (2 if t.mine_cart else 1)
        gain(acc, seat, t.tile_gem, gems, "mining")
        if t.pickaxe and gems:
            gain(acc, seat, TILES[s.board[t.pickaxe]].gem, gems, "pickaxe")
        return
    best = max(roll.values)
    allowed = [g for g, v in s.gem_values.items() if v <= best]
    if gem is None and allowed:
        raise IllegalCommand("name the gem you take with the Wishing Well: one of {gems}",
                             gems=Listed(map(Name, allowed)))
    if gem is not None and gem not in allowed:
        raise IllegalCommand("{gem} is worth {value}, more than your best die {best}", gem=Name(gem),
                             value=s.gem_values[gem], best=best)
    acc.emit(ev.RollKept(seat, 1 if gem else 0))
    if gem is not None:
        gain(acc, seat, gem, 1, "wishing_well")


def keep_roll(acc: Acc, c: KeepRoll, rng: random.Random) -> None:
    if acc.state.turn.roll is None:
        raise IllegalCommand("there is no pending roll to keep")
    resolve_roll(acc, c.seat, c.gem)


def _own(state: State, seat: int, item: str) -> None:
    if item not in state.players[seat].items:
        raise IllegalCommand("you do not have the {item}", item=Name(ITEMS[item].name))


def modify_die(acc: Acc, c: ModifyDie, rng: random.Random) -> None:
    s = acc.state
    require_on_tile(s, Refusal("change dice"))
    if c.item not in ("jolty_jackhammer", "dazzling_dynamite"):
        raise IllegalCommand("{item} does not change dice", item=Name(ITEMS[c.item].name))
    _own(s, c.seat, c.item)
    steps = (-1, 1) if c.item == "jolty_jackhammer" else (-2, -1, 1, 2)
    if c.delta not in steps:
        raise IllegalCommand("the {item} changes a die by {steps}, not {delta}",
                             item=Name(ITEMS[c.item].name), delta=c.delta,
                             steps=Refusal("-1 or 1") if len(steps) == 2 else Refusal("-2 or -1 or 1 or 2"))
    kind, _, rest = c.die.partition(":")
    if kind == "market":
        value = s.gem_values[rest]
    else:
        roll = s.turn.roll
        if roll is None:
            raise IllegalCommand("there is no pending roll: die {die} does not exist", die=c.die)
        i = int(rest)
        if i >= len(roll.values):
            raise IllegalCommand("your roll has dice roll:0 to roll:{last}, not {die}",
                                 last=len(roll.values) - 1, die=c.die)
        value = roll.values[i]
    acc.emit(ev.DieModified(c.seat, c.item, c.die, wrap(value + c.delta)))


def reroll(acc: Acc, c: Reroll, rng: random.Random) -> None:
    s = acc.state
    require_on_tile(s, Refusal("re-roll"))
    _own(s, c.seat, "lucky_libation")
    roll = s.turn.roll
    if roll is None:
        raise IllegalCommand("there is no pending roll to re-roll")
    if list(c.dice) != sorted(set(c.dice)) or not all(0 <= i < len(roll.values) for i in c.dice):
        raise IllegalCommand(
            "name the dice to re-roll once each, in increasing order, among 0 to {last}; got {dice}",
            last=len(roll.values) - 1, dice=list(c.dice))
    acc.emit(ev.DiceRerolled(c.seat, tuple(c.dice), _roll_dice(rng, len(c.dice))))


def roll_market(acc: Acc, c: RollMarket, rng: random.Random) -> None:
    s = acc.state
    require_on_tile(s, Refusal("roll the market dice"))
    _own(s, c.seat, "lucky_libation")
    if list(c.gems) != [g for g in GEMS if g in c.gems]:
        raise IllegalCommand("name each market die once, in the order {order}; got {gems}",
                             order=Listed(map(Name, GEMS)), gems=list(c.gems))
    acc.emit(ev.MarketDiceRolled(c.seat, dict(zip(c.gems, _roll_dice(rng, len(c.gems)), strict=True))))


def sell(acc: Acc, c: Sell, rng: random.Random) -> None:
    s = acc.state
    require_on_tile(s, Refusal("sell gems"))
    if s.turn.sold:
        raise IllegalCommand("you already sold gems this turn")
    have = s.players[c.seat].hold[c.gem]
    if not 1 <= c.count <= have:
        raise IllegalCommand("you cannot sell {count} {gem}: you hold {have}", count=c.count,
                             gem=Name(c.gem), have=have)
    acc.emit(ev.GemsSold(c.seat, c.gem, c.count, c.count * s.gem_values[c.gem]))


def buy(acc: Acc, c: Buy, rng: random.Random) -> None:
    s = acc.state
    require_on_tile(s, Refusal("buy items"))
    p = s.players[c.seat]
    item = ITEMS[c.item]
    if s.turn.bought:
        raise IllegalCommand("you already bought an item this turn")
    if c.item not in s.market:
        raise IllegalCommand("the {item} is not in the market", item=Name(item.name))
    if c.item in p.items:
        raise IllegalCommand("you already have the {item}; you cannot hold two", item=Name(item.name))
    if c.item == "epic_elixir" and s.turn.extra:
        raise IllegalCommand("you cannot buy an Epic Elixir during a turn gained with one")
    if p.coins < item.cost:
        raise IllegalCommand("the {item} costs {cost} coins and you have {coins}", item=Name(item.name),
                             cost=item.cost, coins=p.coins)
    slot = s.market.index(c.item)
    acc.emit(ev.ItemBought(c.seat, c.item, slot, item.cost))
    refill_market(acc, slot, rng)


def restore(acc: Acc, c: Restore, rng: random.Random) -> None:
    s = acc.state
    require_on_tile(s, Refusal("restore relics"), restore_ok=True)
    p = s.players[c.seat]
    relic = RELICS[c.relic]
    if c.relic not in s.relic_row and c.relic not in p.reserved_relics:
        raise IllegalCommand("the {relic} is not in the relic row or reserved by you",
                             relic=Name(relic.name))
    missing = {g: n - p.hold[g] for g, n in relic.requires if p.hold[g] < n}
    if missing:
        need = Listed(Refusal("{n} more {gem}", n=n, gem=Name(g)) for g, n in missing.items())
        raise IllegalCommand("restoring the {relic} needs {need}", relic=Name(relic.name), need=need)
    slot = s.relic_row.index(c.relic) if c.relic in s.relic_row else None
    acc.emit(ev.RelicRestored(c.seat, c.relic, relic.points))
    if slot is not None:
        refill_relic_row(acc, slot)


def play_item(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    item = ITEMS[c.item]
    _own(s, c.seat, c.item)
    t = s.turn
    if item.start_of_turn:
        if not t.at_start:
            raise IllegalCommand("the {item} must be played at the start of your turn, before revealing",
                                 item=Name(item.name))
    else:
        require_on_tile(s, Refusal("play the {item}", item=Name(item.name)),
                        restore_ok=c.item == "epic_elixir")
    PLAYS[c.item](acc, c, rng)


def _cauldron(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    give = Counter(c.give)
    hold = s.players[c.seat].hold
    for g, n in give.items():
        if hold[g] < n:
            raise IllegalCommand("you cannot trade {count} {gem}: you hold {have}", count=n, gem=Name(g),
                                 have=hold[g])
    if s.supply[c.take] + give.get(c.take, 0) < 1:
        raise IllegalCommand("the supply has no {gem} left", gem=Name(c.take))
    acc.emit(ev.ItemPlayed(c.seat, c.item), ev.GemsReturned(c.seat, dict(give), "cauldron"))
    gain(acc, c.seat, c.take, 1, "cauldron")


def _mine_cart(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    if acc.state.turn.mine_cart:
        raise IllegalCommand("a Marvelous Mine Cart is already active this turn")
    acc.emit(ev.ItemPlayed(c.seat, c.item))


def _elixir(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    if s.turn.elixir:
        raise IllegalCommand("an Epic Elixir is already played this turn")
    if row_of(s.players[c.seat].position) == CASTLE_ROW:
        raise IllegalCommand("you finish this turn in the Castle row; an extra turn would be lost")
    acc.emit(ev.ItemPlayed(c.seat, c.item))


def _axe(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    if s.players[c.seat].hold[c.gem] < 1:
        raise IllegalCommand("you hold no {gem} to split", gem=Name(c.gem))
    if s.supply[c.gem] < 1:
        raise IllegalCommand("the supply has no {gem} left", gem=Name(c.gem))
    acc.emit(ev.ItemPlayed(c.seat, c.item))
    gain(acc, c.seat, c.gem, 1, "axe")


def _wishing_well(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    acc.emit(ev.ItemPlayed(c.seat, c.item), ev.DiceRolled(c.seat, "wishing_well", _roll_dice(rng, MINING_DICE), ()))


def _reference_book(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    if c.relic in s.relic_row:
        slot = s.relic_row.index(c.relic)
        acc.emit(ev.ItemPlayed(c.seat, c.item), ev.RelicReserved(c.seat, c.relic, "row"))
        refill_relic_row(acc, slot)
    elif c.relic in s.relic_deck:
        acc.emit(ev.ItemPlayed(c.seat, c.item), ev.RelicReserved(c.seat, c.relic, "deck"))
        if s.rules.relic_deck_search_hidden:  # what the search saw says nothing of what comes next
            deck = list(acc.state.relic_deck)
            rng.shuffle(deck)
            acc.emit(ev.RelicDeckShuffled(tuple(deck)))
    else:
        raise IllegalCommand("the {relic} is neither in the relic row nor in the relic deck",
                             relic=Name(RELICS[c.relic].name))


def _pickaxe(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    if s.turn.pickaxe:
        raise IllegalCommand("a Prosperous Pickaxe is already active this turn")
    pos = s.players[c.seat].position
    tile = s.board.get(c.hex)
    if c.hex not in neighbours(pos) or c.hex not in s.revealed:
        raise IllegalCommand("hex {hex} is not a revealed tile next to your explorer at {at}", hex=c.hex,
                             at=pos)
    if TILES[tile].wild:
        raise IllegalCommand("hex {hex} shows no single gem; pick a tile with a gem", hex=c.hex)
    acc.emit(ev.ItemPlayed(c.seat, c.item, c.hex))


def _swapping_stones(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    if c.target == c.seat or c.target >= len(s.players):
        raise IllegalCommand("swap with another seat, not {seat}", seat=c.target)
    me, other = s.players[c.seat], s.players[c.target]
    if me.position is None:
        raise IllegalCommand("your explorer is still on the airship: there is no location to swap")
    if other.position is None:
        raise IllegalCommand("{seat}'s explorer is not on the board", seat=Seat(c.target))
    acc.emit(ev.ItemPlayed(c.seat, c.item), ev.ExplorersSwapped(c.seat, c.target))


def catapult_landings(state: State, seat: int) -> list[str]:
    """Tiles two steps away in one ahead-or-side direction (from the airship: row 2)."""
    pos = state.players[seat].position
    if pos is None:
        spots = list(row_hexes(2))
    else:
        spots = [h for d in AHEAD_OR_SIDE if step(pos, d) and (h := step(pos, d, 2))]
    return [h for h in spots if h in state.board and h not in state.barricades and not occupied(state, h)]


def _catapult(acc: Acc, c: PlayItem, rng: random.Random) -> None:
    s = acc.state
    if c.hex not in catapult_landings(s, c.seat):
        raise IllegalCommand(
            "the catapult cannot land on hex {hex}: it must be a free tile two hexes ahead or to the side "
            "(in a straight line)", hex=c.hex)

    acc.emit(ev.ItemPlayed(c.seat, c.item))
    if c.hex not in s.revealed:
        acc.emit(ev.TilesRevealed(c.seat, (c.hex,), (s.board[c.hex],)))
    enter_tile(acc, c.seat, c.hex, "catapult")


PLAYS = {
    "cauldron_of_fortune": _cauldron,
    "marvelous_mine_cart": _mine_cart,
    "epic_elixir": _elixir,
    "axe_of_awesomeness": _axe,
    "wishing_well": _wishing_well,
    "regal_reference_book": _reference_book,
    "prosperous_pickaxe": _pickaxe,
    "swapping_stones": _swapping_stones,
    "clever_catapult": _catapult,
}
