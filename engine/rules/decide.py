"""decide(state, command, rng) -> events: who may act, what is pending, then the command's rule."""

from __future__ import annotations

import random

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
    StartGame,
    Undo,
)
from engine.errors import GameOver, IllegalCommand, InvalidCommand, NotYourTurn, Refusal, Seat
from engine.events import Event
from engine.rules import actions, turn
from engine.rules.acc import Acc
from engine.rules.queries import pending
from engine.rules.rhom import rhom_turn
from engine.rules.setup import start_game
from engine.rules.undo import undo
from engine.state import State

_TURN_HANDLERS = {
    Reveal: turn.reveal,
    Move: turn.move,
    Relocate: turn.relocate,
    EndTurn: turn.end_turn,
    Mine: actions.mine,
    ModifyDie: actions.modify_die,
    Reroll: actions.reroll,
    RollMarket: actions.roll_market,
    Sell: actions.sell,
    Buy: actions.buy,
    PlayItem: actions.play_item,
    Restore: actions.restore,
}
_PENDING_HANDLERS = {
    "choose_gem": (ChooseGem, turn.choose_gem),
    "give_gem": (GiveGem, turn.give_gem),
    "discard_objective": (DiscardObjective, turn.discard_objective),
}
# Commands that act on a pending roll without resolving it (RULINGS §4, "Pending dice"); from
# rules version 2 buying and selling leave it pending too (R26).
_NOTHING_TO = {
    "choose_gem": Refusal("there is nothing to choose gem now"),
    "give_gem": Refusal("there is nothing to give gem now"),
    "discard_objective": Refusal("there is nothing to discard objective now"),
}
_ON_ROLL = (ModifyDie, Reroll, RollMarket)

_TRADES = (Buy, Sell)


def decide(state: State | None, command: Command, rng: random.Random) -> list[Event]:
    if isinstance(command, StartGame):
        if state is not None:
            raise IllegalCommand("this game has already started")
        return start_game(command, rng)
    if state is None:
        raise IllegalCommand("the game has not started yet: the first command is start_game")
    if state.over:
        raise GameOver("the game is over")
    t = state.turn
    if command.seat is None or not 0 <= command.seat < len(state.players):
        raise InvalidCommand("seat {seat!r} is not at this table (seats 0 to {last})",
                             seat=command.seat, last=len(state.players) - 1)
    if command.seat != t.seat:
        raise NotYourTurn("it is {turn}'s turn, not {seat}'s", turn=Seat(t.seat),
                          seat=Seat(command.seat))
    if isinstance(command, Undo):  # before the pending decisions: a step that led to one may go
        return undo(state, command.seat)
    acc = Acc(state)
    if t.kind == "rhom":
        if not isinstance(command, RhomTurn):
            raise IllegalCommand("the Rhom plays only rhom_turn, not {type}", type=command.type)
        rhom_turn(acc, rng)
        return acc.events
    if t.kind == "removal":
        if not isinstance(command, RemoveTile):
            raise IllegalCommand(
                "you have finished: on your turn you remove a tile (remove_tile), not {type}",
                type=command.type)
        turn.remove_tile(acc, command, rng)
        return acc.events
    if isinstance(command, (RemoveTile, RhomTurn)):
        raise IllegalCommand("{type} is not part of your turn", type=command.type)
    pend = pending(state)
    kind = pend["kind"] if pend else None
    if kind in _PENDING_HANDLERS:
        cls, handler = _PENDING_HANDLERS[kind]
        if not isinstance(command, cls):
            turn.require_no_pending(state)
        handler(acc, command, rng)
        return acc.events
    for cls, _ in _PENDING_HANDLERS.values():
        if isinstance(command, cls):
            raise IllegalCommand(_NOTHING_TO[command.type])
    if isinstance(command, KeepRoll):
        actions.keep_roll(acc, command, rng)
        return acc.events
    leaves_roll = isinstance(command, _ON_ROLL) or (
        isinstance(command, _TRADES) and state.rules.roll_survives_trade
    )
    if kind == "roll" and not leaves_roll:
        if t.roll.kind != "mine":
            raise IllegalCommand("first take your Wishing Well gem (keep_roll with a gem)")
        actions.resolve_roll(acc, command.seat, None)
        if pending(acc.state) is not None:
            raise IllegalCommand("keeping your roll brings your hold over 7: keep_roll first, then give gems away")
    _TURN_HANDLERS[type(command)](acc, command, rng)
    return acc.events
