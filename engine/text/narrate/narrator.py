"""The narrator: the sentences of the turn being told, whose they are, and how a turn begins and
ends. What each event says is in handlers.py."""

from __future__ import annotations

from collections.abc import Mapping

from engine.text.narrate.handlers import EventHandlers
from engine.text.narrate.story import Sentence, Story, capital
from engine.text.wording import Words, clean


class Narrator(EventHandlers):
    """Tells events one by one (`feed`); `flush` closes the turn told so far into a Story."""

    def __init__(self, names: Mapping[int, str], seat: int | None, w: Words):
        self.names = {k: clean(v) for k, v in names.items()}
        self.seat = seat
        self.w = w
        self._ = w._
        self.stories: list[Story] = []
        self.head: tuple[int | None, int | None, str, str] | None = None
        self.sentences: list[Sentence] = []

    def seat_name(self, seat: int | None) -> str:
        return self.names.get(seat, self._("seat {seat}").format(seat=seat))

    def who(self, seat: int | None) -> str:
        if seat is not None and seat == self.seat:
            return self._("you")
        return self.seat_name(seat) if seat is not None else self._("the game")

    def whom(self, seat: int | None) -> str:
        return self._("the supply") if seat is None else self.who(seat)

    # Building sentences
    def current(self, seat: int | None) -> Sentence:
        if not self.sentences or self.sentences[-1].seat != seat:
            self.sentences.append(Sentence(seat))
        return self.sentences[-1]

    def act(self, seat: int | None, clause: str, joins: bool = False) -> None:
        last = self.sentences[-1] if self.sentences else None
        if (joins and last is not None and last.seat == seat and not last.gains and not last.after
                and not last.closed):
            last.clauses.append(clause)
        else:
            self.sentences.append(Sentence(seat, [clause]))

    def gain(self, seat: int | None, what: str) -> None:
        self.current(seat).gains.append(what)

    def then(self, clause: str) -> None:
        if self.sentences:
            self.sentences[-1].after.append(clause)
        else:
            self.sentences.append(Sentence(None, [], [], [clause]))

    def flush(self) -> None:
        if self.head is None and not self.sentences:
            return
        _ = self._
        number, seat, kind, heading = self.head or (None, None, "continued", _("Continued"))
        lines = []
        for s in self.sentences:
            lines.append(s.text(self.who(s.seat), self.w) if s.clauses or s.gains else
                         _("{sentence}.").format(sentence=capital(_("; ").join(s.after))))
        self.stories.append(Story(number, seat, kind, heading, tuple(lines)))
        self.head, self.sentences = None, []

    def start_turn(self, e: dict) -> None:
        self.flush()
        _ = self._
        seat, kind, number = e["seat"], e["kind"], e["number"]
        name = self.seat_name(seat)
        if seat == self.seat:
            name = _("{name} (you)").format(name=name)
        label = name
        if kind == "removal":
            label = _("{name}, a removal turn").format(name=name)
        if e.get("extra"):
            label = _("{name}, an extra turn").format(name=label)
        self.head = (number, seat, kind, _("Turn {number}: {name}").format(number=number,
                                                                           name=label))

    def feed(self, e: dict) -> None:
        kind = e["type"]
        if kind == "turn_started":
            self.start_turn(e)
            return
        if kind == "game_started":
            self.flush()
            self.head = (None, None, "setup", self._("Setup"))
        elif kind == "game_ended" and self.head is None:
            self.head = (None, None, "end", self._("The end"))
        handler = getattr(self, "on_" + kind, None)
        if handler is not None:
            self.tell(handler, e)

    @staticmethod
    def tell(handler, e: dict) -> None:
        try:
            handler(e)
        except (KeyError, TypeError, ValueError, IndexError):
            # An event of another schema version: better untold than a crashed reader.
            pass

    def undone(self, e: dict, cancelled: list[dict] | None) -> None:
        """An undo, told with the steps it took back when `cancelled` holds them all (the
        events given may begin after them)."""
        steps = self.w.steps(e["steps"])
        clause = self._("took back {steps}").format(steps=steps)
        if cancelled is not None:
            inner = Narrator(self.names, self.seat, self.w)
            for event in cancelled:
                inner.feed(event)
            told = self._("; ").join(s.phrase(self.w) for s in inner.sentences
                                     if s.clauses or s.gains or s.after)
            if told:
                clause = self._("took back {steps}: {what}").format(steps=steps, what=told)
        self.sentences.append(Sentence(e["seat"], [clause], closed=True))
