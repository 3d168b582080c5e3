"""An event accumulator: decide() emits events one by one and reads the state they lead to."""

from __future__ import annotations

from engine.events import Event
from engine.rules.evolve import evolve
from engine.state import State


class Acc:
    def __init__(self, state: State):
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for e in events:
            self.events.append(e)
            self.state = evolve(self.state, e)
