"""Final scoring: leftover gems, relic sets, tile sets, the secret objective, total and rank.

The rules are the rulebook's "End of Game Scoring" and "Secret Objectives" as fixed by RULINGS
§6-§7; where both are silent, docs/rulings.md ("Scoring") says what we chose.

Wilds are chosen as counts, not card by card: how many rainbow tiles count as each gem, how many
Iridia relics count as each category. Every such split is tried (a few hundred at most), and in a
split each wild has exactly one type, used for its set and for the objective alike: that is the
rulebook's "same type in both" constraint, and a wild left out of every set can still take the
objective's type because the split that gives it that type is tried too.
"""

from __future__ import annotations

import copy
import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

from .data import GEMS, OBJECTIVES, RELICS, ROYALTY_POINTS, TILES, Objective
from .versions import Rules, rules_for

CATEGORIES = ("jewelry", "tech", "lore")
IRIDIA = "iridia"
RAINBOW = "rainbow"
LEFTOVER_RULES = ("any", "same_type")

# (tiles in the set, points), largest first.
TILE_SETS = ((7, 12), (5, 7), (3, 3))
MIXED_RELIC_SET = 5
RELIC_TRIPLE = {"jewelry": 5, "tech": 7, "lore": 9}
# Tie-breakers after the Iridia Stone, strongest first.
TOKEN_TIE_ORDER = ("throne", "scepter", "banner")


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
_TILE_GOALS = (MOST_TILES,)
_CATEGORY_GOALS = (MOST_CATEGORY, EVERY_CATEGORY)
_MOST_GOALS = (MOST_COINS, MOST_TILES, MOST_LEAD_GEM, MOST_CATEGORY)


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


# --- set arithmetic ---------------------------------------------------------------------------


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


# --- output -----------------------------------------------------------------------------------

_SCORE_FIELDS = ("in_game", "gems", "relic_sets", "tile_sets", "objective", "total", "rank")


@dataclass(frozen=True)
class SeatScore:
    """One participant's final score. `detail` is plain JSON: the chosen sets and wilds."""

    seat: int
    in_game: int
    gems: int
    relic_sets: int
    tile_sets: int
    objective: int
    total: int
    rank: int
    detail: dict[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, **{name: getattr(self, name) for name in _SCORE_FIELDS},
                "detail": copy.deepcopy(self.detail)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatScore:
        if not isinstance(data, Mapping):
            raise InvalidOutcome(f"a seat's score must be an object, not {data!r}")
        values = {}
        for name in ("seat", *_SCORE_FIELDS):
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidOutcome(f"seat score field {name!r} must be a whole number, "
                                     f"not {value!r}")
            values[name] = value
        detail = data.get("detail", {})
        if not isinstance(detail, Mapping):
            raise InvalidOutcome(f"seat score field 'detail' must be an object, not {detail!r}")
        return cls(**values, detail=copy.deepcopy(dict(detail)))


@dataclass(frozen=True)
class Outcome:
    """The final scores of every participant, in seat order."""

    seats: tuple[SeatScore, ...]

    def __getitem__(self, seat: int) -> SeatScore:
        for score in self.seats:
            if score.seat == seat:
                return score
        raise KeyError(seat)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first (several when the tie stands)."""
        return tuple(score.seat for score in self.seats if score.rank == 1)

    def to_dict(self) -> dict[str, Any]:
        return {"seats": [score.to_dict() for score in self.seats],
                "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        if not isinstance(data, Mapping) or not isinstance(data.get("seats"), list):
            raise InvalidOutcome(f"an outcome must be an object with a 'seats' list, not {data!r}")
        return cls(tuple(SeatScore.from_dict(entry) for entry in data["seats"]))


# --- the whole table --------------------------------------------------------------------------


def _tie_key(tally: PlayerTally, total: int) -> tuple[int, bool, int]:
    token = tally.royalty_token
    token_strength = len(TOKEN_TIE_ORDER) - TOKEN_TIE_ORDER.index(token) if token else 0
    return total, tally.has_iridia_stone, token_strength


def _leftover_rule(options: Any) -> str:
    rule = options if isinstance(options, str) else getattr(options, "leftover_gems", None)
    if rule not in LEFTOVER_RULES:
        raise ScoringError(f"unknown leftover_gems rule {rule!r}; expected one of {LEFTOVER_RULES}")
    return rule


def score_game(tallies: Iterable[PlayerTally], options: Any, rules: Rules | None = None) -> Outcome:
    """Final scores for every participant. `options` is the game's Options (only
    `leftover_gems` matters here); `rules` the game's rules version (default: the current one)."""
    rules = rules or rules_for(None)
    tallies = sorted(tallies, key=lambda t: t.seat)
    if not tallies:
        raise ScoringError("cannot score a game without participants")
    seats = [t.seat for t in tallies]
    if len(set(seats)) != len(seats):
        raise ScoringError(f"a seat appears twice among {seats}")
    rule = _leftover_rule(options)
    piles = [_Pile.of(t) for t in tallies]

    scored = []
    for index, (tally, pile) in enumerate(zip(tallies, piles, strict=True)):
        rivals = piles[:index] + piles[index + 1:]
        choice = _best_choice(pile, [_objective(o) for o in tally.objectives], rivals, rules)
        gems = leftover_gem_points(tally.hold, rule)
        parts = {
            "in_game": tally.in_game,
            "gems": gems,
            "relic_sets": choice.relic_set_points,
            "tile_sets": choice.tile_set_points,
            "objective": choice.objective_points,
        }
        roles = _iridia_roles(pile, choice)
        detail = {
            "tile_sets": _tile_detail(choice.tiles),
            "rainbow_tiles": {g: n for g, n in choice.tiles.rainbow_as.items() if n},
            "relic_sets": _relic_detail(pile, choice, roles),
            "iridia_relics": roles,
            "objective": _objective_detail(tally, choice),
            "iridia_stone": tally.has_iridia_stone,
            "royalty_token": tally.royalty_token,
        }
        scored.append((tally, parts, sum(parts.values()), detail))

    keys = [_tie_key(tally, total) for tally, _, total, _ in scored]
    return Outcome(tuple(
        SeatScore(seat=tally.seat, **parts, total=total,
                  rank=1 + sum(1 for other in keys if other > key), detail=detail)
        for (tally, parts, total, detail), key in zip(scored, keys, strict=True)
    ))
