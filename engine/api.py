"""The small fixed state API: whose turn, what is pending, the legal commands, the end."""

from __future__ import annotations

import random
from itertools import combinations, permutations, product

from engine.board import board_order, neighbours, row_of
from engine.commands import (
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
    Undo,
)
from engine.data import CASTLE_ROW, GEMS, ITEMS, RELICS, TILES
from engine.errors import RuleError
from engine.rules.acc import Acc
from engine.rules.actions import catapult_landings, resolve_roll
from engine.rules.decide import decide
from engine.rules.queries import (
    has_room,
    pending,
    reachable,
    relocation_targets,
    removable_hexes,
    revealable,
)
from engine.rules.setup import RULES_VERSION
from engine.rules.undo import undo_refusal
from engine.scoring import PlayerTally, score_game
from engine.state import State, Turn

__all__ = ["RULES_VERSION", "canonical_command", "current_player", "pending_kind", "legal_commands", "is_terminal", "outcome", "rng_for"]


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
    """Final scoring (engine/scoring/) of a finished game."""

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
    return score_game(tallies, state.options, state.rules)


_PROBE = random.Random(0)


def _accepted(state: State, command: Command) -> bool:

    try:
        decide(state, command, _PROBE)
    except RuleError:
        return False
    return True


def legal_commands(state: State | None, seat: int) -> list[Command]:
    """Every command `decide` accepts from `seat` now, and no other (an undo last)."""
    if current_player(state) != seat:
        return []
    commands = _legal(state, seat)
    if undo_refusal(state, seat) is None:
        commands.append(Undo(seat))
    return commands


def _legal(state: State, seat: int) -> list[Command]:
    t = state.turn
    if t.kind == "rhom":
        return [RhomTurn(seat)]
    if t.kind == "removal":
        return [RemoveTile(seat, h) for h in removable_hexes(state)]
    p = state.players[seat]
    pend = pending(state)
    kind = pend["kind"] if pend else None
    if kind == "choose_gem":
        return [ChooseGem(seat, g) for g in GEMS]
    if kind == "give_gem":
        room = [q.seat for q in state.players if q.seat != seat and has_room(state, q.seat)]
        return [GiveGem(seat, g, to) for g in GEMS if p.hold[g] for to in (room or [None])]
    if kind == "discard_objective":
        return [DiscardObjective(seat, o) for o in p.objectives]
    if kind != "roll":
        return _actions(state, seat) + _roll_actions(state, seat)
    out = _keep_roll(state, seat) + _roll_actions(state, seat)
    survives = state.rules.roll_survives_trade
    if survives:
        out += _trades(state, seat)  # on the roll as it is (R26)
    if t.roll.kind == "mine":
        acc = Acc(state)
        resolve_roll(acc, seat, None)
        if pending(acc.state) is None:
            resolved = _actions(acc.state, seat)
            out += [c for c in resolved if not isinstance(c, (Buy, Sell))] if survives else resolved
    return out


def legal_commands_by_probing(state: State | None, seat: int) -> list[Command]:
    """The slow oracle: every candidate that `decide` accepts (tests compare it with legal_commands)."""
    if current_player(state) != seat or state.turn.kind != "turn":
        return legal_commands(state, seat)
    candidates = _candidates(state, seat) + [Undo(seat)]
    if state.turn.roll is not None and state.turn.roll.kind == "mine":
        acc = Acc(state)
        resolve_roll(acc, seat, None)
        candidates += _candidates(acc.state, seat)
    return [c for c in dict.fromkeys(candidates) if _accepted(state, c)]


def _keep_roll(state: State, seat: int) -> list[Command]:
    roll = state.turn.roll
    if roll.kind == "mine":
        return [KeepRoll(seat, None)]
    best = max(roll.values)
    gems = [g for g in GEMS if state.gem_values[g] <= best]
    return [KeepRoll(seat, g) for g in gems] or [KeepRoll(seat, None)]


def _roll_actions(state: State, seat: int) -> list[Command]:
    """Die changes and Lucky Libation: they act on a pending roll without resolving it."""
    t = state.turn
    if t.phase != "actions":
        return []
    p = state.players[seat]
    out: list[Command] = []
    for item, deltas in (("jolty_jackhammer", (-1, 1)), ("dazzling_dynamite", (-2, -1, 1, 2))):
        if item in p.items:
            out += [ModifyDie(seat, item, d, delta) for d in _die_names(t) for delta in deltas]
    if "lucky_libation" in p.items:
        if t.roll is not None:
            n = len(t.roll.values)
            out += [Reroll(seat, combo) for k in range(1, n + 1) for combo in combinations(range(n), k)]
        out += [RollMarket(seat, combo) for k in range(1, 5) for combo in combinations(GEMS, k)]
    return out


def _die_names(t: Turn) -> list[str]:
    """The dice an item may change: the market's, then the pending roll's."""
    dice = [f"market:{g}" for g in GEMS]
    if t.roll is not None:
        dice += [f"roll:{i}" for i in range(len(t.roll.values))]
    return dice


def _actions(state: State, seat: int) -> list[Command]:
    """Everything but the pending-roll commands, on a state without a pending decision."""
    p = state.players[seat]
    t = state.turn
    out: list[Command] = []
    if t.phase in ("reveal", "move"):
        if t.at_start:
            out += _start_items(state, seat)
        if t.phase == "reveal":
            out += _reveals(state, seat)
        moves = reachable(state, seat)
        out += [Move(seat, h) for h in moves]
        if not moves and (t.phase == "move" or not revealable(state, seat)):
            targets = relocation_targets(state, seat)
            discards = list(dict.fromkeys(p.tiles)) or [None]
            out += [Relocate(seat, h, d) for h in targets for d in discards]
            if not targets:
                out.append(EndTurn(seat))
        return out
    out.append(EndTurn(seat))
    out += [Restore(seat, r) for r in state.relic_row + p.reserved_relics if _can_restore(p, r)]
    if t.phase == "restore":
        if "epic_elixir" in p.items and _elixir_ok(state, seat):
            out.append(PlayItem(seat, "epic_elixir"))
        return out
    if p.coins >= state.options.mining_cost:
        out += [Mine(seat, k) for k in range(p.stone_dice + 1)]
    out += _trades(state, seat)
    out += _on_tile_items(state, seat)
    return out


def _trades(state: State, seat: int) -> list[Command]:
    """Selling and buying (step 3, once each a turn)."""
    p = state.players[seat]
    t = state.turn
    if t.phase != "actions":
        return []
    out: list[Command] = []
    if not t.sold:
        out += [Sell(seat, g, n) for g in GEMS for n in range(1, p.hold[g] + 1)]
    if not t.bought:
        out += [
            Buy(seat, i)
            for i in dict.fromkeys(state.market)
            if ITEMS[i].cost <= p.coins
            and i not in p.items
            and not (i == "epic_elixir" and t.extra)
        ]
    return out


def searchable_relics(state: State) -> tuple[str, ...]:
    """What the Regal Reference Book may reserve: the row, then the deck by name (R25), so that
    the list tells nothing of the deck's order (rules version 1 listed it in deck order)."""
    deck = sorted(state.relic_deck) if state.rules.relic_deck_search_hidden else state.relic_deck
    return state.relic_row + tuple(deck)


def _reveals(state: State, seat: int) -> list[Command]:
    """One hex or two. From rules version 2 a pair is one command in board order (R27); version 1
    listed both orders, and recorded its events in the order given."""
    hexes = revealable(state, seat)
    pairs = (
        combinations(sorted(hexes, key=board_order), 2)
        if state.rules.reveal_in_board_order
        else permutations(hexes, 2)
    )
    return [Reveal(seat, (h,)) for h in hexes] + [Reveal(seat, pair) for pair in pairs]


def canonical_command(state: State | None, command: Command) -> Command:
    """The one form of `command` that `legal_commands` lists (the server stores this form): a
    two-hex reveal in board order from rules version 2. `decide` accepts every form."""
    if isinstance(command, Reveal) and state is not None and state.rules.reveal_in_board_order:
        return Reveal(command.seat, tuple(sorted(command.hexes, key=board_order)))
    return command


def _can_restore(p, relic: str) -> bool:
    hold = p.hold
    for gem, n in RELICS[relic].requires:  # a loop, not all(...): checked for every relic, every step
        if hold[gem] < n:
            return False
    return True


def _elixir_ok(state: State, seat: int) -> bool:
    pos = state.players[seat].position
    return not state.turn.elixir and pos is not None and row_of(pos) != CASTLE_ROW


def _start_items(state: State, seat: int) -> list[Command]:
    p = state.players[seat]
    out: list[Command] = []
    if "clever_catapult" in p.items:
        out += [PlayItem(seat, "clever_catapult", hex=h) for h in catapult_landings(state, seat)]
    if "swapping_stones" in p.items and p.position is not None:
        out += [
            PlayItem(seat, "swapping_stones", target=q.seat)
            for q in state.players
            if q.seat != seat and q.position is not None
        ]
    return out


def _on_tile_items(state: State, seat: int) -> list[Command]:
    p = state.players[seat]
    t = state.turn
    out: list[Command] = []
    for item in p.items:
        if item == "cauldron_of_fortune":
            for a, b in product(GEMS, GEMS):
                if p.hold[a] < 1 or p.hold[b] < (2 if a == b else 1):
                    continue
                give = (a, b)
                out += [
                    PlayItem(seat, item, give=give, take=g)
                    for g in GEMS
                    if state.supply[g] + give.count(g) >= 1
                ]
        elif item == "marvelous_mine_cart" and not t.mine_cart:
            out.append(PlayItem(seat, item))
        elif item == "epic_elixir" and _elixir_ok(state, seat):
            out.append(PlayItem(seat, item))
        elif item == "wishing_well":
            out.append(PlayItem(seat, item))
        elif item == "axe_of_awesomeness":
            out += [PlayItem(seat, item, gem=g) for g in GEMS if p.hold[g] and state.supply[g]]
        elif item == "regal_reference_book":
            out += [PlayItem(seat, item, relic=r) for r in searchable_relics(state)]
        elif item == "prosperous_pickaxe" and not t.pickaxe:
            out += [
                PlayItem(seat, item, hex=h)
                for h in neighbours(p.position)
                if h in state.revealed and not TILES[state.board[h]].wild
            ]
    return out


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
        out += _reveals(state, seat)
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
            out += [PlayItem(seat, item, relic=r) for r in searchable_relics(state)]
        elif item == "prosperous_pickaxe" and p.position:
            out += [PlayItem(seat, item, hex=h) for h in neighbours(p.position)]
        elif item == "swapping_stones":
            out += [PlayItem(seat, item, target=q.seat) for q in state.players if q.seat != seat]
        elif item == "clever_catapult":
            out += [PlayItem(seat, item, hex=h) for h in catapult_landings(state, seat)]
    return out
