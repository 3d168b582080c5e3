"""How long a tick may spend on due game work: a wall-clock budget, asked between units of work.

    budget = Budget(1.0)          # IRIDESCIA_SCHEDULER_BUDGET_SECONDS
    while budget.left(): ...

Work is never cut in the middle: the budget is asked before each batch of reminders and before
each automatic turn. It answers "no" once the time spent plus the longest unit of work seen so
far would pass the budget, so a tick keeps to its budget unless one unit takes longer than every
one before it. The timer is injectable (`Budget(1.0, timer=...)`): tests move it by hand.
"""

import time
from collections.abc import Callable


class Budget:
    def __init__(self, seconds: float, timer: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self._timer = timer
        self._started = self._last = timer()
        self._longest = 0.0  # the longest time between two looks: a unit of work
        self.exhausted = False

    def restart(self) -> None:
        """Count from now, as if just created."""
        self._started = self._last = self._timer()
        self._longest = 0.0
        self.exhausted = False

    def left(self) -> bool:
        """True while there is time for one more unit of work; False from then on."""
        if self.exhausted:
            return False
        now = self._timer()
        self._longest = max(self._longest, now - self._last)
        self._last = now
        if now - self._started + self._longest >= self.seconds:
            self.exhausted = True
        return not self.exhausted
