"""Undo within a turn (engine/rules/undo.py): what may be taken back, what may not and why, and that a
log with undos replays to the state it would have without the cancelled steps."""

import random
from dataclasses import replace

import pytest
from engine_helpers import ScriptedRng, apply, new_game, place_tile, set_player, standing_on, values

import engine
from engine import (
    IllegalCommand,
    NotYourTurn,
    decide,
    legal_commands,
    redact_event,
    replay,
    state_from_dict,
    state_to_dict,
    view,
)
from engine.commands import (
    Buy,
    ChooseGem,
    EndTurn,
    GiveGem,
    KeepRoll,
    Mine,
    ModifyDie,
    Move,
    PlayItem,
    Reroll,
    Restore,
    Reveal,
    RollMarket,
    Sell,
    Undo,
)
from engine.events import StepsUndone, event_to_dict
from engine.text.narrate import narrate_lines


def _on_tile(players=2, **player):
    s = new_game(players)
    seat = s.turn.seat
    return standing_on(s, seat, "3b", "canyon_emerald_points", **player), seat


def _undone(s, seat):
    """The state after `seat`'s undo, checking that legal_commands offered it."""
    assert Undo(seat) in legal_commands(s, seat)
    events = decide(s, Undo(seat), random.Random(0))
    assert [type(e) for e in events] == [StepsUndone]
    return replay(events, s)


def _refused(s, seat, reason):
    assert Undo(seat) not in legal_commands(s, seat)
    with pytest.raises(IllegalCommand, match=reason):
        decide(s, Undo(seat), random.Random(0))


def _first_reveal(s, seat):
    return next(c for c in legal_commands(s, seat) if isinstance(c, Reveal) and len(c.hexes) == 1)


def test_nothing_to_take_back_at_the_start_of_a_turn():
    s = new_game(2)
    _refused(s, s.turn.seat, "nothing to take back: you have not played a step this turn")


def test_a_reveal_cannot_be_taken_back_so_no_tile_is_fished_for():
    s = new_game(2)
    seat = s.turn.seat
    reveal = _first_reveal(s, seat)
    s = apply(s, reveal)
    _refused(s, seat, f"nothing to take back since your reveal of {reveal.hexes[0]}: a step "
                      "that revealed something or drew chance cannot be taken back")


def test_a_move_is_taken_back_to_the_state_after_the_reveal():
    s = new_game(2)
    seat = s.turn.seat
    s = apply(s, _first_reveal(s, seat))
    after_reveal = s
    s = apply(s, next(c for c in legal_commands(s, seat) if isinstance(c, Move)))
    assert s.turn.undo_steps == 1 and view(s, seat)["turn"]["undo_steps"] == 1
    s = _undone(s, seat)
    assert s == after_reveal
    assert s.revealed == after_reveal.revealed, "the revealed tile stays revealed"
    _refused(s, seat, "since your reveal of")  # a second undo finds nothing more


def test_a_move_and_a_sale_are_taken_back_together_and_the_turn_goes_on():
    s = new_game(2)
    seat = s.turn.seat
    s = apply(s, _first_reveal(s, seat))
    after_reveal = s
    s = apply(s, next(c for c in legal_commands(s, seat) if isinstance(c, Move)))
    moved = len(decide(after_reveal, Move(seat, s.players[seat].position), random.Random(0)))
    gem = next(g for g, n in s.players[seat].hold.items() if n)
    sold = len(decide(s, Sell(seat, gem, 1), random.Random(0)))
    s = apply(s, Sell(seat, gem, 1))
    assert decide(s, Undo(seat), random.Random(0)) == [StepsUndone(seat, moved + sold, 2)]
    s = _undone(s, seat)
    assert s == after_reveal
    other = [c for c in legal_commands(s, seat) if isinstance(c, Move)][-1]
    s = apply(s, other)  # the player may now play otherwise
    assert s.players[seat].position == other.hex


def test_a_sale_a_die_change_and_an_item_are_taken_back():
    s, seat = _on_tile(hold={"citrine": 2, "sapphire": 1}, items=("axe_of_awesomeness",))
    before = s
    s = apply(s, Sell(seat, "citrine", 1))
    s = apply(s, PlayItem(seat, "axe_of_awesomeness", gem="sapphire"))
    assert s.turn.undo_steps == 2
    assert _undone(s, seat) == before


def test_a_gem_chosen_on_a_rainbow_tile_is_taken_back_with_the_move():
    s = new_game(2)
    seat = s.turn.seat
    s = place_tile(s, "1b", "canyon_rainbow")
    s = set_player(s, seat, position=None)
    s = replace(s, turn=replace(s.turn, phase="move"))
    before = s
    s = apply(s, Move(seat, "1b"))
    assert engine.pending_kind(s) == "choose_gem"
    assert Undo(seat) in legal_commands(s, seat), "a pending decision may be taken back too"
    s = apply(s, ChooseGem(seat, "sapphire"))
    assert _undone(s, seat) == before


def test_a_gem_given_to_the_supply_is_taken_back_but_not_one_given_to_a_player():
    s, seat = _on_tile(hold={"amethyst": 7})
    s = values(s, emerald=1)
    full = set_player(s, 1 - seat, hold={"citrine": 7})  # nobody has room: to the supply
    s = apply(s, Mine(seat), ScriptedRng([6, 6]))
    kept = apply(s, KeepRoll(seat))  # 2 emeralds: 9 gems, 2 to give away
    assert engine.pending_kind(kept) == "give_gem"
    to_player = apply(kept, GiveGem(seat, "amethyst", 1 - seat))
    _refused(to_player, seat, f"since the amethyst you gave to seat {1 - seat}")
    full = apply(full, Mine(seat), ScriptedRng([6, 6]))
    to_supply = apply(apply(full, KeepRoll(seat)), GiveGem(seat, "amethyst", None))
    assert _undone(to_supply, seat) == full, "back to the pending roll: keep is taken back too"


def test_after_a_roll_the_roll_stays_and_keeping_it_may_be_taken_back():
    s, seat = _on_tile(items=("jolty_jackhammer",))
    s = values(s, emerald=4)
    s = apply(s, Mine(seat), ScriptedRng([3, 1]))
    _refused(s, seat, "since your mining roll")
    rolled = s
    s = apply(s, ModifyDie(seat, "jolty_jackhammer", "roll:0", 1))
    s = apply(s, KeepRoll(seat))
    s = _undone(s, seat)
    assert s == rolled and s.turn.roll.values == (3, 1), "the same dice: nothing rolled again"


@pytest.mark.parametrize("step,reason", [
    (lambda s, seat: Buy(seat, s.market[0]), "since the item card drawn for the market"),
    (lambda s, seat: PlayItem(seat, "regal_reference_book", relic=sorted(s.relic_deck)[0]),
     "since your search of the relic deck"),
    (lambda s, seat: PlayItem(seat, "wishing_well"), "since your Wishing Well roll"),
    (lambda s, seat: RollMarket(seat, ("emerald",)), "since your roll of the market dice"),
])
def test_a_step_that_draws_or_rolls_cannot_be_taken_back(step, reason):
    s, seat = _on_tile(coins=20, items=("regal_reference_book", "wishing_well", "lucky_libation"),
                       hold={"sapphire": 1, "emerald": 1, "amethyst": 1, "citrine": 2})
    s = replace(s, market=("marvelous_mine_cart",) + s.market[1:])
    s = apply(s, Sell(seat, "citrine", 1))  # a step that may be taken back, before
    s = apply(s, step(s, seat))
    _refused(s, seat, reason)


def test_a_restoration_draws_a_relic_and_cannot_be_taken_back():
    s, seat = _on_tile()
    relic = s.relic_row[0]
    s = set_player(s, seat, hold=dict(engine.data.RELICS[relic].requires))
    s = apply(s, Restore(seat, relic))
    _refused(s, seat, "since the relic drawn for the row")


def test_a_reroll_cannot_be_taken_back():
    s, seat = _on_tile(items=("lucky_libation",))
    s = apply(s, Mine(seat), ScriptedRng([3, 1]))
    s = apply(s, Reroll(seat, (0,)), ScriptedRng([5]))
    _refused(s, seat, "since your reroll")


def test_nobody_takes_back_another_seats_steps_nor_a_previous_turn():
    s = new_game(2)
    seat = s.turn.seat
    s = apply(s, _first_reveal(s, seat))
    s = apply(s, next(c for c in legal_commands(s, seat) if isinstance(c, Move)))
    with pytest.raises(NotYourTurn):
        decide(s, Undo(1 - seat), random.Random(0))
    s = apply(s, EndTurn(seat))
    _refused(s, 1 - seat, "you have not played a step this turn")


def test_the_rhom_and_removal_turns_have_no_undo():
    s = new_game(1, rhom=True)
    while s.turn.kind != "rhom":
        seat = s.turn.seat
        s = apply(s, next(c for c in legal_commands(s, seat) if c.type != "undo"))
    assert legal_commands(s, s.turn.seat) == [engine.commands.RhomTurn(s.turn.seat)]
    with pytest.raises(IllegalCommand, match="this is a rhom turn"):
        decide(s, Undo(s.turn.seat), random.Random(0))


def test_rules_version_1_games_have_undo_too():
    s = new_game(2, version="1")
    seat = s.turn.seat
    s = apply(s, _first_reveal(s, seat))
    before = s
    s = apply(s, next(c for c in legal_commands(s, seat) if isinstance(c, Move)))
    assert _undone(s, seat) == before


def _log_with_an_undo():
    """A game's log with an undo in the first turn, and the same game without those steps."""
    s = new_game(2, seed=3)
    log, plain = [], []
    seat = s.turn.seat
    for command in (_first_reveal(s, seat),):
        events = decide(s, command, random.Random(0))
        log += events
        plain += events
        s = replay(events, s)
    move = next(c for c in legal_commands(s, seat) if isinstance(c, Move))
    for command, cancelled in ((move, True), (ChooseGem(seat, "emerald"), True),
                               (Undo(seat), False), (move, False),
                               (ChooseGem(seat, "sapphire"), False), (EndTurn(seat), False)):
        if isinstance(command, ChooseGem) and engine.pending_kind(s) != "choose_gem":
            continue
        events = decide(s, command, random.Random(0))
        log += events
        if not cancelled and command.type != "undo":
            plain += events
        s = replay(events, s)
    return log, plain, seat


START = new_game(2, seed=3)


def test_replaying_a_log_with_an_undo_gives_the_state_without_the_cancelled_steps():
    log, plain, _ = _log_with_an_undo()
    assert replay(log, START) == replay(plain, START)
    # From any point of the log, as the server replays from a snapshot or its cache:
    for cut in range(1, len(log)):
        middle = state_from_dict(state_to_dict(replay(log[:cut], START)))
        assert replay(log[cut:], middle) == replay(plain, START)


def test_a_state_that_may_undo_survives_a_snapshot():
    s = new_game(2)
    seat = s.turn.seat
    s = apply(s, _first_reveal(s, seat))
    s = apply(s, next(c for c in legal_commands(s, seat) if isinstance(c, Move)))
    stored = state_from_dict(state_to_dict(s))
    assert stored == s and _undone(stored, seat) == _undone(s, seat)


def test_an_undo_shows_every_seat_exactly_what_it_saw_before_the_steps():
    log, plain, seat = _log_with_an_undo()
    undo_at = next(i for i, e in enumerate(log) if isinstance(e, StepsUndone))
    first_cancelled = undo_at - log[undo_at].events
    for viewer in (None, 0, 1):
        assert (view(replay(log[: undo_at + 1], START), viewer)
                == view(replay(log[:first_cancelled], START), viewer))
        told = redact_event(event_to_dict(log[undo_at]), viewer)
        assert set(told) == {"type", "v", "seat", "events", "steps"}, "an undo reveals nothing"


def test_the_narration_says_what_was_taken_back():
    log, _, seat = _log_with_an_undo()
    names = {seat: "Ada", 1 - seat: "Bo"}
    lines = narrate_lines(log, names, 1 - seat)
    took_back = [line for line in lines if "took back" in line]
    assert len(took_back) == 1
    assert took_back[0] == "  Ada took back 2 steps: moved to 1b and chose emerald for the tile (an emerald)."
    # Told from the undo alone (an email's window may begin after the cancelled steps):
    undo = next(e for e in log if isinstance(e, StepsUndone))
    assert narrate_lines([undo], names, 1 - seat) == ["Continued", "  Ada took back 2 steps."]
