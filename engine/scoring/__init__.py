"""Final scoring: leftover gems, relic sets, tile sets, the secret objective, total and rank.

The rules are the rulebook's "End of Game Scoring" and "Secret Objectives" as fixed by RULINGS
§6-§7; where both are silent, docs/rulings.md ("Scoring") says what we chose.

Wilds are chosen as counts, not card by card: how many rainbow tiles count as each gem, how many
Iridia relics count as each category. Every such split is tried (a few hundred at most), and in a
split each wild has exactly one type, used for its set and for the objective alike: that is the
rulebook's "same type in both" constraint, and a wild left out of every set can still take the
objective's type because the split that gives it that type is tried too.

The parts, one concept a module: tally.py (the tally of a finished participant, its counts,
the errors), sets.py (the points a count of tiles or relics makes), choice.py (the
best split of the wilds and objective for one participant, and its detail), outcome.py
(SeatScore and Outcome). This module scores the whole table, ranks included, and every public
name of final scoring is imported from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.scoring.choice import (
    _best_choice,
    _iridia_roles,
    _objective_detail,
    _relic_detail,
    _tile_detail,
)
from engine.scoring.outcome import Outcome, SeatScore
from engine.scoring.sets import (
    LEFTOVER_RULES,
    MIXED_RELIC_SET,
    RELIC_TRIPLE,
    TILE_SETS,
    leftover_gem_points,
    relic_sets_for,
    tile_sets_for,
)
from engine.scoring.tally import (
    CATEGORIES,
    EVERY_CATEGORY,
    EVERY_LEAD_GEM,
    IRIDIA,
    MOST_CATEGORY,
    MOST_COINS,
    MOST_LEAD_GEM,
    MOST_TILES,
    RAINBOW,
    RELIC_COUNT,
    InvalidOutcome,
    InvalidTally,
    PlayerTally,
    ScoringError,
    _objective,
    _Pile,
    tally_of,
    tile_gem,
)
from engine.versions import Rules, rules_for

__all__ = [
    "CATEGORIES", "EVERY_CATEGORY", "EVERY_LEAD_GEM", "IRIDIA", "LEFTOVER_RULES", "MIXED_RELIC_SET",
    "MOST_CATEGORY", "MOST_COINS", "MOST_LEAD_GEM", "MOST_TILES", "RAINBOW", "RELIC_COUNT",
    "RELIC_TRIPLE", "TILE_SETS", "TOKEN_TIE_ORDER", "InvalidOutcome", "InvalidTally", "Outcome",
    "PlayerTally", "ScoringError", "SeatScore", "leftover_gem_points", "relic_sets_for",
    "score_game", "tally_of", "tile_gem", "tile_sets_for",
]

# Tie-breakers after the Iridia Stone, strongest first.
TOKEN_TIE_ORDER = ("throne", "scepter", "banner")


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
