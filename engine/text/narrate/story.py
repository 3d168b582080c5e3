"""What narration makes: a Story a turn, built from Sentences of one subject each."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.text.wording import Words


@dataclass(frozen=True)
class Story:
    """What happened in one turn (or the part of it that the events given cover)."""

    number: int | None
    seat: int | None
    kind: str  # "turn" | "rhom" | "removal" | "setup" | "continued" | "end"
    heading: str
    sentences: tuple[str, ...]


def capital(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


@dataclass
class Sentence:
    seat: int | None
    clauses: list[str] = field(default_factory=list)
    gains: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    closed: bool = False  # nothing joins it (an undo: what follows is a new start)

    def phrase(self, w: Words) -> str:
        """The sentence without its subject, in lower case: "moved to 1b (an emerald)"."""
        _ = w._
        text = _(" and ").join(self.clauses) or _("got")
        if self.gains:
            text = _("{actions} ({gains})").format(actions=text, gains=w.and_list(self.gains))
        return _("; ").join([text, *self.after]) if self.clauses or self.gains else \
            _("; ").join(self.after)

    def text(self, who: str, w: Words) -> str:
        _ = w._
        body = _(" and ").join(self.clauses)
        text = _("{who} {actions}").format(who=who, actions=body) if body else \
            _("{who} got").format(who=who)
        if self.gains:
            text = _("{sentence}: {gains}").format(sentence=text, gains=w.and_list(self.gains))
        if self.after:
            text = _("{sentence}; {after}").format(sentence=text, after=_("; ").join(self.after))
        return _("{sentence}.").format(sentence=capital(text))
