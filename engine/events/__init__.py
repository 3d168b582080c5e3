"""Events: facts in the past tense. JSON form {"type": name, "v": schema version, ...fields}.

Every random outcome (deals, shuffles, dice, Rhom cards) is a field of an event, so that replaying
a log never draws a random number. The base class is in base.py, the market's, items' and
relics' events in market.py; all are importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.errors import InvalidCommand
from engine.events.base import SCHEMA_VERSION, Event, _thaw
from engine.events.market import (
    GemsSold,
    ItemBought,
    ItemClaimed,
    ItemDeckReshuffled,
    ItemDrawn,
    ItemPlayed,
    MarketRefreshed,
    RelicDeckShuffled,
    RelicDrawn,
    RelicReserved,
    RelicRestored,
)


@dataclass(frozen=True)
class GameStarted(Event):
    rules_version: str
    options: dict
    seats: tuple[str, ...]  # player ids in turn order; "rhom" for the Rhom
    layout: dict  # hex -> tile id, face down
    removed_tiles: tuple[str, ...]
    market: tuple[str, ...]
    item_deck: tuple[str, ...]  # top first
    relic_row: tuple[str, ...]
    relic_deck: tuple[str, ...]
    objectives: tuple[tuple[str, ...], ...]  # per seat
    rhom_deck: tuple[int, ...]
    royalty_tokens: tuple[str, ...]
    catapult_seat: int | None
    type = "game_started"


@dataclass(frozen=True)
class TurnStarted(Event):
    seat: int
    kind: str
    number: int
    extra: bool = False
    type = "turn_started"


@dataclass(frozen=True)
class TilesRevealed(Event):
    seat: int
    hexes: tuple[str, ...]
    tiles: tuple[str, ...]
    type = "tiles_revealed"


@dataclass(frozen=True)
class ExplorerMoved(Event):
    seat: int
    hex: str
    via: str  # "move" | "relocate" | "catapult"
    type = "explorer_moved"


@dataclass(frozen=True)
class ExplorersSwapped(Event):
    seat: int
    target: int
    type = "explorers_swapped"


@dataclass(frozen=True)
class TileDiscarded(Event):
    seat: int
    tile: str
    type = "tile_discarded"


@dataclass(frozen=True)
class GemChosen(Event):
    seat: int
    gem: str
    type = "gem_chosen"


@dataclass(frozen=True)
class GemsGained(Event):
    seat: int
    gem: str
    count: int
    source: str
    type = "gems_gained"


@dataclass(frozen=True)
class GemsReturned(Event):
    seat: int
    gems: dict
    reason: str
    type = "gems_returned"


@dataclass(frozen=True)
class GemGiven(Event):
    seat: int
    gem: str
    to: int | None
    type = "gem_given"


@dataclass(frozen=True)
class CoinsGained(Event):
    seat: int
    amount: int
    reason: str
    type = "coins_gained"


@dataclass(frozen=True)
class CoinsSpent(Event):
    seat: int
    amount: int
    reason: str
    type = "coins_spent"


@dataclass(frozen=True)
class PointsScored(Event):
    seat: int
    points: int
    reason: str
    type = "points_scored"


@dataclass(frozen=True)
class StoneDieTaken(Event):
    seat: int
    type = "stone_die_taken"


@dataclass(frozen=True)
class StoneDiceActivated(Event):
    seat: int
    count: int
    type = "stone_dice_activated"


@dataclass(frozen=True)
class ObjectiveDiscarded(Event):
    seat: int
    objective: str | None  # None in the redacted form others see
    type = "objective_discarded"


@dataclass(frozen=True)
class DiceRolled(Event):
    seat: int
    kind: str  # "mine" | "wishing_well"
    dice: tuple[int, ...]
    stone: tuple[int, ...]
    type = "dice_rolled"


@dataclass(frozen=True)
class DieModified(Event):
    seat: int
    item: str
    die: str
    value: int
    type = "die_modified"


@dataclass(frozen=True)
class DiceRerolled(Event):
    seat: int
    indices: tuple[int, ...]
    values: tuple[int, ...]
    type = "dice_rerolled"


@dataclass(frozen=True)
class MarketDiceRolled(Event):
    seat: int
    values: dict
    type = "market_dice_rolled"


@dataclass(frozen=True)
class RollKept(Event):
    seat: int
    successes: int
    type = "roll_kept"



@dataclass(frozen=True)
class TileCollected(Event):
    seat: int
    hex: str
    tile: str
    type = "tile_collected"


@dataclass(frozen=True)
class MarketAdjusted(Event):
    gem: str
    value: int
    type = "market_adjusted"


@dataclass(frozen=True)
class StoneDiceReturned(Event):
    seat: int
    count: int
    type = "stone_dice_returned"


@dataclass(frozen=True)
class IridiaStoneTaken(Event):
    seat: int
    type = "iridia_stone_taken"


@dataclass(frozen=True)
class RoyaltyTokenTaken(Event):
    seat: int
    token: str | None
    points: int
    type = "royalty_token_taken"


@dataclass(frozen=True)
class TileRemoved(Event):
    seat: int
    hex: str
    tile: str | None  # None in the redacted form (it may have been face down)
    type = "tile_removed"


@dataclass(frozen=True)
class RhomCardDrawn(Event):
    card: int
    type = "rhom_card_drawn"


@dataclass(frozen=True)
class RhomDeckReshuffled(Event):
    deck: tuple[int, ...]
    type = "rhom_deck_reshuffled"


@dataclass(frozen=True)
class RhomDieRolled(Event):
    seat: int
    purpose: str  # "first_reveal" | "stone_die" | "merchant" | "barricade"
    value: int
    type = "rhom_die_rolled"


@dataclass(frozen=True)
class BarricadePlaced(Event):
    hex: str
    type = "barricade_placed"


@dataclass(frozen=True)
class StepsUndone(Event):
    """`seat` took back its last `steps` steps of this turn: the `events` events before this one
    are cancelled, and the state is again the one before them (engine/rules/undo.py). The log keeps
    them: this event is appended, as every other."""

    seat: int
    events: int
    steps: int
    type = "steps_undone"


@dataclass(frozen=True)
class GameEnded(Event):
    type = "game_ended"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        GameStarted, TurnStarted, TilesRevealed, ExplorerMoved, ExplorersSwapped, TileDiscarded,
        GemChosen, GemsGained, GemsReturned, GemGiven, CoinsGained, CoinsSpent, PointsScored,
        StoneDieTaken, StoneDiceActivated, ObjectiveDiscarded, DiceRolled, DieModified,
        DiceRerolled, MarketDiceRolled, RollKept, GemsSold, ItemBought, ItemClaimed, ItemDrawn,
        ItemDeckReshuffled, MarketRefreshed, ItemPlayed, RelicReserved, RelicRestored, RelicDrawn,
        RelicDeckShuffled,
        TileCollected, MarketAdjusted, StoneDiceReturned, IridiaStoneTaken, RoyaltyTokenTaken,
        TileRemoved, RhomCardDrawn, RhomDeckReshuffled, RhomDieRolled, BarricadePlaced, GameEnded,
        StepsUndone,
    )
}


# Each event class's field names, in order (dataclasses.fields() costs more than the rest of a
# conversion).
FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()
}


def event_to_dict(event: Event) -> dict:
    out = {"type": event.type, "v": SCHEMA_VERSION}
    for name in FIELD_NAMES[event.__class__]:
        out[name] = _thaw(getattr(event, name))
    return out


def event_from_dict(d: dict) -> Event:
    if not isinstance(d, dict) or d.get("type") not in EVENT_TYPES:
        raise InvalidCommand("unknown event {event!r:.80}", event=d)
    if d.get("v") != SCHEMA_VERSION:
        raise InvalidCommand("event {type} has schema version {v!r}, expected {expected}",
                             type=d["type"], v=d.get("v"), expected=SCHEMA_VERSION)

    cls = EVENT_TYPES[d["type"]]
    return cls(**{name: d[name] for name in FIELD_NAMES[cls] if name in d})
