"""The market's, the items' and the relics' events: gems sold, items bought, claimed, drawn and
played, the item deck and market, relics reserved, restored and drawn (re-exported by
engine/events/__init__.py, where every event type is listed)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.events.base import Event


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
