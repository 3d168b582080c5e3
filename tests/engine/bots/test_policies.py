"""The bots: they only play listed commands, the cautious one never spends, the greedy one plays
better than chance, and the automatic removal leaves the others' paths alone."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engine
from engine import data
from engine.board import row_of
from engine.bots import policies
from engine.simulate import make_options, play_game, steps

CONFIGS = [(1, True), (2, False), (2, True), (3, False), (4, False)]


def _checked_policy(policy, picks: list):
    """Wrap a policy: assert its command is listed, and remember (view, listed, picked)."""

    def choose(state, seat, rng):
        listed = engine.legal_commands(state, seat)
        picked = policy(state, seat, rng)
        assert picked in listed, f"{engine.command_to_dict(picked)} is not a legal command"
        picks.append((engine.view(state, seat), listed, picked))
        return picked

    return choose


@pytest.mark.parametrize("name", ["random_policy", "greedy_policy", "cautious_policy"])
@pytest.mark.parametrize("players, rhom", CONFIGS)
def test_every_policy_plays_only_listed_commands_to_the_end(name, players, rhom):
    picks: list = []
    game = play_game(make_options(players, rhom), f"listed-{name}", _checked_policy(
        getattr(policies, name), picks))
    assert game.completed, game.error
    assert picks


def test_policies_are_reproducible_from_their_generator():
    options = make_options(3)
    a = play_game(options, "same", policies.greedy_policy)
    b = play_game(options, "same", policies.greedy_policy)
    assert [engine.command_to_dict(s.command) for s in a.steps] == [
        engine.command_to_dict(s.command) for s in b.steps
    ]


SPENDING = {"coins_spent", "item_played", "gems_sold", "item_bought", "dice_rolled"}


@pytest.mark.parametrize("players, rhom", CONFIGS)
def test_the_cautious_policy_never_spends_coins_or_items(players, rhom):
    for index in range(3):
        game = play_game(make_options(players, rhom), f"cautious-{index}", policies.cautious_policy)
        assert game.completed, game.error
        humans = {p.seat for p in game.state.players if p.kind == "human"}
        spent = [e for e in game.events if e.type in SPENDING and getattr(e, "seat", None) in humans]
        assert spent == []
        # ...yet it restores relics when it can, and its explorers reach the Castle.
        assert all(game.state.players[s].finished for s in humans)


def test_the_cautious_policy_restores_relics_it_can():
    restored = 0
    for index in range(6):
        game = play_game(make_options(2), f"cautious-restores-{index}", policies.cautious_policy)
        restored += sum(1 for e in game.events if e.type == "relic_restored")
    assert restored > 0


def test_the_greedy_policy_restores_the_most_valuable_relic_listed():
    picks: list = []
    for index in range(4):
        play_game(make_options(2), f"greedy-restores-{index}",
                  _checked_policy(policies.greedy_policy, picks))
    restores = [(listed, picked) for _, listed, picked in picks if picked.type == "restore"]
    assert restores, "the greedy bot never restored a relic in four games"
    for listed, picked in restores:
        best = max(data.RELICS[c.relic].points for c in listed if c.type == "restore")
        assert data.RELICS[picked.relic].points == best


def test_the_greedy_policy_beats_the_random_one():
    """Greedy in seat 0 or 1 alternately against random: greedy scores more on average."""
    greedy_total = random_total = 0
    wins = Counter()
    for index in range(10):
        greedy_seat = index % 2
        seat_policy = {greedy_seat: policies.greedy_policy, 1 - greedy_seat: policies.random_policy}
        game = play_game(make_options(2), f"duel-{index}", seat_policy)
        assert game.completed, game.error
        totals = [s["total"] for s in engine.outcome(game.state).to_dict()["seats"]]
        greedy_total += totals[greedy_seat]
        random_total += totals[1 - greedy_seat]
        wins["greedy" if totals[greedy_seat] > totals[1 - greedy_seat] else "other"] += 1
    assert greedy_total > random_total
    assert wins["greedy"] > wins["other"]


def test_automatic_command_plays_the_rhom_and_removal_turns_and_nothing_else():
    seen = Counter()
    for index in range(8):
        for _step, state in steps(make_options(2, True), f"automatic-{index}", policies.random_policy):
            if engine.is_terminal(state):
                assert policies.automatic_command(state) is None
                break
            kind = engine.pending_kind(state)
            command = policies.automatic_command(state)
            if kind == "rhom":
                assert command.type == "rhom_turn"
                assert command.seat == engine.current_player(state)
            elif kind == "removal":
                assert command.type == "remove_tile"
                assert command in engine.legal_commands(state, engine.current_player(state))
            else:
                assert command is None
            seen[kind] += 1
        if seen["rhom"] and seen["removal"]:
            break
    assert seen["rhom"] > 0 and seen["removal"] > 0


def test_version_1_default_removal_takes_a_tile_nobody_can_still_reach():
    removals = 0
    for index in range(6):
        for _step, state in steps(make_options(4), f"removal-{index}", policies.random_policy,
                                  rules_version="1"):
            if engine.pending_kind(state) != "removal":
                continue
            command = policies.automatic_command(state)
            exploring = [p for p in state.players if not p.finished]
            lowest = min((row_of(p.position) if p.position else 0) for p in exploring)
            behind = [
                c for c in engine.legal_commands(state, command.seat) if row_of(c.hex) < lowest
            ]
            if behind:
                assert row_of(command.hex) < lowest, (
                    f"removed {command.hex} while {[c.hex for c in behind]} hurt nobody"
                )
                removals += 1
    assert removals > 0


def test_r28_the_automatic_removal_takes_a_tile_the_rearmost_explorer_could_move_onto():
    from engine.board import ahead_or_side

    removals = 0
    for index in range(6):
        for _step, state in steps(make_options(4), f"removal-{index}", policies.random_policy):
            if engine.pending_kind(state) != "removal":
                continue
            command = policies.automatic_command(state)
            exploring = [p for p in state.players if not p.finished]
            rear = min((row_of(p.position) if p.position else 0) for p in exploring)
            rearmost = [p for p in exploring if (row_of(p.position) if p.position else 0) == rear]
            removable = {c.hex for c in engine.legal_commands(state, command.seat)}
            nexts = {h for p in rearmost for h in ahead_or_side(p.position)
                     if h in removable and h not in state.barricades}
            if nexts:
                assert command.hex in nexts, f"removed {command.hex}, not one of {sorted(nexts)}"
                removals += 1
    assert removals > 0


def test_r28_the_automatic_removal_prefers_a_revealed_tile_then_the_lowest_leftmost():
    from engine.rules.removal import rearmost_removal

    def hexes(**states):
        return [{"row": 1, "hexes": [{"hex": h, "state": st, "barricade": False}
                                     for h, st in states.items()]}]

    view = {"turn": {"seat": 0}, "board": hexes(**{"1b": "face_down", "1c": "revealed", "1d": "revealed"}),
            "players": [{"seat": 0, "finished": True, "position": None},
                        {"seat": 1, "finished": False, "position": None}]}
    commands = [engine.commands.RemoveTile(0, h) for h in ("1b", "1c", "1d")]
    assert rearmost_removal(view, commands).hex == "1c"


@pytest.mark.parametrize("name", ["random", "greedy", "cautious"])
def test_policies_decide_from_the_view_and_legal_commands_alone(name):
    """The client runs the policies on what the server shows it; nothing else may be needed."""
    policy = getattr(policies, f"{name}_policy")
    checked = 0
    for _step, state in steps(make_options(3), f"remote-{name}", policies.greedy_policy):
        if engine.is_terminal(state) or engine.pending_kind(state) in ("rhom", "removal"):
            continue
        seat = engine.current_player(state)
        view = json.loads(json.dumps(engine.view(state, seat)))  # as it comes over the wire
        commands = engine.legal_commands(state, seat)
        expected = policy(state, seat, random.Random(checked))
        assert policies.choose(name, view, commands, random.Random(checked)) == expected
        checked += 1
    assert checked > 20
