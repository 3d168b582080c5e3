"""Views built by hand exactly as docs/engine-api.md shapes them, for rendering tests that do not
need the engine: a solo game mid-turn with barricades and a pending roll, and a finished game."""

from __future__ import annotations

ROW_SIZES = [6, 7, 6, 7, 6, 7, 6, 7, 6]
REGIONS = ["desert", "desert", "canyon", "canyon", "forest", "forest", "ruins", "ruins", "castle"]
GEMS = ["amethyst", "citrine", "emerald", "sapphire"]


def empty_board(edges_empty: bool) -> list[dict]:
    board = []
    for row, (size, region) in enumerate(zip(ROW_SIZES, REGIONS, strict=True), start=1):
        hexes = []
        for index in range(size):
            edge = index in (0, size - 1) and row < 9
            hexes.append({
                "hex": f"{row}{'abcdefg'[index]}",
                "state": "empty" if edges_empty and edge else "face_down",
                "tile": None,
                "barricade": False,
                "explorers": [],
            })
        board.append({"row": row, "region": region, "hexes": hexes})
    return board


def cell(board: list[dict], name: str) -> dict:
    row = int(name[:-1])
    return board[row - 1]["hexes"]["abcdefg".index(name[-1])]


def reveal(board, name, gem, bonus=None, rainbow=False, iridia=False, explorers=()):
    target = cell(board, name)
    target["state"] = "revealed"
    target["tile"] = {
        "id": f"{name}-tile", "gem": None if rainbow or iridia else gem, "rainbow": rainbow,
        "iridia": iridia, "bonus": bonus,
    }
    target["explorers"] = list(explorers)


def player(seat, kind, player_id, position, **fields):
    base = {
        "seat": seat, "kind": kind, "player_id": player_id, "position": position, "coins": 5,
        "hold": dict.fromkeys(GEMS, 0), "items": [], "stone_dice": 0, "points": 0, "tiles": [],
        "relics": [], "reserved_relics": [], "royalty_token": None, "iridia_stone": False,
        "finished": False, "objectives_held": 2,
    }
    base.update(fields)
    return base


def market(**fields):
    base = {
        "gem_values": {"amethyst": 3, "citrine": 2, "emerald": 5, "sapphire": 1},
        "supply": {"amethyst": 14, "citrine": 15, "emerald": 12, "sapphire": 16},
        "stone_dice": 3,
        "items": ["jolty_jackhammer", "epic_elixir", "lucky_libation", "wishing_well",
                  "axe_of_awesomeness", "regal_reference_book"],
        "item_deck": 18, "item_discard": 2,
        "relics": ["sapphire_spyglass", "amethyst_ring", "emerald_tablet", "iridia_crown",
                   "citrine_plate"],
        "relic_deck": 17, "royalty_tokens": ["scepter"],
    }
    base.update(fields)
    return base


def solo_mid_game() -> dict:
    board = empty_board(edges_empty=True)
    for name in ("1b", "1c", "1d", "2c", "2d"):
        cell(board, name)["state"] = "empty"
    reveal(board, "3c", "emerald", {"kind": "coins", "amount": 1}, explorers=[1])
    reveal(board, "3d", "citrine", {"kind": "points", "amount": 1})
    reveal(board, "4d", None, rainbow=True, explorers=[0])
    reveal(board, "4e", "sapphire", {"kind": "stone_die"})
    cell(board, "5c")["barricade"] = True
    cell(board, "5d")["barricade"] = True
    return {
        "rules_version": "1",
        "options": {"players": 1, "rhom": True, "mining_cost": 1, "leftover_gems": "any",
                    "catapult_4th": False},
        "viewer": 1,
        "over": False,
        "turn": {"seat": 1, "kind": "turn", "phase": "actions", "pending": {"kind": "roll"},
                 "extra_turn": False, "number": 9},
        "board": board,
        "market": market(),
        "players": [
            player(0, "rhom", "rhom", "4d", coins=0, points=11, tiles=["desert_amethyst_1", "canyon_rainbow", "desert_sapphire_2"],
                   hold={"amethyst": 2, "citrine": 0, "emerald": 1, "sapphire": 3},
                   relics=["citrine_amulet"], objectives_held=0),
            player(1, "human", "u1", "3c", coins=3, points=4, stone_dice=1, tiles=["desert_emerald_1", "canyon_emerald_coins"],
                   hold={"amethyst": 1, "citrine": 2, "emerald": 3, "sapphire": 0},
                   items=["dazzling_dynamite", "marvelous_mine_cart"],
                   objectives=["glimmering_gold", "master_miner"]),
        ],
        "pending": {"kind": "roll"},
        "roll": {"kind": "mine", "dice": [4, 2], "stone": [5], "target": 5},
        "rhom": {"seat": 0, "next_weathervane": "left", "deck": 11, "last_card": 7},
        "outcome": None,
    }


# Nine tiles of a victory pile: 4 amethyst, 2 citrine, 1 sapphire, the Desert rainbow and the
# Iridia Stone (wild).
TILE_PILE = ["desert_amethyst_1", "desert_amethyst_2", "canyon_amethyst_points", "desert_rainbow",
             "desert_citrine_1", "forest_citrine_coins", "castle_sapphire", "ruins_amethyst_coins",
             "castle_iridia_stone"]


def finished_three_players() -> dict:
    board = empty_board(edges_empty=False)
    for row in board:
        for hex_ in row["hexes"]:
            hex_["state"] = "empty"
    reveal(board, "8c", "amethyst", {"kind": "points", "amount": 3})
    reveal(board, "9d", "sapphire", {"kind": "points", "amount": 5})
    seat_objectives = [["regal_rainbow"], ["jazzy_jeweler"], ["glimmering_gold"]]
    players = [
        player(seat, "human", f"u{seat + 1}", None, finished=True, points=points,
               royalty_token=token, objectives=seat_objectives[seat], objectives_held=1,
               tiles=TILE_PILE[:tiles], iridia_stone=seat == 1)
        for seat, points, token, tiles in ((0, 31, "throne", 9), (1, 40, "banner", 8),
                                           (2, 22, None, 8))
    ]
    return {
        "rules_version": "1",
        "options": {"players": 3, "rhom": False, "mining_cost": 3, "leftover_gems": "same_type",
                    "catapult_4th": False},
        "viewer": 2,
        "over": True,
        "turn": {"seat": None, "kind": None, "phase": None, "pending": None,
                 "extra_turn": False, "number": 61},
        "board": board,
        "market": market(royalty_tokens=[], stone_dice=4),
        "players": players,
        "pending": None,
        "roll": None,
        "rhom": None,
        "outcome": {"seats": [
            {"seat": 0, "in_game": 31, "gems": 2, "relic_sets": 5, "tile_sets": 6,
             "objective": 7, "total": 51, "rank": 2},
            {"seat": 1, "in_game": 40, "gems": 1, "relic_sets": 0, "tile_sets": 10,
             "objective": 0, "total": 51, "rank": 1},
            {"seat": 2, "in_game": 22, "gems": 3, "relic_sets": 0, "tile_sets": 3,
             "objective": 7, "total": 35, "rank": 3},
        ]},
    }


SOLO_GAME = {"id": "solo1", "players": [{"seat": 1, "user_id": "u1", "name": "Ada",
                                          "kind": "human"},
                                         {"seat": 0, "user_id": None, "name": "Rhom",
                                          "kind": "rhom"}]}
THREE_GAME = {"id": "trio1", "players": [
    {"seat": 0, "user_id": "u1", "name": "Ada", "kind": "human"},
    {"seat": 1, "user_id": "u2", "name": "Babbage", "kind": "human"},
    {"seat": 2, "user_id": "u3", "name": "Countess Lovelace-Byron", "kind": "human"},
]}
