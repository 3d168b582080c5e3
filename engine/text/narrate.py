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
from dataclasses import dataclass, field

from engine.data import RELICS, RHOM_CARDS, TILES
from engine.events import Event, event_to_dict
from engine.text.scores import score_lines
from engine.text.wording import and_list as _and
from engine.text.wording import clean
from engine.text.wording import coins as _coins
from engine.text.wording import component_name as _name
from engine.text.wording import count as _count
from engine.text.wording import die as _die
from engine.text.wording import gem_list as _gem_list
from engine.text.wording import gems as _gems
from engine.text.wording import numbers as _numbers
from engine.text.wording import points as _points
from engine.text.wording import the as _the

__all__ = ["Story", "narrate", "narrate_lines", "narrate_text", "score_lines"]

@dataclass(frozen=True)
class Story:
    """What happened in one turn (or the part of it that the events given cover)."""

    number: int | None
    seat: int | None
    kind: str  # "turn" | "rhom" | "removal" | "setup" | "continued" | "end"
    heading: str
    sentences: tuple[str, ...]


@dataclass
class _Sentence:
    seat: int | None
    clauses: list[str] = field(default_factory=list)
    gains: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    closed: bool = False  # nothing joins it (an undo: what follows is a new start)

    def phrase(self) -> str:
        """The sentence without its subject, in lower case: "moved to 1b (an emerald)"."""
        text = " and ".join(self.clauses) or "got"
        if self.gains:
            text += f" ({_and(self.gains)})"
        return "; ".join([text, *self.after]) if self.clauses or self.gains else "; ".join(self.after)

    def text(self, who: str) -> str:
        body = " and ".join(self.clauses)
        text = f"{who} {body}" if body else f"{who} got"
        if self.gains:
            text += ": " + _and(self.gains)
        if self.after:
            text += "; " + "; ".join(self.after)
        return text[0].upper() + text[1:] + "."


class _Narrator:
    def __init__(self, names: Mapping[int, str], seat: int | None):
        self.names = {k: clean(v) for k, v in names.items()}
        self.seat = seat
        self.stories: list[Story] = []
        self.head: tuple[int | None, int | None, str, str] | None = None
        self.sentences: list[_Sentence] = []

    def who(self, seat: int | None) -> str:
        if seat is not None and seat == self.seat:
            return "you"
        return self.names.get(seat, f"seat {seat}") if seat is not None else "the game"

    def whom(self, seat: int | None) -> str:
        return "the supply" if seat is None else self.who(seat)

    # Building sentences
    def current(self, seat: int | None) -> _Sentence:
        if not self.sentences or self.sentences[-1].seat != seat:
            self.sentences.append(_Sentence(seat))
        return self.sentences[-1]

    def act(self, seat: int | None, clause: str, joins: bool = False) -> None:
        last = self.sentences[-1] if self.sentences else None
        if (joins and last is not None and last.seat == seat and not last.gains and not last.after
                and not last.closed):
            last.clauses.append(clause)
        else:
            self.sentences.append(_Sentence(seat, [clause]))

    def gain(self, seat: int | None, what: str) -> None:
        self.current(seat).gains.append(what)

    def then(self, clause: str) -> None:
        if self.sentences:
            self.sentences[-1].after.append(clause)
        else:
            self.sentences.append(_Sentence(None, [], [], [clause]))

    def flush(self) -> None:
        if self.head is None and not self.sentences:
            return
        number, seat, kind, heading = self.head or (None, None, "continued", "Continued")
        lines = []
        for s in self.sentences:
            lines.append(s.text(self.who(s.seat)) if s.clauses or s.gains else
                         "; ".join(s.after)[0].upper() + "; ".join(s.after)[1:] + ".")
        self.stories.append(Story(number, seat, kind, heading, tuple(lines)))
        self.head, self.sentences = None, []

    def start_turn(self, e: dict) -> None:
        self.flush()
        seat, kind, number = e["seat"], e["kind"], e["number"]
        name = self.names.get(seat, f"seat {seat}")
        if seat == self.seat:
            name = f"{name} (you)"
        label = {"rhom": f"{name}", "removal": f"{name}, a removal turn"}.get(kind, name)
        if e.get("extra"):
            label += ", an extra turn"
        self.head = (number, seat, kind, f"Turn {number}: {label}")

    def feed(self, e: dict) -> None:
        kind = e["type"]
        if kind == "turn_started":
            self.start_turn(e)
            return
        if kind == "game_started":
            self.flush()
            self.head = (None, None, "setup", "Setup")
        elif kind == "game_ended" and self.head is None:
            self.head = (None, None, "end", "The end")
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

    # One handler per event type; each says only what the (redacted) event says.
    def on_game_started(self, e):
        for i, player_id in enumerate(e["seats"]):
            if player_id == "rhom":
                self.names.setdefault(i, "the Rhom")
        seats = [self.names.get(i, f"seat {i}") for i in range(len(e["seats"]))]
        self.then(f"the game began; the order of play is {_and(seats)}")
        if self.seat is not None and self.seat < len(e["objectives"]):
            mine = [o for o in e["objectives"][self.seat] if o]
            if mine:
                self.act(self.seat, f"were dealt the secret objectives {_and([_name(o) for o in mine])}")

    def on_tiles_revealed(self, e):
        self.act(e["seat"], f"revealed {_and(list(e['hexes']))}")

    def on_explorer_moved(self, e):
        verb = {"relocate": "relocated to", "catapult": "jumped with the Clever Catapult to"}
        self.act(e["seat"], f"{verb.get(e['via'], 'moved to')} {e['hex']}", joins=True)

    def on_explorers_swapped(self, e):
        self.act(e["seat"], f"swapped places with {self.who(e['target'])}", joins=True)

    def on_tile_discarded(self, e):
        self.act(e["seat"], f"discarded a {_name(e['tile'])} tile from the victory pile",
                 joins=True)

    def on_gem_chosen(self, e):
        self.act(e["seat"], f"chose {e['gem']} for the tile", joins=True)

    def on_gems_gained(self, e):
        self.gain(e["seat"], _gems(e["gem"], e["count"]))

    def on_gems_returned(self, e):
        if e["reason"] == "cauldron":
            self.act(e["seat"], f"traded in {_gem_list(e['gems'])}", joins=True)
        else:
            self.gain(e["seat"], f"{_gem_list(e['gems'])} returned (no room)")

    def on_gem_given(self, e):
        self.act(e["seat"], f"gave {_gems(e['gem'], 1)} to {self.whom(e['to'])} (hold over 7)")

    def on_coins_gained(self, e):
        self.gain(e["seat"], _coins(e["amount"]))

    def on_coins_spent(self, e):
        if e["reason"] == "mining":
            self.act(e["seat"], f"paid {_coins(e['amount'])} to mine")
        else:
            self.act(e["seat"], f"paid {_coins(e['amount'])}")

    def on_points_scored(self, e):
        self.gain(e["seat"], _points(e["points"]))

    def on_stone_die_taken(self, e):
        self.gain(e["seat"], "a stone die")

    def on_stone_dice_activated(self, e):
        self.act(e["seat"], f"activated {_count(e['count'], 'stone die', 'stone dice')}",
                 joins=True)

    def on_stone_dice_returned(self, e):
        self.act(e["seat"], f"returned {_count(e['count'], 'stone die', 'stone dice')}")

    def on_iridia_stone_taken(self, e):
        self.gain(e["seat"], "the Iridia Stone")

    def on_objective_discarded(self, e):
        if e.get("objective"):
            self.act(e["seat"], f"discarded the objective {_name(e['objective'])}")
        else:
            self.act(e["seat"], "discarded a secret objective")

    def on_dice_rolled(self, e):
        where = " at the Wishing Well" if e["kind"] == "wishing_well" else ""
        stone = f" (stone dice: {', '.join(map(str, e['stone']))})" if e.get("stone") else ""
        self.act(e["seat"], f"rolled {_numbers(e['dice'])}{stone}{where}", joins=True)

    def on_die_modified(self, e):
        self.act(e["seat"], f"changed {_die(e['die'])} to {e['value']} with {_the(e['item'])}")

    def on_dice_rerolled(self, e):
        self.act(e["seat"], f"re-rolled {_count(len(e['indices']), 'die', 'dice')}: "
                            f"{_numbers(e['values'])}")

    def on_market_dice_rolled(self, e):
        values = ", ".join(f"{g} {v}" for g, v in e["values"].items())
        self.act(e["seat"], f"rolled the market dice: {values}")

    def on_roll_kept(self, e):
        n = e["successes"]
        self.act(e["seat"], "kept the roll" + (f" ({_count(n, 'success', 'successes')})"
                                               if n else " (no success)"))

    def on_gems_sold(self, e):
        self.act(e["seat"], f"sold {_gems(e['gem'], e['count'])} for {_coins(e['coins'])}")

    def on_item_bought(self, e):
        self.act(e["seat"], f"bought {_the(e['item'])} for {_coins(e['cost'])}")

    def on_item_claimed(self, e):
        self.act(e["seat"], f"took {_the(e['item'])} from the market")

    def on_item_drawn(self, e):
        self.then(f"{_the(e['item'])} came into the item market")

    def on_market_refreshed(self, e):
        self.then("the item market was dealt again: " + _and([_name(i) for i in e["market"]]))

    def on_item_deck_reshuffled(self, e):
        self.then("the item discard pile was shuffled into a new deck")

    def on_item_played(self, e):
        where = f" on {e['hex']}" if e.get("hex") else ""
        self.act(e["seat"], f"played {_the(e['item'])}{where}")

    def on_relic_reserved(self, e):
        source = "from the relic deck" if e["source"] == "deck" else "from the relic row"
        self.act(e["seat"], f"reserved {_the(e['relic'])} {source}", joins=True)

    def on_relic_restored(self, e):
        self.act(e["seat"], f"restored {_the(e['relic'])}")
        self.gain(e["seat"], _points(e["points"]))

    def on_relic_drawn(self, e):
        relic = RELICS.get(e["relic"])
        category = f" ({relic.category})" if relic else ""
        self.then(f"{_the(e['relic'])}{category} came into the relic row")

    def on_tile_collected(self, e):
        tile = TILES.get(e["tile"])
        self.act(e["seat"], f"collected the {_name(e['tile'])} tile from {e['hex']}"
                 if tile else f"collected the tile from {e['hex']}")

    def on_market_adjusted(self, e):
        self.then(f"{e['gem']} is now worth {_coins(e['value'])}")

    def on_royalty_token_taken(self, e):
        if e.get("token"):
            self.act(e["seat"], f"reached the Castle and took the {_name(e['token'])}")
            self.gain(e["seat"], _points(e["points"]))
        else:
            self.act(e["seat"], "reached the Castle (no royalty token was left)")

    def on_tile_removed(self, e):
        self.act(e["seat"], f"removed the tile at {e['hex']}")

    def on_rhom_card_drawn(self, e):
        card = RHOM_CARDS.get(e["card"])
        icon = f" ({card.icon})" if card else ""
        self.then(f"the Rhom drew card {e['card']}{icon}")

    def on_relic_deck_shuffled(self, e):
        self.then("the relic deck was shuffled")  # its order stays hidden (R25)

    def on_rhom_deck_reshuffled(self, e):
        self.then("the Rhom's cards were shuffled")

    def on_rhom_die_rolled(self, e):
        purpose = {"first_reveal": "to choose its first tiles", "stone_die": "for a stone die",
                   "merchant": "for the merchant", "barricade": "for a barricade"}
        self.act(e["seat"], f"rolled {e['value']} {purpose.get(e['purpose'], '')}".rstrip())

    def on_barricade_placed(self, e):
        self.then(f"a barricade was placed on {e['hex']}")

    def on_game_ended(self, e):
        self.then("the game ended")

    def undone(self, e: dict, cancelled: list[dict] | None) -> None:
        """An undo, told with the steps it took back when `cancelled` holds them all (the
        events given may begin after them)."""
        steps = _count(e["steps"], "step", "steps")
        told = ""
        if cancelled is not None:
            inner = _Narrator(self.names, self.seat)
            for event in cancelled:
                inner.feed(event)
            told = "; ".join(s.phrase() for s in inner.sentences if s.clauses or s.gains or s.after)
        self.sentences.append(_Sentence(e["seat"], [f"took back {steps}" + (f": {told}" if told else "")],
                                        closed=True))


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
            seat: int | None = None) -> list[Story]:
    """The events told as `seat` may know them (None: a spectator), one Story per turn.

    `events` are engine events or their JSON form (as the API serves them, already redacted or
    not); `names` are the players' names by seat (a missing one is "seat N")."""
    narrator = _Narrator(names, seat)
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


def narrate_lines(events, names, seat=None, indent: str = "  ") -> list[str]:
    """Each turn's heading, then its sentences indented."""
    lines: list[str] = []
    for story in narrate(events, names, seat):
        lines.append(story.heading)
        lines.extend(indent + s for s in story.sentences)
    return lines


def narrate_text(events, names, seat=None) -> str:
    return "\n".join(narrate_lines(events, names, seat))
