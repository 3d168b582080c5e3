"""Record complete games for tests/engine/recorded/, which keeps them forever.

    python -m bench.engine.record_games            # write tests/engine/recorded/v<RULES_VERSION>/

Each file holds one game played by the greedy bots from a fixed seed under the engine's current
rules version: its options, the seed, every command with the version it was applied at, every
event, and the final outcome. tests/engine/recorded/test_recorded_games.py re-decides and replays
every recording under its own version. Recordings are never rewritten: this script refuses to
touch an existing file or digest. A rules change that alters games raises engine.RULES_VERSION
(engine/versions.py) and then records the new version's games into a new folder.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import engine
from engine.bots import policies
from engine.simulate import make_options, play_game

RECORDED = Path(__file__).resolve().parents[2] / "tests" / "engine" / "recorded"
DIGESTS = RECORDED / "digests.json"

# name -> (players, rhom, seed). Seeds are fixed: the files must not change from run to run.
GAMES = {
    "solo_rhom": (1, True, "recorded-solo"),
    "two_players": (2, False, "recorded-2p"),
    "two_players_rhom": (2, True, "recorded-2p-rhom"),
    "three_players": (3, False, "recorded-3p"),
    "four_players": (4, False, "recorded-4p"),
}


def recording_digest(log: dict) -> str:
    """sha256 of what a recording fixes: version, seed, options, commands, events and outcome."""
    fixed = {k: log[k] for k in ("rules_version", "seed", "options", "commands", "events", "outcome")}
    text = json.dumps(fixed, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def record(players: int, rhom: bool, seed: str) -> dict:
    options = make_options(players, rhom)
    game = play_game(options, seed, policies.greedy_policy)
    if not game.completed:
        raise SystemExit(f"{seed}: the game did not complete: {game.error}")
    return {
        "about": "A complete game recorded by bench/engine/record_games.py; it must replay forever.",
        "rules_version": game.state.rules_version,
        "seed": seed,
        "options": options.to_dict(),
        "player_ids": game.player_ids,
        "commands": [
            {"version": step.version, "command": engine.command_to_dict(step.command)}
            for step in game.steps
        ],
        "events": [engine.event_to_dict(event) for event in game.events],
        "outcome": engine.outcome(game.state).to_dict(),
    }


def main() -> int:
    folder = RECORDED / f"v{engine.RULES_VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    digests = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    for name, (players, rhom, seed) in GAMES.items():
        key = f"{folder.name}/{name}"
        path = folder / f"{name}.json"
        if path.exists() or key in digests:
            print(f"{key}: already recorded under rules version {engine.RULES_VERSION}; kept")
            continue
        log = record(players, rhom, seed)
        path.write_text(json.dumps(log, indent=1, sort_keys=True) + "\n")
        digests[key] = {"rules_version": log["rules_version"], "sha256": recording_digest(log)}
        totals = [seat["total"] for seat in log["outcome"]["seats"]]
        print(f"{key}: {len(log['commands'])} commands, {len(log['events'])} events, "
              f"totals {totals}")
    DIGESTS.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
