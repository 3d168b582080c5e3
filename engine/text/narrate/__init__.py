"""Narration: events become sentences a person reads, from one seat's point of view.

    narrate(events, names, seat=1)  ->  [Story(number=12, seat=0, heading="Turn 12: Ada", ...)]
    "Ada revealed 7c and 7d and moved to 7c: an emerald and 3 points."

Events are grouped by turn. Each event is first redacted as `seat` may see it (as engine.view's
`redact_event` does; `seat=None` is a spectator), and a sentence only ever says what the
redacted event says: other seats' objectives, deck orders and face-down tiles cannot reach it. Card and
tile names come from engine/data.py; no raw identifier reaches a person.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.events import Event, event_to_dict
from engine.text.language import Catalog
from engine.text.narrate.narrator import Narrator
from engine.text.narrate.story import Story
from engine.text.scores import score_lines
from engine.text.wording import Words

__all__ = ["Story", "narrate", "narrate_lines", "narrate_text", "score_lines"]


def _visible(event: dict, seat: int | None) -> dict:
    """The event as `seat` may see it. Events the API serves are redacted already (decks are
    counts there), so this redacts anew only what a sentence reads."""
    kind = event.get("type")
    if kind == "game_started":
        return dict(event, objectives=[
            list(objs) if s == seat else [None] * len(objs)
            for s, objs in enumerate(event.get("objectives") or [])])
    if kind == "objective_discarded" and event.get("seat") != seat:
        return dict(event, objective=None)
    if kind == "tile_removed":
        return dict(event, tile=None)
    return event


def narrate(events: Iterable[Event | Mapping], names: Mapping[int, str],
            seat: int | None = None, translations: Catalog | None = None) -> list[Story]:
    """The events told as `seat` may know them (None: a spectator), one Story per turn.

    `events` are engine events or their JSON form (as the API serves them, already redacted or
    not); `names` are the players' names by seat (a missing one is "seat N"); `translations`
    is the catalog of the reader's language (engine/text/language.py; None: English)."""
    narrator = Narrator(names, seat, Words(translations))
    told = [_visible(event_to_dict(e) if isinstance(e, Event) else dict(e), seat) for e in events]
    cancelled = _cancelled(told)
    for i, data in enumerate(told):
        if i in cancelled:
            continue  # told with the undo that cancelled it
        if data.get("type") == "steps_undone":
            first = i - data.get("events", 0)
            narrator.undone(data, told[first:i] if first >= 0 else None)
        else:
            narrator.feed(data)
    narrator.flush()
    return narrator.stories


def _cancelled(events: list[dict]) -> set[int]:
    """The positions of the events an undo among `events` cancelled: the `events` before it."""
    out: set[int] = set()
    for i, data in enumerate(events):
        if data.get("type") == "steps_undone" and isinstance(data.get("events"), int):
            out.update(range(max(0, i - data["events"]), i))
    return out


def narrate_lines(events, names, seat=None, indent: str = "  ",
                  translations: Catalog | None = None) -> list[str]:
    """Each turn's heading, then its sentences indented."""
    lines: list[str] = []
    for story in narrate(events, names, seat, translations):
        lines.append(story.heading)
        lines.extend(indent + s for s in story.sentences)
    return lines


def narrate_text(events, names, seat=None, translations: Catalog | None = None) -> str:
    return "\n".join(narrate_lines(events, names, seat, translations=translations))
