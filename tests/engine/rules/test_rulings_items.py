"""RULINGS §4: the item market and all twelve items with their timing."""

from collections import Counter
from dataclasses import replace

import pytest
from engine_helpers import (
    ScriptedRng,
    apply,
    new_game,
    place_tile,
    set_player,
    set_turn,
    standing_on,
    values,
)

from engine import IllegalCommand, decide, legal_commands, replay
from engine.commands import (
    Buy,
    EndTurn,
    KeepRoll,
    Mine,
    ModifyDie,
    Move,
    PlayItem,
    Reroll,
    Restore,
    Reveal,
    RollMarket,
    Sell,
)
from engine.events import ItemDeckReshuffled, ItemDrawn, MarketRefreshed


def _on_tile(players=2, items=(), **player):
    s = new_game(players)
    seat = s.turn.seat
    s = standing_on(s, seat, "3b", "canyon_emerald_points", items=tuple(items), **player)
    return s, seat


def test_rulings_4_small_games_drop_swapping_stones_and_catapults_and_solo_shows_six():
    s = new_game(2)
    cards = Counter(s.market + s.item_deck)
    assert sum(cards.values()) == 30 and not {"swapping_stones", "clever_catapult"} & set(cards)
    assert len(new_game(1).market) == 6 and len(new_game(3).market) == 5


def test_rulings_4_buy_once_no_duplicates_and_refill():
    s, seat = _on_tile(coins=20, items=("lucky_libation",))
    s = replace(s, market=("lucky_libation", "wishing_well", "axe_of_awesomeness", "epic_elixir", "jolty_jackhammer"))
    with pytest.raises(IllegalCommand, match="you already have the Lucky Libation; you cannot hold two"):
        decide(s, Buy(seat, "lucky_libation"), ScriptedRng())
    top = s.item_deck[0]
    s = apply(s, Buy(seat, "wishing_well"))
    assert s.players[seat].coins == 15 and s.market[1] == top, "the new card fills the bought slot"
    with pytest.raises(IllegalCommand, match="you already bought an item this turn"):
        decide(s, Buy(seat, "epic_elixir"), ScriptedRng())


def test_rulings_4_an_empty_deck_is_reshuffled_from_the_discards():
    s, seat = _on_tile(coins=20)
    s = replace(s, market=("lucky_libation", "wishing_well", "axe_of_awesomeness", "epic_elixir", "jolty_jackhammer"),
                item_deck=(), item_discard=("cauldron_of_fortune", "marvelous_mine_cart"))
    events = decide(s, Buy(seat, "wishing_well"), ScriptedRng())
    kinds = [type(e) for e in events]
    assert ItemDeckReshuffled in kinds and ItemDrawn in kinds
    after = replay(events, s)
    assert after.item_discard == () and len(after.market) == 5


def test_rulings_4_market_refresh_on_three_identical_or_two_pairs():
    s, seat = _on_tile(coins=20)
    s = replace(s, market=("lucky_libation", "lucky_libation", "wishing_well", "wishing_well", "epic_elixir"),
                item_deck=("jolty_jackhammer",) + s.item_deck)
    events = decide(s, Buy(seat, "epic_elixir"), ScriptedRng())
    assert any(isinstance(e, MarketRefreshed) for e in events)
    after = replay(events, s)
    counts = sorted(Counter(after.market).values(), reverse=True)
    assert counts[0] < 3 and not (len(counts) > 1 and counts[1] >= 2)


def test_rulings_4_played_items_go_to_the_discard_pile_and_die_changes_wrap():
    s, seat = _on_tile(items=("jolty_jackhammer", "dazzling_dynamite"))
    s = values(s, emerald=6)
    s = apply(s, Mine(seat), ScriptedRng([5, 1]))
    s = apply(s, ModifyDie(seat, "jolty_jackhammer", "roll:0", 1))
    assert s.turn.roll.values == (6, 1)
    with pytest.raises(IllegalCommand, match="changes a die by -2 or -1 or 1 or 2, not 3"):
        decide(s, ModifyDie(seat, "dazzling_dynamite", "roll:1", 3), ScriptedRng())
    s = apply(s, ModifyDie(seat, "dazzling_dynamite", "roll:1", -1))
    assert s.turn.roll.values == (6, 6), "1 - 1 wraps to 6"
    assert s.item_discard[-2:] == ("jolty_jackhammer", "dazzling_dynamite")
    s = apply(s, KeepRoll(seat))
    assert s.players[seat].hold["emerald"] == 2


def test_rulings_4_a_pending_roll_resolves_when_another_action_is_taken():
    s, seat = _on_tile(hold={"citrine": 2}, items=("axe_of_awesomeness",))
    s = values(s, emerald=3)
    s = apply(s, Mine(seat), ScriptedRng([3, 1]))
    s = apply(s, PlayItem(seat, "axe_of_awesomeness", gem="citrine"))
    assert s.turn.roll is None and s.players[seat].hold["emerald"] == 1


def test_version_1_selling_resolves_a_pending_roll():
    s, seat = _on_tile(hold={"citrine": 2})
    s = replace(s, rules_version="1")
    s = values(s, emerald=3)
    s = apply(s, Mine(seat), ScriptedRng([3, 1]))
    s = apply(s, Sell(seat, "citrine", 2))
    assert s.turn.roll is None and s.players[seat].hold["emerald"] == 1


def test_r26_a_pending_roll_survives_buying_and_selling():
    s, seat = _on_tile(hold={"citrine": 2}, coins=5)
    s = values(s, emerald=4)
    s = replace(s, market=("jolty_jackhammer",) + s.market[1:])
    s = apply(s, Mine(seat), ScriptedRng([3, 1]))  # 3 and 1 against emerald 4: no success yet
    legal = legal_commands(s, seat)
    assert Buy(seat, "jolty_jackhammer") in legal and Sell(seat, "citrine", 2) in legal
    events = decide(s, Sell(seat, "citrine", 2), ScriptedRng())
    assert [e.type for e in events] == ["gems_sold"], "no roll_kept: the roll is still pending"
    s = replay(events, s)
    s = apply(s, Buy(seat, "jolty_jackhammer"))
    assert s.turn.roll.values == (3, 1)
    s = apply(s, ModifyDie(seat, "jolty_jackhammer", "roll:0", 1))  # the roll just made: 3 -> 4
    s = apply(s, KeepRoll(seat))
    assert s.players[seat].hold["emerald"] == 1 and s.players[seat].hold["citrine"] == 0


def test_rulings_4_lucky_libation_rerolls_pending_dice_or_rolls_market_dice():
    s, seat = _on_tile(items=("lucky_libation",))
    s = apply(s, Mine(seat), ScriptedRng([1, 2]))
    with pytest.raises(IllegalCommand, match="in increasing order"):
        decide(s, Reroll(seat, (1, 0)), ScriptedRng())
    s = apply(s, Reroll(seat, (0, 1)), ScriptedRng([6, 5]))
    assert s.turn.roll.values == (6, 5) and "lucky_libation" not in s.players[seat].items
    s2, seat2 = _on_tile(items=("lucky_libation",))
    s2 = apply(s2, RollMarket(seat2, ("amethyst", "sapphire")), ScriptedRng([6, 1]))
    assert s2.gem_values["amethyst"] == 6 and s2.gem_values["sapphire"] == 1


def test_rulings_4_mine_cart_doubles_and_the_pickaxe_counts_doubled_gems():
    s, seat = _on_tile(items=("marvelous_mine_cart", "prosperous_pickaxe"))
    s = place_tile(s, "3c", "canyon_sapphire_coins")
    s = values(s, emerald=2)
    with pytest.raises(IllegalCommand, match="hex 4a is not a revealed tile next to your explorer at 3b"):
        decide(s, PlayItem(seat, "prosperous_pickaxe", hex="4a"), ScriptedRng())
    s = apply(s, PlayItem(seat, "marvelous_mine_cart"))
    s = apply(s, PlayItem(seat, "prosperous_pickaxe", hex="3c"))
    s = apply(s, Mine(seat), ScriptedRng([2, 1]))
    s = apply(s, KeepRoll(seat))
    hold = s.players[seat].hold
    assert hold["emerald"] == 2, "one success, doubled"
    assert hold["sapphire"] == 2


def test_rulings_4_start_of_turn_items_only_before_revealing():
    s = new_game(3)
    seat = s.turn.seat
    s = set_player(s, seat, items=("clever_catapult",), position="2c")
    s = place_tile(s, "4d", "canyon_citrine_coins", revealed=False)
    landing = [c.hex for c in legal_commands(s, seat) if isinstance(c, PlayItem)]
    assert set(landing) == {"2a", "4b", "4d", "2e"}
    s2 = apply(s, PlayItem(seat, "clever_catapult", hex="4d"))
    p = s2.players[seat]
    assert p.position == "4d" and p.hold["citrine"] == 1 and p.coins == 6 and s2.turn.phase == "actions"
    s3 = apply(s, Reveal(seat, ("3b",)))
    with pytest.raises(IllegalCommand, match="must be played at the start of your turn"):
        decide(s3, PlayItem(seat, "clever_catapult", hex="4d"), ScriptedRng())


def test_rulings_4_swapping_stones_swaps_locations_then_the_turn_goes_on():
    s = new_game(3)
    seat = s.turn.seat
    other = (seat + 1) % 3
    s = set_player(s, seat, items=("swapping_stones",), position="2c")
    s = set_player(s, other, position="4d")
    s = apply(s, PlayItem(seat, "swapping_stones", target=other))
    assert s.players[seat].position == "4d" and s.players[other].position == "2c"
    assert s.turn.phase == "reveal"


def test_rulings_4_wishing_well_gains_a_gem_worth_at_most_a_die():
    s, seat = _on_tile(items=("wishing_well",))
    s = values(s, amethyst=5, citrine=2, sapphire=4, emerald=6)
    s = apply(s, PlayItem(seat, "wishing_well"), ScriptedRng([4, 1]))
    assert {c.gem for c in legal_commands(s, seat) if isinstance(c, KeepRoll)} == {"citrine", "sapphire"}
    with pytest.raises(IllegalCommand, match="amethyst is worth 5, more than your best die 4"):
        decide(s, KeepRoll(seat, "amethyst"), ScriptedRng())
    with pytest.raises(IllegalCommand, match="first take your Wishing Well gem"):
        decide(s, Restore(seat, s.relic_row[0]), ScriptedRng())
    s = apply(s, KeepRoll(seat, "sapphire"))
    assert s.players[seat].hold["sapphire"] == 1


def test_rulings_4_cauldron_and_axe():
    s, seat = _on_tile(items=("cauldron_of_fortune", "axe_of_awesomeness"), hold={"amethyst": 1, "citrine": 1})
    s = apply(s, PlayItem(seat, "cauldron_of_fortune", give=("amethyst", "citrine"), take="sapphire"))
    assert s.players[seat].hold == {"amethyst": 0, "citrine": 0, "emerald": 0, "sapphire": 1}
    s = apply(s, PlayItem(seat, "axe_of_awesomeness", gem="sapphire"))
    assert s.players[seat].hold["sapphire"] == 2


def test_rulings_4_regal_reference_book_reserves_for_its_owner_only():
    s, seat = _on_tile(items=("regal_reference_book",), hold={"amethyst": 1, "citrine": 1, "emerald": 1, "sapphire": 1})
    wanted = s.relic_deck[-1]
    s = apply(s, PlayItem(seat, "regal_reference_book", relic=wanted))
    assert s.players[seat].reserved_relics == (wanted,) and wanted not in s.relic_deck
    s = replace(s, players=tuple(replace(p, reserved_relics=("iridia_crown",)) if p.seat == seat else p for p in s.players))
    s = apply(s, Restore(seat, "iridia_crown"))
    assert "iridia_crown" in s.players[seat].relics
    other = 1 - seat
    theirs = next(r for r in s.relic_deck if r not in s.relic_row)
    s2 = set_player(s, other, reserved_relics=(theirs,))
    with pytest.raises(IllegalCommand, match="not in the relic row or reserved by you"):
        decide(s2, Restore(seat, theirs), ScriptedRng())


def test_rulings_4_epic_elixir_gives_an_extra_turn_without_elixir_purchases():
    s, seat = _on_tile(items=("epic_elixir",), coins=20)
    s = apply(s, PlayItem(seat, "epic_elixir"))
    s = apply(s, EndTurn(seat))
    assert s.turn.seat == seat and s.turn.extra
    s = place_tile(s, "4c", "canyon_amethyst_coins")
    s = apply(s, Reveal(seat, ("4b",))) if "4b" in s.board else s
    s = set_turn(s, seat, phase="move", extra=True)
    s = apply(s, Move(seat, "4c"))
    s = replace(s, market=("epic_elixir",) + s.market[1:])
    with pytest.raises(IllegalCommand, match="you cannot buy an Epic Elixir during a turn gained with one"):
        decide(s, Buy(seat, "epic_elixir"), ScriptedRng())
    s = apply(s, EndTurn(seat))
    assert s.turn.seat != seat


def test_r25_the_reference_book_lists_the_deck_by_name_and_reshuffles_it_unseen():
    from engine import redact_event
    from engine.events import RelicDeckShuffled, event_to_dict

    s, seat = _on_tile(items=("regal_reference_book",))
    listed = [c.relic for c in legal_commands(s, seat)
              if isinstance(c, PlayItem) and c.item == "regal_reference_book"]
    assert listed[: len(s.relic_row)] == list(s.relic_row)
    assert listed[len(s.relic_row):] == sorted(s.relic_deck), "by name: the order tells nothing"
    assert listed[len(s.relic_row):] != list(s.relic_deck)
    wanted = s.relic_deck[3]
    events = decide(s, PlayItem(seat, "regal_reference_book", relic=wanted), ScriptedRng(seed=5))
    shuffles = [e for e in events if isinstance(e, RelicDeckShuffled)]
    assert len(shuffles) == 1
    after = replay(events, s)
    assert after.relic_deck == shuffles[0].deck
    assert sorted(after.relic_deck) == sorted(r for r in s.relic_deck if r != wanted)
    for viewer in (None, 0, 1):  # every seat and spectators see a count, never the order
        assert redact_event(event_to_dict(shuffles[0]), viewer)["deck"] == len(after.relic_deck)
    # Taking a relic from the row draws the top card, and the deck is not shuffled.
    events = decide(s, PlayItem(seat, "regal_reference_book", relic=s.relic_row[0]), ScriptedRng())
    assert not [e for e in events if isinstance(e, RelicDeckShuffled)]


def test_r16_version_1_lists_the_deck_in_its_order_and_does_not_shuffle():
    s, seat = _on_tile(items=("regal_reference_book",))
    s = replace(s, rules_version="1")
    listed = [c.relic for c in legal_commands(s, seat)
              if isinstance(c, PlayItem) and c.item == "regal_reference_book"]
    assert listed == list(s.relic_row + s.relic_deck)
    events = decide(s, PlayItem(seat, "regal_reference_book", relic=s.relic_deck[3]), ScriptedRng())
    assert [e.type for e in events] == ["item_played", "relic_reserved"]
