"""evolve(state, event) -> state: the fold that derives a game from its events. Never draws.

Each event's rule is in play.py (the board, the turn, the dice, the Rhom, undo, the end)
or market.py (the market, items and relics)."""

from __future__ import annotations

from engine import events as ev
from engine.rules.evolve import market  # noqa: F401  (registers the market's, items' and relics' rules)
from engine.rules.evolve.play import apply
from engine.rules.undo import track
from engine.state import State


def evolve(state: State | None, event: ev.Event) -> State:
    """The state after `event`; `state` is None only before game_started."""
    rule = _RULES.get(event.__class__) or _rule_for(event.__class__)
    after = rule(event, state)
    t = after.turn
    if t is not None and t.kind == "turn" and event.__class__ not in _UNTRACKED:
        return track(state, event, after)
    return after


# Events the undo bookkeeping leaves alone: a new turn starts with none, an undo restores it.
_UNTRACKED = frozenset({ev.TurnStarted, ev.StepsUndone, ev.GameStarted})


_RULES: dict[type, object] = {}  # singledispatch's choice per event class, looked up once


def _rule_for(cls: type):
    rule = _RULES[cls] = apply.dispatch(cls)
    return rule


def replay(events, state: State | None = None) -> State:
    # evolve() inlined: the call is a fifth of a replay's time.
    for e in events:
        rule = _RULES.get(e.__class__) or _rule_for(e.__class__)
        after = rule(e, state)
        t = after.turn
        if t is not None and t.kind == "turn" and e.__class__ not in _UNTRACKED:
            after = track(state, e, after)
        state = after
    return state  # type: ignore[return-value]
