"""One participant's best choice at final scoring: how the wilds split, and which objective scores.

Every split of the rainbow tiles among the gems and of the Iridia relics among the categories is
tried (__init__.py says why counts are enough); of two objectives held, each is tried and
only the better one scores. The detail functions write what the players see of the choice: the
sets made, the part each Iridia relic plays, the objective's count against what it needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.data import GEMS, Objective
from engine.scoring.sets import (
    MIXED_RELIC_SET,
    RELIC_TRIPLE,
    TILE_SETS,
    _splits,
    relic_sets_for,
    tile_sets_for,
)
from engine.scoring.tally import (
    CATEGORIES,
    EVERY_CATEGORY,
    EVERY_LEAD_GEM,
    MOST_CATEGORY,
    MOST_COINS,
    MOST_LEAD_GEM,
    MOST_TILES,
    RELIC_COUNT,
    PlayerTally,
    _Pile,
)
from engine.versions import Rules

_TILE_GOALS = (MOST_TILES,)
_CATEGORY_GOALS = (MOST_CATEGORY, EVERY_CATEGORY)
_MOST_GOALS = (MOST_COINS, MOST_TILES, MOST_LEAD_GEM, MOST_CATEGORY)


# --- one player's best choice ------------------------------------------------------------------


@dataclass(frozen=True)
class _TileChoice:
    points: int  # sets, plus the objective when it is about tiles and met
    counts: dict[str, int]
    rainbow_as: dict[str, int]


@dataclass(frozen=True)
class _RelicChoice:
    points: int  # sets, plus the objective when it is about categories and met
    counts: dict[str, int]
    iridia_as: dict[str, int]
    mixed: int


@dataclass(frozen=True)
class _GoalCheck:
    met: bool
    count: int
    needed: int | None  # the best rival count ("most"), or the count the goal requires


def _check(goal: Objective, pile: _Pile, tiles: Mapping[str, int], categories: Mapping[str, int],
           rival: int) -> _GoalCheck:
    if goal.kind == MOST_COINS:
        count = pile.coins
    elif goal.kind == MOST_TILES:
        count = tiles[goal.param]
    elif goal.kind == MOST_LEAD_GEM:
        count = pile.lead_gems[goal.param] + len(pile.iridia)
    elif goal.kind == MOST_CATEGORY:
        count = categories[goal.param]
    elif goal.kind == EVERY_LEAD_GEM:
        missing = sum(1 for gem in GEMS if pile.lead_gems[gem] == 0)
        count = len(GEMS) - max(0, missing - len(pile.iridia))
        return _GoalCheck(count == len(GEMS), count, len(GEMS))
    elif goal.kind == EVERY_CATEGORY:
        count = sum(1 for c in CATEGORIES if categories[c] > 0)
        return _GoalCheck(count == len(CATEGORIES), count, len(CATEGORIES))
    elif goal.kind == RELIC_COUNT:
        count = pile.relic_count
        return _GoalCheck(count >= goal.param, count, goal.param)
    else:
        raise AssertionError(goal.kind)
    # "Most" is met on a tie for most, and needs at least one (RULINGS §7).
    return _GoalCheck(count >= 1 and count >= rival, count, rival)


def _best_tiles(pile: _Pile, goal: Objective | None, rival: int) -> _TileChoice:
    best: _TileChoice | None = None
    for split in _splits(pile.wild_tiles, len(GEMS)):
        rainbow_as = dict(zip(GEMS, split, strict=True))
        counts = {gem: pile.tiles[gem] + rainbow_as[gem] for gem in GEMS}
        points = sum(tile_sets_for(counts[gem])[0] for gem in GEMS)
        if goal is not None and goal.kind in _TILE_GOALS:
            if _check(goal, pile, counts, {}, rival).met:
                points += goal.points
        if best is None or points > best.points:
            best = _TileChoice(points, counts, rainbow_as)
    assert best is not None
    return best


def _best_relics(pile: _Pile, goal: Objective | None, rival: int) -> _RelicChoice:
    best: _RelicChoice | None = None
    for split in _splits(len(pile.iridia), len(CATEGORIES)):
        iridia_as = dict(zip(CATEGORIES, split, strict=True))
        counts = {c: pile.categories[c] + iridia_as[c] for c in CATEGORIES}
        points, mixed = relic_sets_for(counts)
        if goal is not None and goal.kind in _CATEGORY_GOALS:
            if _check(goal, pile, {}, counts, rival).met:
                points += goal.points
        if best is None or points > best.points:
            best = _RelicChoice(points, counts, iridia_as, mixed)
    assert best is not None
    return best


@dataclass(frozen=True)
class _Choice:
    tiles: _TileChoice
    relics: _RelicChoice
    goal: Objective | None
    check: _GoalCheck | None

    @property
    def objective_points(self) -> int:
        return self.goal.points if self.check is not None and self.check.met else 0

    @property
    def tile_set_points(self) -> int:
        return sum(tile_sets_for(n)[0] for n in self.tiles.counts.values())

    @property
    def relic_set_points(self) -> int:
        return relic_sets_for(self.relics.counts)[0]


def _best_choice(pile: _Pile, goals: Sequence[Objective], rivals: Sequence[_Pile],
                 rules: Rules) -> _Choice:
    """The wild split and the objective (when two are held, only one scores) worth the most."""
    best: _Choice | None = None
    # An objective about neither tiles nor categories leaves that part's best split alone.
    tiles_alone = relics_alone = None
    for goal in goals or (None,):
        rival = 0
        if goal is not None and goal.kind in _MOST_GOALS:
            rival = max((other.rival_count(goal, rules) for other in rivals), default=0)
        if goal is not None and goal.kind in _TILE_GOALS:
            tiles = _best_tiles(pile, goal, rival)
        else:
            tiles = tiles_alone = tiles_alone or _best_tiles(pile, None, 0)
        if goal is not None and goal.kind in _CATEGORY_GOALS:
            relics = _best_relics(pile, goal, rival)
        else:
            relics = relics_alone = relics_alone or _best_relics(pile, None, 0)
        check = None
        if goal is not None:
            check = _check(goal, pile, tiles.counts, relics.counts, rival)
        choice = _Choice(tiles, relics, goal, check)
        if best is None or _worth(choice) > _worth(best):
            best = choice
    assert best is not None
    return best


def _worth(choice: _Choice) -> int:
    return choice.tile_set_points + choice.relic_set_points + choice.objective_points


# --- detail (what the players see of the choice) -----------------------------------------------


def _tile_detail(choice: _TileChoice) -> list[dict[str, Any]]:
    sets = []
    for gem in GEMS:
        for size in tile_sets_for(choice.counts[gem])[1]:
            sets.append({"gem": gem, "size": size, "points": dict(TILE_SETS)[size]})
    return sets


def _iridia_roles(pile: _Pile, choice: _Choice) -> dict[str, dict[str, str | None]]:
    """Which category (and, when an objective needs it, lead gem) each Iridia relic plays."""
    categories = [c for c in CATEGORIES for _ in range(choice.relics.iridia_as[c])]
    lead_gems: list[str | None] = [None] * len(pile.iridia)
    goal = choice.goal
    if goal is not None and goal.kind == MOST_LEAD_GEM:
        lead_gems = [goal.param] * len(pile.iridia)
    elif goal is not None and goal.kind == EVERY_LEAD_GEM:
        missing = [gem for gem in GEMS if pile.lead_gems[gem] == 0]
        lead_gems = (missing + lead_gems)[: len(pile.iridia)]
    return {
        relic: {"category": category, "lead_gem": lead}
        for relic, category, lead in zip(pile.iridia, categories, lead_gems, strict=True)
    }


def _relic_detail(pile: _Pile, choice: _Choice, roles: Mapping[str, Mapping[str, Any]]
                  ) -> list[dict[str, Any]]:
    # Plain relics first, then the Iridia relics playing that category.
    pools = {
        c: list(pile.by_category[c]) + [r for r, role in roles.items() if role["category"] == c]
        for c in CATEGORIES
    }
    sets = []
    for _ in range(choice.relics.mixed):
        sets.append({"kind": "mixed", "relics": [pools[c].pop(0) for c in CATEGORIES],
                     "points": MIXED_RELIC_SET})
    for c in CATEGORIES:
        while len(pools[c]) >= 3:
            sets.append({"kind": c, "relics": [pools[c].pop(0) for _ in range(3)],
                         "points": RELIC_TRIPLE[c]})
    return sets


def _objective_detail(tally: PlayerTally, choice: _Choice) -> dict[str, Any] | None:
    if choice.goal is None:
        return None
    assert choice.check is not None
    return {
        "id": choice.goal.id,
        "held": list(tally.objectives),
        "met": choice.check.met,
        "count": choice.check.count,
        "needed": choice.check.needed,
        "points": choice.objective_points,
    }
