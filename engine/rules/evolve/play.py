"""The fold's rule for each event of the board, the turn, the dice, the Rhom, undo and the end:
`apply(event, state) -> state`, a single-dispatch function; market.py registers the
market's, the items' and the relics'. __init__.py folds with them."""

from __future__ import annotations

from functools import singledispatch

from engine import events as ev
from engine.data import STONE_DICE, TILES
from engine.options import Options
from engine.state import Player, Roll, State, Turn
from engine.versions import rules_for


@singledispatch
def apply(event: ev.Event, state: State | None) -> State:
    raise TypeError(f"no evolve rule for {type(event).__name__}")


@apply.register
def _(e: ev.GameStarted, state: None) -> State:
    rules_for(e.rules_version)  # a log of a version this engine cannot play stops here
    options = Options.from_dict(dict(e.options))
    players = []
    for seat, pid in enumerate(e.seats):
        rhom = options.rhom and seat == 0
        players.append(
            Player(
                seat=seat,
                kind="rhom" if rhom else "human",
                player_id=pid,
                coins=0 if rhom else 5,
                objectives=tuple(e.objectives[seat]),
                items=("clever_catapult",) if e.catapult_seat == seat else (),
            )
        )
    return State(
        rules_version=e.rules_version,
        options=options,
        players=tuple(players),
        board=dict(e.layout),
        market=tuple(e.market),
        item_deck=tuple(e.item_deck),
        relic_row=tuple(e.relic_row),
        relic_deck=tuple(e.relic_deck),
        royalty_tokens=tuple(e.royalty_tokens),
        rhom_deck=tuple(e.rhom_deck),
        barricades_left=6 if options.rhom else 0,
    )


@apply.register
def _(e: ev.TurnStarted, state: State) -> State:
    s = state.copy()
    s.turn = Turn(seat=e.seat, kind=e.kind, number=e.number, extra=e.extra)
    s.undo_events = 0  # nothing to take back in a new turn
    return s


@apply.register
def _(e: ev.TilesRevealed, state: State) -> State:
    s = state.copy()
    s.revealed = s.revealed | set(e.hexes)
    if s.turn is not None and s.turn.seat == e.seat:
        t = s.edit_turn()
        t.revealed = t.revealed + tuple(e.hexes)
        if t.phase == "reveal":
            t.phase = "move"
    return s


@apply.register
def _(e: ev.ExplorerMoved, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    before = p.position
    p.position = e.hex
    t = s.edit_turn()
    if e.via == "relocate":
        t.relocations = t.relocations + ((before or "airship"),)
        t.phase = "reveal"
        t.revealed = ()
    else:
        t.phase = "actions"
        tile = TILES[s.board[e.hex]]
        t.tile_gem = tile.gem
        t.choosing_gem = tile.wild
    return s


@apply.register
def _(e: ev.ExplorersSwapped, state: State) -> State:
    s = state.copy()
    a, b = s.edit_player(e.seat), s.edit_player(e.target)
    a.position, b.position = b.position, a.position
    return s


@apply.register
def _(e: ev.TileDiscarded, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    tiles = list(p.tiles)
    tiles.remove(e.tile)
    p.tiles = tuple(tiles)
    return s


@apply.register
def _(e: ev.GemChosen, state: State) -> State:
    s = state.copy()
    t = s.edit_turn()
    t.tile_gem = e.gem
    t.choosing_gem = False
    return s


@apply.register
def _(e: ev.GemsGained, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    p.hold = {**p.hold, e.gem: p.hold[e.gem] + e.count}
    s.supply = {**s.supply, e.gem: s.supply[e.gem] - e.count}
    return s


@apply.register
def _(e: ev.GemsReturned, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    hold, supply = dict(p.hold), dict(s.supply)
    for gem, n in e.gems.items():
        hold[gem] -= n
        supply[gem] += n
    p.hold, s.supply = hold, supply
    return s


@apply.register
def _(e: ev.GemGiven, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    p.hold = {**p.hold, e.gem: p.hold[e.gem] - 1}
    if e.to is None:
        s.supply = {**s.supply, e.gem: s.supply[e.gem] + 1}
    else:
        q = s.edit_player(e.to)
        q.hold = {**q.hold, e.gem: q.hold[e.gem] + 1}
    return s


@apply.register
def _(e: ev.CoinsGained, state: State) -> State:
    s = state.copy()
    s.edit_player(e.seat).coins += e.amount
    return s


@apply.register
def _(e: ev.CoinsSpent, state: State) -> State:
    s = state.copy()
    s.edit_player(e.seat).coins -= e.amount
    return s


@apply.register
def _(e: ev.PointsScored, state: State) -> State:
    s = state.copy()
    s.edit_player(e.seat).points += e.points
    return s


@apply.register
def _(e: ev.StoneDieTaken, state: State) -> State:
    s = state.copy()
    s.edit_player(e.seat).stone_dice += 1
    s.stone_pool -= 1
    return s


@apply.register
def _(e: ev.StoneDiceActivated, state: State) -> State:
    s = state.copy()
    s.edit_player(e.seat).stone_dice -= e.count
    s.edit_turn().active_stone_dice += e.count
    return s


@apply.register
def _(e: ev.ObjectiveDiscarded, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    p.objectives = tuple(o for o in p.objectives if o != e.objective)
    p.discarded_objective = e.objective
    return s


@apply.register
def _(e: ev.DiceRolled, state: State) -> State:
    s = state.copy()
    s.edit_turn().roll = Roll(e.kind, tuple(e.dice), tuple(e.stone))
    return s


@apply.register
def _(e: ev.TileCollected, state: State) -> State:
    s = state.copy()
    board = dict(s.board)
    del board[e.hex]
    s.board = board
    s.revealed = s.revealed - {e.hex}
    p = s.edit_player(e.seat)
    p.tiles = p.tiles + (e.tile,)
    return s


@apply.register
def _(e: ev.MarketAdjusted, state: State) -> State:
    s = state.copy()
    s.gem_values = {**s.gem_values, e.gem: e.value}
    return s


@apply.register
def _(e: ev.StoneDiceReturned, state: State) -> State:
    s = state.copy()
    s.stone_pool = min(STONE_DICE, s.stone_pool + e.count)
    s.edit_turn().active_stone_dice = 0
    return s


@apply.register
def _(e: ev.IridiaStoneTaken, state: State) -> State:
    s = state.copy()
    s.edit_player(e.seat).iridia_stone = True
    return s


@apply.register
def _(e: ev.RoyaltyTokenTaken, state: State) -> State:
    s = state.copy()
    p = s.edit_player(e.seat)
    p.royalty_token = e.token
    p.points += e.points
    p.finished = True
    p.position = None
    if e.token is not None:
        s.royalty_tokens = tuple(t for t in s.royalty_tokens if t != e.token)
    return s


@apply.register
def _(e: ev.TileRemoved, state: State) -> State:
    s = state.copy()
    board = dict(s.board)
    del board[e.hex]
    s.board = board
    s.revealed = s.revealed - {e.hex}
    return s


@apply.register
def _(e: ev.RhomCardDrawn, state: State) -> State:
    s = state.copy()
    assert s.rhom_deck[0] == e.card
    s.rhom_deck = s.rhom_deck[1:]
    s.rhom_discard = s.rhom_discard + (e.card,)
    s.rhom_card = e.card
    return s


@apply.register
def _(e: ev.RhomDeckReshuffled, state: State) -> State:
    s = state.copy()
    s.rhom_deck = tuple(e.deck)
    s.rhom_discard = ()
    return s


@apply.register
def _(e: ev.RhomDieRolled, state: State) -> State:
    return state


@apply.register
def _(e: ev.BarricadePlaced, state: State) -> State:
    s = state.copy()
    s.barricades = s.barricades | {e.hex}
    s.barricades_left -= 1
    return s


@apply.register
def _(e: ev.StepsUndone, state: State) -> State:
    base = state.turn.undo_base if state.turn is not None else None
    if base is None or state.undo_events != e.events:
        raise ValueError(f"steps_undone of {e.events} events, but {state.undo_events} may be "
                         "undone here")
    return base


@apply.register
def _(e: ev.GameEnded, state: State) -> State:
    s = state.copy()
    s.over = True
    s.turn = None
    return s
