"""The fold's rules for changing dice, selling gems, the item market and deck, playing items,
and the relic row and deck (registered on play.apply)."""

from __future__ import annotations

from engine import events as ev
from engine.data import RELICS
from engine.rules.evolve.play import apply
from engine.state import Roll, State


@apply.register
def _(e: ev.DieModified, state: State) -> State:
    s = state.copy()
    kind, _, rest = e.die.partition(":")
    if kind == "market":
        s.gem_values = {**s.gem_values, rest: e.value}
    else:
        _set_roll_values(s, {int(rest): e.value})
    _discard_item(s, e.seat, e.item)
    return s


def _set_roll_values(s: State, changes: dict[int, int]) -> None:
    t = s.edit_turn()
    roll = t.roll
    assert roll is not None
    values = list(roll.values)
    for i, v in changes.items():
        values[i] = v
    n = len(roll.dice)
    t.roll = Roll(roll.kind, tuple(values[:n]), tuple(values[n:]))


def _discard_item(s: State, seat: int, item: str) -> None:
    p = s.edit_player(seat)
    items = list(p.items)
    items.remove(item)
    p.items = tuple(items)
    s.item_discard = s.item_discard + (item,)


@apply.register
def _(e: ev.DiceRerolled, state: State) -> State:
    s = state.copy()
    _set_roll_values(s, dict(zip(e.indices, e.values, strict=True)))
    _discard_item(s, e.seat, "lucky_libation")
    return s


@apply.register
def _(e: ev.MarketDiceRolled, state: State) -> State:
    s = state.copy()
    s.gem_values = {**s.gem_values, **e.values}
    _discard_item(s, e.seat, "lucky_libation")
    return s


@apply.register
def _(e: ev.RollKept, state: State) -> State:
    s = state.copy()
    s.edit_turn().roll = None
    return s


@apply.register
def _(e: ev.GemsSold, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    p.hold = {**p.hold, e.gem: p.hold[e.gem] - e.count}
    p.coins += e.coins
    s.supply = {**s.supply, e.gem: s.supply[e.gem] + e.count}
    s.edit_turn().sold = True
    return s


def _take_from_market(s: State, slot: int) -> None:
    s.market = s.market[:slot] + s.market[slot + 1 :]


@apply.register
def _(e: ev.ItemBought, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    p.coins -= e.cost
    p.items = p.items + (e.item,)
    _take_from_market(s, e.slot)
    s.edit_turn().bought = True
    return s


@apply.register
def _(e: ev.ItemClaimed, state: State) -> State:
    s = state.copy()
    _take_from_market(s, e.slot)
    if not s.rules.rhom_keeps_merchant_card:  # rules version 1 discarded it (R23)
        s.item_discard = s.item_discard + (e.item,)
    return s


@apply.register
def _(e: ev.ItemDrawn, state: State) -> State:
    s = state.copy()
    assert s.item_deck[0] == e.item
    s.item_deck = s.item_deck[1:]
    s.market = s.market[: e.slot] + (e.item,) + s.market[e.slot :]
    return s


@apply.register
def _(e: ev.ItemDeckReshuffled, state: State) -> State:
    s = state.copy()
    s.item_deck = tuple(e.deck)
    s.item_discard = ()
    return s


@apply.register
def _(e: ev.MarketRefreshed, state: State) -> State:
    s = state.copy()
    s.market = tuple(e.market)
    s.item_deck = tuple(e.deck)
    s.item_discard = ()
    return s


@apply.register
def _(e: ev.ItemPlayed, state: State) -> State:
    s = state.copy()
    _discard_item(s, e.seat, e.item)
    t = s.edit_turn()
    if e.item == "marvelous_mine_cart":
        t.mine_cart = True
    elif e.item == "prosperous_pickaxe":
        t.pickaxe = e.hex
    elif e.item == "epic_elixir":
        t.elixir = True
    elif e.item == "clever_catapult":
        t.phase = "move"
    return s


@apply.register
def _(e: ev.RelicReserved, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    p.reserved_relics = p.reserved_relics + (e.relic,)
    if e.source == "row":
        s.relic_row = tuple(r for r in s.relic_row if r != e.relic)
    else:
        s.relic_deck = tuple(r for r in s.relic_deck if r != e.relic)
    return s


@apply.register
def _(e: ev.RelicRestored, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    hold, supply = dict(p.hold), dict(s.supply)
    for gem, n in RELICS[e.relic].requires:
        hold[gem] -= n
        supply[gem] += n
    p.hold, s.supply = hold, supply
    p.relics = p.relics + (e.relic,)
    p.points += e.points
    if e.relic in p.reserved_relics:
        p.reserved_relics = tuple(r for r in p.reserved_relics if r != e.relic)
    else:
        s.relic_row = tuple(r for r in s.relic_row if r != e.relic)
    # The restorer's own turn moves on to restoring; the Rhom restoring gems given to it in
    # someone else's turn (R24) leaves that turn alone.
    if s.turn is not None and s.turn.kind == "turn" and s.turn.seat == e.seat:
        s.edit_turn().phase = "restore"
    return s


@apply.register
def _(e: ev.RelicDeckShuffled, state: State) -> State:
    s = state.copy()
    s.relic_deck = tuple(e.deck)
    return s


@apply.register
def _(e: ev.RelicDrawn, state: State) -> State:
    s = state.copy()
    assert s.relic_deck[0] == e.relic
    s.relic_deck = s.relic_deck[1:]
    s.relic_row = s.relic_row[: e.slot] + (e.relic,) + s.relic_row[e.slot :]
    return s
