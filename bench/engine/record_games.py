"""Write the recorded complete games that tests/engine/recorded/ keeps forever.

    python -m bench.engine.record_games            # (re)write tests/engine/recorded/*.json

Each file holds one game played by the greedy bots from a fixed seed: its options, the seed, every
command with the version it was applied at, every event, and the final outcome. The test
tests/engine/recorded/test_recorded_games.py replays them; rerun this script only on purpose (a
rules change that is meant to change stored games), and say so in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import engine
from engine import policies
from engine.simulate import make_options, play_game

RECORDED = Path(__file__).resolve().parents[2] / "tests" / "engine" / "recorded"

# name -> (players, rhom, seed). Seeds are fixed: the files must not change from run to run.
GAMES = {
    "solo_rhom": (1, True, "recorded-solo"),
    "two_players": (2, False, "recorded-2p"),
    "two_players_rhom": (2, True, "recorded-2p-rhom"),
    "three_players": (3, False, "recorded-3p"),
    "four_players": (4, False, "recorded-4p"),
}


def record(players: int, rhom: bool, seed: str) -> dict:
    options = make_options(players, rhom)
    game = play_game(options, seed, policies.greedy_policy)
    if not game.completed:
        raise SystemExit(f"{seed}: the game did not complete: {game.error}")
    return {
        "about": "A complete game recorded by bench/engine/record_games.py; it must replay forever.",
        "rules_version": engine.RULES_VERSION,
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
    RECORDED.mkdir(parents=True, exist_ok=True)
    for name, (players, rhom, seed) in GAMES.items():
        log = record(players, rhom, seed)
        path = RECORDED / f"{name}.json"
        path.write_text(json.dumps(log, indent=1, sort_keys=True) + "\n")
        totals = [seat["total"] for seat in log["outcome"]["seats"]]
        print(f"{path.name}: {len(log['commands'])} commands, {len(log['events'])} events, "
              f"totals {totals}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
