"""Final scoring's set arithmetic: the most points counts of tiles, relics and leftover gems make.

Pure functions of counts. `tile_sets_for` is cached: it recurses on smaller counts, and the search
for the best choice (choice.py) asks it again for every split of the wilds.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping

from engine.scoring.tally import CATEGORIES, ScoringError

LEFTOVER_RULES = ("any", "same_type")

# (tiles in the set, points), largest first.
TILE_SETS = ((7, 12), (5, 7), (3, 3))
MIXED_RELIC_SET = 5
RELIC_TRIPLE = {"jewelry": 5, "tech": 7, "lore": 9}


@functools.cache
def tile_sets_for(count: int) -> tuple[int, tuple[int, ...]]:
    """The most points `count` tiles of one gem make, and the set sizes that make them."""
    if count < 3:
        return 0, ()
    best = tile_sets_for(count - 1)  # one tile left out of every set
    for size, points in TILE_SETS:
        if size <= count:
            rest_points, rest_sizes = tile_sets_for(count - size)
            if rest_points + points > best[0]:
                best = rest_points + points, tuple(sorted((size, *rest_sizes), reverse=True))
    return best


def relic_sets_for(counts: Mapping[str, int]) -> tuple[int, int]:
    """The most points relics of these category counts make, and how many mixed sets
    (Jewelry+Tech+Lore) that takes; the rest of each category goes in threes."""
    best_points, best_mixed = -1, 0
    for mixed in range(min(counts[c] for c in CATEGORIES) + 1):
        points = MIXED_RELIC_SET * mixed + sum(
            RELIC_TRIPLE[c] * ((counts[c] - mixed) // 3) for c in CATEGORIES
        )
        if points > best_points:
            best_points, best_mixed = points, mixed
    return best_points, best_mixed


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to share `total` identical wilds among `parts` types."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


def leftover_gem_points(hold: Mapping[str, int], rule: str) -> int:
    """1 point per 2 gems of any types, or (variant) per 2 gems of one type."""
    if rule == "any":
        return sum(hold.values()) // 2
    if rule == "same_type":
        return sum(count // 2 for count in hold.values())
    raise ScoringError(f"unknown leftover_gems rule {rule!r}; expected one of {LEFTOVER_RULES}")
