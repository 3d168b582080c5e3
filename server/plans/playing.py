"""Playing a seat's plan when its turn comes: line by line through the mail's runner
(`engine.text.script.Script`: alternatives in order, interruption answers when asked) while each
line is legal; it stops at the first that is not. The plan is dropped either way; the turn's
deadline runs as usual for what is left."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.errors import Refusal
from engine.text.script import Script, ScriptLine, described
from server.games.service import apply_command
from server.games.table import seat_names
from server.i18n import N_, Said
from server.i18n.stored import stored
from server.plans.store import take


@dataclass
class PlanPlayed:
    user_id: int
    played: list[str] = field(default_factory=list)  # each command as the player reads it
    left: list[str] = field(default_factory=list)  # the lines not played
    # Why the first line left could not be played ("" when none was left): a sentence kept as
    # JSON (server/i18n/stored.py), said in the reader's language when the mail is written.
    stopped: dict | str = ""
    state: Any = None  # the game's state after the plan


def play(session, game, state, seat: int, now: datetime) -> PlanPlayed | None:
    """Play the seat's plan in `session`'s transaction (None: the seat has none)."""
    plan = take(session, game.id, seat)
    if plan is None:
        return None
    user_id, lines = plan
    names = seat_names(session, game.id)
    script = Script([ScriptLine(n, text) for n, text in enumerate(lines, start=1)], seat, names)
    result = PlanPlayed(user_id)
    while (step := script.next(state)) is not None and step.command is not None:
        state = apply_command(session, game, step.command, f"user:{user_id}", now,
                              state_before=state).state
        script.played(step)
        result.played.append(described(step, names))
    if script.stop is not None:
        reason = script.stop.reason
        if isinstance(reason, Refusal):
            reason = reason.named(dict(names))  # players read names, never seat numbers
        result.stopped = stored(Said(N_('line {number}, "{text}": {reason}'),
                                     number=script.stop.line.number, text=script.stop.line.text,
                                     reason=reason))
    result.left = [line.text for index, line in enumerate(script.lines)
                   if index not in script.used]
    result.state = state
    return result
