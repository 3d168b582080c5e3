"""The small fixed state API: whose turn, what is pending, the legal commands, the end."""

from __future__ import annotations

import random
from itertools import combinations, permutations

from .actions import catapult_landings
from .board import neighbours
from .commands import (
    Buy,
    ChooseGem,
    Command,
    DiscardObjective,
    EndTurn,
    GiveGem,
    KeepRoll,
    Mine,
    ModifyDie,
    Move,
    PlayItem,
    Relocate,
    RemoveTile,
    Reroll,
    Restore,
    Reveal,
    RhomTurn,
    RollMarket,
    Sell,
)
from .data import GEMS, TILES
from .errors import RuleError
from .rules import pending, reachable, relocation_targets, removable_hexes, revealable
from .setup import RULES_VERSION
from .state import State

__all__ = ["RULES_VERSION", "current_player", "pending_kind", "legal_commands", "is_terminal", "outcome", "rng_for"]


def rng_for(seed: str, version: int) -> random.Random:
    """The generator for the command applied at `version`: reproducible from the game's seed."""
    return random.Random(f"iridescia:{seed}:{version}")


def current_player(state: State | None) -> int | None:
    if state is None or state.over or state.turn is None:
        return None
    return state.turn.seat


def pending_kind(state: State | None) -> str | None:
    if state is None or state.over or state.turn is None:
        return None
    if state.turn.kind != "turn":
        return state.turn.kind
    pend = pending(state)
    return pend["kind"] if pend else "turn"


def is_terminal(state: State | None) -> bool:
    return state is not None and state.over


def outcome(state: State):
    """Final scoring (engine/scoring.py) of a finished game."""
    from .scoring import PlayerTally, score_game

    tallies = []
    for p in state.players:
        tallies.append(
            PlayerTally(
                seat=p.seat,
                in_game=p.points,
                hold=dict(p.hold),
                coins=p.coins,
                tile_gems=tuple(TILES[t].gem or "rainbow" for t in p.tiles),
                relics=tuple(p.relics),
                objectives=tuple(p.objectives),
                royalty_token=p.royalty_token,
                has_iridia_stone=p.iridia_stone,
            )
        )
    return score_game(tallies, state.options)


_PROBE = random.Random(0)


def _accepted(state: State, command: Command) -> bool:
    from .decide import decide

    try:
        decide(state, command, _PROBE)
    except RuleError:
        return False
    return True


def legal_commands(state: State | None, seat: int) -> list[Command]:
    """Every command `decide` accepts from `seat` now, and no other."""
    if current_player(state) != seat:
        return []
    t = state.turn
    if t.kind == "rhom":
        return [RhomTurn(seat)]
    if t.kind == "removal":
        return [RemoveTile(seat, h) for h in removable_hexes(state)]
    return [c for c in _candidates(state, seat) if _accepted(state, c)]


def _candidates(state: State, seat: int) -> list[Command]:
    p = state.players[seat]
    t = state.turn
    pend = pending(state)
    kind = pend["kind"] if pend else None
    if kind == "choose_gem":
        return [ChooseGem(seat, g) for g in GEMS]
    if kind == "give_gem":
        targets = [q.seat for q in state.players if q.seat != seat] + [None]
        return [GiveGem(seat, g, to) for g in GEMS if p.hold[g] for to in targets]
    if kind == "discard_objective":
        return [DiscardObjective(seat, o) for o in p.objectives]
    out: list[Command] = [EndTurn(seat)]
    if t.phase in ("reveal", "move"):
        hexes = revealable(state, seat)
        out += [Reveal(seat, (h,)) for h in hexes]
        out += [Reveal(seat, pair) for pair in permutations(hexes, 2)]
        out += [Move(seat, h) for h in reachable(state, seat)]
        discards = list(dict.fromkeys(p.tiles)) or [None]
        out += [Relocate(seat, h, d) for h in relocation_targets(state, seat) for d in discards]
    out += _item_candidates(state, seat)
    if t.phase not in ("actions", "restore"):
        return out
    out += [Mine(seat, k) for k in range(p.stone_dice + 1)]
    out += [Sell(seat, g, n) for g in GEMS for n in range(1, p.hold[g] + 1)]
    out += [Buy(seat, i) for i in dict.fromkeys(state.market)]
    out += [Restore(seat, r) for r in state.relic_row + p.reserved_relics]
    if t.roll is not None:
        out += [KeepRoll(seat, None)] + [KeepRoll(seat, g) for g in GEMS]
        n = len(t.roll.values)
        for k in range(1, n + 1):
            out += [Reroll(seat, combo) for combo in combinations(range(n), k)]
    for k in range(1, 5):
        out += [RollMarket(seat, combo) for combo in combinations(GEMS, k)]
    dice = [f"market:{g}" for g in GEMS]
    if t.roll is not None:
        dice += [f"roll:{i}" for i in range(len(t.roll.values))]
    for item in ("jolty_jackhammer", "dazzling_dynamite"):
        if item in p.items:
            out += [ModifyDie(seat, item, d, delta) for d in dice for delta in (-2, -1, 1, 2)]
    return out


def _item_candidates(state: State, seat: int) -> list[Command]:
    p = state.players[seat]
    out: list[Command] = []
    for item in p.items:
        if item == "cauldron_of_fortune":
            out += [
                PlayItem(seat, item, give=(a, b), take=g) for a in GEMS for b in GEMS for g in GEMS
            ]
        elif item in ("marvelous_mine_cart", "epic_elixir", "wishing_well"):
            out.append(PlayItem(seat, item))
        elif item == "axe_of_awesomeness":
            out += [PlayItem(seat, item, gem=g) for g in GEMS]
        elif item == "regal_reference_book":
            out += [PlayItem(seat, item, relic=r) for r in state.relic_row + state.relic_deck]
        elif item == "prosperous_pickaxe" and p.position:
            out += [PlayItem(seat, item, hex=h) for h in neighbours(p.position)]
        elif item == "swapping_stones":
            out += [PlayItem(seat, item, target=q.seat) for q in state.players if q.seat != seat]
        elif item == "clever_catapult":
            out += [PlayItem(seat, item, hex=h) for h in catapult_landings(state, seat)]
    return out
