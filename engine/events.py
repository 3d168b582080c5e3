"""Events: facts in the past tense. JSON form {"type": name, "v": schema version, ...fields}.

Every random outcome (deals, shuffles, dice, Rhom cards) is a field of an event, so that replaying
a log never draws a random number.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .errors import InvalidCommand

SCHEMA_VERSION = 1


def _freeze(v):
    if isinstance(v, list | tuple):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return {k: _freeze(x) for k, x in v.items()}
    return v


# Values stored as they are: most event fields are one of these, and need no look inside.
_SCALARS = frozenset({int, str, bool, type(None)})


def _thaw(v):
    if isinstance(v, list | tuple):
        return [_thaw(x) for x in v]
    if isinstance(v, dict):
        return {k: _thaw(x) for k, x in v.items()}
    return v


@dataclass(frozen=True)
class Event:
    type = ""

    def __post_init__(self):
        for name, v in self.__dict__.items():
            if v.__class__ in _SCALARS:
                continue
            if isinstance(v, (list, dict)) or (isinstance(v, tuple) and any(isinstance(x, (list, dict)) for x in v)):
                object.__setattr__(self, name, _freeze(v))


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
class GemsSold(Event):
    seat: int
    gem: str
    count: int
    coins: int
    type = "gems_sold"


@dataclass(frozen=True)
class ItemBought(Event):
    seat: int
    item: str
    slot: int
    cost: int
    type = "item_bought"


@dataclass(frozen=True)
class ItemClaimed(Event):
    """The Rhom's merchant icon: it takes a market card (and scores its cost separately)."""

    seat: int
    item: str
    slot: int
    type = "item_claimed"


@dataclass(frozen=True)
class ItemDrawn(Event):
    slot: int
    item: str
    type = "item_drawn"


@dataclass(frozen=True)
class ItemDeckReshuffled(Event):
    deck: tuple[str, ...]
    type = "item_deck_reshuffled"


@dataclass(frozen=True)
class MarketRefreshed(Event):
    market: tuple[str, ...]
    deck: tuple[str, ...]
    type = "market_refreshed"


@dataclass(frozen=True)
class ItemPlayed(Event):
    seat: int
    item: str
    hex: str | None = None  # the Prosperous Pickaxe's adjacent tile
    type = "item_played"


@dataclass(frozen=True)
class RelicReserved(Event):
    seat: int
    relic: str
    source: str  # "row" | "deck"
    type = "relic_reserved"


@dataclass(frozen=True)
class RelicRestored(Event):
    seat: int
    relic: str
    points: int
    type = "relic_restored"


@dataclass(frozen=True)
class RelicDeckShuffled(Event):
    """After a Regal Reference Book search of the deck (R25); the order is hidden from all."""

    deck: tuple[str, ...]
    type = "relic_deck_shuffled"


@dataclass(frozen=True)
class RelicDrawn(Event):
    slot: int
    relic: str
    type = "relic_drawn"


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
    are cancelled, and the state is again the one before them (engine/undo.py). The log keeps
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
        raise InvalidCommand(f"unknown event {d!r:.80}")
    if d.get("v") != SCHEMA_VERSION:
        raise InvalidCommand(f"event {d['type']} has schema version {d.get('v')!r}, expected {SCHEMA_VERSION}")
    cls = EVENT_TYPES[d["type"]]
    return cls(**{name: d[name] for name in FIELD_NAMES[cls] if name in d})
