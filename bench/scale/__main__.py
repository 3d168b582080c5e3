"""Scale: many stored games; game-list and view latency; a scheduler tick; memory per process.

    python -m bench.scale [--active 10000] [--open 1500] [--finished 1500] [--users 2000]
                          [--backend sqlite --backend postgresql] [--requests 300]

Fills a fresh database (see populate.py), serves it with gunicorn (2 sync workers) and measures,
one request at a time from another process on 127.0.0.1: a user's game list (an ordinary user,
and one who plays in many games), the view of a long-running game beside a short one (first
request per worker, then warm), and the view of the long game at an old version. Then
scheduler ticks with every active game in the database and ``--due`` of them due, until nothing
is due, and the delivery of the mail they queued. Prints p50/p99 and the memory of each worker,
the time and work of the first tick, the ticks and time it takes until nothing is due, and the
delivery's mails per second.
"""

from __future__ import annotations

import argparse
import http.client
import logging
import random
import sys
import time
from pathlib import Path

from bench.api import servers
from bench.api.load import percentile
from bench.scale import populate

TARGET_LIST_P99_MS = 20.0
TARGET_VIEW_P99_MS = 10.0
TARGET_TICK_SECONDS = 1.0


def timed_gets(port: int, path: str, tokens: list[str], count: int) -> list[float]:
    """``count`` sequential GETs (tokens taken in turn); latencies in ms. Fails on non-200."""
    latencies = []
    for i in range(count):
        token = tokens[i % len(tokens)]
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        latencies.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            raise RuntimeError(f"GET {path}: {response.status} {body[:300]!r}")
    return latencies


def report(backend: str, what: str, latencies: list[float], target: float | None = None) -> dict:
    row = {"requests": len(latencies), "p50_ms": percentile(latencies, 0.5),
           "p99_ms": percentile(latencies, 0.99), "max_ms": max(latencies)}
    verdict = ""
    if target is not None:
        verdict = f"  (target p99 <= {target:g} ms: {'met' if row['p99_ms'] <= target else 'MISSED'})"
    print(f"{backend:<10} {what:<44} p50 {row['p50_ms']:6.1f} ms  p99 {row['p99_ms']:6.1f} ms"
          f"{verdict}", flush=True)
    return row


def settle(engine) -> None:
    """Bring the freshly bulk-loaded database to a steady state before measuring: PostgreSQL's
    autovacuum would otherwise vacuum and analyze the million new rows during the measurements,
    and its checkpointer write them out, on the same cores; and the planner would plan without
    statistics. (A PostgreSQL run without this: the list's p50 16.8-19.1 ms; with it 9.7.)"""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql("VACUUM (ANALYZE)")
            connection.exec_driver_sql("CHECKPOINT")  # not in the middle of the measurements
        else:
            connection.exec_driver_sql("ANALYZE")


def build(url: str, args, rng: random.Random) -> dict:
    """Templates through the app, then copies; returns what the measurements need."""
    from server import create_app
    from server.storage.db import get_engine

    app = create_app({"DATABASE_URL": url, "RATE_LIMIT": 0, "TESTING": True})
    client = app.test_client()
    started = time.perf_counter()
    templates = [populate.open_template(client, rng, seats, f"open{seats}") for seats in (2, 3, 4)]
    for players in (2, 3, 4):
        for commands in (3, 15, 60):
            templates.append(populate.play_template(client, rng, players, commands,
                                                    f"t{players}x{commands}"))
    long_game = populate.play_template(client, rng, 2, args.long_commands, "long")
    templates.append(long_game)
    templates.append(populate.play_template(client, rng, 2, 20000, "finished"))
    kinds = {t.status for t in templates}
    if "finished" not in kinds:
        print("note: no template game reached its end; no finished games stored", flush=True)
    template_seconds = time.perf_counter() - started

    users = [populate.register(client, f"u{i}", rng) for i in range(args.users)]
    by_id = {u["id"]: u["token"] for u in users}
    heavy = users[0]
    engine = get_engine(url)
    started = time.perf_counter()
    counts = {"open": args.open, "active": args.active, "finished": args.finished}
    counts = {status: n for status, n in counts.items() if status in kinds}
    created = populate.clone_games(engine, templates, counts, list(by_id), rng,
                                   heavy_user=heavy["id"], heavy_games=args.heavy_games)
    clone_seconds = time.perf_counter() - started
    settle(engine)
    short = next(t for t in templates if t.status == "active" and t.events < 40)
    stats = {
        "templates": len(templates),
        "template_seconds": template_seconds,
        "clone_seconds": clone_seconds,
        "games": populate.count_rows(engine, "games"),
        "events": populate.count_rows(engine, "events"),
        "stored": {status: len(ids) for status, ids in created.items()},
        "long_game_events": long_game.events,
        "long_game_status": long_game.status,
        "short_game_events": short.events,
    }
    print(f"stored {stats['games']} games ({stats['stored']}), {stats['events']} events, "
          f"{args.users} users; templates {template_seconds:.1f} s, copies "
          f"{clone_seconds:.1f} s", flush=True)
    return {
        "stats": stats,
        "active_ids": created.get("active", []),
        "heavy_token": heavy["token"],
        "ordinary_tokens": [u["token"] for u in users[1:101]],
        "long_game": long_game,
        "short_game": short,
    }


def measure_http(backend: str, url: str, built: dict, args, workdir: Path) -> dict:
    env = servers.server_env(url, workdir)
    results = {}
    long_game, short_game = built["long_game"], built["short_game"]
    with servers.gunicorn("server:create_app()", env, workdir, "/api/v1/health") as (port, pid):
        # A worker's first requests also pay for lazy imports and SQLAlchemy's statement cache:
        # reported apart, as for the views below.
        cold = timed_gets(port, "/api/v1/games", [built["heavy_token"]], 2)
        results["list_heavy_cold"] = cold
        results["list_heavy"] = report(
            backend, f"game list, user in {args.heavy_games} games (first {cold[0]:.0f}/"
                     f"{cold[1]:.0f} ms)",
            timed_gets(port, "/api/v1/games", [built["heavy_token"]], args.requests),
            TARGET_LIST_P99_MS)
        results["list_ordinary"] = report(
            backend, "game list, ordinary users (~games x seats / users)",
            timed_gets(port, "/api/v1/games", built["ordinary_tokens"], args.requests),
            TARGET_LIST_P99_MS)
        # The short game first: a worker's first request also pays for lazy imports, and the long
        # game's first view should show the cost of its log (nearest snapshot + the rest).
        for name, game in (("short", short_game), ("long", long_game)):
            path = f"/api/v1/games/{game.game_id}/view"
            tokens = game.tokens[:1]
            cold = timed_gets(port, path, tokens, 2)  # the first request in each worker
            warm = timed_gets(port, path, tokens, args.requests)
            results[f"view_{name}_cold"] = cold
            results[f"view_{name}"] = report(
                backend, f"view, {game.events}-event game (first {cold[0]:.0f}/{cold[1]:.0f} ms)",
                warm, TARGET_VIEW_P99_MS)
        old = max(1, long_game.events // 3)
        results["view_long_old"] = report(
            backend, f"view of the long game at version {old}",
            timed_gets(port, f"/api/v1/games/{long_game.game_id}/view?version={old}",
                       long_game.tokens[:1], args.requests))
        results["memory_mib"] = {}
        for worker in servers.child_pids(pid):
            memory = servers.memory_mib(worker)
            results["memory_mib"][worker] = memory
            print(f"{backend:<10} worker {worker} memory: RSS {memory['rss']:.0f} MiB, "
                  f"PSS {memory['pss']:.0f} MiB", flush=True)
    return results


def _due_counts(engine, now) -> tuple[int, int]:
    """(games with an automatic turn due, games due a reminder or warning) at ``now``."""
    import sqlalchemy as sa

    from server.storage.models import Game

    with engine.connect() as connection:
        def count(column) -> int:
            return connection.execute(
                sa.select(sa.func.count()).select_from(Game)
                .where(Game.status == "active", column <= now)
            ).scalar_one()

        return count(Game.automatic_due_at), count(Game.next_reminder_at)


def measure_tick(backend: str, url: str, built: dict, args, workdir: Path) -> dict:
    """Scheduler ticks with every active game in the database and ``--due`` of them due: half
    past their deadline (an automatic turn each), half due a reminder. The ticks run in this
    process with a fixed clock, as the scheduler process's ``tick`` job runs them (due work only,
    within IRIDESCIA_SCHEDULER_BUDGET_SECONDS), one after the other until nothing is due. Then the
    ``mail`` job's delivery of everything they queued (rendered and written as .eml files)."""
    import cProfile
    import pstats
    from datetime import UTC, datetime, timedelta

    import sqlalchemy as sa

    from server import create_app
    from server.scheduler.tick import Ticker
    from server.storage.db import get_engine
    from server.storage.models import Game, Outbox

    app = create_app({"DATABASE_URL": url, "OUTBOX_DIR": str(workdir / "outbox")})
    now = datetime.now(UTC)
    engine = get_engine(url)
    logging.getLogger("server").setLevel(logging.ERROR)  # a warning per automatic turn
    # The mail the template games queued is not this tick's work: mark it sent beforehand.
    with engine.begin() as connection:
        connection.execute(sa.update(Outbox).where(Outbox.status == "pending").values(
            status="sent", sent_at=now))
    later = now + timedelta(days=30)
    active = list(built["active_ids"])
    random.Random(args.seed).shuffle(active)
    overdue, remind = active[: args.due // 2], active[args.due // 2 : args.due]
    with engine.begin() as connection:
        connection.execute(sa.update(Game).where(Game.status == "active").values(
            automatic_due_at=later, next_reminder_at=later, deadline_at=later))
        for ids, values in ((overdue, {"automatic_due_at": now - timedelta(minutes=1),
                                       "deadline_at": now - timedelta(minutes=1)}),
                            (remind, {"next_reminder_at": now - timedelta(minutes=1)})):
            for start in range(0, len(ids), 500):
                connection.execute(sa.update(Game).where(Game.id.in_(ids[start:start + 500]))
                                   .values(**values))
        active_count = connection.execute(
            sa.select(sa.func.count()).select_from(Game).where(Game.status == "active")
        ).scalar_one()
    due_before = _due_counts(engine, now)
    ticker = Ticker(app, clock=lambda: now, name="bench")
    ticks: list[dict] = []
    profile = cProfile.Profile() if args.profile else None
    while True:
        started = time.perf_counter()
        if profile is not None and not ticks:
            profile.enable()
        report = ticker.due_work()
        seconds = time.perf_counter() - started
        if profile is not None and not ticks:
            profile.disable()
        ticks.append({"seconds": seconds, "automatic_turns": len(report.automatic),
                      "nudges": len(report.nudges), "out_of_time": report.out_of_time,
                      "due_after": _due_counts(engine, now)})
        if ticks[-1]["due_after"] == (0, 0) or len(ticks) >= args.max_ticks or not (
                report.automatic or report.nudges):
            break
    first = ticks[0]
    verdict = "met" if first["seconds"] <= TARGET_TICK_SECONDS else "MISSED"
    profiled = " under cProfile" if profile is not None else ""
    print(f"{backend:<10} scheduler tick{profiled} (due work, budget {ticker.budget_seconds:g} s): "
          f"{first['seconds']:.2f} s with {active_count} active games, {sum(due_before)} due "
          f"({due_before[0]} automatic, {due_before[1]} reminders) -> "
          f"{first['automatic_turns']} automatic turns, {first['nudges']} reminders/warnings, "
          f"{sum(first['due_after'])} still due (target <= {TARGET_TICK_SECONDS:g} s: {verdict})",
          flush=True)
    drained = ticks[-1]["due_after"] == (0, 0)
    total = sum(t["seconds"] for t in ticks)
    turns = sum(t["automatic_turns"] for t in ticks)
    nudged = sum(t["nudges"] for t in ticks)
    times = ", ".join(f"{t['seconds']:.2f}" for t in ticks[:12]) + (" ..." if len(ticks) > 12 else "")
    print(f"{backend:<10} {'drained' if drained else 'NOT drained'} in {len(ticks)} tick(s), "
          f"{total:.2f} s of ticking: {turns} automatic turns ({turns / total:.0f}/s), "
          f"{nudged} reminders/warnings; tick times {times} s", flush=True)
    if profile is not None:
        path = workdir.parent / f"bench-scale-tick-{backend}.pstats"
        profile.dump_stats(path)
        print(f"{backend:<10} profile of the first tick: {path}", flush=True)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)

    with engine.connect() as connection:
        queued = connection.execute(sa.select(sa.func.count()).select_from(Outbox).where(
            Outbox.status == "pending")).scalar_one()
    started = time.perf_counter()
    delivery = ticker.deliver()
    mail_seconds = time.perf_counter() - started
    sent = len(delivery.sent)
    print(f"{backend:<10} mail delivery: {sent} of {queued} queued mails rendered and sent "
          f"(.eml files) in {mail_seconds:.2f} s = {sent / mail_seconds:.1f} mails/s; "
          f"{len(delivery.parked)} parked, {len(delivery.retrying)} retrying", flush=True)
    return {"active_games": active_count, "due": list(due_before), "ticks": ticks,
            "first_tick_seconds": first["seconds"], "ticks_to_drain": len(ticks),
            "drained": drained, "seconds_to_drain": total, "automatic_turns": turns,
            "nudges": nudged, "mails_queued": queued, "mails_sent": sent,
            "mail_seconds": mail_seconds, "mails_per_second": sent / mail_seconds}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.split("\n")[0])
    parser.add_argument("--active", type=int, default=10_000)
    parser.add_argument("--open", type=int, default=1_500)
    parser.add_argument("--finished", type=int, default=1_500)
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--heavy-games", type=int, default=50)
    parser.add_argument("--long-commands", type=int, default=400)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--skip-http", action="store_true",
                        help="measure only the scheduler (no gunicorn, no requests)")
    parser.add_argument("--max-ticks", type=int, default=100,
                        help="give up draining the due work after this many ticks")
    parser.add_argument("--profile", type=int, default=0, metavar="LINES",
                        help="cProfile the first tick and print this many lines of it")
    args = parser.parse_args(argv)

    def measure_backend(backend: str, url: str, workdir: Path) -> dict:
        from server.storage.migrate import upgrade

        upgrade(url)
        built = build(url, args, random.Random(args.seed))
        result = {"stats": built["stats"]}
        if not args.skip_http:
            result["http"] = measure_http(backend, url, built, args, workdir)
        result["tick"] = measure_tick(backend, url, built, args, workdir)
        return result

    return servers.on_each_backend("scale", args.backend, measure_backend, args.json)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
