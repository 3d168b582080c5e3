"""Engine speed: replay of recorded complete games (events/s) and bot simulations (games/s).

    python -m bench.engine                  # every figure, about a minute on 2 cores
    python -m bench.engine --seconds 1      # quicker, noisier
    python -m bench.engine --profile        # also cProfile the 4-player replay and random games

Targets (issue 7): replay >= 100,000 events/s; random-policy 4-player simulation >= 20 games/s.
Baselines run in the same process first: folds that only copy a State per event (with copy.copy,
and with a plain __dict__ copy), the floor of any replay written as immutable updates in Python.
Compare the replay against them rather than against figures from another day or machine (a shared
machine's load changes every figure; the load average is printed too).
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import io
import json
import os
import platform
import pstats
import sys
import time
from pathlib import Path

import engine
from engine.bots import policies
from engine.simulate import make_options, play_game

RECORDED = Path(__file__).resolve().parents[2] / "tests" / "engine" / "recorded"
TARGET_REPLAY = 100_000
TARGET_RANDOM_4P = 20.0


# Figures are per CPU-second of this (single-threaded) process: on a shared machine, wall-clock
# figures mostly measure the other processes' load.
clock = time.process_time


def timed(run, seconds: float) -> tuple[int, float]:
    """Call run() until `seconds` of CPU time have passed; (calls, elapsed CPU seconds)."""
    calls, started = 0, clock()
    while True:
        run()
        calls += 1
        elapsed = clock() - started
        if elapsed >= seconds:
            return calls, elapsed


def _dict_copy(obj):
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def baselines(events: list, seconds: float) -> dict[str, int]:
    """Folds that do nothing but copy one object per event, with copy.copy and with a plain
    __dict__ copy: the floor of a Python fold written as immutable updates, on this machine now."""
    state0 = engine.replay(events[: len(events) // 2])  # a real mid-game State to copy

    def with_copy_module():
        state = state0
        for _ in events:
            state = copy.copy(state)

    def with_dict_copy():
        state = state0
        for _ in events:
            state = _dict_copy(state)

    out = {}
    for name, run in (("copy.copy", with_copy_module), ("__dict__ copy", with_dict_copy)):
        calls, elapsed = timed(run, seconds)
        out[name] = round(calls * len(events) / elapsed)
    return out


def recorded_games() -> dict[str, dict]:
    # The games of the current rules version (one folder per version, see record_games.py).
    folder = RECORDED / f"v{engine.RULES_VERSION}"
    return {path.stem: json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))}


def replay_figures(seconds: float) -> list[dict]:
    rows = []
    for name, log in recorded_games().items():
        dicts = log["events"]
        events = [engine.event_from_dict(d) for d in dicts]
        calls, elapsed = timed(lambda events=events: engine.replay(events), seconds)
        parsed_calls, parsed_elapsed = timed(
            lambda dicts=dicts: engine.replay([engine.event_from_dict(d) for d in dicts]), seconds
        )
        rows.append(
            {
                "game": name,
                "events": len(events),
                "replay_events_per_s": round(calls * len(events) / elapsed),
                "from_json_events_per_s": round(parsed_calls * len(events) / parsed_elapsed),
            }
        )
    return rows


def simulation_figures(seconds: float) -> list[dict]:
    rows = []
    for policy_name, policy in (("random", policies.random_policy), ("greedy", policies.greedy_policy)):
        for players, rhom in ((1, True), (2, False), (2, True), (3, False), (4, False)):
            options = make_options(players, rhom)
            games = events = completed = 0
            started = clock()
            while clock() - started < seconds or games == 0:
                record = play_game(options, f"bench-{games}", policy)
                games += 1
                completed += record.completed
                events += len(record.events)
            elapsed = clock() - started
            rows.append(
                {
                    "policy": policy_name,
                    "table": f"{players}p" + ("+rhom" if rhom and players > 1 else ""),
                    "games": games,
                    "completed": completed,
                    "games_per_s": round(games / elapsed, 2),
                    "events_per_game": round(events / games, 1),
                }
            )
    return rows


def profile(label: str, run, top: int = 18) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).sort_stats("tottime")
    stats.print_stats(top)
    return f"--- profile: {label} (sorted by own time) ---\n" + out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measured figure")
    parser.add_argument("--profile", action="store_true", help="print cProfile hot spots")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, " \
              f"Python {platform.python_version()}"
    logs = recorded_games()
    if not logs:
        print(f"no recorded games under {RECORDED}; run python -m bench.engine.record_games")
        return 1
    wall_started, cpu_started = time.perf_counter(), clock()
    four_events = [engine.event_from_dict(d) for d in (logs.get("four_players") or next(iter(
        logs.values())))["events"]]
    figures = {
        "machine": machine,
        "load_average": os.getloadavg()[0],
        "baseline_events_per_s": baselines(four_events, args.seconds),
        "replay": replay_figures(args.seconds),
        "simulation": simulation_figures(args.seconds),
    }
    wall = time.perf_counter() - wall_started
    figures["cpu_share"] = round((clock() - cpu_started) / wall, 2)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"machine: {machine}")
        print(f"load average (1 min) at start: {figures['load_average']:.2f}; this process got "
              f"{figures['cpu_share']:.0%} of a core; figures are per CPU-second")
        for name, rate in figures["baseline_events_per_s"].items():
            print(f"baseline: a fold that only copies the State with {name}: {rate:,} events/s")
        print("replay of recorded complete games (one core):")
        for row in figures["replay"]:
            print(f"  {row['game']:<18} {row['events']:>5} events  "
                  f"{row['replay_events_per_s']:>9,} events/s  "
                  f"(from JSON dicts: {row['from_json_events_per_s']:,} events/s)")
        print("simulation of complete games:")
        for row in figures["simulation"]:
            print(f"  {row['policy']:<7} {row['table']:<8} {row['games_per_s']:>7.2f} games/s  "
                  f"({row['completed']}/{row['games']} completed, {row['events_per_game']} events/game)")
    four = next((r for r in figures["replay"] if r["game"] == "four_players"), None)
    random4 = next(r for r in figures["simulation"] if r["policy"] == "random" and r["table"] == "4p")
    verdicts = []
    if four:
        verdicts.append(("replay 4p", four["replay_events_per_s"], TARGET_REPLAY, "events/s"))
    verdicts.append(("random 4p simulation", random4["games_per_s"], TARGET_RANDOM_4P, "games/s"))
    for label, value, target, unit in verdicts:
        status = "meets" if value >= target else "MISSES"
        print(f"target: {label} {value:,} {unit} {status} the target of {target:,}")

    if args.profile:
        four_log = logs.get("four_players") or next(iter(logs.values()))
        events = [engine.event_from_dict(d) for d in four_log["events"]]
        print(profile("replay of the 4-player game x50", lambda: [engine.replay(events) for _ in range(50)]))
        options = make_options(4)
        print(profile("20 random 4-player games",
                      lambda: [play_game(options, f"profile-{i}") for i in range(20)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
