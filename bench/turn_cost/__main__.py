"""The unit cost of a turn, end to end (issue 31).

    python -m bench.turn_cost [--backend sqlite --backend postgresql] [--clients 3] [--games 2]
                              [--reads 60] [--skip-scale]

For each database, a fresh one, served as deploy/ serves it: gunicorn with the ASGI front, one
worker, and `iridescia-server scheduler` in a process of its own, mail over SMTP to a sink in
this process. ``--clients`` processes each play ``--games`` whole public games over HTTP, solo
against the Rhom and 2-player in turn, at random among the legal commands, as fast as the server
answers. While they play, the CPU of the API processes, the schedulers and (PostgreSQL) the
database's backends is read from /proc. When the mail is delivered, it prints per player turn:

- the CPU of each process and in all, beside the engine's own work for the same commands (this
  process decides and applies every command of the games again): the ratio, target <= x60;
- the mails and their bytes at the sink, and the outbox's bytes now and a day after delivery
  (once the scheduler has cleared delivered bodies: target <= 4 KB a turn);
- how long game mail waited from queued to sent (p90, target <= 30 s);
- reads one at a time: the board picture and the game page against the JSON view of the same
  finished game (CPU a request; targets <= 2x and <= 3x), and a request that does nothing through
  the deployed front against gunicorn's plain worker (target <= 1.15x).

Then (unless ``--skip-scale``) the same games with two API processes and two schedulers: posts
per CPU-second against one of each (target >= x0.95).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.api import servers
from bench.turn_cost import figures, play, processes, reads

TARGETS = {"cpu_ratio": 60, "kept_bytes": 4096, "picture": 2.0, "page": 3.0, "front": 1.15,
           "scale": 0.95, "wait_p90": 30.0}


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def fresh_database(backend: str, workdir: Path, name: str) -> tuple[str, str | None]:
    from server.storage.migrate import upgrade

    if backend == "sqlite":
        (workdir / name).mkdir()
        url, database = servers.sqlite_url(workdir / name), None
    else:
        url, database = servers.fresh_postgres_url(name), name
    upgrade(url)
    return url, database


def verdict(value: float, target: float, at_most: bool = True) -> str:
    met = value <= target if at_most else value >= target
    return "met" if met else "MISSED"


def play_phase(backend, workdir, name, api_processes, schedulers, args) -> dict:
    """Games played on a fresh database by the given processes; the figures of the phase."""
    from bench.mail.__main__ import confirm_every_address
    from server.storage.db import get_engine

    url, database = fresh_database(backend, workdir, name)
    db = get_engine(url)
    try:
        with processes.smtp_sink() as (sink, smtp_port), processes.serving(
                url, workdir, api_processes, schedulers, smtp_port) as (port, master, pids):
            http = play.Http(port)
            players = [[play.register(http, f"c{client}p{n}", db) for n in range(3)]
                       for client in range(args.clients)]
            confirm_every_address(db)
            with processes.Meter([master], pids, database) as meter:
                meter.mark()
                started = time.monotonic()
                posted, games = play.run(port, args.clients, args.games, players)
                played = time.monotonic() - started
                processes.wait(args.drain, lambda: figures.mail_waits(db)[0] == 0)
                cpu = meter.figures()
            pending, waits = figures.mail_waits(db)
            phase = {"url": url, "posted": posted, "games": games, "played_seconds": played,
                     "cpu": cpu, "pending": pending, "waits": waits,
                     "mail_sizes": sink.game_mail(), "turns": figures.player_turns(db)}
            if args.reads and api_processes == 1:
                game_id, token = games[0]
                phase["reads"] = reads.game_reads(port, master, game_id, token, args.reads)
        phase["engine_seconds"] = figures.engine_seconds(db, [game for game, _ in games])
        phase["outbox_now"] = figures.outbox_bytes(db)
        phase["outbox_later"] = figures.outbox_bytes_a_day_later(db)
        if args.reads and api_processes == 1:
            phase["front"] = reads.front_against_plain(url, workdir, args.reads * 4)
        return phase
    finally:
        db.dispose()
        if database and not args.keep:
            servers.drop_postgres(database)


def report(backend: str, label: str, phase: dict) -> None:
    turns = max(phase["turns"], 1)
    cpu = phase["cpu"]
    total = sum(cpu.values())
    engine_ms = phase["engine_seconds"] * 1000 / turns
    per_turn = {name: seconds * 1000 / turns for name, seconds in cpu.items()}
    ratio = total * 1000 / turns / engine_ms if engine_ms else float("nan")
    sizes = phase["mail_sizes"]
    line = f"{backend:<10} {label}"
    print(f"{line}: {len(phase['games'])} games, {phase['turns']} player turns, "
          f"{phase['posted']} posts in {phase['played_seconds']:.0f} s "
          f"(load {load_average()})")
    print(f"{line}: CPU a player turn: API {per_turn['api']:.1f} ms, scheduler "
          f"{per_turn['scheduler']:.1f} ms, database {per_turn['db']:.1f} ms, all "
          f"{total * 1000 / turns:.1f} ms; the engine's own work {engine_ms:.3f} ms: "
          f"x{ratio:.0f} (target <= x{TARGETS['cpu_ratio']}: "
          f"{verdict(ratio, TARGETS['cpu_ratio'])})")
    print(f"{line}: mail a player turn: {len(sizes) / turns:.2f} mails, "
          f"{sum(sizes) / turns / 1024:.1f} KB (largest {max(sizes, default=0) / 1024:.1f} KB)")
    kept = phase["outbox_later"] / turns
    print(f"{line}: outbox a player turn: {phase['outbox_now'] / turns / 1024:.1f} KB before "
          f"clearing, {kept / 1024:.2f} KB a day after delivery (target <= "
          f"{TARGETS['kept_bytes'] / 1024:.0f} KB: {verdict(kept, TARGETS['kept_bytes'])})")
    waits = phase["waits"]
    p90 = figures.percentile(waits, 0.9) if waits else float("nan")
    print(f"{line}: game mail queued -> sent: {figures.describe_waits(waits)}; "
          f"{phase['pending']} still queued (target p90 <= {TARGETS['wait_p90']:g} s: "
          f"{verdict(p90, TARGETS['wait_p90'])})")
    if "reads" in phase:
        view_cpu, view_p99 = phase["reads"]["view"]
        for name, target in (("board.png", "picture"), ("page", "page")):
            cpu_ms, p99 = phase["reads"][name]
            print(f"{line}: {name}: {cpu_ms:.2f} ms CPU a request, p99 {p99:.1f} ms; the JSON "
                  f"view {view_cpu:.2f} ms, p99 {view_p99:.1f} ms: x{cpu_ms / view_cpu:.1f} "
                  f"(target <= x{TARGETS[target]:g}: "
                  f"{verdict(cpu_ms / view_cpu, TARGETS[target])})")
    if "front" in phase:
        (front, front_p99), (plain, plain_p99) = phase["front"]["front"], phase["front"]["plain"]
        print(f"{line}: a request that does nothing: the front {front:.2f} ms CPU (p99 "
              f"{front_p99:.1f} ms), gunicorn's plain worker {plain:.2f} ms (p99 "
              f"{plain_p99:.1f} ms): x{front / plain:.2f} (target <= x{TARGETS['front']}: "
              f"{verdict(front / plain, TARGETS['front'])})")


def posts_per_cpu_second(phase: dict) -> float:
    return phase["posted"] / max(sum(phase["cpu"].values()), 1e-9)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.turn_cost", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--clients", type=int, default=3, help="client processes")
    parser.add_argument("--games", type=int, default=2, help="games each client plays")
    parser.add_argument("--reads", type=int, default=60, help="requests of each read measured")
    parser.add_argument("--drain", type=float, default=120,
                        help="seconds to wait for the mail once play ends")
    parser.add_argument("--skip-scale", action="store_true",
                        help="no second phase with two API processes and two schedulers")
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL databases")
    args = parser.parse_args(argv)
    print(f"bench.turn_cost: load average {load_average()}", flush=True)
    failed = False
    for backend in args.backend or ["sqlite", "postgresql"]:
        with tempfile.TemporaryDirectory(prefix=f"bench-turn-cost-{backend}-") as tmp:
            workdir = Path(tmp)
            try:
                one = play_phase(backend, workdir, "iridescia_bench_turn_cost_1", 1, 1, args)
                report(backend, "1 API + 1 scheduler", one)
                if not args.skip_scale:
                    two = play_phase(backend, workdir, "iridescia_bench_turn_cost_2", 2, 2,
                                     args)
                    report(backend, "2 API + 2 schedulers", two)
                    scale = posts_per_cpu_second(two) / posts_per_cpu_second(one)
                    print(f"{backend:<10} posts a CPU-second: 1 + 1 "
                          f"{posts_per_cpu_second(one):.1f}, 2 + 2 "
                          f"{posts_per_cpu_second(two):.1f}: x{scale:.2f} (target >= "
                          f"x{TARGETS['scale']}: {verdict(scale, TARGETS['scale'], False)})")
            except Exception as error:  # noqa: BLE001 - reported; the exit code says so
                import traceback

                traceback.print_exc()
                print(f"{backend}: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
                failed = True
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
