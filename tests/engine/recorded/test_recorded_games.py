"""Recorded complete games must replay to the same final scores forever, under their version.

Stored games are event logs: if a change to the rules engine changes what an old log folds into, or
what its commands decide, every stored game is broken. The logs here were written by
`python -m bench.engine.record_games` (greedy bots, fixed seeds), one folder per rules version
(`v1/`, `v2/`, ...). A recording is never rewritten: a rules change that alters what a game does
raises `engine.RULES_VERSION` (engine/versions.py) and records new games under the new version.
`digests.json` pins every recording's content by version, so rewriting one fails here too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from bench.engine.record_games import recording_digest

HERE = Path(__file__).parent
LOGS = sorted(HERE.glob("v*/*.json"))
DIGESTS = json.loads((HERE / "digests.json").read_text())
TABLES = {(1, True), (2, False), (3, False), (4, False)}


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def redecide(log: dict):
    """Decide every recorded command again from the seed, under the recording's rules version
    (a start_game command without one is pinned to it, as `iridescia verify` does)."""
    state, produced = None, []
    for entry in log["commands"]:
        assert entry["version"] == len(produced)
        command = dict(entry["command"])
        if command["type"] == "start_game":
            command.setdefault("rules_version", log["rules_version"])
        events = engine.decide(state, engine.command_from_dict(command),
                               engine.rng_for(log["seed"], entry["version"]))
        state = engine.replay(events, state)
        produced.extend(engine.event_to_dict(e) for e in events)
    return state, produced


@pytest.mark.parametrize("version", engine.SUPPORTED_VERSIONS)
def test_every_rules_version_has_recordings_of_every_table_size(version):
    tables = set()
    for path in LOGS:
        log = json.loads(path.read_text())
        if log["rules_version"] == version:
            assert path.parent.name == f"v{version}"
            tables.add((log["options"]["players"], log["options"]["rhom"]))
    assert TABLES <= tables


@pytest.mark.parametrize("path", LOGS, ids=_name)
def test_a_recording_is_never_rewritten_under_its_version(path):
    """Fails when a recording was re-recorded (its result changed) without a version raise."""
    log = json.loads(path.read_text())
    pinned = DIGESTS.get(_name(path))
    assert pinned is not None, f"add {_name(path)} to digests.json (a new recording)"
    assert pinned["rules_version"] == log["rules_version"]
    assert pinned["sha256"] == recording_digest(log)


def test_no_pinned_recording_was_deleted():
    assert sorted(DIGESTS) == sorted(_name(p) for p in LOGS)


@pytest.mark.parametrize("path", LOGS, ids=_name)
def test_a_recorded_game_replays_to_its_recorded_outcome(path):
    log = json.loads(path.read_text())
    state = engine.replay([engine.event_from_dict(d) for d in log["events"]])
    assert state.rules_version == log["rules_version"]
    assert engine.is_terminal(state)
    assert engine.outcome(state).to_dict() == log["outcome"]


@pytest.mark.parametrize("path", LOGS, ids=_name)
def test_a_recorded_game_redecides_to_its_recorded_events(path):
    """What verifying an export does: every command, decided again from the seed, gives the very
    events that were stored."""
    log = json.loads(path.read_text())
    state, produced = redecide(log)
    assert produced == log["events"]
    assert engine.outcome(state).to_dict() == log["outcome"]
