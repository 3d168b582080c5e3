"""Automatic turns: what one costs against its engine work, and how soon 1,000 due ones are played.

    python -m bench.turns [--per-kind 200] [--due 1000] [--background 2000]
                          [--backend sqlite --backend postgresql] [--profile 40]

A fresh database gets template games played to a Rhom turn, a removal turn and a human's turn
(bench/turns/games.py), then copies of them: `--per-kind` of each kind for the cost, `--due`
mixed ones for the wall clock, `--background` active games that are not due.

1. **Cost per turn, by kind.** The kind's games are made due; first the engine alone does
   their turns (the baseline, in the same run): from the rows read beforehand, it derives each
   state (the latest snapshot parsed, the events after it replayed) and decides the turn (the
   server's policy, `decide`, `replay`, command by command as the scheduler does). Then, with
   an emptied state cache, the scheduler plays them (`play_due_turns`, no budget: derive,
   decide, append, notify, commit). Prints ms per turn (wall and this process's CPU) and the
   ratio to the engine's derive+decide time (target <= 3) and to decide alone.
2. **1,000 due turns, wall clock.** The `--due` games fall due 2 s after the scheduler starts
   (`start_embedded`, default settings: interval 5 s, budget 1 s, the mail job beside it); the
   time from their due time until the last of them is played (target <= 2 s).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import logging
import os
import pstats
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

from bench.api import servers
from bench.scale import populate
from bench.turns import games

TARGET_RATIO = 3.0
TARGET_DRAIN_SECONDS = 2.0
FAR = timedelta(days=365)


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def settle(engine) -> None:
    """Statistics for the planner on the freshly copied rows, as autovacuum would gather."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql(
            "VACUUM (ANALYZE)" if engine.dialect.name == "postgresql" else "ANALYZE")


def _set_due(engine, ids: list[str], when: datetime, deadline: bool) -> None:
    from server.storage.models import Game

    values = {"automatic_due_at": when}
    if deadline:
        values["deadline_at"] = when
    with engine.begin() as connection:
        for start in range(0, len(ids), 500):
            connection.execute(sa.update(Game).where(Game.id.in_(ids[start:start + 500]))
                               .values(**values))


def _nothing_due(engine) -> None:
    from server.storage.models import Game

    far = datetime.now(UTC) + FAR
    with engine.begin() as connection:
        connection.execute(sa.update(Game).where(Game.status == "active").values(
            automatic_due_at=far, next_reminder_at=far, deadline_at=far))
    _no_mail_due(engine)


def _no_mail_due(engine) -> None:
    """The queued mail marked sent: not what is measured (a mail with a board picture takes the
    mail job a few tenths of a second to render)."""
    from server.storage.models import Outbox

    with engine.begin() as connection:
        connection.execute(sa.update(Outbox).where(Outbox.status == "pending").values(
            status="sent", sent_at=datetime.now(UTC)))


def _stored(engine, ids: list[str]) -> dict:
    """What the engine baseline starts from, read beforehand: each game's seed, version, latest
    snapshot and the events after it."""
    from server.storage.models import Event, Game, Snapshot

    stored = {}
    with engine.connect() as connection:
        for game_id in ids:
            game = connection.execute(sa.select(Game.seed, Game.version)
                                      .where(Game.id == game_id)).one()
            snapshot = connection.execute(
                sa.select(Snapshot.version, Snapshot.state).where(Snapshot.game_id == game_id)
                .order_by(Snapshot.version.desc()).limit(1)).first()
            base = snapshot.version if snapshot else 0
            events = [row.payload for row in connection.execute(
                sa.select(Event.payload).where(Event.game_id == game_id, Event.seq > base)
                .order_by(Event.seq))]
            stored[game_id] = (game.seed, game.version, snapshot.state if snapshot else None,
                               events)
    return stored


def engine_turns(stored: dict) -> dict:
    """The engine alone: derive each state and decide its automatic turn as the scheduler does."""
    import engine
    from engine.bots.policies import automatic_command, cautious_policy

    derive = decide = 0.0
    commands = 0
    cpu = time.process_time()
    for seed, version, snapshot, events in stored.values():
        started = time.perf_counter()
        state = engine.state_from_dict(snapshot) if snapshot is not None else None
        state = engine.replay([engine.event_from_dict(e) for e in events], state)
        derived = time.perf_counter()
        command = automatic_command(state)  # the Rhom's turn or a removal: one command
        if command is not None:
            state = engine.replay(engine.decide(state, command, engine.rng_for(seed, version)),
                                  state)
            commands += 1
        else:  # a human's turn past its deadline: the cautious policy plays all of it
            seat = engine.current_player(state)
            while engine.current_player(state) == seat and not engine.is_terminal(state):
                command = cautious_policy(state, seat, random.Random(f"{seed}/auto/{version}"))
                new = engine.decide(state, command, engine.rng_for(seed, version))
                state = engine.replay(new, state)
                version += len(new)
                commands += 1
        decide += time.perf_counter() - derived
        derive += derived - started
    turns = len(stored)
    return {"turns": turns, "commands": commands, "derive_ms": derive * 1000 / turns,
            "decide_ms": decide * 1000 / turns,
            "cpu_ms": (time.process_time() - cpu) * 1000 / turns}


def scheduler_turns(app, now: datetime, profile: cProfile.Profile | None) -> dict:
    from server.games.cache import CACHE
    from server.scheduler.automatic import play_due_turns
    from server.storage.db import app_engine

    CACHE.clear()  # cold: the scheduler derives each state from its rows
    wall, cpu = time.perf_counter(), time.process_time()
    with app.app_context():
        if profile is not None:
            profile.enable()
        turns = play_due_turns(app_engine(app), now)
        if profile is not None:
            profile.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"turns": len(turns), "commands": sum(len(t.commands) for t in turns),
            "kinds": sorted({t.kind for t in turns}),
            "wall_ms": wall * 1000 / max(1, len(turns)), "cpu_ms": cpu * 1000 / max(1, len(turns))}


def measure_costs(backend: str, app, engine, ids_by_kind: dict, args, workdir: Path) -> dict:
    from server.scheduler.automatic import play_due_turns
    from server.storage.db import app_engine

    results = {}
    for kind, ids in ids_by_kind.items():
        # A few turns first: the process's first statements and imports are not a turn's cost.
        warm, ids = ids[:args.warm], ids[args.warm:]
        _nothing_due(engine)
        _set_due(engine, warm, datetime.now(UTC) - timedelta(minutes=1), kind == "deadline")
        with app.app_context():
            play_due_turns(app_engine(app), datetime.now(UTC))
        _nothing_due(engine)
        now = datetime.now(UTC)
        _set_due(engine, ids, now - timedelta(minutes=1), deadline=kind == "deadline")
        baseline = engine_turns(_stored(engine, ids))
        gc.collect()  # the baseline's rows are garbage now, not the scheduler's to collect
        profile = cProfile.Profile() if args.profile else None
        played = scheduler_turns(app, now, profile)
        engine_ms = baseline["derive_ms"] + baseline["decide_ms"]
        ratio = played["wall_ms"] / engine_ms
        results[kind] = {"engine": baseline, "scheduler": played, "ratio": ratio,
                         "ratio_cpu": played["cpu_ms"] / baseline["cpu_ms"],
                         "ratio_to_decide": played["wall_ms"] / baseline["decide_ms"],
                         "load_average": load_average()}
        verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
        print(f"{backend:<10} {kind:<8} {played['turns']} turns ({played['commands']} commands): "
              f"scheduler {played['wall_ms']:.2f} ms/turn wall, {played['cpu_ms']:.2f} ms CPU; "
              f"engine derive {baseline['derive_ms']:.2f} + decide {baseline['decide_ms']:.2f} ms"
              f" ({baseline['commands']} commands), {baseline['cpu_ms']:.2f} ms CPU -> x{ratio:.1f} wall, "
              f"x{results[kind]['ratio_cpu']:.1f} CPU, x{results[kind]['ratio_to_decide']:.1f} "
              f"of decide alone (target <= x{TARGET_RATIO:g}: {verdict}); load {load_average()}",
              flush=True)
        if played["turns"] != len(ids):
            print(f"{backend:<10} {kind:<8} WARNING: {len(ids)} due, {played['turns']} played",
                  flush=True)
        if profile is not None:
            path = workdir.parent / f"bench-turns-{backend}-{kind}.pstats"
            profile.dump_stats(path)
            print(f"{backend:<10} profile: {path}", flush=True)
            pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
    return results


def measure_drain(backend: str, app, engine, ids: dict, args, jobs: str = "all") -> dict:
    """The real scheduler, default settings; `ids` fall due 2 s after it starts. `jobs`: "all"
    (the tick and the mail job, as `iridescia-server scheduler` runs them) or "tick" (the
    tick job alone: what the turns cost without the mail job beside them)."""
    from server.scheduler import Scheduler, _loops
    from server.scheduler.clock import system_clock
    from server.storage.models import Game

    _nothing_due(engine)
    due_at = datetime.now(UTC) + timedelta(seconds=2)
    by_kind = {}
    for kind, kind_ids in ids.items():
        _set_due(engine, kind_ids, due_at, deadline=kind == "deadline")
        by_kind.update(dict.fromkeys(kind_ids, kind))
    everyone = list(by_kind)
    name, loops = _loops(app, system_clock)
    scheduler = Scheduler(name, [loop for loop in loops if jobs == "all" or loop.name == jobs])
    scheduler.start()
    timeline = []
    try:
        while True:
            time.sleep(0.02)
            with engine.connect() as connection:
                left = connection.execute(sa.select(sa.func.count()).select_from(Game).where(
                    Game.status == "active", Game.automatic_due_at <= due_at)).scalar_one()
            moment = (datetime.now(UTC) - due_at).total_seconds()
            if not timeline or timeline[-1][1] != left:
                timeline.append((round(moment, 3), left))
            if left == 0 and moment > 0 or moment > args.give_up:
                break
    finally:
        _no_mail_due(engine)  # else the mail job renders the turns' mail before it stops
        scheduler.shutdown(wait=True)
    seconds = timeline[-1][0]
    drained = timeline[-1][1] == 0
    verdict = "met" if drained and seconds <= TARGET_DRAIN_SECONDS else "MISSED"
    marks = ", ".join(f"{left} left at {t:.2f} s" for t, left in timeline[:: max(1, len(timeline) // 8)])
    print(f"{backend:<10} [{jobs} jobs] {len(everyone)} due turns ({', '.join(f'{len(v)} {k}' for k, v in ids.items())})"
          f" {'all played' if drained else 'NOT all played'} {seconds:.2f} s after their due time "
          f"(target <= {TARGET_DRAIN_SECONDS:g} s: {verdict}); {marks}; load {load_average()}",
          flush=True)
    return {"due": len(everyone), "seconds": seconds, "drained": drained, "timeline": timeline,
            "load_average": load_average()}


def run(backend: str, url: str, args, workdir: Path) -> dict:
    from server import create_app
    from server.storage.db import get_engine
    from server.storage.migrate import upgrade

    upgrade(url)
    rng = random.Random(args.seed)
    app = create_app({"DATABASE_URL": url, "RATE_LIMIT": 0, "TESTING": True,
                      "OUTBOX_DIR": str(workdir / "outbox")})
    logging.getLogger("server").setLevel(logging.ERROR)  # a line per automatic turn
    started = time.perf_counter()
    made = games.templates(app, rng)
    user_ids = games.users(app, args.users, rng)
    engine = get_engine(url)
    template_seconds = time.perf_counter() - started
    per_kind = max(1, args.due // len(games.KINDS))
    wanted = {kind: args.warm + args.per_kind + per_kind for kind in games.KINDS}
    wanted["deadline"] += args.background
    created = {kind: populate.clone_games(engine, made[kind], {"active": count}, user_ids, rng,
                                          heavy_user=-1, heavy_games=0)["active"]
               for kind, count in wanted.items()}
    print(f"{backend:<10} templates {template_seconds:.1f} s ("
          + ", ".join(f"{k}: {[t.events for t in v]} events" for k, v in made.items())
          + f"), {populate.count_rows(engine, 'games')} games, "
          f"{populate.count_rows(engine, 'events')} events; load {load_average()}", flush=True)
    settle(engine)
    # As a server process does once started (server.app): what lives as long as the process
    # (here also the templates' and copies' leftovers) leaves the collector's full sweeps.
    gc.collect()
    gc.freeze()
    cost = args.warm + args.per_kind
    cost_ids = {kind: ids[:cost] for kind, ids in created.items()}
    drain_ids = {kind: ids[cost:cost + per_kind] for kind, ids in created.items()}
    results = {"costs": measure_costs(backend, app, engine, cost_ids, args, workdir)}
    if not args.skip_drain:
        results["drain"] = measure_drain(backend, app, engine, drain_ids, args)
        # The same turns again, with only the tick job running (their games are due again).
        results["drain_tick_only"] = measure_drain(backend, app, engine, drain_ids, args, "tick")
    engine.dispose()
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.turns",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--per-kind", type=int, default=200)
    parser.add_argument("--due", type=int, default=1000)
    parser.add_argument("--warm", type=int, default=50,
                        help="turns of each kind played before the measured ones (a full batch:"
                             " its statements are compiled once per process)")
    parser.add_argument("--background", type=int, default=2000)
    parser.add_argument("--users", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--give-up", type=float, default=60.0,
                        help="stop waiting for the due turns after this many seconds")
    parser.add_argument("--skip-drain", action="store_true")
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--profile", type=int, default=0, metavar="LINES",
                        help="cProfile the scheduler's turns, print this many lines per kind")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL database")
    args = parser.parse_args(argv)
    return servers.on_each_backend(
        "turns", args.backend, lambda backend, url, workdir: run(backend, url, args, workdir),
        args.json, keep=args.keep)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
