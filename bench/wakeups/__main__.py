"""Wake-ups: command posts beside open long-polls, and how soon mail and the Rhom follow a command.

    python -m bench.wakeups [--seconds 8] [--rounds 2] [--waits 0 8 64 256] [--clients 4]
                            [--backend sqlite --backend postgresql] [--skip-posts] [--skip-follow]

For each database, the app is served as deploy/ serves it: gunicorn, 2 uvicorn workers, the
ASGI front (server/asgi.py); ``--server gthread`` or ``sync`` serves the posts' part with the
Flask app alone under those gunicorn workers instead, for comparison.

1. **Posts beside open waits** (issue 16, finding 6): ``--clients`` processes post commands
   (bench/api's `commands` load) while another process holds N long-polls open (``GET
   /games/{id}/events?wait=30`` on a public game nobody plays, each opened again when it
   answers); N takes each of ``--waits`` in turn, ``--rounds`` times, so "none" is measured
   in the same run. Prints the posts' p50/p99 per N and each p99's ratio to the p99 with none
   (target <= 1.5). The per-client cap is raised for this (the waits come from one address).
2. **What follows a command** (issue 17), at the default settings (the scheduler's interval 5 s)
   with `iridescia-server scheduler` in a process of its own and an SMTP sink (aiosmtpd) in
   this one: a player posts commands in 2-player games; the time from each post's answer to
   the arrival at the sink of each mail it caused (p50/p90, target p90 <= 1 s). Then a player
   of a 1-player game with the Rhom (rhom_delay 0) ends turns; the time from the post that
   hands the turn to the Rhom to the Rhom's events reaching the player's long-poll (target
   <= 1 s).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.api import load, servers
from bench.api.load import API, Http, expect, percentile

TARGET_P99_RATIO = 1.5
TARGET_FOLLOW_SECONDS = 1.0
FRONT = "server.asgi:create_asgi_app()"
UVICORN = "uvicorn_worker.UvicornWorker"
# --server: the front as deployed, or for comparison the Flask app alone under gunicorn's
# gthread workers (deploy/ until issue 16: a wait holds a thread) or sync ones (bench/api's).
SERVERS = {"front": (FRONT, UVICORN), "gthread": ("server:create_app()", "gthread"),
           "sync": ("server:create_app()", "sync")}


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def public_quiet_game(http: Http) -> tuple[str, int]:
    """A started public game nobody plays: what the waiters watch."""
    first, second = load.register(http, "quiet-a"), load.register(http, "quiet-b")
    status, game = http.call("lobby", "POST", f"{API}/games", {"seats": 2, "public": True},
                             token=first)
    game = expect(status, game, 201, "create the quiet game")
    expect(*http.call("lobby", "POST", f"{API}/games/join", {"code": game["join_code"]},
                      token=second), 200, "join")
    status, game = http.call("lobby", "POST", f"{API}/games/{game['id']}/start", token=first)
    game = expect(status, game, 200, "start")
    return game["id"], game["version"]


def _hold_waits(port: int, game_id: str, after: int, count: int, ready) -> None:
    """In a process of its own: keep ``count`` anonymous long-polls open until killed."""

    async def one() -> None:
        request = (f"GET {API}/games/{game_id}/events?after={after}&wait=30 HTTP/1.1\r\n"
                   f"Host: 127.0.0.1\r\nConnection: close\r\n\r\n").encode()
        while True:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            await writer.drain()
            await reader.read()  # the answer, at the end of its wait
            writer.close()

    async def main() -> None:
        tasks = [asyncio.ensure_future(one()) for _ in range(count)]
        await asyncio.sleep(1.5)  # every request sent and parked by the server
        ready.set()
        await asyncio.gather(*tasks)

    asyncio.run(main())


def posts_beside_waits(backend: str, port: int, args) -> dict:
    http = Http(port)
    game_id, version = public_quiet_game(http)
    context = multiprocessing.get_context("fork")
    p99: dict[int, list[float]] = {}
    p50: dict[int, list[float]] = {}
    rates: dict[int, list[float]] = {}
    for round_number in range(1, args.rounds + 1):
        for count in args.waits:
            holder = None
            if count:
                ready = context.Event()
                holder = context.Process(target=_hold_waits,
                                         args=(port, game_id, version, count, ready))
                holder.start()
                if not ready.wait(60):
                    raise RuntimeError("the waits were not opened")
            try:
                records, wall, errors = load.run("commands", port, args.clients, args.seconds,
                                                 seed=round_number * 100 + count)
            finally:
                if holder is not None:
                    holder.terminate()
                    holder.join()
            if errors:  # e.g. timed out behind waits that hold every thread (--server gthread)
                print(f"{backend:<10} round {round_number} {count:>3} open waits: "
                      f"{len(errors)} client(s) failed: {errors[0]}", flush=True)
            posts = [seconds * 1000 for kind, status, seconds in records
                     if kind == "command" and status == 201]
            failed = [status for kind, status, _ in records if status >= 500]
            p99.setdefault(count, []).append(percentile(posts, 0.99))
            p50.setdefault(count, []).append(percentile(posts, 0.5))
            rates.setdefault(count, []).append(len(posts) / wall)
            print(f"{backend:<10} round {round_number} {count:>3} open waits: "
                  f"{len(posts) / wall:6.1f} posts/s, p50 {percentile(posts, 0.5):5.1f} ms, "
                  f"p99 {percentile(posts, 0.99):5.1f} ms"
                  + (f", {len(failed)} answers >= 500" if failed else ""), flush=True)
    base = sum(p99[0]) / len(p99[0])
    for count in args.waits:
        mean = sum(p99[count]) / len(p99[count])
        verdict = ""
        if count:
            ratio = mean / base
            verdict = (f" = {ratio:.2f} x none (target <= {TARGET_P99_RATIO}: "
                       f"{'met' if ratio <= TARGET_P99_RATIO else 'MISSED'})")
        print(f"{backend:<10} {count:>3} open waits: posts p99 {mean:5.1f} ms (mean of "
              f"{len(p99[count])} rounds), p50 {sum(p50[count]) / len(p50[count]):5.1f} ms, "
              f"{sum(rates[count]) / len(rates[count]):6.1f} posts/s{verdict}", flush=True)
    return {"p99": p99, "p50": p50, "rates": rates}


class Sink:
    """aiosmtpd in a thread of this process: when each message arrived, by its dedupe key."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}

    async def handle_DATA(self, server, session, envelope):  # noqa: ANN001
        from email import message_from_bytes

        key = message_from_bytes(envelope.original_content)["X-Iridescia-Key"]
        self.arrived.setdefault(key, time.monotonic())
        return "250 OK"


def _scheduler(env: dict[str, str], workdir: Path) -> subprocess.Popen:
    log = (workdir / "scheduler.log").open("w")
    return subprocess.Popen([sys.executable, "-c", "from server.cli import main; main()",
                             "scheduler"], env=env, cwd=workdir, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)


def confirm_every_address(url: str) -> None:
    """As if every player had opened their confirmation link (an unconfirmed address is sent
    only that); the game's first mails, queued before this, may be withheld and are not counted."""
    from bench.mail.__main__ import confirm_every_address as confirm
    from server.storage.db import get_engine

    confirm(get_engine(url))


def mail_after_commands(backend: str, url: str, port: int, sink: Sink,
                        seconds: float) -> list[float]:
    """Play 2-player games for ``seconds``; each mail's delay after the post that caused it."""
    http = Http(port)
    rng = random.Random(5)
    answered: dict[tuple[str, int], float] = {}  # (game, version after the post) -> answer time
    players, table = load.setup_game_client(http, rng)
    confirm_every_address(url)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        token = table.tokens[table.seat]
        path = f"{API}/games/{table.game_id}"
        status, legal = http.call("legal", "GET", f"{path}/legal", token=token)
        if status != 200 or not legal["commands"]:
            status, game = http.call("lobby", "GET", path, token=token)
            if game.get("status") == "finished" or game.get("current_seat") is None:
                table = load.new_table(http, players)
            else:
                table.seat = game["current_seat"]
            continue
        body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
        status, result = http.call("command", "POST", f"{path}/commands", body, token=token)
        if status == 201:
            answered[(table.game_id, result["version"])] = time.monotonic()
        time.sleep(0.05)  # a brisk player, not a flood: what is measured is the delay
    time.sleep(6)  # anything still on its way (the safety net is 5 s)
    print(f"{backend:<10} {len(answered)} posts, {len(sink.arrived)} mails at the sink, e.g. "
          f"{sorted(sink.arrived)[:2]}", flush=True)
    delays = []
    for key, arrived in sink.arrived.items():
        parts = key.split("/")  # GAME/vN/kind/seatS for a game's notices
        if len(parts) < 2:
            continue  # account mail
        game_id, version = parts[0], parts[1]
        if version.startswith("v") and (game_id, int(version[1:])) in answered:
            delays.append(arrived - answered[(game_id, int(version[1:]))])
    return delays


def rhom_after_commands(port: int, turns: int) -> list[float]:
    """A player alone with the Rhom ends ``turns`` turns; each time, the delay from the post's
    answer to the Rhom's events reaching the player's long-poll."""
    http = Http(port)
    rng = random.Random(9)
    token = load.register(http, "rhom-player")
    delays: list[float] = []
    game_id = None
    while len(delays) < turns:
        if game_id is None:
            status, game = http.call("lobby", "POST", f"{API}/games",
                                     {"seats": 1, "rhom": True, "rhom_delay_seconds": 0},
                                     token=token)
            game_id = expect(status, game, 201, "create a Rhom game")["id"]
        path = f"{API}/games/{game_id}"
        status, legal = http.call("legal", "GET", f"{path}/legal", token=token)
        if not legal["commands"]:
            status, game = http.call("lobby", "GET", path, token=token)
            if game["status"] == "finished":
                game_id = None
            else:
                time.sleep(0.05)
            continue
        body = {"command": rng.choice(legal["commands"]), "expected_version": legal["version"]}
        status, result = http.call("command", "POST", f"{path}/commands", body, token=token)
        if status != 201 or result.get("legal"):
            continue  # still the player's decision
        answered = time.monotonic()
        status, game = http.call("lobby", "GET", path, token=token)
        rhom_seats = {p["seat"] for p in game["players"] if p.get("kind") == "rhom"}
        if game["status"] != "active" or game["current_seat"] not in rhom_seats:
            continue
        connection = http_client(port)
        connection.request("GET", f"{path}/events?after={result['version']}&wait=10",
                           headers={"Authorization": f"Bearer {token}"})
        events = json.loads(connection.getresponse().read())["events"]
        connection.close()
        if events:
            delays.append(time.monotonic() - answered)
    return delays


def http_client(port: int) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=30)


def follow(backend: str, url: str, workdir: Path, args) -> None:
    from aiosmtpd.controller import Controller

    sink = Sink()
    smtp_port = servers.free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    env = servers.server_env(url, workdir, IRIDESCIA_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}"
                             "?security=none")
    scheduler = _scheduler(env, workdir)
    try:
        with servers.gunicorn(FRONT, env, workdir, "/api/v1/health",
                              worker_class=UVICORN) as (port, _pid):
            wait_for_the_scheduler(port)
            delays = mail_after_commands(backend, url, port, sink, args.follow_seconds)
            report_delays(backend, "command -> its mail at the sink", delays)
            delays = rhom_after_commands(port, args.rhom_turns)
            report_delays(backend, "command -> the Rhom's turn at the player", delays)
    finally:
        os.killpg(scheduler.pid, signal.SIGTERM)
        scheduler.wait(timeout=20)
        controller.stop()


def wait_for_the_scheduler(port: int, seconds: float = 60) -> None:
    """Until the scheduler has recorded a tick (its first runs, at its start, are over)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, health = Http(port).call("health", "GET", f"{API}/health")
        if status == 200 and health["scheduler"]["last_tick_at"] is not None:
            time.sleep(1)
            return
        time.sleep(0.2)
    raise RuntimeError("the scheduler did not tick")


def report_delays(backend: str, what: str, delays: list[float]) -> None:
    if not delays:
        print(f"{backend:<10} {what}: nothing measured", flush=True)
        return
    p90 = percentile(delays, 0.9)
    verdict = "met" if p90 <= TARGET_FOLLOW_SECONDS else "MISSED"
    print(f"{backend:<10} {what}: {len(delays)} measured, p50 {percentile(delays, 0.5):.3f} s, "
          f"p90 {p90:.3f} s, max {max(delays):.3f} s (target p90 <= "
          f"{TARGET_FOLLOW_SECONDS:g} s: {verdict})", flush=True)


def fresh_database(backend: str, workdir: Path, name: str) -> str:
    """Each part its own database: the posts' part leaves thousands of mails queued (it runs no
    scheduler), which the follow part would otherwise deliver first."""
    from server.storage.migrate import upgrade

    if backend == "sqlite":
        (workdir / name).mkdir()
        url = servers.sqlite_url(workdir / name)
    else:
        url = servers.fresh_postgres_url(name)
    upgrade(url)
    load.DATABASE_URL = url  # where registering reads the mailed confirmation codes
    return url


def run_backend(backend: str, args, workdir: Path) -> None:
    names = ["iridescia_bench_wakeups", "iridescia_bench_follow"]
    try:
        if not args.skip_posts:
            url = fresh_database(backend, workdir, names[0])
            env = servers.server_env(url, workdir, IRIDESCIA_LONG_POLL_MAX_PER_CLIENT="100000")
            app, worker_class = SERVERS[args.server]
            if args.server == "gthread":  # what deploy/ ran before: 8 threads a worker
                env["GUNICORN_CMD_ARGS"] = "--threads 8"
            with servers.gunicorn(app, env, workdir, "/api/v1/health",
                                  worker_class=worker_class) as (port, _pid):
                posts_beside_waits(backend, port, args)
        if not args.skip_follow:
            follow(backend, fresh_database(backend, workdir, names[1]), workdir, args)
    finally:
        if backend == "postgresql":
            for name in names:
                servers.drop_postgres(name)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.wakeups", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8, help="per phase of posts")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--waits", type=int, nargs="+", default=[0, 8, 64, 256])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--follow-seconds", type=float, default=20)
    parser.add_argument("--rhom-turns", type=int, default=20)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--server", choices=sorted(SERVERS), default="front",
                        help="what serves the posts beside the waits (default: the front)")
    parser.add_argument("--skip-posts", action="store_true")
    parser.add_argument("--skip-follow", action="store_true")
    args = parser.parse_args(argv)
    if 0 not in args.waits:
        args.waits = [0, *args.waits]
    print(f"bench.wakeups: load average {load_average()}", flush=True)
    for backend in args.backend or ["sqlite", "postgresql"]:
        with tempfile.TemporaryDirectory(prefix="bench-wakeups-") as workdir:
            run_backend(backend, args, Path(workdir))
        print(f"bench.wakeups: {backend} done, load average {load_average()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
