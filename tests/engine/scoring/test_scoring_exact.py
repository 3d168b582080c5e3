"""The scoring optimiser against a slow reference that tries every wild card by card and every
set partition, on random victory piles; and the detail it reports adds up to its points."""

import functools
import itertools
import random

import pytest

from engine.data import GEMS, OBJECTIVES, RELICS
from engine.scoring import CATEGORIES, PlayerTally, score_game
from engine.versions import rules_for
from tests.engine.scoring.tallies import ANY

IRIDIA = [r for r, relic in RELICS.items() if relic.category == "iridia"]
CATEGORY_OF = {r: relic.category for r, relic in RELICS.items() if r not in IRIDIA}
LEAD_GEM_OF = {r: relic.lead_gem for r, relic in RELICS.items()}
TILE_SET_POINTS = {3: 3, 5: 7, 7: 12}
RELIC_SET_POINTS = {("jewelry",) * 3: 5, ("tech",) * 3: 7, ("lore",) * 3: 9,
                    ("jewelry", "lore", "tech"): 5}


@functools.cache
def best_tile_sets(count: int) -> int:
    """Every multiset of set sizes that fits in `count` tiles."""
    best = 0
    for size, points in TILE_SET_POINTS.items():
        if size <= count:
            best = max(best, points + best_tile_sets(count - size))
    return best


@functools.cache
def best_relic_sets(categories: tuple[str, ...]) -> int:
    """Every partition of the relics (by category) into sets and leftovers."""
    if len(categories) < 3:
        return 0
    first, rest = categories[0], categories[1:]
    best = best_relic_sets(rest)  # the first relic in no set
    for i, j in itertools.combinations(range(len(rest)), 2):
        trio = tuple(sorted((first, rest[i], rest[j])))
        if trio in RELIC_SET_POINTS:
            others = tuple(c for k, c in enumerate(rest) if k not in (i, j))
            best = max(best, RELIC_SET_POINTS[trio] + best_relic_sets(others))
    return best


def reference_extra(tally: PlayerTally, rivals: list[PlayerTally], rivals_wilds: bool) -> int:
    """Tile sets + relic sets + objective, trying every wild one card at a time: each rainbow
    tile one gem, each Iridia relic one category and one lead gem, used alike for the sets and
    the objective. Rivals count their plain cards, plus all their wilds when `rivals_wilds`
    (rules version 1; from version 2 a wild is wild for its owner only)."""
    wild_tiles = tally.tile_gems.count("rainbow")
    plain_tiles = [g for g in tally.tile_gems if g != "rainbow"]
    plain = [r for r in tally.relics if r not in IRIDIA]
    iridia = [r for r in tally.relics if r in IRIDIA]
    goals = [OBJECTIVES[o] for o in tally.objectives] or [None]

    def rival_count(goal, other: PlayerTally) -> int:
        wild_t = other.tile_gems.count("rainbow") if rivals_wilds else 0
        wild_r = sum(1 for r in other.relics if r in IRIDIA) if rivals_wilds else 0
        if goal.kind == "most_coins":
            return other.coins
        if goal.kind == "most_tiles":
            return other.tile_gems.count(goal.param) + wild_t
        if goal.kind == "most_lead_gem_relics":
            return sum(1 for r in other.relics if LEAD_GEM_OF[r] == goal.param) + wild_r
        assert goal.kind == "most_category", goal.kind
        return sum(1 for r in other.relics if CATEGORY_OF.get(r) == goal.param) + wild_r

    tops = {goal: max((rival_count(goal, o) for o in rivals), default=0)
            for goal in goals if goal is not None and goal.kind.startswith("most_")}

    def met(goal, gems: list[str], categories: list[str], lead_gems: list[str]) -> bool:
        counts = {
            "most_coins": tally.coins,
            "most_tiles": gems.count(goal.param),
            "most_lead_gem_relics": lead_gems.count(goal.param),
            "most_category": categories.count(goal.param),
        }
        if goal.kind in counts:
            return counts[goal.kind] >= 1 and counts[goal.kind] >= tops[goal]
        if goal.kind == "relic_each_lead_gem":
            return all(g in lead_gems for g in GEMS)
        if goal.kind == "relic_each_category":
            return all(c in categories for c in CATEGORIES)
        assert goal.kind == "relic_count", goal.kind
        return len(tally.relics) >= goal.param

    # Iridia relics' lead gems touch no set, so try them apart: can some choice meet the goal?
    plain_leads = [LEAD_GEM_OF[r] for r in plain]
    lead_goal_met = {
        goal: any(met(goal, [], [], plain_leads + list(leads))
                  for leads in itertools.product(GEMS, repeat=len(iridia)))
        for goal in goals
        if goal is not None and goal.kind in ("most_lead_gem_relics", "relic_each_lead_gem")
    }
    # Nor do coins or the relic count: those goals are met or not whatever the wilds.
    fixed_goal_met = {goal: met(goal, [], [], []) for goal in goals
                      if goal is not None and goal.kind in ("most_coins", "relic_count")}
    best = 0
    for tile_wilds in itertools.product(GEMS, repeat=wild_tiles):
        gems = plain_tiles + list(tile_wilds)
        tile_points = sum(best_tile_sets(gems.count(g)) for g in GEMS)
        for relic_wilds in itertools.product(CATEGORIES, repeat=len(iridia)):
            categories = [CATEGORY_OF[r] for r in plain] + list(relic_wilds)
            relic_points = best_relic_sets(tuple(sorted(categories)))
            for goal in goals:
                objective = 0
                if goal is not None:
                    done = (lead_goal_met.get(goal) if goal in lead_goal_met
                            else fixed_goal_met[goal] if goal in fixed_goal_met
                            else met(goal, gems, categories, []))
                    objective = goal.points if done else 0
                best = max(best, tile_points + relic_points + objective)
    return best


def random_tally(rng: random.Random, seat: int) -> PlayerTally:
    iridia = rng.choice([0, 0, 1, 2, 3])
    relics = rng.sample(sorted(CATEGORY_OF), rng.randint(0, 6)) + rng.sample(IRIDIA, iridia)
    tile_gems = [rng.choice(GEMS) for _ in range(rng.randint(0, 11))]
    tile_gems += ["rainbow"] * rng.choice([0, 1, 2, 3])
    return PlayerTally(
        seat=seat, in_game=rng.randint(0, 80), coins=rng.randint(0, 4),
        hold={g: rng.randint(0, 2) for g in GEMS}, tile_gems=tile_gems, relics=relics,
        objectives=rng.sample(sorted(OBJECTIVES), rng.choice([0, 1, 1, 1, 2])),
        royalty_token=None, has_iridia_stone=False,
    )


@pytest.mark.parametrize("version", ["1", "2"])
@pytest.mark.parametrize("seed", range(150))
def test_the_optimiser_matches_the_card_by_card_reference(seed, version):
    rng = random.Random(seed)
    tallies = [random_tally(rng, seat) for seat in range(rng.randint(2, 4))]
    rules = rules_for(version)
    outcome = score_game(tallies, ANY, rules)
    for tally in tallies:
        rivals = [t for t in tallies if t.seat != tally.seat]
        score = outcome[tally.seat]
        assert score.tile_sets + score.relic_sets + score.objective == \
            reference_extra(tally, rivals, not rules.wilds_for_owner_only), f"seat {tally.seat}: {tally}"


@pytest.mark.parametrize("seed", range(60))
def test_the_detail_adds_up_and_uses_each_card_once(seed):
    rng = random.Random(1000 + seed)
    tallies = [random_tally(rng, seat) for seat in range(3)]
    for tally, score in zip(tallies, score_game(tallies, ANY).seats, strict=True):
        detail = score.detail
        assert sum(s["points"] for s in detail["tile_sets"]) == score.tile_sets
        assert sum(s["points"] for s in detail["relic_sets"]) == score.relic_sets
        in_sets = [r for s in detail["relic_sets"] for r in s["relics"]]
        assert len(in_sets) == len(set(in_sets)) and set(in_sets) <= set(tally.relics)
        for relic_set in detail["relic_sets"]:
            played = [CATEGORY_OF.get(r) or detail["iridia_relics"][r]["category"]
                      for r in relic_set["relics"]]
            expected = list(CATEGORIES) if relic_set["kind"] == "mixed" else [relic_set["kind"]] * 3
            assert sorted(played) == sorted(expected)
        assert sum(detail["rainbow_tiles"].values()) <= tally.tile_gems.count("rainbow")
        for tile_set in detail["tile_sets"]:
            gem = tile_set["gem"]
            available = tally.tile_gems.count(gem) + detail["rainbow_tiles"].get(gem, 0)
            used = sum(s["size"] for s in detail["tile_sets"] if s["gem"] == gem)
            assert used <= available
        assert score.total == (score.in_game + score.gems + score.tile_sets + score.relic_sets
                               + score.objective)
