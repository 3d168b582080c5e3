"""Final scoring of a whole table: a game worked out by hand, the outcome's JSON, ranks and
tie-breakers (rulebook "End of Game Scoring", RULINGS §6), and tallies the scorer refuses."""

import json

import pytest

from engine.scoring import (
    InvalidOutcome,
    InvalidTally,
    Outcome,
    PlayerTally,
    ScoringError,
    score_game,
)
from tests.engine.scoring.tallies import ANY, tiles

# --- a whole table ----------------------------------------------------------------------------


def three_player_table() -> list[PlayerTally]:
    return [
        PlayerTally(
            seat=0, in_game=62, hold={"amethyst": 2, "citrine": 1, "sapphire": 2}, coins=3,
            tile_gems=tiles(amethyst=4, citrine=4, emerald=1, sapphire=2, rainbow=2),
            relics=["amethyst_ring", "sapphire_droid", "emerald_goggles", "iridia_crown"],
            objectives=["tantalizing_tech"], royalty_token="throne"),
        PlayerTally(
            seat=1, in_game=70, hold={"sapphire": 7}, coins=0,
            tile_gems=tiles(sapphire=5, emerald=3, amethyst=1),
            relics=["citrine_plate", "emerald_lantern", "sapphire_sun_dial", "amethyst_compass"],
            objectives=["jazzy_jeweler"], royalty_token="banner"),
        PlayerTally(
            seat=2, in_game=55, hold={}, coins=12,
            tile_gems=tiles(citrine=3, emerald=2, rainbow=1),
            relics=["citrine_miners_hat", "sapphire_spyglass", "citrine_earrings"],
            objectives=["glimmering_gold", "classy_citrine"], has_iridia_stone=True),
    ]


def test_a_three_player_game_worked_by_hand():
    outcome = score_game(three_player_table(), ANY)
    # Seat 0: gems 5 -> 2.
    #   tiles: amethyst 4 + citrine 4 + 2 rainbows split -> 5 + 5 -> 7 + 7 = 14.
    #   relics J1 T2 + Iridia. Tantalizing Tech: rivals' tech 1 (seat 1) and 2 (seat 2).
    #   Iridia as Tech: TTT 7, 3 tech >= 2 -> +7 = 14; as Lore: J+T+L 5, 2 tech tie -> +7 = 12.
    #   62 + 2 + 7 + 14 + 7 = 92
    # Seat 1: gems 7 -> 3. tiles sapphire 5 (7) + emerald 3 (3) = 10. relics LLL (9) + T.
    #   Jazzy Jeweler: no jewelry -> 0.  70 + 3 + 9 + 10 + 0 = 92
    # Seat 2: gems 0. tiles: rainbow (the Iridia Stone tile) to citrine 4 (3) or emerald 3
    #   (3 + citrine 3 = 6) -> 6. relics J1 T2 -> 0. Two objectives held, one scores:
    #   Glimmering Gold 12 coins vs 3 and 0 -> 7; Classy Citrine 2 vs 1 and 1 -> 7. -> 7
    #   55 + 0 + 0 + 6 + 7 = 68
    # Seats 0 and 1 tie on 92: nobody has the Iridia Stone among them; Throne beats Banner.
    got = [(s.seat, s.in_game, s.gems, s.relic_sets, s.tile_sets, s.objective, s.total, s.rank)
           for s in outcome.seats]
    assert got == [
        (0, 62, 2, 7, 14, 7, 92, 1),
        (1, 70, 3, 9, 10, 0, 92, 2),
        (2, 55, 0, 0, 6, 7, 68, 3),
    ]
    assert outcome.winners == (0,)


def test_the_outcome_is_plain_json_and_round_trips():
    outcome = score_game(three_player_table(), ANY)
    text = json.dumps(outcome.to_dict())
    again = Outcome.from_dict(json.loads(text))
    assert again == outcome
    assert again.to_dict() == outcome.to_dict()
    assert json.loads(text)["winners"] == [0]


def test_the_detail_names_every_chosen_set():
    seat0 = score_game(three_player_table(), ANY)[0]
    assert seat0.detail["relic_sets"] == [
        {"kind": "tech", "relics": ["emerald_goggles", "sapphire_droid", "iridia_crown"],
         "points": 7},
    ]
    assert seat0.detail["objective"] == {
        "id": "tantalizing_tech", "held": ["tantalizing_tech"], "met": True, "count": 3,
        "needed": 2, "points": 7,
    }


@pytest.mark.parametrize("broken", [
    {"seats": "none"},
    {"seats": [{"seat": 0, "in_game": 1}]},
    {"seats": [{"seat": 0, "in_game": "1", "gems": 0, "relic_sets": 0, "tile_sets": 0,
                "objective": 0, "total": 1, "rank": 1}]},
    [],
])
def test_a_malformed_outcome_dict_is_refused_with_the_offending_part(broken):
    with pytest.raises(InvalidOutcome):
        Outcome.from_dict(broken)


def test_a_missing_field_is_named():
    with pytest.raises(InvalidOutcome, match="'gems'"):
        Outcome.from_dict({"seats": [{"seat": 0, "in_game": 1}]})


# --- ranks and tie-breakers -------------------------------------------------------------------


def ranks(*tallies: PlayerTally) -> list[int]:
    return [s.rank for s in score_game(list(tallies), ANY).seats]


def test_higher_total_ranks_first():
    assert ranks(PlayerTally(0, 40), PlayerTally(1, 55), PlayerTally(2, 41)) == [3, 1, 2]


def test_the_iridia_stone_breaks_a_tie_before_the_throne():
    assert ranks(PlayerTally(0, 50, royalty_token="throne"),
                 PlayerTally(1, 50, has_iridia_stone=True)) == [2, 1]


def test_the_throne_beats_the_scepter_beats_the_banner_beats_no_token():
    assert ranks(PlayerTally(0, 50, royalty_token="banner"),
                 PlayerTally(1, 50, royalty_token="scepter"),
                 PlayerTally(2, 50),
                 PlayerTally(3, 50, royalty_token="throne")) == [3, 2, 4, 1]


def test_tie_breakers_only_order_equal_totals():
    # the Iridia Stone and the Throne do not lift 49 over 50
    assert ranks(PlayerTally(0, 49, royalty_token="throne", has_iridia_stone=True),
                 PlayerTally(1, 50)) == [2, 1]


def test_a_tie_that_stands_shares_the_rank_and_skips_the_next():
    # 50, 40, 40, 30 with no stone or token between the 40s -> 1, 2, 2, 4
    outcome = score_game([PlayerTally(0, 50, royalty_token="throne"), PlayerTally(1, 40),
                          PlayerTally(2, 40), PlayerTally(3, 30)], ANY)
    assert [s.rank for s in outcome.seats] == [1, 2, 2, 4]


def test_a_tie_for_first_that_stands_gives_several_winners():
    outcome = score_game([PlayerTally(0, 50), PlayerTally(1, 50), PlayerTally(2, 20)], ANY)
    assert outcome.winners == (0, 1)


def test_end_of_game_points_can_decide_the_winner():
    # in play 60 vs 52; seat 1 adds tiles 7 (sapphire 5) + gems 3 (6 gems) = 62 > 60
    outcome = score_game([PlayerTally(0, 60),
                          PlayerTally(1, 52, tile_gems=tiles(sapphire=5),
                                      hold={"citrine": 6})], ANY)
    assert [(s.total, s.rank) for s in outcome.seats] == [(60, 2), (62, 1)]


# --- bad tallies ------------------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "quoted"), [
    ({"relics": ["golden_goose"]}, "'golden_goose'"),
    ({"relics": ["amethyst_ring", "amethyst_ring"]}, "appears twice"),
    ({"tile_gems": ["ruby"]}, "'ruby'"),
    ({"hold": {"ruby": 1}}, "'ruby'"),
    ({"hold": {"amethyst": -1}}, "-1"),
    ({"objectives": ["world_peace"]}, "'world_peace'"),
    ({"objectives": ["master_miner", "regal_rainbow", "lots_o_lore"]}, "3 objectives"),
    ({"royalty_token": "crown"}, "'crown'"),
    ({"coins": -2}, "-2"),
    ({"coins": True}, "True"),
])
def test_an_impossible_tally_is_refused_and_quoted(fields, quoted):
    with pytest.raises(InvalidTally, match=quoted):
        PlayerTally(seat=0, in_game=0, **fields)


def test_a_seat_scored_twice_is_refused():
    with pytest.raises(ScoringError, match="twice"):
        score_game([PlayerTally(0, 1), PlayerTally(0, 2)], ANY)
