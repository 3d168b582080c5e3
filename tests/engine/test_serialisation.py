"""Exact JSON round trips for commands, events and states; bad input gets a message quoting it;
a short random playout checks legal_commands against decide and replay against the live state."""

import json
import random

import pytest

from engine import (
    GameOver,
    InvalidCommand,
    Options,
    command_from_dict,
    command_to_dict,
    current_player,
    decide,
    event_from_dict,
    event_to_dict,
    evolve,
    is_terminal,
    legal_commands,
    outcome,
    redact_event,
    replay,
    rng_for,
    state_from_dict,
    state_to_dict,
)
from engine.api import legal_commands_by_probing
from engine.commands import EndTurn, StartGame
from engine.events import EVENT_TYPES

COMMANDS = [
    {"type": "start_game", "seat": None, "options": {"players": 2, "rhom": True, "mining_cost": 3, "leftover_gems": "same_type", "catapult_4th": False}, "player_ids": ["a", "b"]},
    {"type": "reveal", "seat": 1, "hexes": ["3b", "3c"]},
    {"type": "move", "seat": 0, "hex": "2g"},
    {"type": "relocate", "seat": 0, "hex": "2g", "discard_tile": "desert_rainbow"},
    {"type": "relocate", "seat": 0, "hex": "2g", "discard_tile": None},
    {"type": "choose_gem", "seat": 0, "gem": "citrine"},
    {"type": "give_gem", "seat": 0, "gem": "citrine", "to": None},
    {"type": "give_gem", "seat": 0, "gem": "citrine", "to": 2},
    {"type": "discard_objective", "seat": 0, "objective": "master_miner"},
    {"type": "mine", "seat": 0, "stone_dice": 2},
    {"type": "keep_roll", "seat": 0, "gem": None},
    {"type": "modify_die", "seat": 0, "item": "dazzling_dynamite", "die": "market:emerald", "delta": -2},
    {"type": "modify_die", "seat": 0, "item": "jolty_jackhammer", "die": "roll:2", "delta": 1},
    {"type": "reroll", "seat": 0, "dice": [0, 2]},
    {"type": "roll_market", "seat": 0, "gems": ["amethyst", "sapphire"]},
    {"type": "buy", "seat": 0, "item": "epic_elixir"},
    {"type": "sell", "seat": 0, "gem": "emerald", "count": 3},
    {"type": "play_item", "seat": 0, "item": "cauldron_of_fortune", "give": ["emerald", "emerald"], "take": "citrine"},
    {"type": "play_item", "seat": 0, "item": "prosperous_pickaxe", "hex": "4d"},
    {"type": "play_item", "seat": 0, "item": "swapping_stones", "target": 2},
    {"type": "play_item", "seat": 0, "item": "epic_elixir"},
    {"type": "play_item", "seat": 0, "item": "regal_reference_book", "relic": "iridia_crown"},
    {"type": "restore", "seat": 0, "relic": "sapphire_spyglass"},
    {"type": "end_turn", "seat": 0},
    {"type": "remove_tile", "seat": 3, "hex": "5a"},
    {"type": "rhom_turn", "seat": 0},
]


@pytest.mark.parametrize("d", COMMANDS, ids=lambda d: d["type"])
def test_command_json_round_trip_is_exact(d):
    c = command_from_dict(json.loads(json.dumps(d)))
    assert command_to_dict(c) == d
    assert command_from_dict(command_to_dict(c)) == c


@pytest.mark.parametrize(
    ("d", "message"),
    [
        ({"type": "fly", "seat": 0}, "unknown command type 'fly'"),
        ({"type": "move", "seat": 0, "hex": "1g"}, "hex 1g is off the board"),
        ({"type": "move", "seat": 0, "hex": "x"}, "'x' is not a hex name"),
        ({"type": "move", "seat": 0}, "move needs 'hex'"),
        ({"type": "sell", "seat": 0, "gem": "ruby", "count": 1}, "got 'ruby'"),
        ({"type": "buy", "seat": "0", "item": "epic_elixir"}, "seat must be a seat number"),
        ({"type": "play_item", "seat": 0, "item": "epic_elixir", "hex": "3b"}, "does not take \\['hex'\\]"),
        ({"type": "play_item", "seat": 0, "item": "jolty_jackhammer"}, "played with modify_die"),
        ({"type": "modify_die", "seat": 0, "item": "jolty_jackhammer", "die": "die:1", "delta": 1}, "got 'die:1'"),
        ({"type": "modify_die", "seat": 0, "item": "jolty_jackhammer", "die": "roll:01", "delta": 1}, "got 'roll:01'"),
        ({"type": "start_game", "seat": None, "options": {"players": 3, "rhom": True}, "player_ids": ["a", "b", "c"]}, "not 3 players"),
        ({"type": "start_game", "seat": None, "options": {"players": 2, "mining_cost": 2}, "player_ids": ["a", "b"]}, "got 2"),
    ],
)
def test_bad_commands_get_a_message_quoting_the_input(d, message):
    with pytest.raises(InvalidCommand, match=message):
        command_from_dict(d)


def _playout(players, rhom, seed, probe_every=0):
    rng = random.Random(seed)
    options = Options.from_dict({"players": players, "rhom": rhom})
    events = decide(None, StartGame(None, options, tuple(f"p{i}" for i in range(players))), rng)
    state = replay(events)
    steps = 0
    while not is_terminal(state):
        seat = current_player(state)
        legal = legal_commands(state, seat)
        assert legal, f"seat {seat} has nothing to play"
        if probe_every and steps % probe_every == 0:
            assert set(legal) == set(legal_commands_by_probing(state, seat))
            assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
        new = decide(state, rng.choice(legal), rng)
        for e in new:
            state = evolve(state, e)
        events += new
        steps += 1
        assert steps < 5000, "the game does not end"
    return events, state


@pytest.mark.parametrize(("players", "rhom"), [(1, True), (2, False), (2, True), (3, False), (4, False)])
def test_random_playout_ends_replays_from_json_and_agrees_with_decide(players, rhom):
    events, state = _playout(players, rhom, seed=players * 7 + rhom, probe_every=7)
    log = json.loads(json.dumps([event_to_dict(e) for e in events]))
    assert {d["type"] for d in log} <= set(EVENT_TYPES) and all(d["v"] == 1 for d in log)
    again = replay(event_from_dict(d) for d in log)
    assert again == state
    assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
    result = outcome(state).to_dict()
    assert json.dumps(result)
    for p in state.players:
        assert p.finished and 0 <= p.gems <= 7 and p.coins >= 0
    with pytest.raises(GameOver, match="the game is over"):
        decide(state, EndTurn(0), random.Random(0))


def test_redacted_game_start_hides_layout_decks_and_other_objectives():
    events = decide(None, StartGame(None, Options.from_dict({"players": 2}), ("a", "b")), random.Random(4))
    d = event_to_dict(events[0])
    mine = redact_event(d, 0)
    assert set(mine["layout"].values()) == {None}
    assert mine["item_deck"] == len(d["item_deck"]) and mine["relic_deck"] == 19
    assert mine["objectives"][0] == d["objectives"][0] and mine["objectives"][1] == [None, None]
    assert redact_event(d, None)["objectives"] == [[None, None], [None, None]]
    assert json.dumps(mine)


def test_rng_for_is_reproducible_per_version():
    assert rng_for("s", 3).random() == rng_for("s", 3).random()
    assert rng_for("s", 3).random() != rng_for("s", 4).random()
