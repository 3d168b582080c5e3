"""Play complete games with bots: a library for tests and benchmarks, and a command line.

    python -m engine.simulate --players 4 --games 100 --seed 7
    python -m engine.simulate --players 2 --rhom --games 20 --seed 1 --policy greedy --json
    python -m engine.simulate --players 1 --games 2 --seed 1 --policy strong

Every command goes through `decide`, exactly as the server would apply it: the Rhom's turns and
removal turns come from `automatic_command`, the humans' from a policy, and the random generator
of the command applied at version `v` is `rng_for(seed, v)`, so a simulated game is a game the
server could have stored (and its export verifies).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import engine
from engine import bots
from engine.bots import policies

POLICIES: dict[str, Callable] = bots.POLICIES

# A game consumes one tile per turn (or relocates), so a few thousand commands is far more than
# any game needs: hitting the bound means the engine or a policy is looping.
MAX_COMMANDS = 5000


class GameDidNotEnd(RuntimeError):
    """A game went past MAX_COMMANDS commands without reaching its end."""


@dataclass(frozen=True)
class Step:
    """One applied command, the version it was applied at, and the events it produced."""

    version: int
    command: object
    events: list


@dataclass
class GameRecord:
    """A finished (or abandoned) simulated game: its log and how it ended."""

    seed: str
    options: object
    player_ids: list[str]
    steps: list[Step] = field(default_factory=list)
    state: object = None
    error: str | None = None

    @property
    def events(self) -> list:
        return [event for step in self.steps for event in step.events]

    @property
    def completed(self) -> bool:
        return self.error is None and self.state is not None and engine.is_terminal(self.state)


def make_options(players: int, rhom: bool = False, **variants) -> engine.Options:
    """Options for a simulated game; the Rhom is forced on for one player, as the engine requires."""
    return engine.Options.from_dict(
        {
            "players": players,
            "rhom": rhom or players == 1,
            "mining_cost": variants.get("mining_cost", 1),
            "leftover_gems": variants.get("leftover_gems", "any"),
            "catapult_4th": variants.get("catapult_4th", False),
        }
    )


def start_command(options, player_ids: list[str], rules_version: str | None = None):
    command = {
        "type": "start_game",
        "seat": None,
        "options": options.to_dict(),
        "player_ids": list(player_ids),
    }
    if rules_version is not None:
        command["rules_version"] = rules_version
    return engine.command_from_dict(command)


def steps(
    options,
    seed: str,
    policy: Callable | dict[int, Callable] = policies.random_policy,
    max_commands: int = MAX_COMMANDS,
    on_event: Callable[[object, object, object], None] | None = None,
    rules_version: str | None = None,
) -> Iterator[tuple[Step, object]]:
    """Play one game, yielding each applied step with the state after it.

    `policy` is one policy for every human seat, or a mapping seat -> policy. The policies draw from
    their own generator (derived from the seed), never from the one `decide` uses. `on_event(before,
    event, after)` is called for every event as it is folded in (the tests check invariants there).
    `rules_version`: the game's rules version (default: the current one).
    """
    player_ids = [f"p{i + 1}" for i in range(options.players)]
    policy_rng = random.Random(f"{seed}/policy")
    state = None
    version = 0
    command = start_command(options, player_ids, rules_version)
    for _ in range(max_commands):
        events = engine.decide(state, command, engine.rng_for(seed, version))
        for event in events:
            after = engine.evolve(state, event)
            if on_event is not None:
                on_event(state, event, after)
            state = after
        yield Step(version, command, events), state
        version += len(events)
        if engine.is_terminal(state):
            return
        command = policies.automatic_command(state)
        if command is None:
            seat = engine.current_player(state)
            chooser = policy.get(seat, policies.random_policy) if isinstance(policy, dict) else policy
            command = chooser(state, seat, policy_rng)
    raise GameDidNotEnd(f"game {seed!r} did not end within {max_commands} commands")


def play_game(options, seed: str, policy=policies.random_policy, max_commands=MAX_COMMANDS):
    """Play one complete game; a rule error or a game that does not end is recorded, not raised."""
    record = GameRecord(str(seed), options, [f"p{i + 1}" for i in range(options.players)])
    try:
        for step, state in steps(options, record.seed, policy, max_commands):
            record.steps.append(step)
            record.state = state
    except (engine.RuleError, GameDidNotEnd) as error:
        record.error = f"{type(error).__name__}: {error}"
    return record


@dataclass
class SimulationReport:
    players: int
    rhom: bool
    policy: str
    seed: str
    games: int
    completed: int
    seconds: float
    events_per_game: float
    winner_score: dict
    seat_scores: list[float]
    errors: list[str]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "rhom": self.rhom,
            "policy": self.policy,
            "seed": self.seed,
            "games_played": self.games,
            "games_completed": self.completed,
            "mean_events_per_game": round(self.events_per_game, 1),
            "games_per_second": round(self.games_per_second, 2),
            "seconds": round(self.seconds, 3),
            "winner_score": self.winner_score,
            "mean_score_by_seat": [round(s, 2) for s in self.seat_scores],
            "errors": self.errors,
        }

    def to_text(self) -> str:
        lines = [
            f"players: {self.players}{' + Rhom' if self.rhom else ''}, policy: {self.policy}, "
            f"seed: {self.seed}",
            f"games played: {self.games}",
            f"games completed: {self.completed}",
            f"mean events per game: {self.events_per_game:.1f}",
            f"games per second: {self.games_per_second:.2f}",
        ]
        if self.winner_score:
            w = self.winner_score
            lines.append(f"winner score: mean {w['mean']:.1f}, min {w['min']}, max {w['max']}")
            lines.append(
                "mean score by seat: "
                + ", ".join(f"{seat}: {score:.1f}" for seat, score in enumerate(self.seat_scores))
            )
        lines.extend(f"error: {error}" for error in self.errors)
        return "\n".join(lines)


def final_totals(state) -> list[int]:
    """Each seat's final total, in seat order."""
    outcome = engine.outcome(state).to_dict()
    seats = outcome["seats"] if isinstance(outcome, dict) and "seats" in outcome else outcome
    return [entry["total"] for entry in seats]


def simulate(
    players: int,
    games: int,
    seed: int | str = 0,
    rhom: bool = False,
    policy: str = "random",
    **variants,
) -> SimulationReport:
    """Play `games` complete games (seeds "<seed>-0", "<seed>-1", ...) and summarise them."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
    options = make_options(players, rhom, **variants)
    chooser = POLICIES[policy]
    started = time.perf_counter()
    records = [play_game(options, f"{seed}-{index}", chooser) for index in range(games)]
    seconds = time.perf_counter() - started

    finished = [r for r in records if r.completed]
    totals = [final_totals(r.state) for r in finished]
    winners = [max(t) for t in totals]
    seats = len(totals[0]) if totals else 0
    return SimulationReport(
        players=players,
        rhom=options.rhom,
        policy=policy,
        seed=str(seed),
        games=games,
        completed=len(finished),
        seconds=seconds,
        events_per_game=statistics.fmean(len(r.events) for r in records) if records else 0.0,
        winner_score=(
            {"mean": round(statistics.fmean(winners), 2), "min": min(winners), "max": max(winners)}
            if winners
            else {}
        ),
        seat_scores=[statistics.fmean(t[s] for t in totals) for s in range(seats)],
        errors=[f"{r.seed}: {r.error}" for r in records if r.error],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.simulate",
        description="Play complete games of Gems of Iridescia with bots and print statistics.",
        epilog="example: python -m engine.simulate --players 4 --games 100 --seed 7",
    )
    parser.add_argument("--players", type=int, required=True, help="human seats, 1-4")
    parser.add_argument("--rhom", action="store_true", help="add the Rhom (forced on for 1 player)")
    parser.add_argument("--games", type=int, default=10, help="how many games to play")
    parser.add_argument("--seed", default="0", help="seed of the first game's generator")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="random")
    parser.add_argument("--mining-cost", type=int, choices=(1, 3), default=1)
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    args = parser.parse_args(argv)
    try:
        report = simulate(
            args.players, args.games, args.seed, args.rhom, args.policy, mining_cost=args.mining_cost
        )
    except (engine.RuleError, ValueError) as error:
        parser.error(str(error))
    print(json.dumps(report.to_dict(), indent=2) if args.json else report.to_text())
    return 0 if report.completed == report.games else 1


if __name__ == "__main__":
    sys.exit(main())
