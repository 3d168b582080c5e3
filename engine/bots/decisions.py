"""The decisions the heuristic policies share: one choice among commands of one type.

Both the greedy player and the cautious stand-in reveal, move, relocate, choose and give gems,
discard an objective, restore and keep a roll the same way; `_pick` takes the best-scoring
command and breaks ties with the generator, so play is reproducible.
"""

from __future__ import annotations

from collections import defaultdict

from engine import data
from engine.bots.seen import _relic_points, _tile_worth


def _pick(commands, score, rng):
    """The best-scoring command; ties broken by the generator, so play is reproducible."""
    scored = [(score(c), i) for i, c in enumerate(commands)]
    top = max(s for s, _ in scored)
    return commands[rng.choice([i for s, i in scored if s == top])]


def _field(command, name):
    return getattr(command, name)


def _reveal(seen, commands, rng):
    # More tiles, and the ones further ahead, open more choices for the move.
    return _pick(commands, lambda c: sum(10 + seen.hex_row(h) for h in c.hexes), rng)


def _move(seen, commands, rng, mining):
    return _pick(commands, lambda c: _tile_worth(seen, c.hex, mining), rng)


def _relocate(seen, commands, rng):
    counts = defaultdict(int)
    for tile in seen.me.get("tiles", []):
        counts[data.TILES[tile].gem] += 1

    def score(c):
        keep = 0.0
        if c.discard_tile is not None:
            tile = data.TILES[c.discard_tile]
            keep = 5 if tile.gem is None else counts[tile.gem]
        return seen.hex_row(c.hex) - keep

    return _pick(commands, score, rng)


def _choose_gem(seen, commands, rng):
    return _pick(commands, lambda c: seen.worth(c.gem) - 0.1 * seen.values[c.gem], rng)


def _give_gem(seen, commands, rng):
    def score(c):
        mine = -seen.worth(c.gem)
        if c.to is None:
            return mine
        them = seen.players[c.to]
        return mine - 0.5 * seen.worth(c.gem, them) - 0.05 * them.get("points", 0)

    return _pick(commands, score, rng)


def _objective_chance(seen, objective) -> float:
    """A rough chance, 0..1, that I meet this objective at the end, from what is visible now."""
    spec = data.OBJECTIVES[objective]
    others = [p for p in seen.players if p["seat"] != seen.seat and p["kind"] == "human"]

    def count(player) -> int:
        relics = [data.RELICS[r] for r in player.get("relics", [])]
        if spec.kind == "most_coins":
            return player["coins"]
        if spec.kind == "most_tiles":
            tiles = [data.TILES[t] for t in player.get("tiles", [])]
            return sum(1 for t in tiles if t.gem == spec.param or t.wild)
        if spec.kind == "most_lead_gem_relics":
            return sum(1 for r in relics if r.lead_gem in (spec.param, None))
        if spec.kind == "most_category":
            return sum(1 for r in relics if r.category in (spec.param, "iridia"))
        if spec.kind == "relic_each_lead_gem":
            return len({r.lead_gem for r in relics})
        if spec.kind == "relic_each_category":
            return len({r.category for r in relics})
        return len(relics)

    mine = count(seen.me)
    if spec.kind.startswith("most_"):
        lead = mine - max((count(p) for p in others), default=0)
        return min(0.9, max(0.1, 0.5 + 0.15 * lead))
    goal = {"relic_each_lead_gem": 4, "relic_each_category": 3}.get(spec.kind, spec.param or 5)
    return 0.2 + 0.6 * min(1.0, mine / goal)


def _discard_objective(seen, commands, rng):
    # Discard the objective with the lowest expected points; keep the better one.
    def score(c):
        points = data.OBJECTIVES[c.objective].points
        return -points * _objective_chance(seen, c.objective)

    return _pick(commands, score, rng)


def _restore(seen, commands, rng):
    return _pick(commands, lambda c: _relic_points(c.relic), rng)


def _keep_roll(seen, commands, rng):
    return _pick(commands, lambda c: seen.worth(c.gem) if c.gem else 0.0, rng)


def _fallback(grouped, rng):
    # Something the heuristics do not know (a start-of-turn item only, say): any legal command.
    kind = sorted(grouped)[0]
    return rng.choice(grouped[kind])
