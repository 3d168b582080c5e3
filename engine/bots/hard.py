"""`hard`: a tuned heuristic, checked by a short determinized search where the choice matters.

Most decisions (answering a pending question, keeping a roll, revealing, mining, buying,
selling) the heuristic of playout.py, tuned on solo games, makes as well as a small search:
`hard` deals one state consistent with the seat's view (determinize.py) and lets the heuristic
choose on it, in a tenth of a millisecond. The decision that shapes a game, where to move, goes
to the search of strong.py with a small budget: every shortlisted candidate is played out on a
few sampled states, sequential halving keeps the better half, and the heuristic's own choice is
the first candidate, so the search only overrules it on evidence.

It reads only `view` and its legal commands, as every bot does; given the same inputs and the
same generator it makes the same choice (its budget is counted in playouts; the CPU cap only
cuts the rare long decision short).
"""

from __future__ import annotations

import random

from engine.bots.candidates import shortlist
from engine.bots.determinize import sample_state
from engine.bots.playout import playout_choice
from engine.bots.strong import Budget, search

# The decisions worth a search: where to move (a game's shape is its path; the heuristic's other
# choices gained nothing from a search of this size, docs/bots.md).
SEARCHED = frozenset({"move"})

# 16 playouts a searched decision, and a CPU cap that only the first moves of a game reach.
HARD_BUDGET = Budget(playouts=16, seconds=0.2)


def hard_choice(view: dict, commands: list, rng: random.Random, budget: Budget | None = None):
    """The command `hard` plays for the seat `view["viewer"]` among its legal `commands`."""
    budget = budget or HARD_BUDGET
    commands = [c for c in commands if c.type != "undo"]
    if not commands:
        raise ValueError(f"seat {view.get('viewer')} has nothing to decide now")
    if len(commands) == 1:
        return commands[0]
    seat = view["viewer"]
    sample = sample_state(view, random.Random(rng.getrandbits(64)))
    preferred = playout_choice(sample, seat, commands, rng)
    if not SEARCHED.intersection(c.type for c in commands):
        return preferred
    # The heuristic's choice first: ties in the search keep the earlier candidate.
    options = [preferred] + [c for c in shortlist(view, commands) if c != preferred]
    if len(options) == 1:
        return options[0]
    return search(view, options, rng, budget)
