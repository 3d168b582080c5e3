"""The human turn: reveal, move, relocate, pending decisions, end of turn and removal turns."""

from __future__ import annotations

import random

from engine import events as ev
from engine.board import board_order, row_of
from engine.commands import (
    ChooseGem,
    DiscardObjective,
    EndTurn,
    GiveGem,
    Move,
    Relocate,
    RemoveTile,
    Reveal,
)
from engine.data import CASTLE_ROW, IRIDIA_STONE_POINTS, TILES, display_name
from engine.errors import IllegalCommand, Listed, Name, Refusal, Seat
from engine.rules.acc import Acc
from engine.rules.queries import (
    has_room,
    next_market_value,
    pending,
    reachable,
    relocation_targets,
    removable_hexes,
    revealable,
    stuck,
)
from engine.rules.rhom import restore_all
from engine.rules.turn_end import next_turn, take_royalty
from engine.state import State


def _where(state: State, seat: int) -> str:
    pos = state.players[seat].position
    return Refusal("your explorer at {hex}", hex=pos) if pos else Refusal("the airship (row 1 only)")


def reveal(acc: Acc, c: Reveal, rng: random.Random) -> None:
    s = acc.state
    t = s.turn
    if t.phase in ("actions", "restore"):
        raise IllegalCommand("you have already moved this turn; reveal comes before moving")
    if t.phase != "reveal":
        raise IllegalCommand("you have already revealed tiles this turn; now move your explorer")
    if len(set(c.hexes)) != len(c.hexes):
        raise IllegalCommand("you named hex {hex} twice", hex=c.hexes[0])
    allowed = revealable(s, c.seat)
    for h in c.hexes:
        if h not in allowed:
            raise IllegalCommand("hex {hex} cannot be revealed: {why}", hex=h,
                                 why=_reveal_reason(s, c.seat, h))
    hexes = tuple(sorted(c.hexes, key=board_order)) if s.rules.reveal_in_board_order else c.hexes
    acc.emit(ev.TilesRevealed(c.seat, hexes, tuple(s.board[h] for h in hexes)))


def _reveal_reason(s: State, seat: int, h: str) -> str:
    if h not in s.board:
        return Refusal("it holds no tile")
    if h in s.revealed:
        return Refusal("it is already revealed")
    if h in s.barricades:
        return Refusal("it is barricaded")
    return Refusal("it is not ahead of or beside {where}", where=_where(s, seat))


def move(acc: Acc, c: Move, rng: random.Random) -> None:
    s = acc.state
    if s.turn.phase not in ("reveal", "move"):
        raise IllegalCommand("you have already moved this turn")
    if c.hex not in reachable(s, c.seat):
        if c.hex in s.board and c.hex not in s.revealed:
            why = Refusal("it is face down; reveal it first")
        elif c.hex not in s.board:
            why = Refusal("it holds no tile")
        elif c.hex in s.barricades:
            why = Refusal("it is barricaded")
        else:
            why = Refusal("it is not ahead of or beside {where}", where=_where(s, c.seat))
        raise IllegalCommand("you cannot move to hex {hex}: {why}", hex=c.hex, why=why)
    enter_tile(acc, c.seat, c.hex, "move")


def enter_tile(acc: Acc, seat: int, hex_: str, via: str) -> None:
    """Stand on a tile and gain its gem and bonus (a rainbow tile's gem waits for choose_gem)."""
    tile = TILES[acc.state.board[hex_]]
    acc.emit(ev.ExplorerMoved(seat, hex_, via))
    if tile.iridia:
        acc.emit(ev.IridiaStoneTaken(seat), ev.PointsScored(seat, IRIDIA_STONE_POINTS, "iridia_stone"))
    if tile.bonus is not None:
        b = tile.bonus
        if b.kind == "coins":
            acc.emit(ev.CoinsGained(seat, b.amount, "tile"))
        elif b.kind == "points":
            acc.emit(ev.PointsScored(seat, b.amount, "tile"))
        elif acc.state.stone_pool > 0 and acc.state.players[seat].stone_dice < 4:
            acc.emit(ev.StoneDieTaken(seat))
    if tile.gem is not None:
        gain(acc, seat, tile.gem, 1, "tile")


def gain(acc: Acc, seat: int, gem: str, count: int, source: str) -> None:
    """Gain gems from the supply; an empty supply gives what remains (RULINGS §3)."""
    n = min(count, acc.state.supply[gem])
    if n > 0:
        acc.emit(ev.GemsGained(seat, gem, n, source))


def relocate(acc: Acc, c: Relocate, rng: random.Random) -> None:
    s = acc.state
    t = s.turn
    if t.phase not in ("reveal", "move"):
        raise IllegalCommand("you have already moved this turn")
    if reachable(s, c.seat):
        raise IllegalCommand("you can move onto {hexes}; relocate only when no revealed tile is in reach",
                             hexes=Listed(reachable(s, c.seat)))
    if t.phase == "reveal" and revealable(s, c.seat):
        raise IllegalCommand("reveal first: you can still reveal {hexes}", hexes=Listed(revealable(s, c.seat)))
    targets = relocation_targets(s, c.seat)
    if c.hex not in targets:
        raise IllegalCommand(
            "you cannot relocate to hex {hex}: the nearest empty hexes not behind {where} are {targets}",
            hex=c.hex, where=_where(s, c.seat), targets=Listed(targets) if targets else Refusal("none"))
    tiles = s.players[c.seat].tiles
    if tiles and c.discard_tile is None:
        raise IllegalCommand("relocating costs a tile from your victory pile: name one of {tiles}",
                             tiles=Listed(_tile(t) for t in tiles))
    if c.discard_tile is not None and c.discard_tile not in tiles:
        raise IllegalCommand("tile {tile} is not in your victory pile", tile=_tile(c.discard_tile))
    if c.discard_tile is not None:
        acc.emit(ev.TileDiscarded(c.seat, c.discard_tile))
    acc.emit(ev.ExplorerMoved(c.seat, c.hex, "relocate"))


def choose_gem(acc: Acc, c: ChooseGem, rng: random.Random) -> None:
    acc.emit(ev.GemChosen(c.seat, c.gem))
    gain(acc, c.seat, c.gem, 1, "tile")


def give_gem(acc: Acc, c: GiveGem, rng: random.Random) -> None:
    s = acc.state
    if s.players[c.seat].hold[c.gem] < 1:
        raise IllegalCommand("you have no {gem} to give", gem=Name(c.gem))
    others = [p.seat for p in s.players if p.seat != c.seat and has_room(s, p.seat)]
    if c.to is None:
        if others:
            raise IllegalCommand("{seats} have room: give the gem to one of them",
                                 seats=Listed(Seat(o) for o in others))
    elif c.to == c.seat or c.to >= len(s.players):
        raise IllegalCommand("give the gem to another player, not {seat}", seat=Seat(c.to))
    elif c.to not in others:
        raise IllegalCommand("{seat} has no room for another gem", seat=Seat(c.to))
    acc.emit(ev.GemGiven(c.seat, c.gem, c.to))
    to = acc.state.players[c.to] if c.to is not None else None
    if to is not None and to.kind == "rhom" and s.rules.rhom_restores_when_given:
        restore_all(acc)  # at once, before the giver goes on (RULINGS §8, R24)


def discard_objective(acc: Acc, c: DiscardObjective, rng: random.Random) -> None:
    if c.objective not in acc.state.players[c.seat].objectives:
        raise IllegalCommand("{objective} is not one of your objectives",
                             objective=Name(c.objective, display_name(c.objective)))
    acc.emit(ev.ObjectiveDiscarded(c.seat, c.objective))


def end_turn(acc: Acc, c: EndTurn, rng: random.Random) -> None:
    s = acc.state
    t = s.turn
    if t.phase in ("reveal", "move"):
        if not stuck(s, c.seat):
            raise IllegalCommand("move your explorer onto a tile before ending your turn")
        next_turn(acc, rng)
        return
    p = s.players[c.seat]
    tile = TILES[s.board[p.position]]
    if t.active_stone_dice:
        acc.emit(ev.StoneDiceReturned(c.seat, t.active_stone_dice))
    acc.emit(ev.TileCollected(c.seat, p.position, tile.id))
    if not tile.wild:
        acc.emit(ev.MarketAdjusted(tile.gem, next_market_value(acc.state.gem_values[tile.gem])))
    if row_of(p.position) == CASTLE_ROW:
        take_royalty(acc, c.seat)
    next_turn(acc, rng, elixir=t.elixir)


def remove_tile(acc: Acc, c: RemoveTile, rng: random.Random) -> None:
    s = acc.state
    if c.hex not in removable_hexes(s):
        why = Refusal("the Castle row stays") if row_of(c.hex) == CASTLE_ROW else Refusal("it holds no tile")
        raise IllegalCommand("you cannot remove hex {hex}: {why}", hex=c.hex, why=why)
    acc.emit(ev.TileRemoved(c.seat, c.hex, s.board[c.hex]))
    next_turn(acc, rng)


def require_no_pending(state: State, allowed: str | None = None) -> None:
    pend = pending(state)
    if pend is None or pend["kind"] == allowed:
        return
    if pend["kind"] == "give_gem":
        raise IllegalCommand("your hold is over 7: first give away {count} gem(s) (give_gem)",
                             count=pend["count"])
    raise IllegalCommand(PENDING_MESSAGES[pend["kind"]])


PENDING_MESSAGES = {
    "choose_gem": Refusal("first choose the gem of the rainbow tile you stand on (choose_gem)"),
    "discard_objective": Refusal(
        "you have entered the Forest: first discard one of your two objectives (discard_objective)"),
    "roll": Refusal("first keep or change your pending roll (keep_roll)"),
}


def _tile(tile_id: str) -> Name:
    """A tile as the refusal quotes it: its id in English, its printed name in a translation."""
    return Name(tile_id, display_name(tile_id))

