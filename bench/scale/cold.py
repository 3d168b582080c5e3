"""Cold reads at scale: views, game lists and posts of random games and users, beside a noop.

    python -m bench.scale.cold [--games 10000] [--requests 200] [--backend sqlite ...]
                               [--against OTHER_CHECKOUT ...]

A fresh database gets 10,000 games in mixed states (70 % in progress, 15 % open, 15 %
finished; bench/scale/populate.py), among them games of about 100, 300 and 600 events, half of
those with their snapshots deleted ("snapshots off"), and three users in 10, 100 and 1,000 games.
Then, for each measurement, a fresh gunicorn (2 sync workers) with the state cache off
(`IRIDESCIA_STATE_CACHE_SIZE=0`: every read derives its state from the rows) serves requests one
at a time, each for a game or user picked at random; beside it, request by request, the same
gunicorn setup serving `GET /noop` (bench/api/baseline.py) and, with ``--against``, a gunicorn of
each other checkout's code (e.g. `git archive` of the commit before, to compare in one run).
Prints p50/p99 of each and each p99's ratio to the p99 of the noop beside it (targets: cold
view p99 <= 3x noop p99 at any log length; game list, first page as a client gets it by
default, of the user in 100 games <= 3x noop p99). ``--games``, ``--per-length``, ``--users``
and ``--requests`` make it smaller for a busy machine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import sqlalchemy as sa

from bench.api import servers
from bench.api.load import percentile
from bench.scale import populate

TARGET_RATIO = 3.0
LENGTHS = (100, 300, 600)


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def request(port: int, method: str, path: str, token: str | None = None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    elapsed = (time.perf_counter() - started) * 1000
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {payload[:300]!r}")
    return elapsed


def long_template(client, rng, events: int, tag: str) -> populate.Template:
    """A 4-player game (the longest) played until it has at least `events` events and is still going."""
    for attempt in range(12):
        template = populate.play_template(client, rng, 4, events * 3, f"{tag}x{attempt}",
                                          until_events=events)
        if template.status == "active" and template.events >= events:
            return template
    raise RuntimeError(f"no game reached {events} events still in progress")


def build(url: str, args, rng: random.Random) -> dict:
    from server import create_app
    from server.storage.db import get_engine

    app = create_app({"DATABASE_URL": url, "RATE_LIMIT": 0, "TESTING": True})
    client = app.test_client()
    mixed = [populate.open_template(client, rng, seats, f"open{seats}") for seats in (2, 3, 4)]
    for players in (2, 3, 4):
        for commands in (3, 15, 60):
            mixed.append(populate.play_template(client, rng, players, commands,
                                                f"t{players}x{commands}"))
    for attempt in range(4):
        mixed.append(populate.play_template(client, rng, 2, 20000, f"finished{attempt}"))
        if mixed[-1].status == "finished":
            break
    long_games = {length: long_template(client, rng, length, f"long{length}")
                  for length in LENGTHS}
    users = [populate.register(client, f"u{i}", rng) for i in range(args.users)]
    tokens = {u["id"]: u["token"] for u in users}
    heavy = {users[0]["id"]: 1000, users[1]["id"]: 100, users[2]["id"]: 10}
    engine = get_engine(url)
    started = time.perf_counter()
    per_length = args.per_length
    rest = args.games - per_length * len(LENGTHS) * 2
    counts = {"active": int(rest * 0.7), "open": int(rest * 0.15)}
    counts["finished"] = rest - counts["active"] - counts["open"]
    statuses = {t.status for t in mixed}
    if "finished" not in statuses:  # the random game did not end: more in progress instead
        counts["active"] += counts.pop("finished")
    created = populate.clone_games(engine, mixed, counts, list(tokens), rng, heavy_user=-1,
                                   heavy_games=0, heavy=heavy)
    by_length = {}
    for length, template in long_games.items():
        ids = populate.clone_games(engine, [template], {"active": per_length * 2}, list(tokens),
                                   rng, heavy_user=-1, heavy_games=0)["active"]
        by_length[length] = {"on": ids[:per_length], "off": ids[per_length:],
                             "events": template.events}
        with engine.begin() as connection:  # "snapshots off": the whole log to replay
            connection.execute(sa.text("DELETE FROM snapshots WHERE game_id IN :ids").bindparams(
                sa.bindparam("ids", expanding=True)), {"ids": ids[per_length:]})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql(
            "VACUUM (ANALYZE)" if engine.dialect.name == "postgresql" else "ANALYZE")
    games = populate.count_rows(engine, "games")
    print(f"stored {games} games ({ {k: len(v) for k, v in created.items()} } + "
          f"{per_length * 2} of each of {[t.events for t in long_games.values()]} events), "
          f"{populate.count_rows(engine, 'events')} events, {args.users} users; copies "
          f"{time.perf_counter() - started:.1f} s; load {load_average()}", flush=True)
    with engine.connect() as connection:
        seats = connection.execute(sa.text(
            "SELECT s.game_id, s.seat, s.user_id, g.status, g.current_seat, g.version "
            "FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id IS NOT NULL")).all()
    players = {}
    for game_id, seat, user_id, status, current_seat, version in seats:
        if user_id not in tokens:  # a template's own players: their games are not picked
            continue
        entry = players.setdefault(game_id, {"status": status, "version": version,
                                             "tokens": [], "to_act": None})
        entry["tokens"].append(tokens[user_id])
        if seat == current_seat:
            entry["to_act"] = tokens[user_id]
    engine.dispose()
    return {"players": players, "by_length": by_length, "tokens": tokens,
            "heavy": {n: tokens[u] for u, n in heavy.items()},
            "ordinary": [u["token"] for u in users[3:]]}


def report(backend: str, what: str, latencies: list[float], noop_p99: float | None,
           target: bool = False) -> dict:
    p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
    ratio = p99 / noop_p99 if noop_p99 else None
    verdict = ""
    if target and ratio is not None:
        verdict = f" (target <= x{TARGET_RATIO:g}: {'met' if ratio <= TARGET_RATIO else 'MISSED'})"
    print(f"{backend:<10} {what:<58} p50 {p50:7.1f} ms  p99 {p99:7.1f} ms"
          + (f"  x{ratio:.1f} noop p99{verdict}" if ratio is not None else "")
          + f"  load {load_average()}", flush=True)
    return {"p50_ms": p50, "p99_ms": p99, "ratio_to_noop_p99": ratio, "requests": len(latencies),
            "load_average": load_average()}


def legal_command(url_engine, game_id: str):
    """A legal command for the seat to act, worked out here from the stored rows (the server's
    own state cache stays cold)."""
    import engine
    from engine.bots.policies import greedy_policy
    from server.games.service import load_state

    with url_engine.connect() as connection:
        game = connection.execute(sa.text("SELECT id, version FROM games WHERE id = :id"),
                                  {"id": game_id}).one()
        state = load_state(connection, game)
    seat = engine.current_player(state)
    return engine.command_to_dict(greedy_policy(state, seat, random.Random(game_id))), game.version


def measure(backend: str, url: str, built: dict, args, workdir: Path) -> dict:
    from bench.api import baseline
    from server.storage.db import get_engine

    rng = random.Random(args.seed)
    env = servers.server_env(url, workdir, IRIDESCIA_STATE_CACHE_SIZE="0")
    # The code compared with (--against: another checkout), served beside this one.
    sides = {"": (env, servers.ROOT)}
    for other in args.against or []:
        sides[f" [{other.name}]"] = ({**env, "PYTHONPATH": str(other)}, other)
    baseline.create_tables(url)
    results = {}
    players = built["players"]
    every = list(players)
    with servers.gunicorn("bench.api.baseline:create_app()", env, workdir, "/noop") as (noop, _):
        for _ in range(20):
            request(noop, "GET", "/noop")
        noop_latencies = [request(noop, "GET", "/noop") for _ in range(args.requests)]
        results["noop"] = report(backend, "noop (same gunicorn setup), alone", noop_latencies,
                                 None)

        def served(name: str, paths: list[tuple[str, str, str | None, dict | None]],
                   target: bool = False, split: bool = False) -> None:
            """Each side's fresh gunicorn and the noop take turns, request by request, so that
            the machine's load weighs on them alike; each p99 is compared with the noop's
            beside it. ``split``: each side gets its own share of ``paths`` (posts change the
            game they go to)."""
            with ExitStack() as stack:
                # A fresh gunicorn per measurement: its workers' first requests also pay for
                # lazy imports, so a few requests of another kind go first.
                ports = {}
                for label, (side_env, root) in sides.items():
                    ports[label] = stack.enter_context(servers.gunicorn(
                        "server:create_app()", side_env, workdir, "/api/v1/health", root=root))[0]
                    for _ in range(4):
                        request(ports[label], "GET", "/api/v1/health")
                shares = ({label: paths[i::len(sides)] for i, label in enumerate(sides)} if split
                          else {label: paths for label in sides})
                latencies = {label: [] for label in sides}
                beside = []
                for index in range(max(len(share) for share in shares.values())):
                    turn = list(sides)[index % len(sides):] + list(sides)[:index % len(sides)]
                    for label in turn:
                        if index < len(shares[label]):
                            latencies[label].append(request(ports[label], *shares[label][index]))
                    beside.append(request(noop, "GET", "/noop"))
            noop_p99 = percentile(beside, 0.99)
            results[f"{name}: noop beside"] = report(backend, f"{name}: noop beside", beside,
                                                     None)
            for label in sides:
                results[name + label] = report(backend, name + label, latencies[label], noop_p99,
                                               target)

        def views(ids):
            return [("GET", f"/api/v1/games/{g}/view", rng.choice(players[g]["tokens"]), None)
                    for g in (rng.choice(ids) for _ in range(args.requests))]

        # An open game has no view yet (409): its players read GET /games/{id}, as here.
        started = [g for g in every if players[g]["status"] != "open"]
        served("cold view, random started/finished games", views(started), target=True)
        served("cold game, random open games",
               [("GET", f"/api/v1/games/{g}", rng.choice(players[g]["tokens"]), None)
                for g in (rng.choice([g for g in every if players[g]["status"] == "open"])
                          for _ in range(args.requests))])
        for sets in built["by_length"].values():
            for snapshots in ("on", "off"):
                served(f"cold view, {sets['events']}-event games, snapshots {snapshots}",
                       views(sets[snapshots]), target=True)
        # The list as a client asks for it: GET /games, its first page (20 games).
        served("game list (page 1), random ordinary users",
               [("GET", "/api/v1/games", rng.choice(built["ordinary"]), None)
                for _ in range(args.requests)])
        for count, token in sorted(built["heavy"].items()):
            served(f"game list (page 1), user in {count} games",
                   [("GET", "/api/v1/games", token, None)] * args.requests, target=count == 100)
        db = get_engine(url)
        for sets in built["by_length"].values():
            for snapshots in ("on", "off"):
                posts = []
                for game_id in rng.sample(sets[snapshots], min(args.posts, len(sets[snapshots]))):
                    command, version = legal_command(db, game_id)
                    posts.append(("POST", f"/api/v1/games/{game_id}/commands",
                                  players[game_id]["to_act"],
                                  {"command": command, "expected_version": version}))
                served(f"cold post, {sets['events']}-event games, snapshots {snapshots}", posts,
                       split=True)
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale.cold",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--per-length", type=int, default=150,
                        help="games of each long log length, with snapshots and without")
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--posts", type=int, default=60)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--json", type=Path)
    parser.add_argument("--against", type=Path, metavar="OTHER_CHECKOUT", action="append",
                        help="also serve this checkout's code (e.g. an export of the commit "
                             "before), beside this one, request by request; repeatable")
    args = parser.parse_args(argv)

    def measure_backend(backend: str, url: str, workdir: Path) -> dict:
        from server.storage.migrate import upgrade

        upgrade(url)
        built = build(url, args, random.Random(args.seed))
        return measure(backend, url, built, args, workdir)

    return servers.on_each_backend("cold", args.backend, measure_backend, args.json)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
