"""Bot strength and speed: the `strong` search against greedy and against the Rhom.

    python -m bench.bots                           # 40 games per series, 2 worker processes
    python -m bench.bots --games 10 --workers 1    # quicker, wider intervals
    python -m bench.bots --playouts 32 --json

The ladder of the levels (easy, medium, hard) is `python -m bench.bots.ladder` (docs/bots.md).

Targets (issue 15): strong wins >= 70 % of 2-player games against greedy, beats the Rhom in
>= 40 % of solo games, and takes <= 1 s a decision on one core. The baseline runs in the same
invocation, on the same seeds: greedy in the strong seat. Seats alternate between games, so the
starting player's edge cancels out. Intervals are 95 % Wilson score intervals. A decision is timed
only when it is one (more than one legal command); its wall-clock time and its CPU time (the time
one core spent on it) are both printed, with the load average before and after the run.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections import Counter

import engine
from engine.bots import Budget, policies, strong_choice
from engine.simulate import make_options, play_game

TARGET_VS_GREEDY = 0.70
TARGET_VS_RHOM = 0.40
TARGET_DECISION_SECONDS = 1.0
ITEM_COMMANDS = {"play_item", "modify_die", "reroll", "roll_market"}

# (series name, human seats, seat of the bot under test) -> the other seats play greedy.
SERIES = (("2 players, against greedy", 2), ("solo, against the Rhom", 1))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(task: tuple) -> dict:
    """One game: the tested seat plays `bot`, every other human seat greedy."""
    bot, players, index, seed, playouts, cap = task
    options = make_options(players)
    rhom = 1 if options.rhom else 0
    tested = rhom + (index % players)
    budget = Budget(playouts=playouts, seconds=cap)
    wall: list[float] = []
    cpu: list[float] = []

    def strong(state, seat, rng):
        view = engine.view(state, seat)
        commands = engine.legal_commands(state, seat)
        started, started_cpu = time.perf_counter(), time.thread_time()
        command = strong_choice(view, commands, rng, budget)
        if len(commands) > 1:
            wall.append(time.perf_counter() - started)
            cpu.append(time.thread_time() - started_cpu)
        return command

    chooser = strong if bot == "strong" else policies.greedy_policy
    seats = {s: policies.greedy_policy for s in range(rhom, rhom + players)}
    seats[tested] = chooser
    record = play_game(options, f"bots-{seed}-{players}-{index}", seats)
    if not record.completed:
        return {"error": record.error}
    winners = engine.outcome(record.state).winners
    totals = [s.total for s in engine.outcome(record.state).seats]
    items = Counter(
        getattr(step.command, "item", None) or step.command.type
        for step in record.steps
        if step.command.seat == tested and step.command.type in ITEM_COMMANDS
    )
    return {
        "win": (1.0 / len(winners)) if tested in winners else 0.0,
        "margin": totals[tested] - max(t for s, t in enumerate(totals) if s != tested),
        "score": totals[tested],
        "wall": wall,
        "cpu": cpu,
        "items": dict(items),
    }


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def summarise(results: list[dict]) -> dict:
    done = [r for r in results if "error" not in r]
    wins = sum(r["win"] for r in done)
    low, high = wilson(wins, len(done))
    wall = [t for r in done for t in r["wall"]]
    cpu = [t for r in done for t in r["cpu"]]
    items: Counter = Counter()
    for r in done:
        items.update(r["items"])
    out = {
        "games": len(done),
        "errors": [r["error"] for r in results if "error" in r],
        "win_rate": round(wins / len(done), 3) if done else None,
        "win_rate_95": [round(low, 3), round(high, 3)],
        "mean_margin": round(statistics.fmean(r["margin"] for r in done), 1) if done else None,
        "mean_score": round(statistics.fmean(r["score"] for r in done), 1) if done else None,
        "items_played": dict(sorted(items.items())),
    }
    if wall:
        out["decisions"] = len(wall)
        out["decision_wall_s"] = {"p50": round(percentile(wall, 0.5), 3), "p99": round(percentile(wall, 0.99), 3),
                                  "max": round(max(wall), 3)}
        out["decision_cpu_s"] = {"p50": round(percentile(cpu, 0.5), 3), "p99": round(percentile(cpu, 0.99), 3),
                                 "max": round(max(cpu), 3)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per series (default 40)")
    parser.add_argument("--playouts", type=int, default=48, help="playouts per decision (default 48)")
    parser.add_argument("--cap", type=float, default=0.9, help="CPU-time cap per decision, s (default 0.9)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--series", choices=("all", "2p", "solo"), default="all",
                        help="run both series (default), or only one")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()
    started = time.perf_counter()
    figures: dict = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "budget": {"playouts": args.playouts, "cap_seconds": args.cap},
        "games_per_series": args.games,
        "load_average_before": [round(x, 2) for x in load_before],
    }
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        chosen = {"all": SERIES, "2p": SERIES[:1], "solo": SERIES[1:]}[args.series]
        for name, players in chosen:
            for bot in ("greedy", "strong"):
                tasks = [(bot, players, i, args.seed, args.playouts, args.cap) for i in range(args.games)]
                results = pool.map(play, tasks, chunksize=1)
                figures[f"{name}: {bot}"] = summarise(results)
                if not args.json:
                    print(f"{name}: {bot}: {json.dumps(figures[f'{name}: {bot}'])}", flush=True)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    vs_greedy = figures.get(f"{SERIES[0][0]}: strong", {})
    vs_rhom = figures.get(f"{SERIES[1][0]}: strong", {})
    p99 = max(vs_greedy.get("decision_cpu_s", {}).get("p99", 0), vs_rhom.get("decision_cpu_s", {}).get("p99", 0))
    figures["targets"] = {
        "wins against greedy >= 70 %": (vs_greedy.get("win_rate") or 0) >= TARGET_VS_GREEDY,
        "wins against the Rhom >= 40 %": (vs_rhom.get("win_rate") or 0) >= TARGET_VS_RHOM,
        "decision p99 <= 1 s of one core": p99 <= TARGET_DECISION_SECONDS,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for key in ("machine", "budget", "seconds", "load_average_before", "load_average_after", "targets"):
            print(f"{key}: {figures[key]}")
    errors = [e for key, f in figures.items() if isinstance(f, dict) for e in f.get("errors", [])]
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
