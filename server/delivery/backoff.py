"""When to try a message again after a temporary failure: exponential backoff with jitter."""

import random
from datetime import timedelta

FIRST_RETRY_SECONDS = 30
LONGEST_WAIT_SECONDS = 3600
# About a day and a half of retrying (30 s doubling to an hour) before a person is asked to look.
MAX_ATTEMPTS = 40


def retry_delay(attempts: int, rng: random.Random) -> timedelta:
    """The wait after the `attempts`-th failed try: doubling from 30 s, capped at an hour,
    each wait drawn between half and all of it so that queued messages do not retry in step."""
    ceiling = min(LONGEST_WAIT_SECONDS, FIRST_RETRY_SECONDS * 2 ** max(0, attempts - 1))
    return timedelta(seconds=rng.uniform(ceiling / 2, ceiling))
