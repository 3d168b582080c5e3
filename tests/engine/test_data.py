from collections import Counter

from engine.data import (
    GEMS,
    ITEMS,
    OBJECTIVES,
    RELICS,
    RHOM_CARDS,
    ROYALTY_POINTS,
    TILES,
    display_name,
)


def test_rulings_2_tiles_per_region():
    regions = Counter(t.region for t in TILES.values())
    assert regions == {"desert": 13, "canyon": 13, "forest": 13, "ruins": 13, "castle": 6}
    for region in ("desert", "canyon", "forest", "ruins"):
        gems = Counter(t.gem for t in TILES.values() if t.region == region and not t.rainbow)
        assert gems == {g: 3 for g in GEMS}
        assert sum(t.rainbow for t in TILES.values() if t.region == region) == 1
    assert [t.bonus.amount for t in TILES.values() if t.region == "forest" and t.bonus and t.bonus.kind == "coins"] == [2] * 4
    assert sum(t.iridia for t in TILES.values()) == 1


def test_rulings_4_items_and_costs():
    assert len(ITEMS) == 12
    assert ITEMS["epic_elixir"].cost == 6 and ITEMS["prosperous_pickaxe"].cost == 6
    assert {i for i, item in ITEMS.items() if item.start_of_turn} == {"swapping_stones", "clever_catapult"}


def test_relic_reference_guide():
    assert Counter(r.category for r in RELICS.values()) == {"jewelry": 8, "tech": 6, "lore": 6, "iridia": 4}
    assert RELICS["sapphire_spyglass"].requirement() == {"sapphire": 2, "citrine": 1}
    assert RELICS["citrine_talisman"].points == 9


def test_rulings_7_objectives_and_8_rhom_cards_and_3_royalty():
    assert len(OBJECTIVES) == 15
    assert RHOM_CARDS[6].icon == "double" and RHOM_CARDS[16].icon == "barricade"
    assert RHOM_CARDS[3].priority == ("up_right", "right", "left", "up_left")
    assert [c.weathervane for c in RHOM_CARDS.values()].count("left") == 8
    assert ROYALTY_POINTS == {"throne": 7, "scepter": 5, "banner": 3}


def test_display_names():
    assert display_name("sapphire_spyglass") == "Sapphire Spyglass"
    assert display_name("lots_o_lore") == "Lots-O-Lore"
    assert display_name("forest_emerald_coins") == "Forest Emerald (2 coins)"
    assert display_name("canyon_emerald_points") == "Canyon Emerald (1 point)"
