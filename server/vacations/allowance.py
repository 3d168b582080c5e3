"""How many vacation days a player has used, by calendar year.

A vacation counts every UTC calendar day it touches: away from today (Tuesday, noon) until
Friday (back at 00:00 UTC on Friday) is Tuesday, Wednesday and Thursday: 3 days. A vacation
that runs into the next year counts its days in each year. Coming back early gives back the
days not yet begun. (The calendar year, not a rolling 365 days: "21 days a year" is then what
players expect, and the count starts afresh on 1 January.)
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, time, timedelta


def day_start(day: date) -> datetime:
    """00:00 UTC of `day`: when a vacation "until `day`" ends."""
    return datetime.combine(day, time(0), UTC)


def days_by_year(starts_at: datetime, ends_at: datetime) -> Counter[int]:
    """The UTC calendar days of [starts_at, ends_at), counted by year."""
    counted: Counter[int] = Counter()
    if ends_at <= starts_at:
        return counted
    day = starts_at.astimezone(UTC).date()
    last = (ends_at.astimezone(UTC) - timedelta(microseconds=1)).date()
    while day <= last:
        counted[day.year] += 1
        day += timedelta(days=1)
    return counted


def used_in(vacations, year: int) -> int:
    """Days of `year` the vacations (rows with starts_at and ends_at) count."""
    return sum(days_by_year(v.starts_at, v.ends_at)[year] for v in vacations)
