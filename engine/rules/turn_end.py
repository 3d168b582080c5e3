"""How a turn hands over, for a human and the Rhom alike: the royalty token taken in the Castle,
and whose turn is next (turn.py and rhom.py both end their turns here)."""

from __future__ import annotations

import random

from engine import events as ev
from engine.data import ROYALTY_POINTS
from engine.rules.acc import Acc
from engine.rules.queries import removable_hexes


def take_royalty(acc: Acc, seat: int) -> None:
    tokens = acc.state.royalty_tokens
    token = max(tokens, key=lambda k: ROYALTY_POINTS[k]) if tokens else None
    acc.emit(ev.RoyaltyTokenTaken(seat, token, ROYALTY_POINTS[token] if token else 0))


def next_turn(acc: Acc, rng: random.Random, elixir: bool = False) -> None:
    """Whose turn is next: an Epic Elixir's extra turn, a removal turn or the next participant."""
    s = acc.state
    t = s.turn
    players = s.players
    if all(p.finished for p in players):
        acc.emit(ev.GameEnded())
        return
    number = t.number + 1
    if elixir and not players[t.seat].finished:
        acc.emit(ev.TurnStarted(t.seat, "turn", number, True))
        return
    n = len(players)
    for k in range(1, n + 1):
        seat = (t.seat + k) % n
        p = players[seat]
        if not p.finished:
            acc.emit(ev.TurnStarted(seat, "rhom" if p.kind == "rhom" else "turn", number))
            return
        if p.kind == "human" and removable_hexes(s):
            acc.emit(ev.TurnStarted(seat, "removal", number))
            return
    raise AssertionError("an unfinished participant always exists here")
