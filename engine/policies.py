"""Bots that choose one command at a time, only ever from `legal_commands`.

- `random_policy`: a uniform pick, stratified by command type so that long lists (every way to sell,
  every pair of hexes to reveal) do not drown out ending the turn; games therefore end.
- `greedy_policy`: a one-step heuristic player (mines when the odds are good, restores the most
  valuable relic, moves toward the gems the relic row needs, buys useful items).
- `cautious_policy`: the server's stand-in for an absent player: never spends coins or items;
  reveals, moves, answers pending decisions, restores what it can, ends the turn.
- `automatic_command`: the Rhom's turn, and the server's default removal turn: a tile the rearmost
  explorer still exploring could move onto next (engine/removal.py); games of rules version 1
  keep the tile that hurts the players still exploring the least (see `default_removal`).

Each policy is a pair: `*_choice(view, commands, rng)` decides from what one seat may see (its
`view` and its legal commands), so a client can run it on what the server shows it; `*_policy(state,
seat, rng)` is the same choice made on an engine state. `choose(name, view, commands, rng)` picks by
name. Every policy is deterministic given what it sees and the generator passed in.
"""

from __future__ import annotations

from collections import defaultdict

import engine
from engine import data

GEMS = ("amethyst", "citrine", "emerald", "sapphire")
HOLD_LIMIT = 7
CASTLE_ROW = 9

# How much the greedy player wants each item, in royalty points; items not listed are not bought.
ITEM_WISH = {
    "epic_elixir": 6.0,
    "prosperous_pickaxe": 5.0,
    "marvelous_mine_cart": 3.5,
    "axe_of_awesomeness": 3.0,
    "cauldron_of_fortune": 2.0,
    "dazzling_dynamite": 2.0,
    "jolty_jackhammer": 1.5,
    "wishing_well": 2.0,
    "regal_reference_book": 1.0,
    "lucky_libation": 1.0,
}

# Types the random policy picks less or more often than the others.
RANDOM_WEIGHTS = {"restore": 4.0, "move": 2.0, "reveal": 2.0, "buy": 0.5, "sell": 0.5}


def command_type(command) -> str:
    """The command's JSON `type` ("reveal", "end_turn", ...)."""
    return command.type


def _commands(state, seat) -> list:
    # A bot never undoes: it would only go round in circles (its choices are its own to keep).
    commands = [c for c in engine.legal_commands(state, seat) if c.type != "undo"]
    if not commands:
        raise ValueError(f"seat {seat} has nothing to decide now")
    return commands


def _by_type(commands) -> dict[str, list]:
    grouped: dict[str, list] = {}
    for command in commands:
        same = grouped.get(command.type)
        if same is None:
            grouped[command.type] = [command]
        else:
            same.append(command)
    return grouped


# --- random -----------------------------------------------------------------------------------


def random_policy(state, seat, rng):
    """A legal command chosen at random: first a command type, then a command of that type."""
    return random_choice(None, _commands(state, seat), rng)


def random_choice(view, commands, rng):
    """`random_policy` on a seat's legal commands (the view is not needed)."""
    grouped = _by_type(commands)
    if "end_turn" in grouped and ("move" in grouped or "relocate" in grouped):
        # Ending the turn before moving would only waste the turn; keep games moving forward.
        del grouped["end_turn"]
    if len(grouped) == 1:
        (only,) = grouped.values()
        return only[0] if len(only) == 1 else rng.choice(only)
    types = sorted(grouped)
    weights = [RANDOM_WEIGHTS.get(t, 1.0) for t in types]
    point = rng.random() * sum(weights)
    kind = types[-1]
    for name, weight in zip(types, weights, strict=True):
        point -= weight
        if point < 0:
            kind = name
            break
    return rng.choice(grouped[kind])


# --- what a seat sees -------------------------------------------------------------------------


def _relic_gems(relic_id) -> dict[str, int]:
    return data.RELICS[relic_id].requirement()


def _relic_points(relic_id) -> int:
    return data.RELICS[relic_id].points


class Seen:
    """A seat's view of the game, with the derived values the heuristics share."""

    def __init__(self, view):
        self.view = v = view
        self.seat = seat = v["viewer"]
        self.players = v["players"]
        self.me = self.players[seat]
        self.values = v["market"]["gem_values"]
        self.supply = v["market"]["supply"]
        self.relics = list(v["market"]["relics"])
        self.tiles = {h["hex"]: (row["row"], h) for row in v["board"] for h in row["hexes"]}

    def targets(self, player) -> list[str]:
        """The relics this player could restore: the row, plus their own reservations."""
        return self.relics + list(player.get("reserved_relics") or [])

    def worth(self, gem, player=None) -> float:
        """What one more `gem` is worth to `player` (default: me), in royalty points."""
        player = player or self.me
        hold = player["hold"]
        best = 0.0
        for relic in self.targets(player):
            needs = _relic_gems(relic)
            if hold.get(gem, 0) < needs.get(gem, 0):
                missing = sum(max(0, n - hold.get(g, 0)) for g, n in needs.items())
                best = max(best, _relic_points(relic) / missing)
        # A gem nobody's relic needs still sells, and counts half a point at the end.
        return best + 0.15 * self.values[gem] + 0.25

    def excess(self, gem) -> int:
        """How many of my `gem` no relic within reach needs."""
        held = self.me["hold"].get(gem, 0)
        needed = max((_relic_gems(r).get(gem, 0) for r in self.targets(self.me)), default=0)
        return max(0, held - needed)

    def held(self) -> int:
        return sum(self.me["hold"].values())

    def hex_row(self, name) -> int:
        return self.tiles[name][0]

    def my_row(self) -> int:
        position = self.me.get("position")
        return self.hex_row(position) if position else 0


def _tile_worth(seen: Seen, name: str, mining: bool) -> float:
    row, hex_ = seen.tiles[name]
    tile = hex_.get("tile") or {}
    gems = GEMS if (tile.get("rainbow") or tile.get("iridia")) else (tile.get("gem"),)
    gems = [g for g in gems if g]
    best_gem = max(gems, key=seen.worth) if gems else None
    score = 0.0
    if best_gem and seen.held() < HOLD_LIMIT:
        score += seen.worth(best_gem)
    if mining and best_gem:
        odds = (7 - seen.values[best_gem]) / 6
        score += 0.8 * odds * seen.worth(best_gem)
    if tile.get("iridia"):
        score += 10
    score += _bonus_worth(tile.get("bonus"))
    score += 1.2 * (row - seen.my_row())
    if row == CASTLE_ROW:
        score += 8
    return score


def _bonus_worth(bonus) -> float:
    if not bonus:
        return 0.0
    if isinstance(bonus, dict):
        kind, amount = bonus.get("kind") or bonus.get("type"), bonus.get("amount", 1)
    else:
        kind, amount = str(bonus), 1
    if "point" in kind:
        return float(amount)
    if "coin" in kind:
        return 0.5 * amount
    return 1.0  # a stone die


# --- shared decisions -------------------------------------------------------------------------


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


# --- greedy -----------------------------------------------------------------------------------


def greedy_policy(state, seat, rng):
    """A one-step heuristic player: good enough to make simulated games look like real ones."""
    return greedy_choice(engine.view(state, seat), _commands(state, seat), rng)


def greedy_choice(view, commands, rng):
    """`greedy_policy` on what one seat sees: its view and its legal commands."""
    grouped = _by_type(commands)
    seen = Seen(view)
    only = next(iter(grouped)) if len(grouped) == 1 else None

    if only == "remove_tile":
        return default_removal(view, grouped["remove_tile"])
    for kind, decide in (
        ("choose_gem", _choose_gem),
        ("give_gem", _give_gem),
        ("discard_objective", _discard_objective),
    ):
        if kind in grouped:
            return decide(seen, grouped[kind], rng)
    if "keep_roll" in grouped:
        return _greedy_roll(seen, grouped, rng)
    if "reveal" in grouped:
        return _reveal(seen, grouped["reveal"], rng)
    if "move" in grouped:
        return _move(seen, grouped["move"], rng, mining=True)
    if "relocate" in grouped:
        return _relocate(seen, grouped["relocate"], rng)
    action = _greedy_action(seen, grouped, rng)
    if action is not None:
        return action
    if "restore" in grouped:
        return _restore(seen, grouped["restore"], rng)
    if "end_turn" in grouped:
        return grouped["end_turn"][0]
    return _fallback(grouped, rng)


def _fallback(grouped, rng):
    # Something the heuristics do not know (a start-of-turn item only, say): any legal command.
    kind = sorted(grouped)[0]
    return rng.choice(grouped[kind])


def _items_played(grouped, item):
    return [c for c in grouped.get("play_item", []) if c.item == item]


def _greedy_roll(seen, grouped, rng):
    roll = seen.view.get("roll") or {}
    target = roll.get("target")
    dice = list(roll.get("dice", [])) + list(roll.get("stone", []))
    if target is not None and seen.held() < HOLD_LIMIT:
        fixes = []
        for c in grouped.get("modify_die", []):
            if c.die.startswith("roll:"):
                value = dice[int(c.die.split(":")[1])]
                if value < target <= value + c.delta <= 6:
                    fixes.append(c)
        if fixes:
            cheapest = {"jolty_jackhammer": 0, "dazzling_dynamite": 1}
            return min(fixes, key=lambda c: (cheapest.get(c.item, 2), c.delta, c.die))
        failed = [i for i, v in enumerate(dice) if v < target]
        for c in grouped.get("reroll", []):
            if failed and sorted(c.dice) == failed:
                return c
    return _keep_roll(seen, grouped["keep_roll"], rng)


def _greedy_action(seen, grouped, rng):
    """The next optional action worth taking (step 3), or None to move on to restoring."""
    me = seen.me
    coins = me["coins"]
    mining_cost = seen.view["options"].get("mining_cost", 1)

    elixir = _items_played(grouped, "epic_elixir")
    if elixir:
        return elixir[0]

    buys = [c for c in grouped.get("buy", []) if c.item in ITEM_WISH]
    if buys:
        costs = {c.item: data.ITEMS[c.item].cost for c in buys}
        affordable = [c for c in buys if coins - costs[c.item] >= mining_cost]
        if affordable:
            best = max(affordable, key=lambda c: (ITEM_WISH[c.item] - 0.3 * costs[c.item], c.item))
            if ITEM_WISH[best.item] - 0.3 * costs[best.item] > 0.8:
                return best

    sells = grouped.get("sell", [])
    if sells:
        short = coins < mining_cost + 1
        full = seen.held() >= HOLD_LIMIT - 1

        def sell_gain(c):
            if c.count > seen.excess(c.gem):
                return -1
            return c.count * seen.values[c.gem]

        best = max(sells, key=lambda c: (sell_gain(c), c.gem))
        if sell_gain(best) > 0 and (short or (full and seen.values[best.gem] >= 4)):
            return best

    axes = [c for c in _items_played(grouped, "axe_of_awesomeness")]
    if axes and seen.held() < HOLD_LIMIT:
        return max(axes, key=lambda c: (seen.worth(c.gem), c.gem))

    cauldrons = _items_played(grouped, "cauldron_of_fortune")
    if cauldrons:

        def trade(c):
            return seen.worth(c.take) - sum(seen.worth(g) for g in c.give)

        best = max(cauldrons, key=lambda c: (trade(c), c.take, tuple(c.give)))
        if trade(best) > 1.0:
            return best

    wells = _items_played(grouped, "wishing_well")
    if wells and seen.held() < HOLD_LIMIT:
        return wells[0]

    books = _items_played(grouped, "regal_reference_book")
    if books:
        return _pick(books, lambda c: _relic_points(c.relic) - 2 * _missing(seen, c.relic), rng)

    mines = grouped.get("mine", [])
    # Two free slots: a lucky roll on a full hold would only feed the others.
    if mines and coins >= mining_cost and seen.held() <= HOLD_LIMIT - 2:
        gem = _mined_gem(seen)
        if gem is not None:
            odds = (7 - seen.values[gem]) / 6
            if odds * 2 * seen.worth(gem) > mining_cost * 0.6 and odds >= 1 / 3:
                for item in ("prosperous_pickaxe", "marvelous_mine_cart"):
                    declared = _items_played(grouped, item)
                    if declared:
                        return rng.choice(declared)
                stone = max(c.stone_dice for c in mines) if seen.values[gem] >= 4 else 0
                return next((c for c in mines if c.stone_dice == stone), mines[0])
    return None


def _missing(seen, relic) -> int:
    hold = seen.me["hold"]
    return sum(max(0, n - hold.get(g, 0)) for g, n in _relic_gems(relic).items())


def _mined_gem(seen):
    """The gem mining would yield where I stand."""
    position = seen.me.get("position")
    if not position:
        return None
    tile = seen.tiles[position][1].get("tile") or {}
    gem = seen.view.get("turn", {}).get("gem") or tile.get("gem")
    if gem in GEMS:
        return gem
    return None


# --- cautious ---------------------------------------------------------------------------------

_CAUTIOUS_NEVER = {
    "mine",
    "buy",
    "sell",
    "play_item",
    "modify_die",
    "reroll",
    "roll_market",
}


def cautious_policy(state, seat, rng):
    """A safe, boring turn for an absent player: no coin or item is ever spent."""
    return cautious_choice(engine.view(state, seat), _commands(state, seat), rng)


def cautious_choice(view, commands, rng):
    """`cautious_policy` on what one seat sees: its view and its legal commands."""
    grouped = _by_type(commands)
    if set(grouped) == {"remove_tile"}:
        return default_removal(view, grouped["remove_tile"])
    for kind in _CAUTIOUS_NEVER:
        grouped.pop(kind, None)
    seen = Seen(view)
    if "choose_gem" in grouped:
        return _choose_gem(seen, grouped["choose_gem"], rng)
    if "give_gem" in grouped:
        return _give_gem(seen, grouped["give_gem"], rng)
    if "discard_objective" in grouped:
        return _discard_objective(seen, grouped["discard_objective"], rng)
    if "keep_roll" in grouped:
        return _keep_roll(seen, grouped["keep_roll"], rng)
    if "reveal" in grouped:
        return _reveal(seen, grouped["reveal"], rng)
    if "move" in grouped:
        return _move(seen, grouped["move"], rng, mining=False)
    if "relocate" in grouped:
        return _relocate(seen, grouped["relocate"], rng)
    if "restore" in grouped:
        return _restore(seen, grouped["restore"], rng)
    if "end_turn" in grouped:
        return grouped["end_turn"][0]
    if not grouped:
        raise ValueError(f"seat {view['viewer']} can only spend coins or items now")
    return _fallback(grouped, rng)


# --- automatic turns --------------------------------------------------------------------------


def automatic_command(state):
    """The command the engine plays by itself now: the Rhom's turn, or a default removal turn.

    None when a human has a decision to make (or the game is over).
    """
    kind = engine.pending_kind(state)
    if kind not in ("rhom", "removal"):
        return None
    seat = engine.current_player(state)
    commands = engine.legal_commands(state, seat)
    if kind == "rhom":
        return commands[0]
    return default_removal(engine.view(state, None), commands)


CHOICES = {"random": random_choice, "greedy": greedy_choice, "cautious": cautious_choice}


def choose(name, view, commands, rng):
    """The command policy `name` ("random", "greedy", "cautious") picks from a seat's `view` and
    legal `commands`: what a client that sees only the server's answers can run. A bot never
    undoes: that would only go round in circles."""
    commands = [c for c in commands if c.type != "undo"]
    if not commands:
        raise ValueError(f"seat {view['viewer']} has nothing to decide now")
    return CHOICES[name](view, commands, rng)


def default_removal(view, commands):
    """The server's removal for a finished player who does not choose, by the game's rules
    version: from version 2 a tile the rearmost explorer could move onto next (R28,
    engine/removal.py); version 1 (below) the tile that hurts least.

    Version 1's preference: a tile behind every explorer still exploring (nobody can reach it any more), then
    the tile farthest from them; ties go to the lowest row, then the leftmost hex. Deterministic,
    so a removal played by the scheduler is the same whenever it runs.
    """
    if engine.rules_for(view.get("rules_version")).removal_near_rearmost:
        from engine.removal import rearmost_removal

        return rearmost_removal(view, commands)
    rows = {h["hex"]: row["row"] for row in view["board"] for h in row["hexes"]}
    explorers = [p.get("position") for p in view["players"] if not p.get("finished")]
    places = [_coordinates(p, rows) if p else (0, None) for p in explorers]

    def harm(command):
        row, column = _coordinates(command.hex, rows)
        reachable = [(r, c) for r, c in places if r <= row]
        if not reachable:
            return (0, 0, row, column)
        nearest = min(_distance((row, column), place) for place in reachable)
        return (len(reachable), -nearest, row, column)

    return min(commands, key=harm)


def _coordinates(name, rows):
    """(row, doubled column) of a hex name like "4c": 7-hex rows use even columns."""
    row = rows.get(name) or int(name[:-1])
    index = ord(name[-1]) - ord("a")
    return row, 2 * index + (0 if row % 2 == 0 else 1)


def _distance(a, b) -> int:
    (r1, c1), (r2, c2) = a, b
    if c2 is None:  # the airship: adjacent to every hex of row 1
        return r1
    dr, dc = abs(r1 - r2), abs(c1 - c2)
    return dr + max(0, (dc - dr) // 2)
