"""A player's lines played against the game, one command at a time: a mail's reply and a plan
(server/plans/) both run through `Script`, so a whole turn can be written in advance.

- Lines are played in order; a line may offer alternatives, taken in order (`move 3c or move
  3d`: the first one legal now is played).
- A line that answers an interruption (`choose emerald`, `give 2 amethyst to Ben`,
  `discard-objective NAME`) waits until the engine asks for it, wherever it stands: `move 3c` /
  `choose emerald` / `mine` / `keep` / `end` plays a rainbow tile's turn. One never asked for is
  reported as unused.
- The first line that cannot be played stops the run; the lines after it are not run.

The caller applies each command (through the server's `apply_command`, or `engine.decide` for a
dry run) and asks for the next one with the state after it:

    script = Script(lines, seat, names)
    while (step := script.next(state)) and step.command is not None:
        state = apply(step.command); script.played(step)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

import engine
from engine.commands import Command, GiveGem
from engine.errors import Reasons, Refusal
from engine.text.notation import (
    NotationError,
    alternatives,
    command_word,
    format,
    meant,
    parse_many,
)

# The interruptions a line may answer, by the command word that answers each.
ANSWERS = {"choose": "choose_gem", "give": "give_gem", "discard-objective": "discard_objective"}


@dataclass(frozen=True)
class ScriptLine:
    number: int  # where the player wrote it (1-based)
    text: str
    error: str | None = None  # the line cannot be played at all (not a command): it stops the run

    @property
    def answers(self) -> str | None:
        """The interruption this line answers (the pending kind), None for a turn's step."""
        first = command_word(alternatives(self.text)[0].split()[0]) if self.text.split() else ""
        return None if self.error else ANSWERS.get(first)


@dataclass(frozen=True)
class Step:
    index: int  # of the line in the script
    line: ScriptLine
    command: Command | None  # None: the line cannot be played now, the run stops here
    reason: str | None = None


@dataclass
class Script:
    lines: list[ScriptLine]
    seat: int
    names: Mapping[int, str] | None = None
    cursor: int = 0  # the next turn step's line
    used: set[int] = field(default_factory=set)
    queued: dict[int, list[Command]] = field(default_factory=dict)  # the rest of `give 2 ...`
    steps: list[Step] = field(default_factory=list)  # what was played, in order
    stop: Step | None = None

    def next(self, state) -> Step | None:
        """The step to play at `state`: a command, or a Step without one when the line due
        cannot be played (the run stops: `stop`). None when there is nothing more to play
        (every line used, or the turn is no longer the seat's)."""
        if self.stop is not None:
            return None
        if (state is None or engine.is_terminal(state)
                or engine.current_player(state) != self.seat):
            return None
        kind = engine.pending_kind(state)
        last = self._last_runnable()
        if kind in ANSWERS.values():
            for index, line in enumerate(self.lines[:last]):
                if index not in self.used and line.answers == kind:
                    step = self._try(index, state)
                    if step.command is not None:
                        return step
        while self.cursor < len(self.lines) and (
            self.cursor in self.used
            or (self.lines[self.cursor].answers not in (None, kind))
            or (self.lines[self.cursor].answers and self.cursor in self.queued)
        ):
            self.cursor += 1  # an interruption's answer waits to be asked for
        if self.cursor >= len(self.lines):
            return None
        step = self._try(self.cursor, state)
        if step.command is None:
            self.stop = step
        return step

    def played(self, step: Step) -> None:
        """`step`'s command was applied."""
        self.steps.append(step)
        rest = self.queued.get(step.index)
        if rest:
            rest.pop(0)
        if not rest:
            self.queued.pop(step.index, None)
            self.used.add(step.index)

    def not_run(self) -> list[ScriptLine]:
        """The lines not played (in part or at all), in the order written, but the stopping one."""
        stopped = self.stop.index if self.stop else None
        return [line for index, line in enumerate(self.lines)
                if index not in self.used and index != stopped]

    def unused_answers(self) -> list[ScriptLine]:
        """Interruption answers the engine never asked for (nothing of them played)."""
        played = {step.index for step in self.steps}
        return [line for index, line in enumerate(self.lines)
                if line.answers and index not in played and index not in self.used]

    def complete(self) -> bool:
        """Every turn step played (interruption answers never asked for aside), nothing refused."""
        return self.stop is None and all(
            index in self.used or line.answers for index, line in enumerate(self.lines))

    def _last_runnable(self) -> int:
        """Answers after a line that is no command never run: the run stops before them."""
        return next((i for i, line in enumerate(self.lines) if line.error), len(self.lines))

    def _try(self, index: int, state) -> Step:
        step = self._decide(index, state)
        if isinstance(step.reason, Refusal) and self.names:  # players by name, not by seat
            step = dataclasses.replace(step, reason=step.reason.named(dict(self.names)))
        return step

    def _decide(self, index: int, state) -> Step:
        line = self.lines[index]
        if line.error:
            return Step(index, line, None, line.error)
        if index in self.queued:
            command = self.queued[index][0]
            reason = refusal(state, command)
            return Step(index, line, None if reason else command, reason)
        view = engine.view(state, self.seat)
        reasons = []
        for text in alternatives(line.text):
            try:
                commands = parse_many(text, self.seat, view=view, names=self.names)
            except NotationError as error:
                reasons.append(_did_you_mean(error.reason, text, self.names))
                continue
            reason = refusal(state, commands[0])
            if reason is None:
                self.queued[index] = list(commands)
                return Step(index, line, commands[0])
            reasons.append(reason)
        if len(reasons) == 1:
            return Step(index, line, None, reasons[0])
        return Step(index, line, None, Refusal(
            "none of its alternatives can be played now: {reasons}", reasons=Reasons(
                _alternative(text, reason) for text, reason
                in zip(alternatives(line.text), reasons, strict=True))))


def _alternative(text: str, reason: Refusal) -> Refusal:
    return Refusal("`{text}`: {reason}", text=text, reason=reason)


def _did_you_mean(reason: Refusal, text: str, names) -> Refusal:
    guess = meant(text, names)
    return Refusal("{reason}; did you mean `{guess}`?", reason=reason,
                   guess=guess) if guess else reason


def refusal(state, command: Command) -> str | None:
    """Why the engine would refuse `command` now, None when it is legal: the error's English,
    which its `translated(catalog)` writes in the reader's language (engine/errors.py). (Dice
    rolled here are thrown away: the command is decided again, with the game's own generator,
    when applied.)"""
    try:
        engine.decide(state, command, random.Random(0))
    except engine.RuleError as error:
        return error.refusal
    return None


def dry_run(state, script: Script, seed: str, version: int) -> Script:
    """Play `script` on a copy of the game at `version` (with the game's own dice): does every
    line still apply? (`script.complete()`.)"""
    while (step := script.next(state)) is not None and step.command is not None:
        events = engine.decide(state, step.command, engine.rng_for(seed, version))
        state = engine.replay(events, state)
        version += len(events)
        script.played(step)
    return script


def described(step: Step, names: Mapping[int, str] | None = None) -> str:
    """A played step as the line a player reads: the line as written, or the command it became
    when the line offered alternatives or several gems."""
    return step.line.text if len(alternatives(step.line.text)) == 1 and not isinstance(
        step.command, GiveGem) else format(step.command, names)


__all__ = ["ANSWERS", "Script", "ScriptLine", "Step", "described", "dry_run", "refusal"]
