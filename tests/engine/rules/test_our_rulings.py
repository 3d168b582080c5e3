"""Our own rulings (docs/rulings.md), where the rulebook and RULINGS.md are silent."""

from dataclasses import replace

import pytest
from engine_helpers import (
    ScriptedRng,
    apply,
    clear_hex,
    new_game,
    place_tile,
    set_player,
    set_turn,
    standing_on,
    values,
)

from engine import IllegalCommand, current_player, decide, legal_commands, pending_kind
from engine.commands import (
    DiscardObjective,
    EndTurn,
    GiveGem,
    KeepRoll,
    Mine,
    Move,
    PlayItem,
    Relocate,
    RemoveTile,
    Sell,
)


def test_r4_a_completely_stuck_player_may_only_end_the_turn():
    s = new_game(3)
    seat = s.turn.seat
    s = set_player(s, seat, position="2a")
    s = clear_hex(s, "2a")
    s = replace(s, barricades=frozenset({"2b", "3a"}))
    assert legal_commands(s, seat) == [EndTurn(seat)]
    values_before = dict(s.gem_values)
    s = apply(s, EndTurn(seat))
    assert current_player(s) != seat and s.gem_values == values_before


def test_r5_swapping_into_the_forest_defers_the_discard():
    s = new_game(3)
    seat = s.turn.seat
    other = (seat + 1) % 3
    s = set_player(s, seat, items=("swapping_stones",), position="2c")
    s = set_player(s, other, position="5c")
    s = clear_hex(s, "5c")
    s = apply(s, PlayItem(seat, "swapping_stones", target=other))
    assert pending_kind(s) == "turn"
    s = place_tile(s, "6c", "forest_citrine_coins")
    s = set_turn(s, seat, phase="move")
    s = apply(s, Move(seat, "6c"))
    assert pending_kind(s) == "discard_objective"
    s = apply(s, DiscardObjective(seat, s.players[seat].objectives[0]))
    assert pending_kind(s) == "turn"


def test_r6_keep_roll_first_when_it_overflows():
    s = new_game(2)
    seat = s.turn.seat
    s = standing_on(s, seat, "3b", "canyon_emerald_points", hold={"emerald": 6, "citrine": 1},
                    items=("axe_of_awesomeness",))
    s = apply(s, Mine(seat), ScriptedRng([6, 6]))
    with pytest.raises(IllegalCommand, match="keep_roll first, then give gems away"):
        decide(s, PlayItem(seat, "axe_of_awesomeness", gem="citrine"), ScriptedRng())
    assert not any(isinstance(c, PlayItem) for c in legal_commands(s, seat))
    # Selling leaves the roll pending (R26): it is offered, on the hold as it is.
    assert Sell(seat, "citrine", 1) in legal_commands(s, seat)
    s = apply(s, KeepRoll(seat))
    assert pending_kind(s) == "give_gem"


def test_r7_wishing_well_rolls_two_dice_and_may_give_nothing():
    s = new_game(2)
    seat = s.turn.seat
    s = standing_on(s, seat, "3b", "canyon_emerald_points", items=("wishing_well",), stone_dice=1)
    s = apply(s, Mine(seat, stone_dice=1), ScriptedRng([1, 1, 1]))
    s = apply(s, KeepRoll(seat))
    s = values(s, amethyst=3, citrine=3, emerald=3, sapphire=3)
    s = apply(s, PlayItem(seat, "wishing_well"), ScriptedRng([2, 1]))
    assert s.turn.roll.values == (2, 1)
    assert [c for c in legal_commands(s, seat) if isinstance(c, KeepRoll)] == [KeepRoll(seat, None)]
    hold = dict(s.players[seat].hold)
    s = apply(s, KeepRoll(seat, None))
    assert s.players[seat].hold == hold


def test_r8_the_pickaxe_needs_a_single_gem_tile():
    s = new_game(2)
    seat = s.turn.seat
    s = standing_on(s, seat, "3b", "canyon_emerald_points", items=("prosperous_pickaxe",))
    s = place_tile(s, "3c", "canyon_rainbow")
    with pytest.raises(IllegalCommand, match="hex 3c shows no single gem"):
        decide(s, PlayItem(seat, "prosperous_pickaxe", hex="3c"), ScriptedRng())
    s = place_tile(s, "2c", "desert_citrine_1")
    apply(s, PlayItem(seat, "prosperous_pickaxe", hex="2c"))  # behind is still adjacent


def test_r9_no_elixir_in_the_castle_row():
    s = new_game(2)
    seat = s.turn.seat
    s = standing_on(s, seat, "9c", "castle_emerald", items=("epic_elixir",), objectives=s.players[seat].objectives[:1])
    with pytest.raises(IllegalCommand, match="an extra turn would be lost"):
        decide(s, PlayItem(seat, "epic_elixir"), ScriptedRng())


def test_r10_swapping_needs_both_explorers_on_the_board():
    s = new_game(3)
    seat = s.turn.seat
    other = (seat + 1) % 3
    s = set_player(s, seat, items=("swapping_stones",), position="2c")
    with pytest.raises(IllegalCommand, match=f"seat {other}'s explorer is not on the board"):
        decide(s, PlayItem(seat, "swapping_stones", target=other), ScriptedRng())
    s = set_player(s, seat, position=None)
    s = set_player(s, other, position="3c")
    with pytest.raises(IllegalCommand, match="still on the airship"):
        decide(s, PlayItem(seat, "swapping_stones", target=other), ScriptedRng())


def test_r15_no_removal_turn_without_a_removable_tile():
    s = new_game(2)
    first = s.turn.seat
    second = 1 - first
    s = set_player(s, first, finished=True, position=None)
    board = {h: t for h, t in s.board.items() if h.startswith("9") or h == "1b"}
    s = replace(s, board=board, revealed=frozenset({"1b"}))
    s = set_turn(s, second)
    s = apply(s, Move(second, "1b"))
    s = apply(s, EndTurn(second))
    assert current_player(s) == second and pending_kind(s) == "turn"
    s2 = replace(s, board={**s.board, "4c": "canyon_rainbow"})
    s2 = set_turn(s2, second, phase="actions")
    s2 = set_player(s2, second, position="1b")
    s2 = replace(s2, board={**s2.board, "1b": "desert_emerald_1"})
    s2 = apply(s2, EndTurn(second))
    assert pending_kind(s2) == "removal" and legal_commands(s2, first) == [RemoveTile(first, "4c")]


def test_r19_excess_gems_may_go_to_the_rhom():
    s = new_game(2, rhom=True)
    seat = 1
    s = standing_on(s, seat, "3b", "canyon_emerald_points", hold={"emerald": 8})
    s = set_player(s, 2, hold={"citrine": 7})
    assert legal_commands(s, seat) == [GiveGem(seat, "emerald", 0)]
    s = apply(s, GiveGem(seat, "emerald", 0))
    assert s.players[0].hold["emerald"] == 1


def test_r20_no_catapult_after_relocating():
    s = new_game(3)
    seat = s.turn.seat
    for h in ("2c", "2b", "2d", "3b", "3c"):
        s = clear_hex(s, h)
    s = set_player(s, seat, position="2c", items=("clever_catapult",))
    s = apply(s, Relocate(seat, "3b", None))
    assert not any(isinstance(c, PlayItem) for c in legal_commands(s, seat))
    with pytest.raises(IllegalCommand, match="must be played at the start of your turn"):
        decide(s, PlayItem(seat, "clever_catapult", hex="5b"), ScriptedRng())
