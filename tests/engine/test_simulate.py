"""The simulator: complete games, reproducible from a seed, and a command line that says what it did."""

from __future__ import annotations

import json

import pytest

import engine
from engine.bots import policies
from engine.simulate import main, make_options, play_game, simulate


def test_the_command_line_plays_complete_games_and_prints_statistics(capsys):
    assert main(["--players", "2", "--games", "3", "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "players: 2, policy: random, seed: 5"
    assert lines[1] == "games played: 3"
    assert lines[2] == "games completed: 3"
    assert lines[3].startswith("mean events per game: ")
    assert lines[4].startswith("games per second: ")
    assert lines[5].startswith("winner score: mean ")
    assert lines[6].startswith("mean score by seat: 0: ")


def test_json_output_has_every_statistic(capsys):
    assert main(["--players", "1", "--games", "2", "--seed", "s", "--policy", "greedy", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games_played"] == 2
    assert report["games_completed"] == 2
    assert report["rhom"] is True  # forced on for one player
    assert len(report["mean_score_by_seat"]) == 2  # the Rhom and the player
    assert report["winner_score"]["min"] <= report["winner_score"]["mean"] <= report["winner_score"]["max"]
    assert report["mean_events_per_game"] > 0
    assert report["errors"] == []


def test_a_refused_table_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--players", "3", "--rhom", "--games", "1"])
    assert exit_.value.code == 2
    assert "the Rhom can join only a 1- or 2-player game, not 3 players" in capsys.readouterr().err


def test_an_unknown_policy_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--players", "2", "--policy", "clever"])
    assert "invalid choice: 'clever'" in capsys.readouterr().err


def test_the_same_seed_plays_the_same_games():
    a = simulate(3, 2, seed=11)
    b = simulate(3, 2, seed=11)
    c = simulate(3, 2, seed=12)
    assert (a.events_per_game, a.seat_scores) == (b.events_per_game, b.seat_scores)
    assert (a.events_per_game, a.seat_scores) != (c.events_per_game, c.seat_scores)


@pytest.mark.parametrize("players, rhom", [(1, True), (2, True), (4, False)])
def test_a_simulated_game_verifies_like_a_stored_one(players, rhom):
    """Re-deciding every command with rng_for(seed, version) gives exactly the recorded events,
    which is what verifying an exported game does."""
    game = play_game(make_options(players, rhom), "verify-me", policies.greedy_policy)
    assert game.completed, game.error
    state = None
    for step in game.steps:
        command = engine.command_from_dict(engine.command_to_dict(step.command))
        events = engine.decide(state, command, engine.rng_for(game.seed, step.version))
        assert [engine.event_to_dict(e) for e in events] == [
            engine.event_to_dict(e) for e in step.events
        ]
        state = engine.replay(events, state)
    assert engine.outcome(state).to_dict() == engine.outcome(game.state).to_dict()
