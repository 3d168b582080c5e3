"""Recorded complete games must replay to the same final scores forever.

Stored games are event logs: if a change to the rules engine changes what an old log folds into, or
what its commands decide, every stored game is broken. The logs here were written by
`python -m bench.engine.record_games` (greedy bots, fixed seeds); rewrite them only for a deliberate
rules change, and say so in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine

LOGS = sorted(Path(__file__).parent.glob("*.json"))
TABLES = {(1, True), (2, False), (3, False), (4, False)}


def test_the_recorded_games_cover_every_table_size():
    tables = set()
    for path in LOGS:
        options = json.loads(path.read_text())["options"]
        tables.add((options["players"], options["rhom"]))
    assert TABLES <= tables


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_game_replays_to_its_recorded_outcome(path):
    log = json.loads(path.read_text())
    state = engine.replay([engine.event_from_dict(d) for d in log["events"]])
    assert engine.is_terminal(state)
    assert engine.outcome(state).to_dict() == log["outcome"]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_game_redecides_to_its_recorded_events(path):
    """What verifying an export does: every command, decided again from the seed, gives the very
    events that were stored."""
    log = json.loads(path.read_text())
    state, produced = None, []
    for entry in log["commands"]:
        assert entry["version"] == len(produced)
        command = engine.command_from_dict(entry["command"])
        events = engine.decide(state, command, engine.rng_for(log["seed"], entry["version"]))
        state = engine.replay(events, state)
        produced.extend(engine.event_to_dict(e) for e in events)
    assert produced == log["events"]
    assert engine.outcome(state).to_dict() == log["outcome"]
