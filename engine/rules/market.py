"""The item market and the relic row: refill, reshuffle and refresh (RULINGS §4)."""

from __future__ import annotations

import random
from collections import Counter

from engine import events as ev
from engine.rules.acc import Acc


def market_size(acc: Acc) -> int:
    return 6 if acc.state.options.solo else 5


def needs_refresh(market: tuple[str, ...]) -> bool:
    counts = sorted(Counter(market).values(), reverse=True)
    return bool(counts) and (counts[0] >= 3 or (len(counts) > 1 and counts[1] >= 2))


def deal_market(cards: list[str], size: int, rng: random.Random) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Shuffle and deal until the market needs no refresh (bounded, in case it never settles)."""
    for _ in range(100):
        rng.shuffle(cards)
        market, deck = tuple(cards[:size]), tuple(cards[size:])
        if not needs_refresh(market):
            break
    return market, deck


def refill_market(acc: Acc, slot: int, rng: random.Random) -> None:
    """Draw into the emptied slot, reshuffling the discards when the deck is empty; then refresh
    when the row shows 3 identical cards or two pairs."""
    s = acc.state
    if not s.item_deck and s.item_discard:
        deck = list(s.item_discard)
        rng.shuffle(deck)
        acc.emit(ev.ItemDeckReshuffled(tuple(deck)))
    if acc.state.item_deck:
        acc.emit(ev.ItemDrawn(slot, acc.state.item_deck[0]))
    s = acc.state
    if needs_refresh(s.market):
        cards = list(s.market + s.item_deck + s.item_discard)
        market, deck = deal_market(cards, market_size(acc), rng)
        acc.emit(ev.MarketRefreshed(market, deck))


def refill_relic_row(acc: Acc, slot: int) -> None:
    if acc.state.relic_deck:
        acc.emit(ev.RelicDrawn(slot, acc.state.relic_deck[0]))
