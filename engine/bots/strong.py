"""`strong`: determinized Monte Carlo search from what one seat sees.

For each decision: shortlist the legal commands (candidates.py), then repeatedly deal the hidden
information at random consistently with the seat's view (determinize.py), apply each candidate to
the sampled state and play the game out with a fast heuristic for every seat (playout.py). A
candidate's value is the mean, over its playouts, of whether the seat won plus its final margin
over the best rival. The playout budget is spread by sequential halving: every candidate gets a
few playouts, the worse half is dropped, the survivors get more, until one is left. All candidates
of a round share the same samples and the same dice (common random numbers), so the comparison
measures the choice, not the luck.

The policy sees only `view` (an `engine.view` for its seat) and its legal commands: the same input
a client gets from the server. Given the same inputs, generator and a budget in playouts only, it
makes the same choice.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from engine.api import outcome
from engine.bots.candidates import shortlist
from engine.bots.determinize import sample_state
from engine.bots.playout import apply, play_out
from engine.errors import RuleError

# A win is worth this many points of margin: the search plays to win, then to win by more.
WIN_WEIGHT = 40.0


@dataclass(frozen=True)
class Budget:
    """How much search one decision may use: playouts, and optionally a cap in CPU seconds (the
    time this thread ran, so that other processes on a busy machine do not shrink the search)."""

    playouts: int = 48
    seconds: float | None = None

    def __post_init__(self):
        if self.playouts < 1:
            raise ValueError(f"a budget needs at least one playout, not {self.playouts}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"a time budget must be positive, not {self.seconds}")


# The budget the named policy `strong` uses: about 0.2 s of one core a decision (docs/bots.md),
# capped at 0.9 s of CPU so that the longest decisions (the first turns) stay within a second.
DEFAULT_BUDGET = Budget(playouts=48, seconds=0.9)


def strong_choice(view: dict, commands: list, rng: random.Random, budget: Budget | None = None):
    """The command the search prefers for the seat `view["viewer"]` among its legal `commands`
    (`budget` defaults to DEFAULT_BUDGET)."""
    budget = budget or DEFAULT_BUDGET
    if not commands:
        raise ValueError(f"seat {view.get('viewer')} has nothing to decide now")
    options = shortlist(view, commands)
    if len(options) == 1:
        return options[0]
    return search(view, options, rng, budget)


def search(view: dict, options: list, rng: random.Random, budget: Budget):
    """The best of `options` by sequential halving over determinized playouts."""
    seat = view["viewer"]
    deadline = time.thread_time() + budget.seconds if budget.seconds else None
    base = rng.getrandbits(64)
    totals = [0.0] * len(options)
    counts = [0] * len(options)
    alive = list(range(len(options)))
    rounds = max(1, math.ceil(math.log2(len(options))))
    sample = 0
    for _ in range(rounds):
        per_candidate = max(1, budget.playouts // (rounds * len(alive)))
        for _ in range(per_candidate):
            state = sample_state(view, random.Random(base + 2 * sample))
            dice = base + 2 * sample + 1
            sample += 1
            for i in alive:
                totals[i] += _value(state, options[i], seat, dice)
                counts[i] += 1
            if deadline is not None and time.thread_time() > deadline:
                return options[_best(alive, totals, counts)]
        alive.sort(key=lambda i: -totals[i] / counts[i])  # stable: ties keep the legal order
        alive = alive[: max(1, (len(alive) + 1) // 2)]
        if len(alive) == 1:
            break
    return options[_best(alive, totals, counts)]


def _best(alive: list[int], totals: list[float], counts: list[int]) -> int:
    return max(alive, key=lambda i: (totals[i] / counts[i], -i))


def _value(state, command, seat: int, dice: int) -> float:
    """Win and margin for `seat` after `command` and a playout, all dice drawn from `dice`."""
    rng = random.Random(dice)
    try:
        after = apply(state, command, rng)
    except RuleError:  # cannot happen on a faithful sample; never let it pick the command
        return -1e9
    final = play_out(after, rng)
    if not final.over:
        return 0.0
    result = outcome(final)
    totals = [entry.total for entry in result.seats]
    mine = totals[seat]
    best_rival = max(t for i, t in enumerate(totals) if i != seat)
    winners = result.winners  # ties are broken by the rules (the Iridia Stone, then tokens)
    win = 0.0 if seat not in winners else 1.0 / len(winners)
    return WIN_WEIGHT * win + (mine - best_rival)
