"""How long a tick may spend on due game work: a wall-clock budget, asked between units of work.

    budget = Budget(1.0)          # IRIDESCIA_SCHEDULER_BUDGET_SECONDS
    while budget.left(): ...

Work is never cut in the middle: the budget is asked before each batch of reminders and before
each automatic turn, so a tick ends at most one unit after its budget. The timer is injectable
(`Budget(1.0, timer=...)`): tests move it by hand.
"""

import time
from collections.abc import Callable


class Budget:
    def __init__(self, seconds: float, timer: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self._timer = timer
        self._started = timer()
        self.exhausted = False

    def left(self) -> bool:
        """True while time is left; once it is spent, False from then on."""
        if not self.exhausted and self._timer() - self._started >= self.seconds:
            self.exhausted = True
        return not self.exhausted
