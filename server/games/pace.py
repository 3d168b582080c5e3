"""Time controls named as players know them: a game's pace is how long a turn may take.

    1d    a day a turn, a reminder every 12 hours (the warning 6 hours before the deadline)
    3d    three days a turn, a reminder a day (warned 12 hours ahead): the default
    7d    a week a turn, a reminder every two days (warned 12 hours ahead)
    none  no deadline: the server never plays a turn for a player; a reminder every 3 days

A pace only names `turn_deadline_hours` and a default `reminder_interval_hours`: a game made
with hours of its own has the pace `"{hours}h"` (or one of the names, when they match).
"""

from __future__ import annotations

from datetime import datetime

# pace: (turn_deadline_hours, reminder_interval_hours)
PACES = {"1d": (24, 12), "3d": (72, 24), "7d": (168, 48), "none": (0, 72)}
DEFAULT_PACE = "3d"


def pace_name(turn_deadline_hours: int) -> str:
    """The name of the pace a game's turn deadline makes."""
    for name, (hours, _reminders) in PACES.items():
        if hours == turn_deadline_hours:
            return name
    return f"{turn_deadline_hours}h"


def _plural(number: int, unit: str) -> str:
    return f"{number} {unit}{'' if number == 1 else 's'}"


def time_left(deadline: datetime | None, now: datetime) -> str | None:
    """"2 days 4 hours left", "3 hours 10 minutes left", "under a minute left" (None: no
    deadline). Past the deadline: "due now" (the server plays the turn on its next tick)."""
    if deadline is None:
        return None
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return "due now"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        parts = [_plural(days, "day")] + ([_plural(hours, "hour")] if hours else [])
    elif hours:
        parts = [_plural(hours, "hour")] + ([_plural(minutes, "minute")] if minutes else [])
    elif minutes:
        parts = [_plural(minutes, "minute")]
    else:
        return "under a minute left"
    return " ".join(parts) + " left"
