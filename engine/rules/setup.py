"""start_game: deal the board, the decks and the objectives (Game Setup; RULINGS §1, §3, §4)."""

from __future__ import annotations

import random

from engine import events as ev
from engine.board import playable_hexes, region_of_row, row_of
from engine.commands import StartGame
from engine.data import (
    GEMS,
    ITEM_COPIES,
    ITEMS,
    OBJECTIVES,
    OBJECTIVES_DEALT,
    REGIONS,
    RELIC_ROW_SIZE,
    RELICS,
    RHOM_CARDS,
    ROYALTY_BY_PARTICIPANTS,
    SMALL_GAME_REMOVED_ITEMS,
    TILES,
)
from engine.errors import InvalidCommand
from engine.rules.market import deal_market
from engine.versions import RULES_VERSION, rules_for

__all__ = ["RULES_VERSION", "start_game"]


def start_game(command: StartGame, rng: random.Random) -> list[ev.Event]:
    options = command.options
    ids = list(command.player_ids)
    if len(ids) != options.players:
        raise InvalidCommand("{players} player(s) need {players} player_ids, got {count}: {ids}",
                             players=options.players, count=len(ids), ids=ids)
    if len(set(ids)) != len(ids) or "rhom" in ids:
        raise InvalidCommand("player_ids must be distinct and not 'rhom', got {ids}", ids=ids)

    rules = rules_for(command.rules_version)
    participants = options.participants
    small = participants <= 2

    # A random human starts; turn order then follows the table order. The Rhom always plays first.
    first = rng.randrange(len(ids))
    seats = ids[first:] + ids[:first]
    if options.rhom:
        seats = ["rhom"] + seats

    layout: dict[str, str] = {}
    removed: list[str] = []
    hexes = playable_hexes(participants)
    for region in REGIONS:
        tiles = [t.id for t in TILES.values() if t.region == region]
        if small and region != "castle":
            for gem in GEMS:
                choice = rng.choice([t for t in tiles if TILES[t].gem == gem])
                tiles.remove(choice)
                removed.append(choice)
        rng.shuffle(tiles)
        spots = [h for h in hexes if region_of_row(row_of(h)) == region]
        assert len(spots) == len(tiles), (region, len(spots), len(tiles))
        layout.update(zip(spots, tiles, strict=True))

    cards = [i for i in ITEMS for _ in range(ITEM_COPIES)]
    if small:
        cards = [c for c in cards if c not in SMALL_GAME_REMOVED_ITEMS]
    catapult_seat = None
    if options.catapult_4th:
        cards.remove("clever_catapult")
        catapult_seat = 3
    market, deck = deal_market(cards, 6 if options.solo else 5, rng)

    relics = list(RELICS)
    rng.shuffle(relics)
    objectives = list(OBJECTIVES)
    rng.shuffle(objectives)
    dealt = []
    for seat in range(len(seats)):
        if options.rhom and seat == 0:
            dealt.append(())
        else:
            dealt.append(tuple(objectives[:OBJECTIVES_DEALT]))
            objectives = objectives[OBJECTIVES_DEALT:]
    rhom_deck: list[int] = []
    if options.rhom:
        rhom_deck = list(RHOM_CARDS)
        rng.shuffle(rhom_deck)

    return [
        ev.GameStarted(
            rules_version=rules.version,
            options=options.to_dict(),
            seats=tuple(seats),
            layout=layout,
            removed_tiles=tuple(removed),
            market=market,
            item_deck=deck,
            relic_row=tuple(relics[:RELIC_ROW_SIZE]),
            relic_deck=tuple(relics[RELIC_ROW_SIZE:]),
            objectives=tuple(dealt),
            rhom_deck=tuple(rhom_deck),
            royalty_tokens=ROYALTY_BY_PARTICIPANTS[max(2, participants)],
            catapult_seat=catapult_seat,
        ),
        ev.TurnStarted(0, "rhom" if options.rhom else "turn", 1),
    ]
