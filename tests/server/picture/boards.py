"""Fixed game states for the board picture's tests: the start, a mid-game position with
barricades and a pending roll, and the end (seeded playouts: the same every run)."""

from __future__ import annotations

from functools import cache

from engine import simulate
from engine.bots import policies

NAMES = {0: "the Rhom", 1: "Ada", 2: "Bo"}


@cache
def states() -> dict[str, object]:
    """'start', 'mid' and 'end' of one seeded 2-player game with the Rhom."""
    options = simulate.make_options(2, rhom=True)
    found: dict[str, object] = {}
    # Under rules version 1, so that the golden pictures stay those of the same positions.
    for _step, state in simulate.steps(options, "golden-board", policies.random_policy,
                                       rules_version="1"):
        found.setdefault("start", state)
        turn = state.turn
        if "mid" not in found and state.barricades and turn is not None and turn.roll:
            found["mid"] = state
        found["end"] = state
    assert "mid" in found, "the seeded game never had barricades and a pending roll at once"
    return found
