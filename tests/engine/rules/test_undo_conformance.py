"""Random games: at every decision of a player's turn, an undo is offered exactly when a step
was played since the last one that revealed or drew, and it returns to the state after that one.

The fold does not know where a step begins (engine/rules/undo.py guesses it from the first event's
kind); here the steps are known, so a wrong guess (an undo that would stop inside a step) fails.
"""

import random

import pytest

import engine
from engine import simulate
from engine.bots import policies
from engine.commands import Undo
from engine.events import GameStarted, TurnStarted
from engine.rules.undo import _sealed_by


def _seals(step, seat) -> bool:
    return any(isinstance(e, (GameStarted, TurnStarted)) or _sealed_by(e, seat) is not None
               for e in step.events)


@pytest.mark.parametrize("players,version,policy", [
    (1, "2", "random"), (2, "2", "greedy"), (3, "2", "random"), (4, "2", "random"),
    (2, "1", "random"), (4, "1", "cautious"),
])
def test_undo_is_offered_exactly_back_to_the_last_step_that_revealed_or_drew(players, version,
                                                                            policy):
    checked = offered = 0
    for game in range(4):
        base, since = None, []
        options = simulate.make_options(players)
        chooser = getattr(policies, f"{policy}_policy")
        for step, state in simulate.steps(options, f"undo-{players}-{game}", chooser,
                                          rules_version=version):
            seat = None if state.turn is None else state.turn.seat
            if step.command.type == "start_game" or _seals(step, seat):
                base, since = state, []
            else:
                since.append(step)
            if state.over or state.turn.kind != "turn":
                continue
            checked += 1
            legal = engine.legal_commands(state, seat)
            if not since:
                assert Undo(seat) not in legal
                continue
            offered += 1
            assert Undo(seat) in legal
            events = engine.decide(state, Undo(seat), random.Random(0))
            assert events[0].events == sum(len(s.events) for s in since)
            assert events[0].steps >= len(since)
            assert engine.replay(events, state) == base
    assert offered > 50 and checked > offered
