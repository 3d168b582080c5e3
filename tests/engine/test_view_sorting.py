"""The digital edition's display settings: each player's tiles by gem or region, relics by gem
type or category, in the view a player reads."""

from __future__ import annotations

import dataclasses

from engine.data import RELICS, TILES
from engine.simulate import make_options, play_game
from engine.view import sort_relics, sort_tiles, view

TAKEN = ["ruins_emerald_coins", "desert_amethyst_1", "canyon_rainbow", "canyon_amethyst_points",
         "desert_sapphire_2", "castle_iridia_stone"]
RESTORED = ["iridia_crown", "emerald_tablet", "sapphire_pendant", "amethyst_compass",
            "amethyst_ring", "citrine_talisman"]


def test_tiles_by_gem_then_region_or_by_region_then_gem():
    assert all(t in TILES for t in TAKEN)
    assert sort_tiles(TAKEN, "gem") == [
        "desert_amethyst_1", "canyon_amethyst_points", "ruins_emerald_coins",
        "desert_sapphire_2", "canyon_rainbow", "castle_iridia_stone"]
    assert sort_tiles(TAKEN, "region") == [
        "desert_amethyst_1", "desert_sapphire_2", "canyon_amethyst_points", "canyon_rainbow",
        "ruins_emerald_coins", "castle_iridia_stone"]
    assert sort_tiles(TAKEN, None) == TAKEN


def test_relics_by_gem_type_or_by_category():
    assert all(r in RELICS for r in RESTORED)
    assert sort_relics(RESTORED, "gem") == [
        "amethyst_ring", "amethyst_compass", "citrine_talisman", "emerald_tablet",
        "sapphire_pendant", "iridia_crown"]
    assert sort_relics(RESTORED, "category") == [
        "amethyst_ring", "sapphire_pendant", "amethyst_compass", "citrine_talisman",
        "emerald_tablet", "iridia_crown"]
    assert sort_relics(RESTORED, None) == RESTORED


def test_the_view_orders_every_players_tiles_and_relics_as_its_reader_chose():
    state = play_game(make_options(2), "sorted").state
    players = [dataclasses.replace(p, tiles=tuple(TAKEN), relics=tuple(RESTORED))
               for p in state.players]
    state = dataclasses.replace(state, players=tuple(players))
    plain = view(state, 0)
    chosen = view(state, 0, tile_sort="region", relic_sort="category")
    for before, after in zip(plain["players"], chosen["players"], strict=True):
        assert before["tiles"] == TAKEN and before["relics"] == RESTORED
        assert after["tiles"] == sort_tiles(TAKEN, "region")
        assert after["relics"] == sort_relics(RESTORED, "category")
