"""Undo within a turn, with Board Game Arena's policy: a player may take back their own steps of
the current turn, back to the last step that revealed something or drew chance (a reveal, a
roll, a drawn card, a shuffle, a search of the relic deck, a gem given to another player).

The fold keeps what an undo needs (`Turn.undo_base`, `Turn.undo_steps`, `State.undo_events`),
so that a state derived from any prefix of the log, from a snapshot or from the cache, can undo:

- an event that reveals or draws (not in `_REVERSIBLE`) *seals* the turn: nothing before it
  may be taken back, nor the rest of the step it belongs to;
- the first event of a player's next step opens the undo: the state before it is the base
  (and `State.undo_events` counts the events after it);
- `steps_undone` makes the state that base again (engine/rules/evolve/), so a replay of a log with
  an undo gives the state the log would give without the cancelled steps.

Events do not say where a step (a command) begins. The first event of each step has a kind of
its own (`_OPENS`), and tests/engine/rules/test_undo_conformance.py checks over random games that
none of them appears inside a step after a sealing event, where it would open the undo in the
middle of a step.

Undo is not a rule of the game: it is the same in every rules version (docs/rulings.md, U1).
"""

from __future__ import annotations

from engine import events as ev
from engine.data import GEMS
from engine.errors import IllegalCommand, Name, Refusal, Seat
from engine.state import State

# Events that neither reveal anything nor draw chance nor touch another player's holdings.
_REVERSIBLE = frozenset({
    ev.ExplorerMoved, ev.ExplorersSwapped, ev.TileDiscarded, ev.GemChosen, ev.GemsGained,
    ev.GemsReturned, ev.GemGiven, ev.CoinsGained, ev.CoinsSpent, ev.PointsScored,
    ev.StoneDieTaken, ev.StoneDiceActivated, ev.ObjectiveDiscarded, ev.DieModified, ev.RollKept,
    ev.GemsSold, ev.ItemBought, ev.ItemPlayed, ev.RelicReserved, ev.RelicRestored,
    ev.TileCollected, ev.MarketAdjusted, ev.StoneDiceReturned, ev.IridiaStoneTaken,
})
# The kinds of event a player's step begins with (the first event `decide` emits for it).
_OPENS = frozenset({
    ev.ItemBought, ev.GemChosen, ev.ObjectiveDiscarded, ev.RollKept, ev.StoneDiceReturned,
    ev.TileCollected, ev.GemGiven, ev.CoinsSpent, ev.DieModified, ev.ExplorerMoved,
    ev.ItemPlayed, ev.TileDiscarded, ev.RelicRestored, ev.GemsSold,
})
# Events that begin a step but are told as one with the event after them (a relocation's
# discarded tile, an end of turn's returned stone dice).
_NOT_A_STEP = frozenset({ev.TileDiscarded, ev.StoneDiceReturned})


def _sealed_by(e: ev.Event, seat: int) -> str | None:
    """Why nothing before `e` may be taken back (None: `e` may be)."""
    cls = e.__class__
    if cls in _REVERSIBLE:
        if cls is ev.GemGiven and e.to is not None:
            return Refusal("the {gem} you gave to {seat}", gem=_gem(e.gem), seat=Seat(e.to))
        if cls is ev.RelicReserved and e.source != "row":
            return Refusal("your search of the relic deck")
        return None
    if cls is ev.TilesRevealed:
        if len(e.hexes) == 2:
            return Refusal("your reveal of {first} and {second}", first=e.hexes[0], second=e.hexes[1])
        return Refusal("your reveal of {hexes}", hexes=" and ".join(e.hexes))
    if cls is ev.DiceRolled:
        return Refusal("your Wishing Well roll") if e.kind == "wishing_well" else Refusal("your mining roll")
    if cls is ev.DiceRerolled:
        return Refusal("your reroll")
    if cls is ev.MarketDiceRolled:
        return Refusal("your roll of the market dice")
    if cls in (ev.ItemDrawn, ev.MarketRefreshed, ev.ItemDeckReshuffled):
        return Refusal("the item card drawn for the market")
    if cls in (ev.RelicDrawn, ev.RelicDeckShuffled):
        # Only a search of the deck (the Regal Reference Book) shuffles it (R25).
        return Refusal("the relic drawn for the row") if cls is ev.RelicDrawn else Refusal(
            "your search of the relic deck")
    if cls is ev.RoyaltyTokenTaken:
        return Refusal("the royalty token you took")
    return Refusal("the last step that drew chance")


def _gem(gem: str) -> Name | Refusal:
    return Name(gem) if gem in GEMS else Refusal("gem")


# Reversible whatever their fields say: the common case, decided by the class alone.
_ALWAYS_REVERSIBLE = _REVERSIBLE - {ev.GemGiven, ev.RelicReserved}


def track(before: State, e: ev.Event, after: State) -> State:
    """`after` (the state `e` led to from `before`) with the turn's undo bookkeeping updated.
    Called by the fold for every event of a player's turn but turn_started and steps_undone.

    The count of events lives on the State, which every event's rule copies already: counting
    them in the Turn would copy it for every event (a third of a replay's time)."""
    t = after.turn
    cls = e.__class__
    seal = None if cls in _ALWAYS_REVERSIBLE else _sealed_by(e, t.seat)
    if seal is not None:
        if t.undo_base is None and t.undo_sealed_by == seal:
            return after
        after, t = _own_turn(before, after)
        t.undo_base, t.undo_steps, t.undo_sealed_by = None, 0, seal
        after.undo_events = 0
        return after
    # Whether `e` begins a step of the turn's player (the catapult's landing does not).
    opens = cls in _OPENS and e.seat == t.seat and not (cls is ev.ExplorerMoved and e.via == "catapult")
    if not opens:
        if t.undo_base is None:
            return after  # the rest of a sealed step
        if after is before:
            after = after.copy()
        after.undo_events += 1
        return after
    after, t = _own_turn(before, after)
    if t.undo_base is None:
        t.undo_base, t.undo_steps, after.undo_events = before, 0, 0
    after.undo_events += 1
    if cls not in _NOT_A_STEP:
        t.undo_steps += 1
    return after


def _own_turn(before: State, after: State):
    """`after` and its turn, each a copy of its own to change (the event's rule may have made
    them already: most events copy the state, some the turn)."""
    if after is before:
        after = after.copy()
    if after.turn is before.turn:
        after.edit_turn()
    return after, after.turn


def undo_refusal(state: State, seat: int) -> Refusal | None:
    """Why `seat` may not undo now (None: it may). The turn and seat checks are decide's."""
    t = state.turn
    if t.kind != "turn":
        return Refusal("undo takes back steps of your own turn, and this is a {kind} turn",
                       kind=Refusal("removal") if t.kind == "removal" else t.kind)
    if t.undo_base is not None:
        return None
    if t.undo_sealed_by is None:
        return Refusal("nothing to take back: you have not played a step this turn")
    return Refusal("nothing to take back since {step}: a step that revealed something or drew "
                   "chance cannot be taken back", step=t.undo_sealed_by)



def undo(state: State, seat: int) -> list[ev.Event]:
    """The events of `seat`'s undo: one steps_undone; IllegalCommand saying why not."""
    why = undo_refusal(state, seat)
    if why is not None:
        raise IllegalCommand(why)
    return [ev.StepsUndone(seat, state.undo_events, state.turn.undo_steps)]


def undo_steps(state: State | None) -> int:
    """How many steps an undo would take back now (0: none)."""
    t = None if state is None else state.turn
    return 0 if t is None or t.undo_base is None else t.undo_steps
