"""RULINGS §1 (board), §2 (tiles), §3 (supplies and start), §9 (variants): setup and tile rules."""

from collections import Counter
from dataclasses import replace

import pytest
from engine_helpers import ScriptedRng, apply, new_game, place_tile, set_player, set_turn, values

from engine import IllegalCommand, decide, view
from engine.board import region_of_row, row_of
from engine.commands import ChooseGem, EndTurn, KeepRoll, Mine, Move, Reveal
from engine.data import TILES
from engine.events import GameStarted


def test_rulings_1_each_region_is_dealt_onto_its_rows():
    s = new_game(3)
    assert len(s.board) == 58
    for hex_, tile in s.board.items():
        assert TILES[tile].region == region_of_row(row_of(hex_))
    assert not s.revealed, "every tile starts face down"


def test_rulings_1_small_board_removes_one_tile_of_each_gem_per_lower_region():
    for players, rhom in ((2, False), (1, True)):
        s = new_game(players, rhom)
        assert len(s.board) == 42
        removed = set(TILES) - set(s.board.values())
        per_region = Counter((TILES[t].region, TILES[t].gem) for t in removed)
        assert per_region == {(r, g): 1 for r in ("desert", "canyon", "forest", "ruins") for g in ("amethyst", "citrine", "emerald", "sapphire")}
        for row in range(1, 9):
            assert f"{row}a" not in s.board
        assert {"9a", "9f"} <= set(s.board)


def test_rulings_1_the_airship_reaches_every_hex_of_row_1_and_only_row_1():
    s = new_game(3)
    seat = s.turn.seat
    s2 = apply(s, Reveal(seat, ("1a", "1f")))
    assert {"1a", "1f"} <= s2.revealed
    with pytest.raises(IllegalCommand, match="hex 2a cannot be revealed: it is not ahead of or beside the airship"):
        decide(s, Reveal(seat, ("2a",)), ScriptedRng())


def _on_castle(s, seat, tile):
    s = place_tile(s, "9c", tile)
    s = set_player(s, seat, position="8c", objectives=s.players[seat].objectives[:1])
    return set_turn(s, seat, phase="move")


def test_rulings_2_the_iridia_stone_tile():
    s = new_game(2)
    seat = s.turn.seat
    s = values(_on_castle(s, seat, "castle_iridia_stone"), emerald=4)
    s = apply(s, Move(seat, "9c"))
    p = s.players[seat]
    assert p.iridia_stone and p.points == 10
    assert s.turn.choosing_gem
    s = apply(s, ChooseGem(seat, "emerald"))
    assert s.players[seat].hold["emerald"] == 1
    s = apply(s, Mine(seat), ScriptedRng([4, 3]))
    s = apply(s, KeepRoll(seat))
    assert s.players[seat].hold["emerald"] == 2, "mining uses the chosen gem's value"
    before = dict(s.gem_values)
    s = apply(s, EndTurn(seat))
    assert s.gem_values == before, "collecting the Iridia Stone tile moves no market die"


def test_rulings_3_an_empty_supply_gives_what_remains():
    s = new_game(2)
    seat = s.turn.seat
    s = replace(_on_castle(s, seat, "castle_emerald"), supply={"amethyst": 16, "citrine": 16, "emerald": 0, "sapphire": 16})
    s = apply(s, Move(seat, "9c"))
    assert s.players[seat].hold["emerald"] == 0
    assert s.players[seat].points == 5


def test_rulings_3_a_stone_die_bonus_with_the_pool_empty_gives_nothing():
    s = new_game(2)
    seat = s.turn.seat
    s = place_tile(s, "3b", "canyon_amethyst_stone_die")
    s = set_turn(set_player(s, seat, position="2c"), seat, phase="move")
    s = replace(s, stone_pool=0)
    s = apply(s, Move(seat, "3b"))
    assert s.players[seat].stone_dice == 0


def test_rulings_3_starting_state():
    s = new_game(4)
    for p in s.players:
        assert p.coins == 5 and len(p.objectives) == 2 and p.position is None
    assert len({o for p in s.players for o in p.objectives}) == 8
    assert s.gem_values == {g: 2 for g in ("amethyst", "citrine", "emerald", "sapphire")}
    assert s.stone_pool == 4 and len(s.relic_row) == 5 and len(s.market) == 5


def test_rulings_3_a_random_human_starts_and_the_rhom_always_first():
    firsts = {new_game(3, seed=k).players[0].player_id for k in range(12)}
    assert len(firsts) > 1
    for k in range(5):
        s = new_game(2, rhom=True, seed=k)
        assert s.players[0].kind == "rhom" and s.turn.kind == "rhom" and s.players[0].objectives == ()
        assert [p.player_id for p in s.players[1:]] in (["u0", "u1"], ["u1", "u0"]), "table order is kept"


@pytest.mark.parametrize(
    ("players", "rhom", "tokens"),
    [(4, False, ("throne", "scepter", "banner")), (3, False, ("throne", "banner")), (2, True, ("throne", "banner")),
     (2, False, ("scepter",)), (1, True, ("scepter",))],
)
def test_rulings_3_royalty_tokens_by_participants(players, rhom, tokens):
    assert new_game(players, rhom).royalty_tokens == tokens


def test_rulings_3_fourth_player_catapult_option():
    s = new_game(4, catapult_4th=True)
    assert s.players[3].items == ("clever_catapult",)
    cards = Counter(s.market + s.item_deck)
    assert cards["clever_catapult"] == 2 and sum(cards.values()) == 35
    assert new_game(4).players[3].items == ()


def test_rulings_9_variants_are_stored_in_the_first_event_and_mining_cost_3():
    from engine import Options
    from engine.commands import StartGame

    events = decide(None, StartGame(None, Options.from_dict({"players": 2, "mining_cost": 3, "leftover_gems": "same_type"}), ("a", "b")), ScriptedRng())
    assert isinstance(events[0], GameStarted)
    assert events[0].options["mining_cost"] == 3 and events[0].options["leftover_gems"] == "same_type"
    from engine import replay

    s = replay(events)
    seat = s.turn.seat
    from engine_helpers import standing_on

    s = standing_on(s, seat, "3b", "canyon_emerald_points")
    s = apply(s, Mine(seat), ScriptedRng([1, 1]))
    assert s.players[seat].coins == 2


def test_view_hides_face_down_tiles_and_other_objectives():
    s = new_game(2)
    seat = s.turn.seat
    other = 1 - seat
    v = view(s, seat)
    assert all(h["tile"] is None for row in v["board"] for h in row["hexes"])
    assert "objectives" in v["players"][seat] and "objectives" not in v["players"][other]
    assert v["players"][other]["objectives_held"] == 2
    spectator = view(s, None)
    assert all("objectives" not in p for p in spectator["players"])
    assert "item_deck" in spectator["market"] and isinstance(spectator["market"]["item_deck"], int)


def test_rulings_3_a_player_holds_at_most_four_stone_dice():
    s = new_game(2)
    seat = s.turn.seat
    s = place_tile(s, "3b", "canyon_amethyst_stone_die")
    s = set_turn(set_player(s, seat, position="2c", stone_dice=4), seat, phase="move")
    s = replace(s, stone_pool=1)
    s = apply(s, Move(seat, "3b"))
    assert s.players[seat].stone_dice == 4 and s.stone_pool == 1
