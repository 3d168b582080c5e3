"""RULINGS §8: the Rhom's turn, decided whole by rhom_turn."""

from dataclasses import replace

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

from engine import decide, legal_commands, pending_kind, replay, view
from engine.commands import RhomTurn
from engine.data import ITEMS
from engine.events import BarricadePlaced, RhomCardDrawn, RhomDeckReshuffled, TilesRevealed


def _rhom_at(hex_, card, seed=2, players=1, **rhom):
    s = new_game(players, rhom=True, seed=seed)
    s = set_player(s, 0, position=hex_, **rhom)
    s = set_turn(s, 0, kind="rhom")
    return replace(s, rhom_deck=(card,) + tuple(c for c in s.rhom_deck if c != card))


def _clear(s, *hexes):
    for h in hexes:
        s = clear_hex(s, h)
    return s


def test_rulings_8_the_rhom_plays_only_rhom_turn():
    s = new_game(1)
    assert pending_kind(s) == "rhom" and legal_commands(s, 0) == [RhomTurn(0)]
    assert view(s, 1)["rhom"]["next_weathervane"] in ("left", "right")


def test_rulings_8_reveal_by_card_priority_first_two_available():
    # card 3: UR R L UL. From 2c: UR = 3c, R = 2d, L = 2b, UL = 3b.
    s = _rhom_at("2c", 3)
    s = place_tile(s, "3c", "desert_citrine_1")  # already revealed: skipped
    events = decide(s, RhomTurn(0), ScriptedRng([1, 1, 1]))
    assert isinstance(events[0], RhomCardDrawn) and events[0].card == 3
    revealed = next(e for e in events if isinstance(e, TilesRevealed))
    assert revealed.hexes == ("2d", "2b")


def test_rulings_8_move_choice_iridia_first_rainbow_last_then_missing_gem_by_demand():
    s = _rhom_at("8c", 1, hold={"sapphire": 1})
    s = place_tile(s, "9b", "castle_rainbow")
    s = place_tile(s, "9c", "castle_iridia_stone")
    s = _clear(s, "8b", "8d")
    s = apply(s, RhomTurn(0))
    assert s.players[0].iridia_stone and "castle_iridia_stone" in s.players[0].tiles

    s = _rhom_at("2c", 1, hold={"sapphire": 1})
    s = _clear(s, "2b", "2d")
    s = place_tile(s, "3b", "desert_rainbow")
    s = place_tile(s, "3c", "desert_sapphire_1")
    s = apply(s, RhomTurn(0))
    assert s.players[0].tiles == ("desert_sapphire_1",), "never a rainbow tile unless it is the only choice"

    s = _rhom_at("2c", 1, hold={"sapphire": 1})
    s = _clear(s, "2b", "2d")
    s = place_tile(s, "3b", "desert_sapphire_2")
    s = place_tile(s, "3c", "desert_amethyst_1")
    s = replace(s, relic_row=("sapphire_droid", "sapphire_chatelaine", "sapphire_sun_dial", "amethyst_ring", "citrine_amulet"))
    s = apply(s, RhomTurn(0))
    assert s.players[0].tiles == ("desert_amethyst_1",), "a gem not in its hold beats higher demand"


def test_rulings_8_bonuses_become_points_and_overflow_of_a_held_type_scores_its_value():
    s = _rhom_at("2c", 5, hold={"emerald": 6})  # card 5: 2x
    s = _clear(s, "2b", "2d", "3c")
    s = place_tile(s, "3b", "canyon_emerald_coins")
    s = values(s, emerald=3)
    s = replace(s, relic_row=("amethyst_ring", "citrine_amulet", "sapphire_chatelaine", "amethyst_compass", "citrine_plate"))
    s = apply(s, RhomTurn(0))
    rhom = s.players[0]
    assert rhom.hold["emerald"] == 7
    assert rhom.points == 1 + 3, "1 point for the coin bonus, 3 for the excess emerald worth 3"
    assert s.gem_values["emerald"] == 4 and rhom.coins == 0


def test_rulings_8_stone_die_bonus_rolls_and_scores_the_die():
    s = _rhom_at("2c", 1)
    s = _clear(s, "2b", "2d", "3c")
    s = place_tile(s, "3b", "canyon_amethyst_stone_die")
    pool = s.stone_pool
    first_card = ITEMS[s.market[0]].cost
    s = apply(s, RhomTurn(0), ScriptedRng([4, 1]))  # stone die 4; card 1's merchant die 1
    assert s.stone_pool == pool, "the stone die goes back at once"
    assert s.players[0].points == 4 + first_card


def test_rulings_8_barricade_in_the_row_above_the_human_from_the_weathervane_edge():
    s = _rhom_at("2c", 13)  # card 13: barricade, L UL UR R
    s = _clear(s, "2d", "3b", "3c")
    s = place_tile(s, "2b", "desert_amethyst_1")
    s = set_player(s, 1, position="3d")
    vane = "left" if s.rhom_deck[1] in (1, 2, 7, 8, 9, 12, 13, 14) else "right"
    events = decide(s, RhomTurn(0), ScriptedRng([2]))
    placed = [e for e in events if isinstance(e, BarricadePlaced)]
    assert placed == [BarricadePlaced("4b" if vane == "left" else "4f")]
    after = replay(events, s)
    assert after.barricades_left == 5


def test_rulings_8_no_barricade_when_the_human_is_in_row_8():
    s = _rhom_at("2c", 13)
    s = _clear(s, "2d", "3b", "3c")
    s = place_tile(s, "2b", "desert_amethyst_1")
    s = set_player(s, 1, position="8c")
    assert not [e for e in decide(s, RhomTurn(0), ScriptedRng([2])) if isinstance(e, BarricadePlaced)]


def test_rulings_8_restores_at_once_highest_value_first():
    s = _rhom_at("2c", 1, hold={"citrine": 2, "amethyst": 1, "sapphire": 1})
    s = _clear(s, "2d", "3b", "3c")
    s = place_tile(s, "2b", "desert_emerald_1")
    s = replace(s, relic_row=("citrine_plate", "citrine_talisman", "emerald_goggles", "sapphire_droid", "amethyst_ring"))
    s = apply(s, RhomTurn(0), ScriptedRng([1]))
    assert s.players[0].relics == ("citrine_talisman",)


def test_rulings_8_an_empty_rhom_deck_is_reshuffled():
    s = _rhom_at("2c", 1)
    s = replace(s, rhom_deck=(1,), rhom_discard=tuple(range(2, 17)))
    events = decide(s, RhomTurn(0), ScriptedRng([1, 1, 1]))
    shuffle = next(e for e in events if isinstance(e, RhomDeckReshuffled))
    assert sorted(shuffle.deck) == list(range(1, 17))


def test_rulings_8_the_rhom_takes_a_royalty_token_and_then_is_skipped():
    s = _rhom_at("8c", 1)
    s = _clear(s, "8b", "8d", "9b")
    s = place_tile(s, "9c", "castle_emerald")
    s = apply(s, RhomTurn(0), ScriptedRng([1]))
    assert s.players[0].finished and s.players[0].royalty_token == "scepter"
    assert s.turn.seat == 1 and pending_kind(s) == "turn"


def test_rulings_8_on_a_rainbow_tile_the_rhom_takes_the_gem_in_highest_demand():
    s = _rhom_at("2c", 1)
    s = _clear(s, "2b", "2d", "3c")
    s = place_tile(s, "3b", "desert_rainbow")
    s = replace(s, relic_row=("sapphire_droid", "sapphire_chatelaine", "sapphire_sun_dial", "amethyst_ring", "citrine_amulet"))
    before = dict(s.gem_values)
    s = apply(s, RhomTurn(0), ScriptedRng([6]))
    assert s.players[0].hold["sapphire"] == 1
    assert s.gem_values == before, "a rainbow tile moves no market die"


def _merchant_turn(version):
    """The Rhom's card 1 (merchant) with a merchant die of 1: it claims the first market card.
    Returns how many copies of that card the market, the deck and the discards hold, before and
    after (a Market Refresh may follow, so the copies are counted, not the discard pile)."""
    s = _rhom_at("2c", 1, seed=3)  # card 1: merchant
    if version is not None:
        s = replace(s, rules_version=version)
    s = _clear(s, "2d", "3b", "3c")
    s = place_tile(s, "2b", "desert_amethyst_1")
    claimed = s.market[0]

    def copies(state):
        return (state.market + state.item_deck + state.item_discard).count(claimed)

    after = apply(s, RhomTurn(0), ScriptedRng([1]))
    return copies(s), copies(after)


def test_r23_the_rhom_keeps_its_merchant_card_out_of_the_discard_pile():
    before, after = _merchant_turn(None)
    assert after == before - 1, "the card left the game: no reshuffle or refresh brings it back"
    # Under rules version 1 (games created before the fix) it went to the discard pile.
    before, after = _merchant_turn("1")
    assert after == before


def _gift_to_the_rhom(version):
    """Seat 1 (human) holds 8 gems and must give one away; a citrine makes the Rhom (seat 0)
    able to restore the Sapphire Droid (7) or the Citrine Plate (6), not both."""
    s = new_game(2, rhom=True, seed=4, version=version)
    s = standing_on(s, 1, "2c", "desert_citrine_1", hold={"sapphire": 4, "citrine": 4})
    s = set_player(s, 0, position="3c", hold={"sapphire": 3, "citrine": 1, "amethyst": 1})
    return replace(s, relic_row=("citrine_plate", "sapphire_droid", "emerald_goggles",
                                 "amethyst_ring", "amethyst_compass"))


def test_r24_a_rhom_given_gems_restores_at_once_highest_value_first():
    from engine.commands import GiveGem
    from engine.events import RelicRestored

    s = _gift_to_the_rhom(None)
    assert pending_kind(s) == "give_gem"
    events = decide(s, GiveGem(1, "citrine", 0), ScriptedRng())
    restored = [(e.seat, e.relic) for e in events if isinstance(e, RelicRestored)]
    assert restored == [(0, "sapphire_droid")]
    after = replay(events, s)
    assert after.turn.seat == 1 and after.turn.phase == "actions", "the giver goes on with its turn"
    assert after.players[0].hold == {"amethyst": 1, "citrine": 0, "emerald": 0, "sapphire": 1}
    assert after.players[0].points == 7
    # Under rules version 1 (games created before) the Rhom waits for its own turn.
    old = _gift_to_the_rhom("1")
    events = decide(old, GiveGem(1, "citrine", 0), ScriptedRng())
    assert not [e for e in events if isinstance(e, RelicRestored)]
