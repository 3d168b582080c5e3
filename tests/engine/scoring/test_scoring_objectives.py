"""Secret objectives at final scoring: every card met and missed (RULINGS §7, docs/rulings.md)."""

import pytest

from engine.scoring import PlayerTally, score_game
from engine.versions import rules_for
from tests.engine.scoring.tallies import ANY, tiles


def objective_points(objective: str, mine: dict, *others: dict, version: str | None = None) -> int:
    """Seat 0 holds `objective` with pile `mine`; seats 1.. hold the `others` piles."""
    tallies = [PlayerTally(seat=0, in_game=0, objectives=[objective], **mine)]
    tallies += [PlayerTally(seat=i, in_game=0, **pile) for i, pile in enumerate(others, start=1)]
    return score_game(tallies, ANY, rules_for(version))[0].objective


# Each case: objective, seat 0's pile, the other seats' piles, points scored.
CASES = [
    # Glimmering Gold, most coins (7): coins are never wild.
    ("glimmering_gold", {"coins": 6}, [{"coins": 6}, {"coins": 2}], 7),         # tie for most
    ("glimmering_gold", {"coins": 5}, [{"coins": 6}], 0),
    ("glimmering_gold", {"coins": 0}, [{"coins": 0}], 0),                        # needs at least 1
    # Most tiles of a gem (5 each); rainbow tiles wild.
    ("amethyst_aficionado", {"tile_gems": tiles(amethyst=2)}, [{"tile_gems": tiles(amethyst=1)}], 5),
    ("amethyst_aficionado", {"tile_gems": tiles(amethyst=2)}, [{"tile_gems": tiles(amethyst=3)}], 0),
    ("citrine_crazy", {"tile_gems": tiles(citrine=1, rainbow=2)},
     [{"tile_gems": tiles(citrine=3)}], 5),                                      # 1 + 2 wild = 3
    ("citrine_crazy", {"tile_gems": tiles(citrine=1, rainbow=1)},
     [{"tile_gems": tiles(citrine=3)}], 0),                                      # 2 < 3
    ("emerald_enthusiast", {"tile_gems": tiles(emerald=4)},
     [{"tile_gems": tiles(emerald=3)}, {"tile_gems": tiles(emerald=4)}], 5),
    ("emerald_enthusiast", {"tile_gems": tiles(sapphire=4)}, [{}], 0),           # 0 emerald
    ("sapphire_savant", {"tile_gems": tiles(sapphire=3)}, [{"tile_gems": tiles(sapphire=2)}], 5),
    ("sapphire_savant", {"tile_gems": tiles(sapphire=3)},
     [{"tile_gems": tiles(sapphire=2)}, {"tile_gems": tiles(sapphire=4)}], 0),
    # Regal Rainbow, a relic of each lead gem (7); an Iridia relic fills one missing gem.
    ("regal_rainbow", {"relics": ["amethyst_ring", "citrine_amulet", "emerald_brooch",
                                  "sapphire_pendant"]}, [], 7),
    ("regal_rainbow", {"relics": ["amethyst_ring", "citrine_amulet", "emerald_brooch",
                                  "iridia_crown"]}, [], 7),
    ("regal_rainbow", {"relics": ["amethyst_ring", "citrine_amulet", "iridia_crown",
                                  "iridia_tiara"]}, [], 7),
    ("regal_rainbow", {"relics": ["amethyst_ring", "citrine_amulet", "emerald_brooch",
                                  "amethyst_compass"]}, [], 0),                  # no sapphire
    ("regal_rainbow", {"relics": ["amethyst_ring", "citrine_amulet", "iridia_crown"]}, [], 0),
    # Most relics of a lead gem (7 each); Iridia relics wild.
    ("all_about_amethyst", {"relics": ["amethyst_ring", "amethyst_compass"]},
     [{"relics": ["amethyst_vase", "iridia_tiara"]}], 7),                       # 2 vs 2
    ("all_about_amethyst", {"relics": ["amethyst_ring", "amethyst_compass"]},
     [{"relics": ["amethyst_vase", "amethyst_bracelet", "amethyst_power_core"]}], 0),
    ("classy_citrine", {"relics": ["citrine_plate", "iridia_chalice"]},
     [{"relics": ["citrine_amulet"]}], 7),                                      # 1 + 1 wild
    ("classy_citrine", {"relics": ["emerald_brooch"]}, [{}], 0),                # none of citrine
    ("emerald_euphoria", {"relics": ["emerald_tablet"]}, [{"relics": ["emerald_goggles"]}], 7),
    ("emerald_euphoria", {"relics": ["emerald_tablet"]},
     [{"relics": ["emerald_goggles", "emerald_lantern"]}], 0),
    ("sapphire_saturation", {"relics": ["sapphire_droid", "sapphire_spyglass"]},
     [{"relics": ["sapphire_sun_dial"]}], 7),
    ("sapphire_saturation", {"relics": ["iridia_crown"]},
     [{"relics": ["sapphire_sun_dial", "sapphire_pendant"]}], 0),
    # Remarkable Restorer, 5 or more relics (7); Iridia relics are relics.
    ("remarkable_restorer", {"relics": ["amethyst_ring", "citrine_amulet", "emerald_brooch",
                                        "sapphire_droid", "iridia_crown"]}, [], 7),
    ("remarkable_restorer", {"relics": ["amethyst_ring", "citrine_amulet", "emerald_brooch",
                                        "sapphire_droid"]}, [], 0),
    # Most relics of a category; Iridia relics wild.
    ("jazzy_jeweler", {"relics": ["amethyst_ring"]}, [{"relics": ["citrine_amulet"]}], 5),
    ("jazzy_jeweler", {"relics": ["amethyst_ring"]},
     [{"relics": ["citrine_amulet", "sapphire_pendant"]}], 0),
    ("lots_o_lore", {"relics": ["amethyst_vase", "emerald_tablet"]},
     [{"relics": ["citrine_plate"]}], 7),
    ("lots_o_lore", {"relics": ["sapphire_droid"]}, [{}], 0),                   # no lore
    ("tantalizing_tech", {"relics": ["iridia_chalice"]}, [{"relics": ["sapphire_droid"]}], 7),
    ("tantalizing_tech", {"relics": ["sapphire_droid"]},
     [{"relics": ["emerald_goggles", "amethyst_compass"]}], 0),
    # Master Miner, a relic of each category (7).
    ("master_miner", {"relics": ["amethyst_ring", "sapphire_droid", "citrine_plate"]}, [], 7),
    ("master_miner", {"relics": ["amethyst_ring", "iridia_crown", "iridia_tiara"]}, [], 7),
    ("master_miner", {"relics": ["amethyst_ring", "citrine_amulet", "sapphire_droid"]}, [], 0),
]


@pytest.mark.parametrize(("objective", "mine", "others", "points"), CASES,
                         ids=[f"{c[0]}-{'met' if c[3] else 'missed'}-{i}"
                              for i, c in enumerate(CASES)])
def test_objective(objective, mine, others, points):
    assert objective_points(objective, mine, *others) == points


def test_every_objective_card_has_a_met_and_a_missed_case():
    met = {c[0] for c in CASES if c[3]}
    missed = {c[0] for c in CASES if not c[3]}
    assert len(met) == len(missed) == 15


def test_the_objective_adds_to_the_total():
    # 40 in play + Remarkable Restorer 7 (5 relics) + relic sets 5: J J J T + Iridia makes
    # either JJJ (5) or J+T+L with the Iridia as Lore (5), never both -> 40 + 7 + 5 = 52
    outcome = score_game([PlayerTally(
        0, 40, relics=["amethyst_ring", "citrine_amulet", "emerald_brooch", "sapphire_droid",
                       "iridia_crown"], objectives=["remarkable_restorer"])], ANY)
    assert (outcome[0].relic_sets, outcome[0].objective, outcome[0].total) == (5, 7, 52)


# --- rivals' wilds (docs/rulings.md, "Scoring") -------------------------------------------------


def test_version_1_counts_a_rivals_rainbow_tiles_against_a_most_objective():
    # mine: 3 amethyst tiles. Rival: 2 amethyst + 2 rainbow, which they could count as amethyst: 4.
    assert objective_points("amethyst_aficionado", {"tile_gems": tiles(amethyst=3)},
                            {"tile_gems": tiles(amethyst=2, rainbow=2)}, version="1") == 0
    # Rival 2 amethyst + 1 rainbow = 3 at most: a tie for most, met.
    assert objective_points("amethyst_aficionado", {"tile_gems": tiles(amethyst=3)},
                            {"tile_gems": tiles(amethyst=2, rainbow=1)}, version="1") == 5
    # From version 2 the rival's rainbows are theirs only: 3 against 2, met (R22).
    assert objective_points("amethyst_aficionado", {"tile_gems": tiles(amethyst=3)},
                            {"tile_gems": tiles(amethyst=2, rainbow=2)}) == 5


def test_version_1_counts_a_rivals_iridia_relics_against_a_most_objective_even_if_used_elsewhere():
    # Rival: 1 Jewelry + 2 Iridia that make their L L L set with a Lore relic; still they
    # count as 3 Jewelry against my 2 for Jazzy Jeweler.
    rival = {"relics": ["citrine_amulet", "iridia_crown", "iridia_tiara", "amethyst_vase"]}
    mine = {"relics": ["amethyst_ring", "sapphire_pendant"]}
    assert objective_points("jazzy_jeweler", mine, rival, version="1") == 0
    # With one Iridia relic the rival reaches 2: a tie, met.
    rival = {"relics": ["citrine_amulet", "iridia_crown", "amethyst_vase"]}
    assert objective_points("jazzy_jeweler", mine, rival, version="1") == 5
    # From version 2: the rival has 1 Jewelry relic of its own against my 2 (R22).
    rival = {"relics": ["citrine_amulet", "iridia_crown", "iridia_tiara", "amethyst_vase"]}
    assert objective_points("jazzy_jeweler", mine, rival) == 5


def test_the_rhom_is_a_rival_for_most_objectives():
    # The Rhom (no objectives, no coins) has 3 sapphire tiles; the player 2 -> missed.
    outcome = score_game([
        PlayerTally(0, 30, tile_gems=tiles(sapphire=3)),             # the Rhom
        PlayerTally(1, 30, tile_gems=tiles(sapphire=2), objectives=["sapphire_savant"]),
    ], ANY)
    assert outcome[1].objective == 0
    assert outcome[0].detail["objective"] is None


def test_the_rhom_has_no_coins_so_any_coin_beats_it_for_glimmering_gold():
    outcome = score_game([PlayerTally(0, 30),
                          PlayerTally(1, 30, coins=1, objectives=["glimmering_gold"])], ANY)
    assert outcome[1].objective == 7


# --- two objectives still held (docs/rulings.md, "Scoring") --------------------------------------


def test_a_player_holding_two_met_objectives_scores_only_one():
    # J + T + L: Jazzy Jeweler (5, 1 vs 0) and Master Miner (7) are both met; only the 7 scores.
    outcome = score_game([PlayerTally(0, 0, relics=["amethyst_ring", "sapphire_droid",
                                                    "citrine_plate"],
                                      objectives=["jazzy_jeweler", "master_miner"]),
                          PlayerTally(1, 0)], ANY)
    assert outcome[0].objective == 7
    assert outcome[0].detail["objective"]["id"] == "master_miner"
    assert outcome[0].detail["objective"]["held"] == ["jazzy_jeweler", "master_miner"]


def test_a_player_holding_two_objectives_scores_the_one_that_is_met():
    # Glimmering Gold missed (2 coins vs 9); Amethyst Aficionado met (1 vs 0) -> 5
    outcome = score_game([PlayerTally(0, 0, coins=2, tile_gems=["amethyst"],
                                      objectives=["glimmering_gold", "amethyst_aficionado"]),
                          PlayerTally(1, 0, coins=9)], ANY)
    assert outcome[0].objective == 5


def test_with_two_objectives_the_wilds_follow_the_one_that_scores():
    # 2 Jewelry + 1 Iridia, holding Jazzy Jeweler (5) and Lots-O-Lore (7), no rivals' relics.
    #   Iridia as Jewelry: JJJ 5 + Jazzy Jeweler 5 = 10
    #   Iridia as Lore:    no set + Lots-O-Lore 7 = 7 (or Jazzy Jeweler 2 >= 0: 5)
    # -> 10 with Jazzy Jeweler.
    outcome = score_game([PlayerTally(0, 0, relics=["amethyst_ring", "citrine_amulet",
                                                    "iridia_crown"],
                                      objectives=["lots_o_lore", "jazzy_jeweler"]),
                          PlayerTally(1, 0)], ANY)
    assert (outcome[0].relic_sets, outcome[0].objective) == (5, 5)
    assert outcome[0].detail["objective"]["id"] == "jazzy_jeweler"


def test_r22_a_rivals_wild_tiles_count_for_no_type_against_your_most_objective():
    """The issue's reproduction: seat 1's two rainbows are wild for seat 1 only, so they do not
    count as amethyst against seat 0 nor as citrine against seat 2 (RULINGS §6)."""
    tallies = [
        PlayerTally(seat=0, in_game=0, tile_gems=["amethyst"], objectives=["amethyst_aficionado"]),
        PlayerTally(seat=1, in_game=0, tile_gems=["rainbow", "rainbow"]),
        PlayerTally(seat=2, in_game=0, tile_gems=["citrine"], objectives=["citrine_crazy"]),
    ]
    assert [s.objective for s in score_game(tallies, ANY).seats] == [5, 0, 5]
    # A game created under rules version 1 keeps counting them for the rival, as it did.
    assert [s.objective for s in score_game(tallies, ANY, rules_for("1")).seats] == [0, 0, 0]


def test_r22_a_rivals_iridia_relics_count_for_no_type_against_your_most_objective():
    tallies = [
        PlayerTally(seat=0, in_game=0, relics=["amethyst_ring"], objectives=["all_about_amethyst"]),
        PlayerTally(seat=1, in_game=0, relics=["iridia_crown", "iridia_tiara"]),
        PlayerTally(seat=2, in_game=0, relics=["sapphire_pendant"], objectives=["jazzy_jeweler"]),
    ]
    assert [s.objective for s in score_game(tallies, ANY).seats] == [7, 0, 5]
