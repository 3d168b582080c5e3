"""What final scoring reads: a finished participant's tally and its counts, and scoring's errors.

`PlayerTally` is the victory pile and hold as a caller gives them, checked when it is built so that
a tally is a value; `_Pile` counts it for the arithmetic, plain cards apart from wilds. The
objective kinds live here because what a rival counts against a "most" objective
(`_Pile.rival_count`) is a fact of the rival's pile. __init__.py puts the parts together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

from engine.data import GEMS, OBJECTIVES, RELICS, ROYALTY_POINTS, TILES, Objective
from engine.versions import Rules

CATEGORIES = ("jewelry", "tech", "lore")
IRIDIA = "iridia"
RAINBOW = "rainbow"


# --- errors -----------------------------------------------------------------------------------


class ScoringError(ValueError):
    """Scoring was given something that cannot be a finished player's victory pile."""


class InvalidTally(ScoringError):
    """A PlayerTally names an unknown component or holds an impossible count."""


class InvalidOutcome(ScoringError):
    """An outcome dict (from storage or the wire) does not have the shape Outcome.to_dict gives."""


# --- objectives -------------------------------------------------------------------------------

# Objective kinds (engine.data.Objective.kind). "most_*" goals compare against every other
# participant; the others need only the player's own pile.
MOST_COINS = "most_coins"
MOST_TILES = "most_tiles"
MOST_LEAD_GEM = "most_lead_gem_relics"
MOST_CATEGORY = "most_category"
EVERY_LEAD_GEM = "relic_each_lead_gem"
EVERY_CATEGORY = "relic_each_category"
RELIC_COUNT = "relic_count"


def _objective(objective_id: str) -> Objective:
    try:
        return OBJECTIVES[objective_id]
    except KeyError:
        raise InvalidTally(f"unknown objective {objective_id!r}") from None


# --- input ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerTally:
    """A finished participant's victory pile and hold, as final scoring needs them.

    `in_game` already holds every point scored during play (tile bonuses, relics, the Iridia
    Stone's 10, the royalty token). `tile_gems` has one entry per tile kept: its gem, or
    "rainbow" for a rainbow tile and for the Iridia Stone tile. `objectives` are the objective
    cards still held: one after the Forest, two if the player never got there, none for the Rhom.
    """

    seat: int
    in_game: int
    hold: Mapping[str, int] = field(default_factory=dict)
    coins: int = 0
    tile_gems: Sequence[str] = ()
    relics: Sequence[str] = ()
    objectives: Sequence[str] = ()
    royalty_token: str | None = None
    has_iridia_stone: bool = False
    # The one kept objective, for callers that name it singly; `objectives` is the field.
    objective: InitVar[str | None] = None

    def __post_init__(self, objective: str | None) -> None:
        where = f"seat {self.seat}"
        if objective is not None:
            if self.objectives:
                raise InvalidTally(f"{where}: give objective={objective!r} or objectives="
                                   f"{list(self.objectives)!r}, not both")
            object.__setattr__(self, "objectives", (objective,))
        if type(self.seat) is not int or self.seat < 0:
            raise InvalidTally(f"seat must be a number from 0, not {self.seat!r}")
        for name in ("in_game", "coins"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise InvalidTally(f"{where}: {name} must be a whole number ≥ 0, not {value!r}")
        for gem, count in self.hold.items():
            if gem not in GEMS:
                raise InvalidTally(f"{where}: unknown gem {gem!r} in the hold")
            if type(count) is not int or count < 0:
                raise InvalidTally(f"{where}: {count!r} {gem} in the hold is not a count")
        for gem in self.tile_gems:
            if gem not in GEMS and gem != RAINBOW:
                raise InvalidTally(f"{where}: tile gem {gem!r} is neither a gem nor 'rainbow'")
        for relic in self.relics:
            if relic not in RELICS:
                raise InvalidTally(f"{where}: unknown relic {relic!r}")
        if len(set(self.relics)) != len(self.relics):
            raise InvalidTally(f"{where}: a relic appears twice in {list(self.relics)!r}")
        if len(self.objectives) > 2:
            raise InvalidTally(f"{where}: holds {len(self.objectives)} objectives, at most 2")
        for objective in self.objectives:
            _objective(objective)
        if self.royalty_token is not None and self.royalty_token not in ROYALTY_POINTS:
            raise InvalidTally(f"{where}: unknown royalty token {self.royalty_token!r}")
        # Freeze the containers so a tally is a value.
        object.__setattr__(self, "hold", dict(self.hold))
        object.__setattr__(self, "tile_gems", tuple(self.tile_gems))
        object.__setattr__(self, "relics", tuple(self.relics))
        object.__setattr__(self, "objectives", tuple(self.objectives))


def tile_gem(tile_id: str) -> str:
    """A tile's gem for final scoring: "rainbow" for rainbow tiles and the Iridia Stone tile."""
    try:
        tile = TILES[tile_id]
    except KeyError:
        raise InvalidTally(f"unknown tile {tile_id!r}") from None
    return RAINBOW if tile.wild else tile.gem


def tally_of(player: Any) -> PlayerTally:
    """The tally of a finished participant of engine.state (seat, points, hold, coins, tiles,
    relics, objectives, royalty_token, iridia_stone)."""
    return PlayerTally(
        seat=player.seat,
        in_game=player.points,
        hold=dict(player.hold),
        coins=player.coins,
        tile_gems=tuple(tile_gem(tile) for tile in player.tiles),
        relics=tuple(player.relics),
        objectives=tuple(player.objectives),
        royalty_token=player.royalty_token,
        has_iridia_stone=player.iridia_stone,
    )


@dataclass(frozen=True)
class _Pile:
    """A tally's counts, split into plain cards and wilds."""

    tiles: Counter[str]
    wild_tiles: int
    categories: Counter[str]
    lead_gems: Counter[str]
    by_category: dict[str, tuple[str, ...]]
    iridia: tuple[str, ...]
    relic_count: int
    coins: int

    @classmethod
    def of(cls, tally: PlayerTally) -> _Pile:
        tiles = Counter(gem for gem in tally.tile_gems if gem != RAINBOW)
        by_category: dict[str, list[str]] = {category: [] for category in CATEGORIES}
        iridia: list[str] = []
        lead_gems: Counter[str] = Counter()
        for relic in sorted(tally.relics):
            facts = RELICS[relic]
            if facts.category == IRIDIA:
                iridia.append(relic)
            else:
                by_category[facts.category].append(relic)
                lead_gems[facts.lead_gem] += 1
        return cls(
            tiles=tiles,
            wild_tiles=len(tally.tile_gems) - sum(tiles.values()),
            categories=Counter({c: len(rs) for c, rs in by_category.items()}),
            lead_gems=lead_gems,
            by_category={c: tuple(rs) for c, rs in by_category.items()},
            iridia=tuple(iridia),
            relic_count=len(tally.relics),
            coins=tally.coins,
        )

    def rival_count(self, goal: Objective, rules: Rules) -> int:
        """What this participant counts against someone else's "most" objective (docs/rulings.md,
        "Scoring"): only their plain cards of the type in question, since a wild is wild for its
        owner only (RULINGS §6, R22). Rules version 1 counted every wild of theirs as that type."""
        wild_tiles, wild_relics = (0, 0) if rules.wilds_for_owner_only else (self.wild_tiles, len(self.iridia))
        if goal.kind == MOST_COINS:
            return self.coins
        if goal.kind == MOST_TILES:
            return self.tiles[goal.param] + wild_tiles
        if goal.kind == MOST_LEAD_GEM:
            return self.lead_gems[goal.param] + wild_relics
        if goal.kind == MOST_CATEGORY:
            return self.categories[goal.param] + wild_relics
        raise AssertionError(goal.kind)
