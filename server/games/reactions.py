"""What the core tells the rest of the server: facts in the past tense, and who reacts to them.

The core (`service.apply_command`, the lobby) publishes a fact inside the transaction that made
it; each reaction subscribed to the fact's type runs then, in the order it was subscribed, and
writes through the same unit of work, so what it queues commits or rolls back with the command.
The core imports none of the reactions: the app subscribes them at start-up
(`server.reactions.init_app`), the way eventsourcing's process applications follow an
aggregate's events. docs/architecture.md draws the whole path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection
from sqlmodel import Session


@dataclass(frozen=True)
class EventsAppended:
    """A command's events were appended to a game's log (not yet committed).

    ``rows`` are the stored event rows ``{seq, type, payload, actor, at}``; ``game`` is the
    game at its new version (a mapped Game or a `GameRow`), whose due-time columns the reactions
    may still change: the core writes the game row after they ran."""

    unit: Session | Connection
    game: Any
    state_before: Any
    state_after: Any
    rows: list[dict[str, Any]]
    actor: str
    now: datetime


@dataclass(frozen=True)
class PlayerLeft:
    """A member gave up their seat in a game that had not started."""

    session: Session
    game_id: str
    user_id: int


Reaction = Callable[[Any], None]
_SUBSCRIBERS: dict[type, list[Reaction]] = {}


def subscribe(fact_type: type, reaction: Reaction) -> None:
    """Call ``reaction(fact)`` for every fact of ``fact_type`` from now on, after the ones
    subscribed before it. Subscribing the same reaction again changes nothing (every app the
    process creates subscribes its reactions)."""
    reactions = _SUBSCRIBERS.setdefault(fact_type, [])
    if reaction not in reactions:
        reactions.append(reaction)


def publish(fact: Any) -> None:
    """Run every reaction to ``fact``. A command appended before any app subscribed its
    reactions would lose its mail and its due times without a word: refused instead."""
    reactions = _SUBSCRIBERS.get(type(fact))
    if not reactions:
        raise RuntimeError(f"nothing reacts to {type(fact).__name__}: create the app first "
                           "(server.create_app subscribes the reactions)")
    for reaction in reactions:
        reaction(fact)
