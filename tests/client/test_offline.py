"""What works without a server: `verify` and `replay --file` on a log of a game the engine's
simulator played, `simulate`, and `autoplay`'s bridge to the engine's policies."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random

import pytest

import engine
from client.commands.robots import choose
from engine import seeds, simulate
from engine.bots import policies


def write_log(path, record, seed_hash=None, rules_version=engine.RULES_VERSION, seed=None,
              words=None):
    """A log file in the `iridescia log` format from a simulated game record (``seed``, with
    ``words``: the server's seed the record's dice seed was mixed from)."""
    seed = seed or record.seed
    lines = [{"record": "game", "game_id": "sim1", "rules_version": rules_version,
              "options": record.options.to_dict(), "seed": seed,
              **({"seed_rule": seeds.MIXED, "seed_contributions": words} if words else {}),
              "seed_hash": seed_hash or hashlib.sha256(seed.encode()).hexdigest(),
              "players": [], "outcome": json.loads(json.dumps(
                  engine.outcome(record.state).to_dict()))}]
    seq = 0
    events = []
    for step in record.steps:
        lines.append({"record": "command", "version": step.version, "actor": "sim",
                      "command": engine.command_to_dict(step.command)})
        for event in step.events:
            seq += 1
            payload = engine.event_to_dict(event)
            events.append({"record": "event", "seq": seq, "type": payload["type"],
                           "payload": payload, "actor": "sim", "at": "2026-01-01T00:00:00Z"})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines + events))
    return seq


@pytest.fixture(scope="module")
def finished_game():
    record = simulate.play_game(simulate.make_options(2), "offline-1", policies.greedy_policy)
    assert record.completed, record.error
    return record


def test_verify_accepts_an_honest_log(run, tmp_path, finished_game):
    path = tmp_path / "game.jsonl"
    events = write_log(path, finished_game)
    result = run("verify", "--file", path)
    assert result.exit_code == 0, result.output
    digest = hashlib.sha256(b"offline-1").hexdigest()
    assert result.output == (
        f"seed: sha256 matches the published hash {digest}\n"
        "dice: drawn from the server's seed alone (the rule of games made before the players' "
        "words)\n"
        f"rules version: {engine.RULES_VERSION}, the game's\n"
        f"commands: {len(finished_game.steps)} re-decided into {events} events, identical to "
        "the log\n"
        "final scores: identical to the replayed game's\n"
        "OK\n"
    )
    assert json.loads(run("verify", "--file", path, "--json").output)["ok"] is True


def test_verify_re_decides_a_log_under_its_own_rules_version(run, tmp_path):
    """A version 1 game (its start_game command names no version, as the server stored it then)
    verifies under the log's version 1; a version this engine cannot play is refused."""
    options = simulate.make_options(2)
    v1 = simulate.GameRecord("offline-v1", options, ["p1", "p2"])
    for step, state in simulate.steps(options, v1.seed, policies.greedy_policy, rules_version="1"):
        v1.steps.append(step)
        v1.state = state
    start = v1.steps[0]
    v1.steps[0] = dataclasses.replace(
        start, command=dataclasses.replace(start.command, rules_version=None))
    path = tmp_path / "v1.jsonl"
    write_log(path, v1, rules_version="1")
    result = run("verify", "--file", path)
    assert result.exit_code == 0, result.output
    assert "rules version: 1, the game's\n" in result.output
    write_log(path, v1, rules_version="0.1")
    result = run("verify", "--file", path)
    assert result.exit_code == 1
    assert "cannot play rules version '0.1'" in result.output


def test_verify_rejects_a_seed_that_does_not_match_its_hash(run, tmp_path, finished_game):
    path = tmp_path / "game.jsonl"
    write_log(path, finished_game, seed_hash="0" * 64)
    result = run("verify", "--file", path)
    assert result.exit_code == 1
    digest = hashlib.sha256(b"offline-1").hexdigest()
    assert result.output == (
        f"Error: DIVERGES: sha256(seed) is {digest}, but the published hash is {'0' * 64}\n"
    )


def test_verify_names_the_first_changed_die(run, tmp_path, finished_game):
    path = tmp_path / "game.jsonl"
    write_log(path, finished_game)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    rolled = next(r for r in lines if r["record"] == "event" and r["type"] == "dice_rolled")
    original = rolled["payload"]["dice"][0]
    rolled["payload"]["dice"][0] = original % 6 + 1
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run("verify", "--file", path)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: DIVERGES: event #{rolled['seq']} (dice_rolled), "
                                    "from the mine command at version ")
    assert result.output.endswith(
        f"dice: the log has {rolled['payload']['dice']!r}, the engine decides "
        f"{[original] + rolled['payload']['dice'][1:]!r}\n"
    )


def test_verify_says_when_a_file_is_not_a_log(run, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("dear diary\n")
    result = run("verify", "--file", path)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {path} is not a JSON-lines game log: ")


def test_replay_a_file_to_a_version_and_step_through_it(run, tmp_path, finished_game):
    path = tmp_path / "game.jsonl"
    write_log(path, finished_game)
    at_five = run("replay", "--file", path, "--to", "5", "--no-color")
    assert at_five.exit_code == 0, at_five.output
    assert at_five.output.startswith("Game sim1 (")
    state = engine.replay(finished_game.events[:5])
    view = json.loads(run("replay", "--file", path, "--to", "5", "--json").output)
    assert view == dict(json.loads(json.dumps(engine.view(state, None))), version=5)

    stepped = run("replay", "--file", path, "--to", "4", "--step", "--no-color", input="  q")
    assert stepped.exit_code == 0
    titles = [line for line in stepped.output.splitlines() if line.startswith("Game sim1")]
    assert len(titles) == 3  # one board a step, until q; the board names no version
    assert all(" version " not in title for title in titles)


def test_replay_needs_a_game_or_a_file(run):
    result = run("replay")
    assert result.exit_code == 2
    assert "give either GAME or --file FILE" in result.output


def test_simulate_wraps_the_engines_simulator(run):
    result = run("simulate", "--players", "2", "--games", "2", "--seed", "3")
    assert result.exit_code == 0, result.output
    expected = simulate.simulate(2, 2, "3").to_text().splitlines()
    lines = result.output.splitlines()
    # Everything but the timing is the simulator's own report.
    assert [line for line in lines if "per second" not in line] == \
        [line for line in expected if "per second" not in line]
    as_json = json.loads(run("simulate", "--players", "1", "--games", "1", "--json").output)
    assert as_json["games_completed"] == 1 and as_json["rhom"] is True


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_autoplay_chooses_what_the_engine_policy_chooses(policy):
    options = simulate.make_options(3)
    chooser = {"greedy": policies.greedy_policy, "random": policies.random_policy}[policy]
    checked = 0
    for step, state in simulate.steps(options, "bridge", chooser):
        if checked == 150:
            break
        seat = engine.current_player(state)
        if seat is None or engine.pending_kind(state) == "rhom":
            continue
        legal = [engine.command_to_dict(c) for c in engine.legal_commands(state, seat)]
        view = json.loads(json.dumps(engine.view(state, seat)))
        remote = choose(policy, view, legal, random.Random(step.version))
        local = chooser(state, seat, random.Random(step.version))
        assert remote == engine.command_to_dict(local)
        checked += 1
    assert checked > 50


def test_autoplay_strong_decides_from_the_servers_json_as_the_engine_does(monkeypatch):
    from engine import bots
    from engine.bots import hard, strong

    monkeypatch.setattr(hard, "HARD_BUDGET", strong.Budget(playouts=4))
    checked = 0
    for step, state in simulate.steps(simulate.make_options(2), "bridge", policies.greedy_policy):
        if checked == 12:
            break
        seat = engine.current_player(state)
        if seat is None or step.version % 5 or len(engine.legal_commands(state, seat)) < 2:
            continue
        legal = [engine.command_to_dict(c) for c in engine.legal_commands(state, seat)]
        view = json.loads(json.dumps(engine.view(state, seat)))
        remote = choose("strong", view, legal, random.Random(step.version))
        local = bots.hard_policy(state, seat, random.Random(step.version))
        assert remote == engine.command_to_dict(local)
        checked += 1
    assert checked == 12


def mixed_game(words):
    """A game whose dice came from the server's seed "server-7" mixed with the players' words."""
    dice = seeds.dice_seed("server-7", [words["p1"], words["p2"]], seeds.MIXED)
    record = simulate.play_game(simulate.make_options(2), dice, policies.greedy_policy)
    assert record.completed, record.error
    return record


def test_verify_mixes_the_players_words_into_the_seed(run, tmp_path):
    words = {"p1": "tolami", "p2": "veruko"}
    path = tmp_path / "mixed.jsonl"
    write_log(path, mixed_game(words), seed="server-7", words=words)
    result = run("verify", "--file", path)
    assert result.exit_code == 0, result.output
    assert ("dice: sha256 of the server's seed and the players' words in table order "
            "(p1 'tolami', p2 'veruko')\n") in result.output
    assert result.output.endswith("OK\n")


def test_verify_refuses_a_log_whose_words_were_changed(run, tmp_path):
    """A server that swapped a player's word (or its own seed) after the fact is caught: the
    dice no longer make the log's events."""
    path = tmp_path / "swapped.jsonl"
    write_log(path, mixed_game({"p1": "tolami", "p2": "veruko"}), seed="server-7",
              words={"p1": "tolami", "p2": "other"})
    result = run("verify", "--file", path)
    assert result.exit_code == 1
    assert result.output.startswith("Error: DIVERGES: event #1 (game_started), from the "
                                    "start_game command at version 0: ")
