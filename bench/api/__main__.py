"""API throughput and latency beside four baselines, on SQLite and on PostgreSQL.

    python -m bench.api [--seconds 15] [--rounds 3] [--clients 8] [--backend sqlite ...]
                        [--against OTHER_CHECKOUT] [--no-mail]

For each database: gunicorn with 2 sync workers serves the baseline app (``baseline.py``: a no-op
endpoint, a one-row insert through the server's engine setup, the same insert on the bare driver,
and a command post's database statements alone) and, beside it, the Iridescia app; 8 client
processes on 127.0.0.1 drive one of them at a time for a bounded time. The insert, bare, shaped,
commands (and mail, against) phases take turns (``--rounds``), each round getting its share of
``--seconds``, and their figures are pooled. Phases: ``noop``, ``insert``, ``bare``,
``shaped``, ``mix`` (each client plays its own 2-player game:
the actor reads the view and posts a random legal command; every third step the other player
reads the game list and the view), ``commands`` (only the posts, and the legal commands at the
start of each turn: within a turn each post's answer lists the next ones), ``mail`` (the same,
with the scheduler delivering the mail the posts cause to an SMTP sink: bench/api/with_mail.py),
``against`` (the commands phase on another checkout's app, e.g. a ``git worktree`` of the commit
before a change, served beside this one on the same database). Prints requests/s and p50/p99 per
kind, and command posts/s as a fraction of the bare insert (the target), of the engine's insert
and of the shaped one (how near a post comes to its own statements' cost).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import ExitStack, nullcontext
from pathlib import Path

from bench.api import load, servers, with_mail

TARGET_RATIO = 0.60
TARGET_COMMAND_P99_MS = 30.0


def summarize(records, seconds: float) -> dict[str, dict]:
    by_kind: dict[str, list] = defaultdict(list)
    for kind, status, elapsed in records:
        by_kind[kind].append((status, elapsed))
    by_kind["all"] = [(status, elapsed) for _, status, elapsed in records]
    summary = {}
    for kind, rows in by_kind.items():
        latencies = [elapsed * 1000 for _, elapsed in rows]
        statuses: dict[int, int] = defaultdict(int)
        for status, _ in rows:
            statuses[status] += 1
        summary[kind] = {
            "requests": len(rows),
            "per_second": len(rows) / seconds,
            "p50_ms": load.percentile(latencies, 0.50),
            "p99_ms": load.percentile(latencies, 0.99),
            "statuses": dict(sorted(statuses.items())),
        }
    return summary


def run_backend(backend: str, args, workdir: Path) -> dict:
    from bench.api.baseline import create_tables
    from server.storage.migrate import upgrade

    if backend == "sqlite":
        url = servers.sqlite_url(workdir)
    else:
        url = servers.fresh_postgres_url("iridescia_bench_api")
    upgrade(url)
    create_tables(url)
    load.DATABASE_URL = url  # where the clients read their mailed confirmation codes
    limits = {}
    if args.rate_limit_storage:
        # Limits on and counted in this storage, but never reached: what counting costs a post.
        limits = {"IRIDESCIA_RATE_LIMIT": "100000000",
                  "IRIDESCIA_RATE_LIMIT_STORAGE": args.rate_limit_storage,
                  "IRIDESCIA_ACCOUNT_REQUESTS_PER_HOUR": "100000000",
                  "IRIDESCIA_RATE_LIMIT_KEY_PREFIX": f"bench-{time.time_ns()}"}
    env = servers.server_env(url, workdir, **limits)
    phases: dict[str, dict] = {}
    mails: dict[str, int] = {}
    drains: list[float] = []
    # phase -> [(records, CPU seconds of the workers, of the clients, of the machine, seconds)]
    gathered: dict[str, list] = defaultdict(list)

    def measure(name: str, port: int, pid: int, seconds: float, side=None) -> None:
        """One slice of phase ``name``. With ``side`` (the mail phase's `MailSide`), its
        scheduler's and sink's CPU count too, and the slice lasts until its mail is sent."""
        workers = side.pids() if side else servers.child_pids(pid)
        scenario = "commands" if name in ("mail", "against") else name
        sent_before = side.counts()[0] if side else 0
        before = (servers.cpu_seconds(workers), servers.children_cpu_seconds(),
                  servers.machine_busy_seconds())
        records, _, errors = load.run(scenario, port, args.clients, seconds, seed=args.seed,
                                      after_setup=side.confirm_every_address if side else None)
        drained = side.drain() if side else 0.0
        after = (servers.cpu_seconds(workers), servers.children_cpu_seconds(),
                 servers.machine_busy_seconds())
        if errors:
            raise RuntimeError(f"{backend} {name}: {len(errors)} client(s) failed: {errors[0]}")
        if side:
            mails[name] = mails.get(name, 0) + side.counts()[0] - sent_before
            drains.append(drained)
        gathered[name].append((records, *(b - a for a, b in zip(before, after, strict=True)),
                               seconds + drained))

    def summarize_phase(name: str) -> None:
        parts = gathered[name]
        records = [record for part in parts for record in part[0]]
        phases[name] = summarize(records, sum(part[4] for part in parts))
        # CPU time per request: the workers' own (what a request costs the server, whatever the
        # clients and the rest of the machine take), the client processes' (with their untimed
        # set-up) and the whole machine's (both, the kernel's threads, anything else running).
        for index, who in ((1, "server"), (2, "clients"), (3, "machine")):
            phases[name][f"{who}_cpu_ms_per_request"] = (
                1000 * sum(part[index] for part in parts) / max(1, len(records)))
        print_phase(backend, name, phases[name])

    # Both servers run side by side; an idle one costs nothing. The phases the target compares
    # (insert, shaped, commands) take turns in rounds, so that the host's speed, which drifts
    # by tens of percent over minutes here, weighs on each of them alike.
    with ExitStack() as stack:
        base = stack.enter_context(
            servers.gunicorn("bench.api.baseline:create_app()", env, workdir, "/noop"))
        app = stack.enter_context(
            servers.gunicorn("server:create_app()", env, workdir, "/api/v1/health"))
        against = stack.enter_context(
            servers.gunicorn("server:create_app()", {**env, "PYTHONPATH": str(args.against)},
                             workdir, "/api/v1/health", root=args.against)
            if args.against else nullcontext())
        side = stack.enter_context(nullcontext() if args.no_mail else
                                   with_mail.serving(backend, workdir, limits))
        measure("noop", *base, args.seconds)
        slice_seconds = args.seconds / args.rounds
        turns = ["insert", "bare", "shaped", "commands"] + (["against"] if against else []) \
            + ([] if side is None else ["mail"])
        for _ in range(args.rounds):
            for name in turns:
                server = {"insert": base, "bare": base, "shaped": base, "commands": app,
                          "against": against}.get(name)
                if name == "mail":
                    measure(name, side.port, side.pid, slice_seconds, side)
                else:
                    measure(name, *server, slice_seconds)
        measure("mix", *app, args.seconds)
        for name in ["noop", "mix", *turns]:
            summarize_phase(name)
        for name in ("commands", "against", "mail"):
            if name in phases:
                phases[name]["rounds"] = {
                    baseline: [_posts_per_second(posts) / (len(base_part[0]) / base_part[-1])
                               for base_part, posts in zip(gathered[baseline], gathered[name],
                                                           strict=True)]
                    for baseline in ("bare", "insert")}
        if args.against:
            phases["against"]["vs_this"] = [
                _posts_per_second(ours) / _posts_per_second(theirs)
                for ours, theirs in zip(gathered["commands"], gathered["against"], strict=True)]
        if side is not None:
            phases["mail"]["mails"] = mails["mail"]
            phases["mail"]["drain_seconds"] = drains
        memory = {worker: servers.memory_mib(worker) for worker in servers.child_pids(app[1])}
    for worker, values in memory.items():
        print(f"{backend:<10} memory     worker {worker}: RSS {values['rss']:.0f} MiB, "
              f"PSS {values['pss']:.0f} MiB")
    if backend != "sqlite":
        servers.drop_postgres("iridescia_bench_api")
    return {"phases": phases, "worker_memory_mib": memory}


def _posts_per_second(measured: tuple) -> float:
    records, seconds = measured[0], measured[-1]
    return sum(1 for kind, _, _ in records if kind == "command") / seconds


def print_phase(backend: str, name: str, summary: dict) -> None:
    order = ["noop", "insert", "shaped", "view", "legal", "command", "list", "lobby", "all"]
    kinds = [k for k in summary if not k.endswith("_cpu_ms_per_request")]
    for kind in sorted(kinds, key=lambda k: order.index(k) if k in order else 99):
        if kind == "all" and len(kinds) == 2:
            continue  # a one-kind phase: "all" repeats it
        row = summary[kind]
        bad = sum(count for status, count in row["statuses"].items() if status >= 400)
        print(f"{backend:<10} {name:<10} {kind:<8} {row['requests']:>7} req "
              f"{row['per_second']:>8.1f}/s  p50 {row['p50_ms']:>6.1f} ms  "
              f"p99 {row['p99_ms']:>6.1f} ms  4xx/5xx {bad}", flush=True)
    print(f"{backend:<10} {name:<10} CPU per request: workers "
          f"{summary['server_cpu_ms_per_request']:.2f} ms, clients "
          f"{summary['clients_cpu_ms_per_request']:.2f} ms, machine "
          f"{summary['machine_cpu_ms_per_request']:.2f} ms", flush=True)


def verdicts(backend: str, result: dict) -> list[str]:
    phases = result["phases"]
    insert = phases["insert"]["insert"]["per_second"]
    bare = phases["bare"]["bare"]["per_second"]
    lines = [f"{backend:<10} baselines bare driver insert {bare:.1f}/s, engine (Core) insert "
             f"{insert:.1f}/s: {insert / bare:.2f} x bare"]
    for name in ("commands", "mix", "against", "mail"):
        if name not in phases:
            continue
        command = phases[name].get("command")
        if not command:
            lines.append(f"{backend}: no command posts in the {name} phase")
            continue
        rate = command["per_second"]
        lines.append(
            f"{backend:<10} {name:<8} command posts {rate:.1f}/s = {rate / bare:.2f} x bare "
            f"insert, {rate / insert:.2f} x Core insert; p99 {command['p99_ms']:.1f} ms")
        for baseline, ratios in phases[name].get("rounds", {}).items():
            lines.append(f"{backend:<10} rounds   {name} posts / {baseline} insert, round by "
                         "round: " + ", ".join(f"{ratio:.2f}" for ratio in ratios))
    shaped = phases.get("shaped", {}).get("shaped")
    command = phases["commands"].get("command")
    if shaped and command:
        lines.append(
            f"{backend:<10} shaped   command posts {command['per_second']:.1f}/s = "
            f"{command['per_second'] / shaped['per_second']:.2f} x the same statements alone "
            f"({shaped['per_second']:.1f}/s, {shaped['per_second'] / bare:.2f} x bare insert)"
        )
    if "against" in phases:
        lines.append(f"{backend:<10} against  this checkout's posts/s / the other's, round by "
                     "round: " + ", ".join(f"{r:.3f}" for r in phases["against"]["vs_this"]))
    # The same comparison by CPU time, an insert against a post with its share of the commands
    # phase's legal reads: the workers' (which the rest of the machine's load does not blur) and
    # the whole machine's (the clients and the kernel included, as the rate pays for them).
    for name in ("commands", "against", "mail"):
        if name not in phases:
            continue
        measured = phases[name]
        per_post = measured["all"]["requests"] / max(1, measured.get("command", {})
                                                     .get("requests", 0))
        whose_server = "the workers, scheduler and sink" if name == "mail" else "the workers"
        for who, whose in (("server", whose_server), ("machine", "the machine")):
            pair_cpu = measured[f"{who}_cpu_ms_per_request"] * per_post
            bare_cpu = phases["bare"][f"{who}_cpu_ms_per_request"]
            insert_cpu = phases["insert"][f"{who}_cpu_ms_per_request"]
            lines.append(
                f"{backend:<10} cpu      {name}: a post (and its share of legal reads) costs "
                f"{whose} {pair_cpu:.2f} ms of CPU, a bare insert {bare_cpu:.2f} ms "
                f"({bare_cpu / pair_cpu:.2f} x), a Core insert {insert_cpu:.2f} ms "
                f"({insert_cpu / pair_cpu:.2f} x)")
    if "mail" in phases:
        measured = phases["mail"]
        posts = measured["command"]["requests"]
        lines.append(f"{backend:<10} mail     {measured['mails']} mails sent for {posts} posts "
                     f"({measured['mails'] / max(1, posts):.2f} a post); waited for the last "
                     "mails after each slice: "
                     + ", ".join(f"{s:.2f}" for s in measured["drain_seconds"]) + " s")
    # With the server saturated, throughput is bounded by the time a request holds a worker:
    # compare that time directly too (mean latency under the same load).
    lines.append(
        f"{backend:<10} latency  command p50 {phases['commands']['command']['p50_ms']:.1f} ms "
        f"vs bare insert p50 {phases['bare']['bare']['p50_ms']:.1f} ms "
        f"vs noop p50 {phases['noop']['noop']['p50_ms']:.1f} ms"
    )
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.api", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    parser.add_argument("--rounds", type=int, default=3,
                        help="insert, shaped and commands take turns this many times, "
                             "each for its share of --seconds")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="also serve the app of this other checkout (same database) and "
                             "run the commands phase on it in each round")
    parser.add_argument("--no-mail", action="store_true",
                        help="leave out the mail phase (the scheduler delivering to a sink)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--rate-limit-storage", metavar="URI",
                        help="serve with the request limits on (never reached), counted in "
                             "memory:// or redis://127.0.0.1:6379/0 (default: limits off)")
    args = parser.parse_args(argv)
    backends = args.backend or ["sqlite", "postgresql"]
    print(f"bench.api: gunicorn 2 sync workers, {args.clients} client processes, "
          f"{args.seconds:g} s per phase (the compared phases in {args.rounds} turns); load "
          f"average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    results, failed = {}, []
    for backend in backends:
        with tempfile.TemporaryDirectory(prefix=f"bench-api-{backend}-") as tmp:
            try:
                results[backend] = run_backend(backend, args, Path(tmp))
            except Exception as error:  # noqa: BLE001 - reported, then the exit code says so
                print(f"{backend}: FAILED: {error}", file=sys.stderr)
                failed.append(backend)
    print()
    for backend, result in results.items():
        for line in verdicts(backend, result):
            print(line)
    print(f"bench.api: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"targets: command posts >= {TARGET_RATIO:.0%} of the bare insert, "
          f"p99 <= {TARGET_COMMAND_P99_MS:g} ms (SQLite)")
    if args.json:
        args.json.write_text(json.dumps({"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                         "args": vars(args) | {"json": str(args.json)},
                                         "results": results}, indent=2, default=str))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
