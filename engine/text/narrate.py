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
from engine.text.language import Catalog
from engine.text.scores import score_lines
from engine.text.wording import Words, clean

__all__ = ["Story", "narrate", "narrate_lines", "narrate_text", "score_lines"]

@dataclass(frozen=True)
class Story:
    """What happened in one turn (or the part of it that the events given cover)."""

    number: int | None
    seat: int | None
    kind: str  # "turn" | "rhom" | "removal" | "setup" | "continued" | "end"
    heading: str
    sentences: tuple[str, ...]


def _capital(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


@dataclass
class _Sentence:
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
        return _("{sentence}.").format(sentence=_capital(text))


class _Narrator:
    def __init__(self, names: Mapping[int, str], seat: int | None, w: Words):
        self.names = {k: clean(v) for k, v in names.items()}
        self.seat = seat
        self.w = w
        self._ = w._
        self.stories: list[Story] = []
        self.head: tuple[int | None, int | None, str, str] | None = None
        self.sentences: list[_Sentence] = []

    def seat_name(self, seat: int | None) -> str:
        return self.names.get(seat, self._("seat {seat}").format(seat=seat))

    def who(self, seat: int | None) -> str:
        if seat is not None and seat == self.seat:
            return self._("you")
        return self.seat_name(seat) if seat is not None else self._("the game")

    def whom(self, seat: int | None) -> str:
        return self._("the supply") if seat is None else self.who(seat)

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
        _ = self._
        number, seat, kind, heading = self.head or (None, None, "continued", _("Continued"))
        lines = []
        for s in self.sentences:
            lines.append(s.text(self.who(s.seat), self.w) if s.clauses or s.gains else
                         _("{sentence}.").format(sentence=_capital(_("; ").join(s.after))))
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

    # One handler per event type; each says only what the (redacted) event says.
    def on_game_started(self, e):
        _, w = self._, self.w
        for i, player_id in enumerate(e["seats"]):
            if player_id == "rhom":
                self.names.setdefault(i, _("the Rhom"))
        seats = [self.seat_name(i) for i in range(len(e["seats"]))]
        self.then(_("the game began; the order of play is {seats}").format(seats=w.and_list(seats)))
        if self.seat is not None and self.seat < len(e["objectives"]):
            mine = [o for o in e["objectives"][self.seat] if o]
            if mine:
                self.act(self.seat, _("were dealt the secret objectives {objectives}").format(
                    objectives=w.and_list([w.name(o) for o in mine])))

    def on_tiles_revealed(self, e):
        self.act(e["seat"], self._("revealed {hexes}").format(hexes=self.w.and_list(list(e['hexes']))))

    def on_explorer_moved(self, e):
        _ = self._
        verbs = {"relocate": _("relocated to {hex}"),
                 "catapult": _("jumped with the Clever Catapult to {hex}")}
        self.act(e["seat"], verbs.get(e["via"], _("moved to {hex}")).format(hex=e["hex"]),
                 joins=True)

    def on_explorers_swapped(self, e):
        self.act(e["seat"], self._("swapped places with {whom}").format(whom=self.who(e["target"])),
                 joins=True)

    def on_tile_discarded(self, e):
        self.act(e["seat"], self._("discarded a {tile} tile from the victory pile").format(
            tile=self.w.name(e["tile"])), joins=True)

    def on_gem_chosen(self, e):
        self.act(e["seat"], self._("chose {gem} for the tile").format(gem=self.w.gem(e["gem"])),
                 joins=True)

    def on_gems_gained(self, e):
        self.gain(e["seat"], self.w.gems(e["gem"], e["count"]))

    def on_gems_returned(self, e):
        if e["reason"] == "cauldron":
            self.act(e["seat"], self._("traded in {gems}").format(gems=self.w.gem_list(e["gems"])),
                     joins=True)
        else:
            self.gain(e["seat"], self._("{gems} returned (no room)").format(
                gems=self.w.gem_list(e["gems"])))

    def on_gem_given(self, e):
        self.act(e["seat"], self._("gave {gem} to {whom} (hold over 7)").format(
            gem=self.w.gems(e["gem"], 1), whom=self.whom(e["to"])))

    def on_coins_gained(self, e):
        self.gain(e["seat"], self.w.coins(e["amount"]))

    def on_coins_spent(self, e):
        if e["reason"] == "mining":
            self.act(e["seat"], self._("paid {coins} to mine").format(coins=self.w.coins(e["amount"])))
        else:
            self.act(e["seat"], self._("paid {coins}").format(coins=self.w.coins(e["amount"])))

    def on_points_scored(self, e):
        self.gain(e["seat"], self.w.points(e["points"]))

    def on_stone_die_taken(self, e):
        self.gain(e["seat"], self.w.stone_dice(1))

    def on_stone_dice_activated(self, e):
        self.act(e["seat"], self._("activated {dice}").format(dice=self.w.stone_dice(e["count"])),
                 joins=True)

    def on_stone_dice_returned(self, e):
        self.act(e["seat"], self._("returned {dice}").format(dice=self.w.stone_dice(e["count"])))

    def on_iridia_stone_taken(self, e):
        self.gain(e["seat"], self._("the Iridia Stone"))

    def on_objective_discarded(self, e):
        if e.get("objective"):
            self.act(e["seat"], self._("discarded the objective {objective}").format(
                objective=self.w.name(e["objective"])))
        else:
            self.act(e["seat"], self._("discarded a secret objective"))

    def on_dice_rolled(self, e):
        _, w = self._, self.w
        values = w.numbers(e["dice"])
        if e.get("stone"):
            values = _("{values} (stone dice: {stone})").format(
                values=values, stone=_(", ").join(map(str, e["stone"])))
        if e["kind"] == "wishing_well":
            clause = _("rolled {values} at the Wishing Well").format(values=values)
        else:
            clause = _("rolled {values}").format(values=values)
        self.act(e["seat"], clause, joins=True)

    def on_die_modified(self, e):
        self.act(e["seat"], self._("changed {die} to {value} with {item}").format(
            die=self.w.die(e["die"]), value=e["value"], item=self.w.the(e["item"])))

    def on_dice_rerolled(self, e):
        self.act(e["seat"], self._("re-rolled {dice}: {values}").format(
            dice=self.w.dice(len(e["indices"])), values=self.w.numbers(e["values"])))

    def on_market_dice_rolled(self, e):
        values = self._(", ").join(f"{self.w.gem(g)} {v}" for g, v in e["values"].items())
        self.act(e["seat"], self._("rolled the market dice: {values}").format(values=values))

    def on_roll_kept(self, e):
        n = e["successes"]
        if n:
            self.act(e["seat"], self._("kept the roll ({successes})").format(
                successes=self.w.successes(n)))
        else:
            self.act(e["seat"], self._("kept the roll (no success)"))

    def on_gems_sold(self, e):
        self.act(e["seat"], self._("sold {gems} for {coins}").format(
            gems=self.w.gems(e["gem"], e["count"]), coins=self.w.coins(e["coins"])))

    def on_item_bought(self, e):
        self.act(e["seat"], self._("bought {item} for {coins}").format(
            item=self.w.the(e["item"]), coins=self.w.coins(e["cost"])))

    def on_item_claimed(self, e):
        self.act(e["seat"], self._("took {item} from the market").format(item=self.w.the(e["item"])))

    def on_item_drawn(self, e):
        self.then(self._("{item} came into the item market").format(item=self.w.the(e["item"])))

    def on_market_refreshed(self, e):
        self.then(self._("the item market was dealt again: {items}").format(
            items=self.w.and_list([self.w.name(i) for i in e["market"]])))

    def on_item_deck_reshuffled(self, e):
        self.then(self._("the item discard pile was shuffled into a new deck"))

    def on_item_played(self, e):
        if e.get("hex"):
            self.act(e["seat"], self._("played {item} on {hex}").format(
                item=self.w.the(e["item"]), hex=e["hex"]))
        else:
            self.act(e["seat"], self._("played {item}").format(item=self.w.the(e["item"])))

    def on_relic_reserved(self, e):
        relic = self.w.the(e["relic"])
        if e["source"] == "deck":
            clause = self._("reserved {relic} from the relic deck").format(relic=relic)
        else:
            clause = self._("reserved {relic} from the relic row").format(relic=relic)
        self.act(e["seat"], clause, joins=True)

    def on_relic_restored(self, e):
        self.act(e["seat"], self._("restored {relic}").format(relic=self.w.the(e["relic"])))
        self.gain(e["seat"], self.w.points(e["points"]))

    def on_relic_drawn(self, e):
        relic = RELICS.get(e["relic"])
        if relic:
            self.then(self._("{relic} ({category}) came into the relic row").format(
                relic=self.w.the(e["relic"]), category=self.w.category(relic.category)))
        else:
            self.then(self._("{relic} came into the relic row").format(
                relic=self.w.the(e["relic"])))

    def on_tile_collected(self, e):
        tile = TILES.get(e["tile"])
        if tile:
            self.act(e["seat"], self._("collected the {tile} tile from {hex}").format(
                tile=self.w.name(e["tile"]), hex=e["hex"]))
        else:
            self.act(e["seat"], self._("collected the tile from {hex}").format(hex=e["hex"]))

    def on_market_adjusted(self, e):
        self.then(self._("{gem} is now worth {coins}").format(
            gem=self.w.gem(e["gem"]), coins=self.w.coins(e["value"])))

    def on_royalty_token_taken(self, e):
        if e.get("token"):
            self.act(e["seat"], self._("reached the Castle and took the {token}").format(
                token=self.w.name(e["token"])))
            self.gain(e["seat"], self.w.points(e["points"]))
        else:
            self.act(e["seat"], self._("reached the Castle (no royalty token was left)"))

    def on_tile_removed(self, e):
        self.act(e["seat"], self._("removed the tile at {hex}").format(hex=e["hex"]))

    def on_rhom_card_drawn(self, e):
        card = RHOM_CARDS.get(e["card"])
        if card:
            self.then(self._("the Rhom drew card {card} ({icon})").format(
                card=e["card"], icon=self._(card.icon)))
        else:
            self.then(self._("the Rhom drew card {card}").format(card=e["card"]))

    def on_relic_deck_shuffled(self, e):
        self.then(self._("the relic deck was shuffled"))  # its order stays hidden (R25)

    def on_rhom_deck_reshuffled(self, e):
        self.then(self._("the Rhom's cards were shuffled"))

    def on_rhom_die_rolled(self, e):
        _ = self._
        purposes = {"first_reveal": _("rolled {value} to choose its first tiles"),
                    "stone_die": _("rolled {value} for a stone die"),
                    "merchant": _("rolled {value} for the merchant"),
                    "barricade": _("rolled {value} for a barricade")}
        self.act(e["seat"], purposes.get(e["purpose"], _("rolled {value}")).format(
            value=e["value"]))

    def on_barricade_placed(self, e):
        self.then(self._("a barricade was placed on {hex}").format(hex=e["hex"]))

    def on_game_ended(self, e):
        self.then(self._("the game ended"))

    def undone(self, e: dict, cancelled: list[dict] | None) -> None:
        """An undo, told with the steps it took back when `cancelled` holds them all (the
        events given may begin after them)."""
        steps = self.w.steps(e["steps"])
        clause = self._("took back {steps}").format(steps=steps)
        if cancelled is not None:
            inner = _Narrator(self.names, self.seat, self.w)
            for event in cancelled:
                inner.feed(event)
            told = self._("; ").join(s.phrase(self.w) for s in inner.sentences
                                     if s.clauses or s.gains or s.after)
            if told:
                clause = self._("took back {steps}: {what}").format(steps=steps, what=told)
        self.sentences.append(_Sentence(e["seat"], [clause], closed=True))


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
    narrator = _Narrator(names, seat, Words(translations))
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
