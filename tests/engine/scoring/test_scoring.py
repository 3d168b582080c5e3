"""Final scoring, golden numbers worked out by hand (rulebook "End of Game Scoring", RULINGS §6)."""


import pytest

from engine.options import Options
from engine.scoring import (
    InvalidTally,
    PlayerTally,
    ScoringError,
    SeatScore,
    score_game,
    tally_of,
    tile_gem,
    tile_sets_for,
)
from engine.state import Player
from tests.engine.scoring.tallies import ANY, SAME_TYPE, tiles


def alone(**fields) -> SeatScore:
    """Score one player against an opponent who has nothing."""
    outcome = score_game([PlayerTally(seat=0, in_game=0, **fields),
                          PlayerTally(seat=1, in_game=0)], ANY)
    return outcome[0]


# --- leftover gems ----------------------------------------------------------------------------


def test_leftover_gems_score_one_point_per_two_of_any_type():
    # 3 + 1 + 1 + 1 = 6 gems -> 6 // 2 = 3
    assert alone(hold={"amethyst": 3, "citrine": 1, "emerald": 1, "sapphire": 1}).gems == 3


def test_an_odd_gem_out_scores_nothing():
    # 2 + 3 = 5 gems -> 2
    assert alone(hold={"amethyst": 2, "citrine": 3}).gems == 2


def test_leftover_gems_variant_counts_pairs_of_one_type():
    hold = {"amethyst": 3, "citrine": 1, "emerald": 1, "sapphire": 1}
    outcome = score_game([PlayerTally(0, 0, hold=hold), PlayerTally(1, 0)], SAME_TYPE)
    # amethyst 3 // 2 = 1; the three single gems make no pair -> 1 (the default rule gives 3)
    assert outcome[0].gems == 1
    assert outcome[0].total == 1


def test_leftover_gems_variant_with_several_pairs():
    hold = {"amethyst": 2, "citrine": 2, "emerald": 3}
    outcome = score_game([PlayerTally(0, 0, hold=hold)], SAME_TYPE)
    # 2//2 + 2//2 + 3//2 = 3
    assert outcome[0].gems == 3


def test_an_unknown_leftover_rule_is_refused_by_name():
    with pytest.raises(ScoringError, match="'pairs'"):
        score_game([PlayerTally(0, 0)], Options(leftover_gems="pairs"))


# --- tile sets --------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "points", "sizes"), [
    (2, 0, ()),
    (3, 3, (3,)),
    (4, 3, (3,)),           # the 4th tile is left over
    (5, 7, (5,)),
    (6, 7, (5,)),           # one 5 (7) beats two 3s (6)
    (7, 12, (7,)),
    (8, 12, (7,)),          # 7 (12) beats 5+3 (10)
    (9, 12, (7,)),          # 7 (12) beats 5+3 (10) and 3+3+3 (9)
    (10, 15, (7, 3)),       # 7+3 (15) beats 5+5 (14)
    (12, 19, (7, 5)),       # 7+5 (19) beats 3+3+3+3 (12)
    (14, 24, (7, 7)),
    (15, 24, (7, 7)),       # 7+7 (24) beats 7+5+3 (22) and 5+5+5 (21)
])
def test_tile_sets_of_one_gem_take_the_best_partition(count, points, sizes):
    assert tile_sets_for(count) == (points, sizes)


def test_six_tiles_of_a_type_score_one_set_of_five():
    score = alone(tile_gems=tiles(emerald=6))
    assert score.tile_sets == 7
    assert score.detail["tile_sets"] == [{"gem": "emerald", "size": 5, "points": 7}]


def test_rainbow_tiles_split_across_two_gem_types():
    # 4 amethyst + 4 citrine + 2 rainbow.
    # one rainbow each: 5 amethyst (7) + 5 citrine (7) = 14
    # both to amethyst: 6 (7) + 4 (3) = 10; so they split.
    score = alone(tile_gems=tiles(amethyst=4, citrine=4, rainbow=2))
    assert score.tile_sets == 14
    assert score.detail["rainbow_tiles"] == {"amethyst": 1, "citrine": 1}
    assert score.detail["tile_sets"] == [
        {"gem": "amethyst", "size": 5, "points": 7},
        {"gem": "citrine", "size": 5, "points": 7},
    ]


def test_rainbow_tiles_all_join_one_type_when_that_is_worth_more():
    # 4 amethyst + 2 citrine + 3 rainbow.
    # all three to amethyst: 7 (12) + citrine 2 (0) = 12
    # two to amethyst, one to citrine: 6 (7) + 3 (3) = 10
    score = alone(tile_gems=tiles(amethyst=4, citrine=2, rainbow=3))
    assert score.tile_sets == 12
    assert score.detail["rainbow_tiles"] == {"amethyst": 3}


def test_rainbow_tiles_complete_three_small_sets():
    # 2 amethyst, 2 citrine, 2 emerald, 3 rainbow: one rainbow each -> 3 sets of 3 = 9
    # (all to one type: 5 (7) only)
    score = alone(tile_gems=tiles(amethyst=2, citrine=2, emerald=2, rainbow=3))
    assert score.tile_sets == 9


def test_each_rainbow_tile_is_in_one_set_only():
    # 2 amethyst + 2 citrine + 1 rainbow: only one of the two pairs can become a set -> 3, not 6
    assert alone(tile_gems=tiles(amethyst=2, citrine=2, rainbow=1)).tile_sets == 3


def test_rainbow_tiles_alone_make_a_set():
    # the Iridia Stone tile and two rainbow tiles: 3 wild tiles of one chosen gem -> 3
    assert alone(tile_gems=["rainbow"] * 3).tile_sets == 3


def test_tiles_of_several_types_score_independently():
    # sapphire 7 (12) + emerald 5 (7) + citrine 3 (3) + amethyst 2 (0) = 22
    score = alone(tile_gems=tiles(sapphire=7, emerald=5, citrine=3, amethyst=2))
    assert score.tile_sets == 22


# --- relic sets -------------------------------------------------------------------------------


@pytest.mark.parametrize(("relics", "points"), [
    (["amethyst_ring", "sapphire_droid", "citrine_plate"], 5),            # J+T+L
    (["amethyst_ring", "citrine_amulet", "emerald_brooch"], 5),           # 3 Jewelry
    (["sapphire_droid", "emerald_goggles", "sapphire_spyglass"], 7),      # 3 Tech
    (["amethyst_vase", "citrine_talisman", "emerald_tablet"], 9),         # 3 Lore
    (["amethyst_ring", "citrine_amulet", "sapphire_droid"], 0),           # J+J+T: no set
    # J J J J T L: mixed (5) + JJJ (5) = 10; JJJ alone leaves J T L = the same 10
    (["amethyst_ring", "citrine_amulet", "emerald_brooch", "sapphire_pendant",
      "sapphire_droid", "citrine_plate"], 10),
    # T T T L L L J: TTT (7) + LLL (9) = 16, better than J+T+L (5) + nothing
    (["sapphire_droid", "emerald_goggles", "sapphire_spyglass", "amethyst_vase",
      "citrine_plate", "emerald_tablet", "amethyst_ring"], 16),
])
def test_relic_sets_without_wilds(relics, points):
    assert alone(relics=relics).relic_sets == points


def test_several_iridia_relics_take_the_best_categories():
    # Tech: sapphire_droid, emerald_goggles; Lore: citrine_plate; Iridia: chalice, crown.
    # both Iridia as Lore: T T + L L L -> LLL 9
    # one as Tech, one as Lore: TTT 7 + L L -> 7
    # one as Jewelry: J T L (5) + T + X -> 5
    score = alone(relics=["sapphire_droid", "emerald_goggles", "citrine_plate",
                          "iridia_chalice", "iridia_crown"])
    assert score.relic_sets == 9
    assert score.detail["relic_sets"] == [
        {"kind": "lore", "relics": ["citrine_plate", "iridia_chalice", "iridia_crown"],
         "points": 9},
    ]
    assert score.detail["iridia_relics"] == {
        "iridia_chalice": {"category": "lore", "lead_gem": None},
        "iridia_crown": {"category": "lore", "lead_gem": None},
    }


def test_four_iridia_relics_with_a_jewelry_and_a_tech():
    # J, T and 4 Iridia (counts J T L after the wilds):
    #   1 1 4 (all Lore):  J+T+L (5) + LLL (9) = 14
    #   1 4 1 (all Tech):  J+T+L (5) + TTT (7) = 12
    #   1 2 3:             LLL (9), or J+T+L (5) and nothing else = 9
    #   4 1 1 (all Jewelry): J+T+L (5) + JJJ (5) = 10
    score = alone(relics=["amethyst_ring", "sapphire_droid", "iridia_chalice", "iridia_crown",
                          "iridia_tiara", "book_of_iridescia"])
    assert score.relic_sets == 14
    kinds = sorted(s["kind"] for s in score.detail["relic_sets"])
    assert kinds == ["lore", "mixed"]


def test_iridia_relics_alone_make_the_richest_triple():
    # three Iridia as Lore -> 9
    assert alone(relics=["iridia_chalice", "iridia_crown", "iridia_tiara"]).relic_sets == 9


# --- an Iridia relic in a set and for the objective ---------------------------------------------


def test_an_iridia_relic_counts_for_the_set_and_the_objective_with_the_same_type():
    # Master Miner with a Jewelry, a Tech and an Iridia relic: the Iridia relic plays Lore for
    # both, so J+T+L set (5) and Master Miner (7) both score: 5 + 7 = 12.
    score = alone(relics=["amethyst_ring", "sapphire_droid", "iridia_crown"],
                  objectives=["master_miner"])
    assert (score.relic_sets, score.objective) == (5, 7)
    assert score.detail["iridia_relics"]["iridia_crown"]["category"] == "lore"
    assert score.detail["relic_sets"][0]["relics"] == [
        "amethyst_ring", "sapphire_droid", "iridia_crown"]


def test_the_same_type_constraint_costs_the_set_when_the_objective_is_worth_more():
    # 2 Jewelry + 1 Iridia, objective Lots-O-Lore (7), opponent has no relics.
    # Iridia as Jewelry: JJJ (5), no Lore -> objective missed -> 5
    # Iridia as Lore: no set, 1 Lore >= 0 -> objective 7 -> 7
    # (Without the constraint it would be 12.)
    score = alone(relics=["amethyst_ring", "citrine_amulet", "iridia_tiara"],
                  objectives=["lots_o_lore"])
    assert (score.relic_sets, score.objective, score.total) == (0, 7, 7)
    assert score.detail["objective"]["met"] is True


def test_the_same_type_constraint_costs_the_objective_when_the_set_is_worth_more():
    # 2 Tech + 1 Iridia, objective Jazzy Jeweler (5).
    # Iridia as Tech: TTT (7), no Jewelry -> 7; as Jewelry: objective 5, no set -> 5.
    score = alone(relics=["sapphire_droid", "emerald_goggles", "iridia_tiara"],
                  objectives=["jazzy_jeweler"])
    assert (score.relic_sets, score.objective, score.total) == (7, 0, 7)
    assert score.detail["objective"]["met"] is False


def test_an_iridia_relics_lead_gem_for_the_objective_is_free_of_its_set_category():
    # Amethyst Vase (Lore, amethyst), Citrine Plate (Lore) and an Iridia relic; All About
    # Amethyst (7) against a rival with 2 amethyst relics.
    # The Iridia relic plays Lore in L L L (9) and amethyst for the objective: 1 + 1 = 2, a tie,
    # met (7). Sets never look at lead gems, so both hold: 9 + 7 = 16.
    outcome = score_game([
        PlayerTally(0, 0, relics=["amethyst_vase", "citrine_plate", "iridia_crown"],
                    objectives=["all_about_amethyst"]),
        PlayerTally(1, 0, relics=["amethyst_ring", "amethyst_compass"]),
    ], ANY)
    assert (outcome[0].relic_sets, outcome[0].objective) == (9, 7)
    assert outcome[0].detail["iridia_relics"] == {
        "iridia_crown": {"category": "lore", "lead_gem": "amethyst"}}


def test_iridia_relics_fill_the_missing_lead_gems_of_regal_rainbow():
    # Amethyst Ring, Citrine Amulet + 2 Iridia relics: they stand for emerald and sapphire (7).
    # Sets: 2 Jewelry + 2 wild make one set of 3 (JJJ or J+T+L, 5 either way), never two.
    score = alone(relics=["amethyst_ring", "citrine_amulet", "iridia_crown", "iridia_tiara"],
                  objectives=["regal_rainbow"])
    assert (score.relic_sets, score.objective) == (5, 7)
    leads = sorted(role["lead_gem"] for role in score.detail["iridia_relics"].values())
    assert leads == ["emerald", "sapphire"]


def test_a_rainbow_tile_counts_for_the_objective_and_its_set_as_one_gem():
    # 2 amethyst + 4 citrine + 1 rainbow, Amethyst Aficionado (5); the opponent has 3 amethyst.
    # rainbow as amethyst: amethyst 3 -> set 3, objective met on the tie (5), citrine 4 -> 3: 11
    # rainbow as citrine: citrine 5 -> 7, amethyst 2 < 3 -> missed: 7
    outcome = score_game([
        PlayerTally(0, 0, tile_gems=tiles(amethyst=2, citrine=4, rainbow=1),
                    objectives=["amethyst_aficionado"]),
        PlayerTally(1, 0, tile_gems=tiles(amethyst=3)),
    ], ANY)
    assert (outcome[0].tile_sets, outcome[0].objective) == (6, 5)
    assert outcome[0].detail["rainbow_tiles"] == {"amethyst": 1}


# --- from the engine's state --------------------------------------------------------------------


def test_rainbow_and_iridia_stone_tiles_are_wild_and_others_keep_their_gem():
    assert [tile_gem(t) for t in ("castle_iridia_stone", "forest_rainbow", "ruins_emerald_coins",
                                  "desert_sapphire_2")] == ["rainbow", "rainbow", "emerald",
                                                            "sapphire"]


def test_an_unknown_tile_is_refused_by_name():
    with pytest.raises(InvalidTally, match="'castle_moat'"):
        tile_gem("castle_moat")


def test_a_finished_player_of_the_state_becomes_a_tally():
    player = Player(seat=1, kind="human", player_id="u7", coins=4,
                    hold={"amethyst": 1, "citrine": 0, "emerald": 2, "sapphire": 0}, points=58,
                    tiles=("desert_amethyst_1", "canyon_amethyst_coins", "castle_iridia_stone"),
                    relics=("iridia_crown", "amethyst_ring"), royalty_token="scepter",
                    iridia_stone=True, finished=True, objectives=("all_about_amethyst",),
                    discarded_objective="master_miner")
    tally = tally_of(player)
    assert tally == PlayerTally(
        seat=1, in_game=58, hold={"amethyst": 1, "citrine": 0, "emerald": 2, "sapphire": 0},
        coins=4, tile_gems=("amethyst", "amethyst", "rainbow"),
        relics=("iridia_crown", "amethyst_ring"), objectives=("all_about_amethyst",),
        royalty_token="scepter", has_iridia_stone=True)
    # 58 + gems 3 // 2 = 1 + tiles: amethyst 2 + Iridia Stone tile = 3 (3)
    # + All About Amethyst: ring + crown = 2 vs nobody -> 7; relic sets: J + Iridia -> 0
    assert score_game([tally], Options()).seats[0].total == 58 + 1 + 3 + 7


def test_a_single_kept_objective_may_be_named_singly():
    assert PlayerTally(0, 0, objective="master_miner").objectives == ("master_miner",)
    with pytest.raises(InvalidTally, match="not both"):
        PlayerTally(0, 0, objective="master_miner", objectives=["regal_rainbow"])
