"""Random playouts: complete games played through `decide`, with invariants checked after every event.

The normal run plays CONFIGS[table] games for each table size (2,050 in all), with the rule
variants of RULINGS §9 spread over them (variants_for); `--many N` plays N times as many
(`--many` alone: 10 times; `--many 0.05` for a quick smoke run). Each game's log is also serialised
to JSON and replayed from the start, and must give the same final state. On a smaller sample, every
step's state survives a JSON round trip and `legal_commands` agrees with `decide`
(test_legal_commands_agree_with_decide_and_states_round_trip).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engine
from engine import data
from engine.board import ALL_HEXES
from engine.bots import policies
from engine.events import CoinsGained
from engine.simulate import GameDidNotEnd, make_options, steps
from tests.engine.invariants import Invariants

# (players, rhom) -> normal-run game count. 1 player always plays with the Rhom.
CONFIGS = {(1, True): 450, (2, False): 450, (2, True): 350, (3, False): 400, (4, False): 400}
SAMPLE_PER_CONFIG = 4


def scaled(count: int, factor: float) -> int:
    """`count` games scaled by the --many factor, never fewer than one."""
    return max(1, round(count * factor))


def config_id(config) -> str:
    players, rhom = config
    return f"{players}p" + ("+rhom" if rhom and players > 1 else "")


def variants_for(config, index: int) -> dict:
    """The rule variants of RULINGS §9, spread over the games: every third game mines at 3 coins,
    every fifth scores leftover gems by type, every other 4-player game gives the 4th a Catapult."""
    players, _ = config
    return {
        "mining_cost": 3 if index % 3 == 2 else 1,
        "leftover_gems": "same_type" if index % 5 == 4 else "any",
        "catapult_4th": players == 4 and index % 2 == 1,
    }


def play_checked(config, seed: str, policy=policies.random_policy, on_step=None, variants=None):
    """Play one game with the invariants checked; returns (steps, final state, checker)."""
    players, rhom = config
    check = Invariants(seed)
    played = []
    state = None
    options = make_options(players, rhom, **(variants or {}))
    try:
        for step, state in steps(options, seed, policy, on_event=check):
            check.after_command(state, step)
            if on_step is not None:
                on_step(step, state)
            played.append(step)
    except GameDidNotEnd as error:
        pytest.fail(str(error))
    assert engine.is_terminal(state), f"seed {seed!r}: the game stopped before its end"
    assert engine.current_player(state) is None
    return played, state, check


def replayed_from_json(played) -> object:
    """The final state rebuilt from the log after a trip through JSON text."""
    text = json.dumps([engine.event_to_dict(e) for step in played for e in step.events])
    return engine.replay([engine.event_from_dict(d) for d in json.loads(text)])


@pytest.mark.parametrize("config", list(CONFIGS), ids=config_id)
def test_random_games_keep_the_invariants_and_replay_from_json(config, many):
    games = scaled(CONFIGS[config], many)
    outcomes = Counter()
    for index in range(games):
        seed = f"playout-{config_id(config)}-{index}"
        played, state, _ = play_checked(config, seed, variants=variants_for(config, index))
        replayed = replayed_from_json(played)
        assert engine.state_to_dict(replayed) == engine.state_to_dict(state), seed
        totals = [seat["total"] for seat in engine.outcome(state).to_dict()["seats"]]
        outcomes[max(totals) > 0] += 1
    # Somebody scores in every game: a game that ends with nobody scoring means nothing happened.
    assert outcomes[True] == games


@pytest.mark.parametrize("config", list(CONFIGS), ids=config_id)
def test_greedy_and_cautious_games_end_with_the_invariants(config, many):
    players, _ = config
    for index in range(scaled(2, many)):
        seed = f"bots-{config_id(config)}-{index}"
        mixed = {seat: policies.greedy_policy for seat in range(players + 1)}
        mixed[players - 1 + (1 if config[1] else 0)] = policies.cautious_policy
        play_checked(config, seed, mixed)


# --- legal commands against decide, on a sample ---------------------------------------------


def _other_values(name, value, state, rng):
    """Plausible wrong values for a command field: the kind of thing a client might send."""
    seats = list(range(len(state.players)))
    if name == "seat":
        return [s for s in seats if s != value] + [len(seats)]
    if isinstance(value, list):
        value = tuple(value)
    if name in ("hex", "discard_tile") and (value is None or value in ALL_HEXES):
        return rng.sample(ALL_HEXES, 6) + ([None] if value is not None else [])
    if name == "discard_tile":
        return rng.sample(list(data.TILES), 3) + [None]
    if name in ("gem", "take"):
        return [g for g in data.GEMS if g != value] + ([None] if value is not None else [])
    if name == "to":
        return [s for s in seats if s != value] + ([None] if value is not None else [])
    if name in ("count", "stone_dice", "delta"):
        return [value - 1, value + 1, value + 3]
    if name == "item":
        return rng.sample(list(data.ITEMS), 4)
    if name == "relic":
        return rng.sample(list(data.RELICS), 4)
    if name == "objective":
        return rng.sample(list(data.OBJECTIVES), 3)
    if name == "hexes":
        return [tuple(rng.sample(ALL_HEXES, k)) for k in (1, 2)] + [(), tuple(ALL_HEXES[:3])]
    if name == "give":
        return [tuple(rng.choices(data.GEMS, k=2)) for _ in range(3)] + [(data.GEMS[0],)]
    if name == "dice":
        return [(0,), (1,), (0, 1), (2,), (0, 1, 2)]
    if name == "gems":
        return [(g,) for g in data.GEMS] + [tuple(data.GEMS)]
    if name == "die":
        return ["roll:0", "roll:1", "roll:2", "roll:5"] + [f"market:{g}" for g in data.GEMS]
    if name == "target":
        return seats
    return []


def _mutations(command, state, rng):
    """Commands a client could send that differ from a listed one in one field (as JSON, so
    whatever `command_from_dict` refuses never reaches `decide`, as on the server)."""
    sent = engine.command_to_dict(command)
    for name, value in sent.items():
        if name == "type":
            continue
        for other in _other_values(name, value, state, rng):
            if isinstance(other, tuple):
                other = list(other)
            try:
                yield engine.command_from_dict({**sent, name: other})
            except engine.InvalidCommand:
                continue


def _unlisted_type_commands(state, seat):
    """One plausible command of every type, whatever the moment."""
    row = state.relic_row
    market = state.market
    return [
        engine.command_from_dict(d)
        for d in (
            {"type": "end_turn", "seat": seat},
            {"type": "mine", "seat": seat, "stone_dice": 0},
            {"type": "keep_roll", "seat": seat, "gem": None},
            {"type": "sell", "seat": seat, "gem": "amethyst", "count": 1},
            {"type": "rhom_turn", "seat": seat},
            *({"type": "restore", "seat": seat, "relic": r} for r in row[:2]),
            *({"type": "buy", "seat": seat, "item": i} for i in market[:2]),
            {"type": "reveal", "seat": seat, "hexes": ["1b"]},
            {"type": "move", "seat": seat, "hex": "1c"},
            {"type": "remove_tile", "seat": seat, "hex": "3c"},
            {"type": "choose_gem", "seat": seat, "gem": "emerald"},
            {"type": "give_gem", "seat": seat, "gem": "citrine", "to": None},
            {"type": "play_item", "seat": seat, "item": "epic_elixir"},
        )
    ]


def check_legal_commands(state, rng):
    """Every listed command is accepted; mutated and other-seat commands are refused."""
    seat = engine.current_player(state)
    before = engine.state_to_dict(state)
    listed = engine.legal_commands(state, seat)
    assert listed, f"seat {seat} is to act but has no legal command"
    listed_set = set(listed)
    assert len(listed_set) == len(listed), "legal_commands lists a command twice"
    for command in listed:
        assert engine.command_from_dict(engine.command_to_dict(command)) == command
        try:
            engine.decide(state, command, random.Random(1))
        except engine.RuleError as error:
            raise AssertionError(
                f"listed {engine.command_to_dict(command)} refused: {error}"
            ) from error
    for other in range(len(state.players)):
        if other != seat:
            assert engine.legal_commands(state, other) == [], f"seat {other} may act out of turn"

    candidates = set(_unlisted_type_commands(state, seat))
    for command in rng.sample(listed, min(6, len(listed))):
        candidates.update(_mutations(command, state, rng))
    for command in candidates - listed_set:
        if engine.canonical_command(state, command) in listed_set:
            continue  # another form of a listed command (a pair of hexes in the other order)
        try:
            events = engine.decide(state, command, random.Random(1))
        except engine.RuleError:
            continue
        raise AssertionError(
            f"unlisted {engine.command_to_dict(command)} accepted, giving "
            f"{[e.type for e in events]}; listed: "
            f"{[engine.command_to_dict(c) for c in listed][:12]}"
        )
    assert engine.state_to_dict(state) == before, "decide changed the state it was given"


@pytest.mark.parametrize("config", list(CONFIGS), ids=config_id)
def test_legal_commands_agree_with_decide_and_states_round_trip(config, many):
    for index in range(scaled(SAMPLE_PER_CONFIG, many)):
        seed = f"sample-{config_id(config)}-{index}"
        rng = random.Random(seed)
        policy = policies.greedy_policy if index % 2 else policies.random_policy

        def on_step(step, state, rng=rng, seed=seed):
            for event in step.events:
                assert engine.event_from_dict(engine.event_to_dict(event)) == event, seed
            as_json = json.loads(json.dumps(engine.state_to_dict(state)))
            assert engine.state_to_dict(engine.state_from_dict(as_json)) == as_json, seed
            assert engine.state_from_dict(as_json) == state, seed
            if not engine.is_terminal(state):
                check_legal_commands(state, rng)

        play_checked(config, seed, policy, on_step, variants_for(config, index))


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_sell_that_resolves_a_pending_roll_is_listed(version):
    """Found by the playouts: under rules version 1 selling resolves a pending roll first, so the
    gems just mined may be sold too, and legal_commands must list those larger sales. From
    version 2 selling leaves the roll pending (R26): no sale beyond the hold is accepted."""
    larger_sales = 0
    for index in range(6):
        for _step, state in steps(make_options(1, True), f"sell-roll-{index}", policies.random_policy,
                                  rules_version=version):
            if engine.pending_kind(state) != "roll":
                continue
            seat = engine.current_player(state)
            listed = set(engine.legal_commands(state, seat))
            hold = state.players[seat].hold
            for gem in data.GEMS:
                for count in range(hold[gem] + 1, data.HOLD_LIMIT + 2):
                    command = engine.command_from_dict(
                        {"type": "sell", "seat": seat, "gem": gem, "count": count}
                    )
                    try:
                        engine.decide(state, command, random.Random(1))
                    except engine.RuleError:
                        continue
                    larger_sales += 1
                    assert command in listed, f"{engine.command_to_dict(command)} not listed"
    if version == "1":
        assert larger_sales > 0, "no game sold gems from a pending roll: pick other seeds"
    else:
        assert larger_sales == 0


def test_the_invariant_checker_catches_broken_states():
    """The checker must be able to fail: feed it states with a gem, a tile, a relic, a stone die
    or points gone, or coins below zero."""
    check = Invariants("self-test")
    for _step, state in steps(make_options(2), "self-test", policies.random_policy, on_event=check):
        if len(state.players[0].tiles) >= 2 and state.players[0].points > 0:
            break
    neutral = CoinsGained(seat=0, amount=0, reason="self-test")
    check(state, neutral, state)  # the untouched state passes

    def broken(edit, message):
        bad = state.copy()
        edit(bad)
        with pytest.raises(AssertionError, match=message):
            check(state, neutral, bad)

    broken(lambda s: setattr(s, "supply", {**s.supply, "emerald": s.supply["emerald"] - 1}),
           "gems in the game")
    broken(lambda s: setattr(s.edit_player(0), "tiles", s.players[0].tiles[1:]), "tiles lost")
    broken(lambda s: setattr(s.edit_player(0), "points", s.players[0].points - 1),
           "scores went down")
    broken(lambda s: setattr(s.edit_player(1), "coins", -1), "has -1 coins")
    broken(lambda s: setattr(s, "relic_row", s.relic_row[1:]), "relics not conserved")
    broken(lambda s: setattr(s, "stone_pool", s.stone_pool + 1), "stone dice in the game")
