"""The scheduler's time source: a callable returning an aware UTC datetime. Tests pass their own."""

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)
