"""RULINGS §5: the turn's order, reveal, move, relocation, cargo, Forest, Castle, end."""

from dataclasses import replace

import pytest
from engine_helpers import (
    ScriptedRng,
    apply,
    clear_hex,
    new_game,
    place_tile,
    set_player,
    set_turn,
    standing_on,
)

from engine import (
    IllegalCommand,
    InvalidCommand,
    NotYourTurn,
    command_from_dict,
    current_player,
    decide,
    is_terminal,
    legal_commands,
    pending_kind,
    redact_event,
    view,
)
from engine.commands import (
    DiscardObjective,
    EndTurn,
    GiveGem,
    Mine,
    Move,
    Relocate,
    RemoveTile,
    Restore,
    Reveal,
    RhomTurn,
    Sell,
    Undo,
)
from engine.events import event_to_dict


def test_rulings_5_commands_out_of_order_are_refused_with_a_reason():
    s = new_game(2)
    seat = s.turn.seat
    with pytest.raises(IllegalCommand, match="you can mine only after moving onto a tile"):
        decide(s, Mine(seat), ScriptedRng())
    with pytest.raises(IllegalCommand, match="you can restore relics only after moving onto a tile"):
        decide(s, Restore(seat, s.relic_row[0]), ScriptedRng())
    with pytest.raises(IllegalCommand, match="move your explorer onto a tile before ending your turn"):
        decide(s, EndTurn(seat), ScriptedRng())
    with pytest.raises(NotYourTurn, match=f"it is seat {seat}'s turn, not seat {1 - seat}'s"):
        decide(s, EndTurn(1 - seat), ScriptedRng())
    s = standing_on(s, seat, "3b", "canyon_emerald_points", hold={"sapphire": 2, "citrine": 1, "emerald": 1})
    s = replace(s, relic_row=("sapphire_spyglass",) + s.relic_row[1:])
    s = apply(s, Restore(seat, "sapphire_spyglass"))
    with pytest.raises(IllegalCommand, match="you have started restoring relics; you can no longer sell gems"):
        decide(s, Sell(seat, "emerald", 1), ScriptedRng())


def test_rulings_5_reveal_up_to_two_ahead_or_beside_then_move():
    s = new_game(3)
    seat = s.turn.seat
    s = set_player(s, seat, position="2c")
    s = clear_hex(s, "2c")
    with pytest.raises(InvalidCommand):
        command_from_dict({"type": "reveal", "seat": seat, "hexes": ["3b", "3c", "2b"]})
    with pytest.raises(IllegalCommand, match="hex 1b cannot be revealed: it is not ahead of or beside your explorer at 2c"):
        decide(s, Reveal(seat, ("1b",)), ScriptedRng())
    with pytest.raises(IllegalCommand, match="you cannot move to hex 3b: it is face down; reveal it first"):
        decide(s, Move(seat, "3b"), ScriptedRng())
    s = apply(s, Reveal(seat, ("3b", "2d")))
    with pytest.raises(IllegalCommand, match="you have already revealed tiles this turn"):
        decide(s, Reveal(seat, ("3c",)), ScriptedRng())
    s = apply(s, Move(seat, "2d"))
    assert s.players[seat].position == "2d" and s.turn.phase == "actions"


def test_rulings_5_relocation_discards_a_tile_and_stands_on_the_nearest_empty_hex():
    s = new_game(3)
    seat = s.turn.seat
    for h in ("2c", "2b", "2d", "3b", "3c"):
        s = clear_hex(s, h)
    s = set_player(s, seat, position="2c", tiles=("desert_amethyst_1",))
    legal = legal_commands(s, seat)
    assert {c.hex for c in legal if isinstance(c, Relocate)} == {"2b", "2d", "3b", "3c"}
    with pytest.raises(IllegalCommand, match="relocating costs a tile from your victory pile"):
        decide(s, Relocate(seat, "3b", None), ScriptedRng())
    with pytest.raises(IllegalCommand, match="you cannot relocate to hex 4c"):
        decide(s, Relocate(seat, "4c", "desert_amethyst_1"), ScriptedRng())
    s = apply(s, Relocate(seat, "3b", "desert_amethyst_1"))
    assert s.players[seat].tiles == () and s.players[seat].position == "3b"
    assert s.turn.phase == "reveal", "the turn starts again at Reveal"
    assert pending_kind(s) == "turn"


def test_rulings_5_cargo_over_seven_is_given_away_first():
    s = new_game(3)
    seat = s.turn.seat
    others = [p.seat for p in s.players if p.seat != seat]
    s = standing_on(s, seat, "3b", "canyon_emerald_points", hold={"emerald": 7})
    s = apply(s, Mine(seat), ScriptedRng([6, 6]))
    s = apply(s, __import__("engine").commands.KeepRoll(seat))
    assert pending_kind(s) == "give_gem" and view(s, seat)["pending"] == {"kind": "give_gem", "count": 2}
    with pytest.raises(IllegalCommand, match="first give away 2 gem"):
        decide(s, Sell(seat, "emerald", 1), ScriptedRng())
    with pytest.raises(IllegalCommand, match="have room: give the gem to one of them"):
        decide(s, GiveGem(seat, "emerald", None), ScriptedRng())
    s = apply(s, GiveGem(seat, "emerald", others[0]))
    s = set_player(s, others[0], hold={"emerald": 7})
    s = set_player(s, others[1], hold={"citrine": 7})
    assert legal_commands(s, seat) == [GiveGem(seat, "emerald", None)]
    s = apply(s, GiveGem(seat, "emerald", None))
    assert pending_kind(s) == "turn" and s.players[seat].gems == 7


def test_rulings_5_forest_discard_is_secret():
    s = new_game(2)
    seat = s.turn.seat
    s = place_tile(s, "5b", "forest_emerald_points")
    s = set_turn(set_player(s, seat, position="4c"), seat, phase="move")
    s = apply(s, Move(seat, "5b"))
    assert pending_kind(s) == "discard_objective"
    mine = s.players[seat].objectives
    # (and the undo of the move: it revealed nothing)
    assert legal_commands(s, seat) == [DiscardObjective(seat, o) for o in mine] + [Undo(seat)]
    events = decide(s, DiscardObjective(seat, mine[0]), ScriptedRng())
    s = apply(s, DiscardObjective(seat, mine[0]))
    assert s.players[seat].objectives == mine[1:]
    assert view(s, 1 - seat)["players"][seat]["objectives_held"] == 1
    assert "objectives" not in view(s, 1 - seat)["players"][seat]
    assert redact_event(event_to_dict(events[0]), 1 - seat)["objective"] is None
    assert redact_event(event_to_dict(events[0]), seat)["objective"] == mine[0]


def _finish(s, seat):
    s = place_tile(s, "9c", "castle_emerald")
    s = set_player(s, seat, position="8c", objectives=s.players[seat].objectives[:1])
    s = set_turn(s, seat, phase="move")
    s = apply(s, Move(seat, "9c"))
    return apply(s, EndTurn(seat))


def test_rulings_5_castle_royalty_token_then_removal_turns_then_the_end():
    s = new_game(2)
    first = s.turn.seat
    s = _finish(s, first)
    p = s.players[first]
    assert p.finished and p.royalty_token == "scepter" and p.points == 5 + 5
    second = 1 - first
    assert current_player(s) == second and pending_kind(s) == "turn"
    s = set_turn(s, second)
    s = apply(s, Reveal(second, ("1b",)))
    s = apply(s, Move(second, "1b"))
    s = apply(s, EndTurn(second))
    assert current_player(s) == first and pending_kind(s) == "removal"
    with pytest.raises(IllegalCommand, match="the Castle row stays"):
        decide(s, RemoveTile(first, "9a"), ScriptedRng())
    assert all(c.hex[0] != "9" for c in legal_commands(s, first))
    removal = decide(s, RemoveTile(first, "1c"), ScriptedRng())[0]
    assert redact_event(event_to_dict(removal), second)["tile"] is None, "a face-down tile stays hidden"
    s = apply(s, RemoveTile(first, "1c"))
    assert "1c" not in s.board and current_player(s) == second
    s = _finish(set_turn(s, second), second)
    assert is_terminal(s) and s.players[second].royalty_token is None
    assert current_player(s) is None and legal_commands(s, second) == []


def test_rulings_5_solo_the_player_plays_on_alone_after_the_rhom_finishes():
    s = new_game(1)
    s = set_player(s, 0, finished=True, position=None, royalty_token="scepter")
    s = set_turn(s, 1)
    s = apply(s, Reveal(1, ("1b",)))
    s = apply(s, Move(1, "1b"))
    s = apply(s, EndTurn(1))
    assert current_player(s) == 1 and pending_kind(s) == "turn"
    with pytest.raises(IllegalCommand):
        decide(s, RhomTurn(1), ScriptedRng())


def test_rulings_5_restore_several_relics_including_the_one_just_revealed():
    s = new_game(2)
    seat = s.turn.seat
    s = standing_on(s, seat, "3b", "canyon_emerald_points", hold={"sapphire": 4, "citrine": 2})
    rest = tuple(r for r in s.relic_row + s.relic_deck if r not in ("sapphire_spyglass", "sapphire_droid"))
    s = replace(s, relic_row=("sapphire_spyglass",) + rest[:4], relic_deck=("sapphire_droid",) + rest[4:])
    s = apply(s, Restore(seat, "sapphire_spyglass"))
    assert s.relic_row[0] == "sapphire_droid"
    with pytest.raises(IllegalCommand, match="restoring the Sapphire Droid needs 1 more citrine"):
        decide(s, Restore(seat, "sapphire_droid"), ScriptedRng())
    s = set_player(s, seat, hold={"sapphire": 2, "citrine": 2})
    s = apply(s, Restore(seat, "sapphire_droid"))
    assert s.players[seat].relics == ("sapphire_spyglass", "sapphire_droid")
    assert s.players[seat].points == 5 + 7


def test_rulings_5_collecting_a_tile_raises_its_gem_value_and_six_crashes_to_one():
    s = new_game(2)
    seat = s.turn.seat
    s = standing_on(s, seat, "3b", "canyon_emerald_points")
    s = replace(s, gem_values={**s.gem_values, "emerald": 6})
    s = apply(s, EndTurn(seat))
    assert s.gem_values["emerald"] == 1
    assert "3b" not in s.board and "canyon_emerald_points" in s.players[seat].tiles


def test_r27_a_reveal_of_two_hexes_is_one_command_whatever_their_order():
    from engine import canonical_command
    from engine.events import TilesRevealed

    s = new_game(2, seed=3)
    seat = s.turn.seat
    pairs = [c.hexes for c in legal_commands(s, seat) if isinstance(c, Reveal) and len(c.hexes) == 2]
    row1 = [h for h in ("1a", "1b", "1c", "1d", "1e", "1f") if h in s.board]
    assert len(pairs) == len(row1) * (len(row1) - 1) // 2, "each pair once"
    assert all(list(p) == sorted(p) for p in pairs), "in board order, left to right"
    a, b = row1[0], row1[-1]
    forward = decide(s, Reveal(seat, (a, b)), ScriptedRng())
    backward = decide(s, Reveal(seat, (b, a)), ScriptedRng())
    assert forward == backward and isinstance(forward[0], TilesRevealed) and forward[0].hexes == (a, b)
    assert canonical_command(s, Reveal(seat, (b, a))) == Reveal(seat, (a, b))
    # Rules version 1 listed both orders and revealed in the order given.
    old = replace(s, rules_version="1")
    pairs = [c.hexes for c in legal_commands(old, seat) if isinstance(c, Reveal) and len(c.hexes) == 2]
    assert len(pairs) == len(row1) * (len(row1) - 1)
    assert decide(old, Reveal(seat, (b, a)), ScriptedRng())[0].hexes == (b, a)
