"""Questions about a state that several commands share: where an explorer may go, what is pending."""

from __future__ import annotations

from engine.board import ALL_HEXES, ahead_or_side, distance, is_ahead_or_side, row_of
from engine.data import CASTLE_ROW, FOREST_ROW, HOLD_LIMIT, TILES, Tile
from engine.state import Player, State


def tile_at(state: State, hex_: str) -> Tile | None:
    tid = state.board.get(hex_)
    return TILES[tid] if tid is not None else None


def occupied(state: State, hex_: str, except_seat: int | None = None) -> bool:
    return any(p.position == hex_ and p.seat != except_seat for p in state.players)


def revealable(state: State, seat: int) -> list[str]:
    """Face-down, unbarricaded hexes ahead of or beside the explorer."""
    p = state.players[seat]
    return [
        h
        for h in ahead_or_side(p.position)
        if h in state.board and h not in state.revealed and h not in state.barricades
    ]


def reachable(state: State, seat: int) -> list[str]:
    """Revealed, unbarricaded tiles ahead of or beside the explorer."""
    p = state.players[seat]
    return [
        h
        for h in ahead_or_side(p.position)
        if h in state.revealed and h not in state.barricades and not occupied(state, h, seat)
    ]


def relocation_targets(state: State, seat: int) -> list[str]:
    """The nearest empty, unbarricaded hexes not behind the explorer (RULINGS §5, Move), leaving
    out hexes the explorer already relocated from this turn so that a turn always ends."""
    p = state.players[seat]
    left = set(state.turn.relocations) if state.turn else set()
    candidates = [
        h
        for h in ALL_HEXES
        if h not in state.board
        and h not in state.barricades
        and h != p.position
        and h not in left
        and is_ahead_or_side(p.position, h)
    ]
    if not candidates:
        return []
    best = min(distance(p.position, h) for h in candidates)
    return [h for h in candidates if distance(p.position, h) == best]


def current_tile(state: State, seat: int) -> Tile | None:
    p = state.players[seat]
    return tile_at(state, p.position) if p.position else None


def on_tile(state: State) -> bool:
    """The turn's explorer stands on a tile it entered this turn (steps 3-6)."""
    return state.turn is not None and state.turn.phase in ("actions", "restore")


def needs_objective_discard(p: Player, state: State) -> bool:
    return (
        len(p.objectives) > 1  # the rarest condition first: asked before and after every command
        and p.kind == "human"
        and p.position is not None
        and row_of(p.position) >= FOREST_ROW
        and on_tile(state)
    )


def pending(state: State) -> dict | None:
    """The decision interrupting the turn, if any: {"kind": ..., ...}."""
    t = state.turn
    if t is None or t.kind != "turn":
        return None
    p = state.players[t.seat]
    if t.choosing_gem:
        return {"kind": "choose_gem"}
    gems = sum(p.hold.values())  # p.gems; asked before and after every command
    if gems > HOLD_LIMIT:
        return {"kind": "give_gem", "count": gems - HOLD_LIMIT}
    if needs_objective_discard(p, state):
        return {"kind": "discard_objective"}
    if t.roll is not None:
        return {"kind": "roll"}
    return None


def has_room(state: State, seat: int) -> bool:
    return state.players[seat].gems < HOLD_LIMIT


def removable_hexes(state: State) -> list[str]:
    return [h for h in ALL_HEXES if h in state.board and row_of(h) != CASTLE_ROW]


def stuck(state: State, seat: int) -> bool:
    """Neither reveal, move nor relocation is possible: the turn may only be ended."""
    t = state.turn
    if t is None or t.phase not in ("reveal", "move"):
        return False
    if reachable(state, seat) or relocation_targets(state, seat):
        return False
    return not (t.phase == "reveal" and revealable(state, seat))


def wrap(value: int) -> int:
    """Dice wrap around: 6 + 1 = 1, 1 - 1 = 6."""
    return (value - 1) % 6 + 1


def next_market_value(value: int) -> int:
    return wrap(value + 1)
