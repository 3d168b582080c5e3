"""The bot ladder: each level against the Rhom, the levels against each other, and decision times.

    python -m bench.bots.ladder                                  # 200 solo games a level, 40 duels a pair
    python -m bench.bots.ladder --solo 20 --duels 6 --workers 1  # a quick look, wide intervals
    python -m bench.bots.ladder --levels hard --duels 0 --solo 200

Solo: the level plays one seat against the Rhom. Duels: two levels share a 2-player game, seats
alternating between games so the starting player's edge cancels out. A decision is timed (CPU time
of the deciding thread, and wall-clock time) only when it is one: more than one legal command.
`greedy` is `medium`, so its times are the baseline of the same run. Intervals are 95 % Wilson
score intervals; every game's seed is its series and index, so two runs play the same deals.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time

import engine
from bench.bots.__main__ import percentile, wilson
from engine.bots import LEVELS, level_choice
from engine.simulate import make_options, play_game

TARGET_HARD_VS_RHOM = 0.70
TARGET_HARD_MEDIAN_CPU = 0.025


def _timed(level: str, cpu: list, wall: list):
    choice = level_choice(level)

    def policy(state, seat, rng):
        view = engine.view(state, seat)
        commands = [c for c in engine.legal_commands(state, seat) if c.type != "undo"]
        started, started_cpu = time.perf_counter(), time.thread_time()
        command = choice(view, commands, rng)
        if len(commands) > 1:
            wall.append(time.perf_counter() - started)
            cpu.append(time.thread_time() - started_cpu)
        return command

    return policy


def play(task: tuple) -> dict:
    """One game: `levels` in seat order (solo: one level, after the Rhom's seat 0)."""
    series, index, seed, levels = task
    options = make_options(len(levels))
    first = 1 if options.rhom else 0
    times = {level: ([], []) for level in levels}
    seats = {first + i: _timed(level, *times[level]) for i, level in enumerate(levels)}
    record = play_game(options, f"ladder-{seed}-{series}-{index}", seats)
    if not record.completed:
        return {"series": series, "error": record.error}
    result = engine.outcome(record.state)
    totals = [s.total for s in result.seats]
    out = {"series": series, "levels": list(levels), "cpu": {}, "wall": {}, "wins": [], "margins": []}
    for i, level in enumerate(levels):
        seat = first + i
        out["wins"].append(1.0 / len(result.winners) if seat in result.winners else 0.0)
        out["margins"].append(totals[seat] - max(t for s, t in enumerate(totals) if s != seat))
        out["cpu"].setdefault(level, []).extend(times[level][0])
        out["wall"].setdefault(level, []).extend(times[level][1])
    return out


def _tasks(args) -> list[tuple]:
    tasks = [(f"solo {level}", i, args.seed, (level,)) for level in args.levels for i in range(args.solo)]
    for a, b in itertools.combinations(args.levels, 2):
        tasks += [(f"{a} v {b}", i, args.seed, (a, b) if i % 2 == 0 else (b, a)) for i in range(args.duels)]
    return tasks


def summarise(results: list[dict]) -> dict:
    series: dict[str, dict] = {}
    for name in dict.fromkeys(r["series"] for r in results):
        games = [r for r in results if r["series"] == name and "error" not in r]
        errors = [r["error"] for r in results if r["series"] == name and "error" in r]
        subject = name.split()[-1] if name.startswith("solo") else name.split(" v ")[0]
        wins = sum(r["wins"][r["levels"].index(subject)] for r in games)
        low, high = wilson(wins, len(games))
        series[name] = {
            "games": len(games), "errors": errors, "of": subject,
            "win_rate": round(wins / len(games), 3) if games else None,
            "win_rate_95": [round(low, 3), round(high, 3)],
            "mean_margin": round(statistics.fmean(r["margins"][r["levels"].index(subject)] for r in games), 1)
            if games else None,
        }
    times: dict[str, dict] = {}
    for level in dict.fromkeys(level for r in results if "error" not in r for level in r["cpu"]):
        cpu = [t for r in results if "error" not in r for t in r["cpu"].get(level, ())]
        wall = [t for r in results if "error" not in r for t in r["wall"].get(level, ())]
        games = sum(1 for r in results if "error" not in r and level in r["cpu"])
        if cpu:
            times[level] = {
                "decisions": len(cpu),
                "cpu_ms": {"p50": round(1000 * percentile(cpu, 0.5), 2), "p90": round(1000 * percentile(cpu, 0.9), 1),
                           "p99": round(1000 * percentile(cpu, 0.99), 1), "max": round(1000 * max(cpu), 1),
                           "mean": round(1000 * statistics.fmean(cpu), 2)},
                "wall_ms": {"p50": round(1000 * percentile(wall, 0.5), 2), "p99": round(1000 * percentile(wall, 0.99), 1)},
                "cpu_s_per_game": round(sum(cpu) / games, 2),
            }
    return {"series": series, "decision_times": times}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots.ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=lambda s: s.split(","), default=list(LEVELS),
                        help="comma-separated levels (default easy,medium,hard)")
    parser.add_argument("--solo", type=int, default=200, help="solo games a level (default 200)")
    parser.add_argument("--duels", type=int, default=40, help="2-player games a pair of levels (default 40)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--games-out", help="append each game's result to this file (JSON lines)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    unknown = [level for level in args.levels if level not in LEVELS]
    if unknown:
        parser.error(f"unknown level {unknown[0]!r}: choose from {', '.join(LEVELS)}")

    load_before = os.getloadavg()
    started = time.perf_counter()
    results = []
    out = open(args.games_out, "a") if args.games_out else None  # noqa: SIM115 (closed below)
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for result in pool.imap_unordered(play, _tasks(args), chunksize=1):
            results.append(result)
            if out:
                out.write(json.dumps(result) + "\n")
                out.flush()
    if out:
        out.close()
    figures = summarise(results)
    figures.update({
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "seconds": round(time.perf_counter() - started, 1),
        "load_average": [round(x, 2) for x in load_before] + [round(x, 2) for x in os.getloadavg()],
    })
    hard_solo = figures["series"].get("solo hard", {})
    hard_time = figures["decision_times"].get("hard", {}).get("cpu_ms", {})
    if hard_solo:
        figures["targets"] = {
            "hard wins >= 70 % of solo games": (hard_solo.get("win_rate") or 0) >= TARGET_HARD_VS_RHOM,
            "hard decides in <= 25 ms CPU at the median": hard_time.get("p50", 1e9) <= 1000 * TARGET_HARD_MEDIAN_CPU,
        }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(render(figures))
    errors = [e for s in figures["series"].values() for e in s["errors"]]
    return 1 if errors else 0


def render(figures: dict) -> str:
    lines = ["| series | games | wins of the first | 95 % interval | mean margin |", "|---|---|---|---|---|"]
    for name, s in figures["series"].items():
        low, high = s["win_rate_95"]
        lines.append(f"| {name} | {s['games']} | {s['of']}: {100 * (s['win_rate'] or 0):.1f} % | "
                     f"{100 * low:.1f}–{100 * high:.1f} % | {s['mean_margin']:+.1f} |")
    lines += ["", "| level | decisions | CPU p50 | p90 | p99 | max | CPU s a game | wall p50 |",
              "|---|---|---|---|---|---|---|---|"]
    for level, t in figures["decision_times"].items():
        c = t["cpu_ms"]
        lines.append(f"| {level} | {t['decisions']} | {c['p50']} ms | {c['p90']} ms | {c['p99']} ms | "
                     f"{c['max']} ms | {t['cpu_s_per_game']} | {t['wall_ms']['p50']} ms |")
    lines.append("")
    for key in ("machine", "seconds", "load_average", "targets"):
        if key in figures:
            lines.append(f"{key}: {figures[key]}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
