"""Every printed component of the game, defined once (RULINGS §2, §3, §4, §7, §8 and the
rulebook's relic reference guide). A corrected card is a one-line change here."""

from __future__ import annotations

from dataclasses import dataclass

GEMS: tuple[str, ...] = ("amethyst", "citrine", "emerald", "sapphire")
GEM_SUPPLY = 16
HOLD_LIMIT = 7
STONE_DICE = 4
START_COINS = 5
MINING_DICE = 2
BARRICADES = 6
IRIDIA_STONE_POINTS = 10

REGIONS: tuple[str, ...] = ("desert", "canyon", "forest", "ruins", "castle")
REGION_ROWS: dict[str, tuple[int, ...]] = {
    "desert": (1, 2),
    "canyon": (3, 4),
    "forest": (5, 6),
    "ruins": (7, 8),
    "castle": (9,),
}
FOREST_ROW = 5
CASTLE_ROW = 9


@dataclass(frozen=True)
class Bonus:
    kind: str  # "coins" | "points" | "stone_die"
    amount: int = 1

    def to_dict(self) -> dict:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True)
class Tile:
    id: str
    region: str
    gem: str | None  # None for rainbow and Iridia Stone tiles
    rainbow: bool
    iridia: bool
    bonus: Bonus | None

    @property
    def wild(self) -> bool:
        """Rainbow and Iridia Stone tiles: the player picks the gem (RULINGS §2)."""
        return self.rainbow or self.iridia


def _build_tiles() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for gem in GEMS:
        for n in (1, 2, 3):
            tiles.append(Tile(f"desert_{gem}_{n}", "desert", gem, False, False, None))
    tiles.append(Tile("desert_rainbow", "desert", None, True, False, None))
    for region, amount in (("canyon", 1), ("forest", 2), ("ruins", 3)):
        for gem in GEMS:
            tiles.append(Tile(f"{region}_{gem}_coins", region, gem, False, False, Bonus("coins", amount)))
            tiles.append(Tile(f"{region}_{gem}_points", region, gem, False, False, Bonus("points", amount)))
            tiles.append(Tile(f"{region}_{gem}_stone_die", region, gem, False, False, Bonus("stone_die")))
        tiles.append(Tile(f"{region}_rainbow", region, None, True, False, None))
    for gem in GEMS:
        tiles.append(Tile(f"castle_{gem}", "castle", gem, False, False, Bonus("points", 5)))
    tiles.append(Tile("castle_rainbow", "castle", None, True, False, Bonus("points", 5)))
    tiles.append(Tile("castle_iridia_stone", "castle", None, False, True, None))
    return tuple(tiles)


TILES: dict[str, Tile] = {t.id: t for t in _build_tiles()}


@dataclass(frozen=True)
class Item:
    id: str
    name: str
    cost: int
    start_of_turn: bool = False  # the green flag: only before Reveal


ITEM_COPIES = 3
ITEMS: dict[str, Item] = {
    i.id: i
    for i in (
        Item("cauldron_of_fortune", "Cauldron of Fortune", 4),
        Item("regal_reference_book", "Regal Reference Book", 2),
        Item("marvelous_mine_cart", "Marvelous Mine Cart", 4),
        Item("epic_elixir", "Epic Elixir", 6),
        Item("lucky_libation", "Lucky Libation", 2),
        Item("jolty_jackhammer", "Jolty Jackhammer", 2),
        Item("dazzling_dynamite", "Dazzling Dynamite", 3),
        Item("axe_of_awesomeness", "Axe of Awesomeness", 3),
        Item("prosperous_pickaxe", "Prosperous Pickaxe", 6),
        Item("swapping_stones", "Swapping Stones", 3, start_of_turn=True),
        Item("clever_catapult", "Clever Catapult", 3, start_of_turn=True),
        Item("wishing_well", "Wishing Well", 5),
    )
}
SMALL_GAME_REMOVED_ITEMS = ("swapping_stones", "clever_catapult")


@dataclass(frozen=True)
class Relic:
    id: str
    name: str
    category: str  # "jewelry" | "tech" | "lore" | "iridia"
    lead_gem: str | None  # None for Iridia relics (wild)
    requires: tuple[tuple[str, int], ...]
    points: int

    def requirement(self) -> dict[str, int]:
        return dict(self.requires)


def _relic(rid: str, name: str, category: str, lead: str | None, points: int, **req: int) -> Relic:
    return Relic(rid, name, category, lead, tuple((g, req[g]) for g in GEMS if req.get(g)), points)


_ALL4 = {"amethyst": 1, "citrine": 1, "emerald": 1, "sapphire": 1}
RELICS: dict[str, Relic] = {
    r.id: r
    for r in (
        _relic("amethyst_ring", "Amethyst Ring", "jewelry", "amethyst", 5, amethyst=2, citrine=1),
        _relic("emerald_jewelry_box", "Emerald Jewelry Box", "jewelry", "emerald", 6, emerald=1, citrine=1, amethyst=1),
        _relic("citrine_amulet", "Citrine Amulet", "jewelry", "citrine", 5, citrine=2, sapphire=1),
        _relic("sapphire_pendant", "Sapphire Pendant", "jewelry", "sapphire", 6, sapphire=1, emerald=1, amethyst=1),
        _relic("emerald_brooch", "Emerald Brooch", "jewelry", "emerald", 5, emerald=2, sapphire=1),
        _relic("citrine_earrings", "Citrine Earrings", "jewelry", "citrine", 6, citrine=1, emerald=1, sapphire=1),
        _relic("sapphire_chatelaine", "Sapphire Chatelaine", "jewelry", "sapphire", 5, sapphire=2, amethyst=1),
        _relic("amethyst_bracelet", "Amethyst Bracelet", "jewelry", "amethyst", 6, amethyst=1, citrine=1, sapphire=1),
        _relic("citrine_miners_hat", "Citrine Miner's Hat", "tech", "citrine", 5, citrine=2, emerald=1),
        _relic("amethyst_compass", "Amethyst Compass", "tech", "amethyst", 5, amethyst=2, sapphire=1),
        _relic("sapphire_droid", "Sapphire Droid", "tech", "sapphire", 7, sapphire=2, citrine=2),
        _relic("emerald_goggles", "Emerald Goggles", "tech", "emerald", 5, emerald=2, amethyst=1),
        _relic("amethyst_power_core", "Amethyst Power Core", "tech", "amethyst", 7, amethyst=2, emerald=2),
        _relic("sapphire_spyglass", "Sapphire Spyglass", "tech", "sapphire", 5, sapphire=2, citrine=1),
        _relic("amethyst_vase", "Amethyst Vase", "lore", "amethyst", 6, amethyst=1, citrine=1, emerald=1),
        _relic("emerald_lantern", "Emerald Lantern", "lore", "emerald", 6, emerald=1, amethyst=1, citrine=1),
        _relic("citrine_plate", "Citrine Plate", "lore", "citrine", 6, citrine=1, amethyst=1, sapphire=1),
        _relic("citrine_talisman", "Citrine Talisman", "lore", "citrine", 9, citrine=2, amethyst=1, sapphire=1),
        _relic("sapphire_sun_dial", "Sapphire Sun Dial", "lore", "sapphire", 5, sapphire=2, emerald=1),
        _relic("emerald_tablet", "Emerald Tablet", "lore", "emerald", 9, emerald=2, amethyst=1, sapphire=1),
        _relic("iridia_chalice", "Iridia Chalice", "iridia", None, 10, **_ALL4),
        _relic("iridia_crown", "Iridia Crown", "iridia", None, 10, **_ALL4),
        _relic("iridia_tiara", "Iridia Tiara", "iridia", None, 10, **_ALL4),
        _relic("book_of_iridescia", "The Book of Iridescia", "iridia", None, 10, **_ALL4),
    )
}
RELIC_ROW_SIZE = 5


@dataclass(frozen=True)
class Objective:
    id: str
    name: str
    points: int
    kind: str  # "most_coins" | "most_tiles" | "relic_each_lead_gem" | "most_lead_gem_relics" |
    #            "relic_count" | "most_category" | "relic_each_category"
    param: str | int | None = None


OBJECTIVES: dict[str, Objective] = {
    o.id: o
    for o in (
        Objective("glimmering_gold", "Glimmering Gold", 7, "most_coins"),
        Objective("amethyst_aficionado", "Amethyst Aficionado", 5, "most_tiles", "amethyst"),
        Objective("citrine_crazy", "Citrine Crazy", 5, "most_tiles", "citrine"),
        Objective("emerald_enthusiast", "Emerald Enthusiast", 5, "most_tiles", "emerald"),
        Objective("sapphire_savant", "Sapphire Savant", 5, "most_tiles", "sapphire"),
        Objective("regal_rainbow", "Regal Rainbow", 7, "relic_each_lead_gem"),
        Objective("all_about_amethyst", "All About Amethyst", 7, "most_lead_gem_relics", "amethyst"),
        Objective("classy_citrine", "Classy Citrine", 7, "most_lead_gem_relics", "citrine"),
        Objective("emerald_euphoria", "Emerald Euphoria", 7, "most_lead_gem_relics", "emerald"),
        Objective("sapphire_saturation", "Sapphire Saturation", 7, "most_lead_gem_relics", "sapphire"),
        Objective("remarkable_restorer", "Remarkable Restorer", 7, "relic_count", 5),
        Objective("jazzy_jeweler", "Jazzy Jeweler", 5, "most_category", "jewelry"),
        Objective("lots_o_lore", "Lots-O-Lore", 7, "most_category", "lore"),
        Objective("tantalizing_tech", "Tantalizing Tech", 7, "most_category", "tech"),
        Objective("master_miner", "Master Miner", 7, "relic_each_category"),
    )
}
OBJECTIVES_DEALT = 2


@dataclass(frozen=True)
class RhomCard:
    number: int
    priority: tuple[str, ...]  # directions among "left", "up_left", "up_right", "right"
    icon: str  # "merchant" | "double" | "triple" | "barricade"
    weathervane: str  # "left" | "right" (printed on the card's back)


_PRIORITIES = (
    ("left", "up_left", "up_right", "right"),
    ("right", "left", "up_left", "up_right"),
    ("up_right", "right", "left", "up_left"),
    ("up_left", "up_right", "right", "left"),
)
_ICONS = ("merchant", "double", "triple", "barricade")
_LEFT_VANES = {1, 2, 7, 8, 9, 12, 13, 14}
RHOM_CARDS: dict[int, RhomCard] = {
    n: RhomCard(
        n,
        _PRIORITIES[(n - 1) % 4],
        _ICONS[(n - 1) // 4],
        "left" if n in _LEFT_VANES else "right",
    )
    for n in range(1, 17)
}

ROYALTY_POINTS: dict[str, int] = {"throne": 7, "scepter": 5, "banner": 3}
ROYALTY_BY_PARTICIPANTS: dict[int, tuple[str, ...]] = {
    2: ("scepter",),
    3: ("throne", "banner"),
    4: ("throne", "scepter", "banner"),
}

_ROYALTY_NAMES = {"throne": "Throne", "scepter": "Scepter", "banner": "Banner"}


def _tile_name(tile: Tile) -> str:
    region = tile.region.capitalize()
    if tile.iridia:
        return "Castle Iridia Stone"
    gem = "Rainbow" if tile.rainbow else (tile.gem or "").capitalize()
    if tile.bonus is None:
        return f"{region} {gem}"
    if tile.bonus.kind == "stone_die":
        return f"{region} {gem} (stone die)"
    unit = tile.bonus.kind if tile.bonus.amount != 1 else tile.bonus.kind.rstrip("s")
    return f"{region} {gem} ({tile.bonus.amount} {unit})"


def display_name(component_id: str) -> str:
    """The printed name of any component id (tile, item, relic, objective, royalty token, gem)."""
    if component_id in ITEMS:
        return ITEMS[component_id].name
    if component_id in RELICS:
        return RELICS[component_id].name
    if component_id in OBJECTIVES:
        return OBJECTIVES[component_id].name
    if component_id in TILES:
        return _tile_name(TILES[component_id])
    if component_id in _ROYALTY_NAMES:
        return _ROYALTY_NAMES[component_id]
    if component_id in GEMS:
        return component_id.capitalize()
    raise KeyError(f"unknown component id {component_id!r}")
