"""Building specific positions for engine tests: seeded games, scripted dice, arranged boards."""

from __future__ import annotations

import random
from dataclasses import replace

from engine import Options, decide, evolve, replay
from engine.commands import StartGame
from engine.state import State, Turn


class ScriptedRng(random.Random):
    """A generator whose dice are given in advance (shuffles still come from the seed)."""

    def __init__(self, dice=(), seed: int = 0):
        super().__init__(seed)
        self.dice = list(dice)

    def randint(self, a: int, b: int) -> int:
        if self.dice:
            return self.dice.pop(0)
        return super().randint(a, b)


def new_game(players: int = 2, rhom: bool = False, seed: int = 0, version: str | None = None,
             **options) -> State:
    """A new game under rules `version` (default: the current one)."""
    opts = Options.from_dict({"players": players, "rhom": rhom, **options})
    ids = tuple(f"u{i}" for i in range(players))
    return replay(decide(None, StartGame(None, opts, ids, version), random.Random(seed)))


def apply(state: State, command, rng=None) -> State:
    for e in decide(state, command, rng or random.Random(1)):
        state = evolve(state, e)
    return state


def events_of(state: State, command, rng=None) -> list:
    return decide(state, command, rng or random.Random(1))


def place_tile(state: State, hex_: str, tile_id: str, revealed: bool = True) -> State:
    """Put `tile_id` on `hex_` (swapping it with whatever tile was there) and reveal it."""
    board = dict(state.board)
    old = board.get(hex_)
    for h, t in list(board.items()):
        if t == tile_id:
            if old is None:
                del board[h]
            else:
                board[h] = old
    board[hex_] = tile_id
    shown = set(state.revealed)
    if revealed:
        shown.add(hex_)
    else:
        shown.discard(hex_)
    return replace(state, board=board, revealed=frozenset(shown))


def clear_hex(state: State, hex_: str) -> State:
    board = dict(state.board)
    board.pop(hex_, None)
    return replace(state, board=board, revealed=state.revealed - {hex_})


def set_player(state: State, seat: int, **changes) -> State:
    players = list(state.players)
    p = players[seat]
    if "hold" in changes:
        changes["hold"] = {**{g: 0 for g in p.hold}, **changes["hold"]}
    players[seat] = replace(p, **changes)
    return replace(state, players=tuple(players))


def set_turn(state: State, seat: int, **changes) -> State:
    turn = Turn(seat=seat, kind=changes.pop("kind", "turn"), number=state.turn.number)
    return replace(state, turn=replace(turn, **changes))


def standing_on(state: State, seat: int, hex_: str, tile_id: str, **player) -> State:
    """`seat` has just moved onto `tile_id` at `hex_` this turn (step 3 begins)."""
    from engine.data import TILES

    state = place_tile(state, hex_, tile_id)
    state = set_player(state, seat, position=hex_, **player)
    return set_turn(state, seat, phase="actions", tile_gem=TILES[tile_id].gem)


def values(state: State, **gem_values) -> State:
    return replace(state, gem_values={**state.gem_values, **gem_values})
