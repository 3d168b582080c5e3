"""Where a cold read's time goes: cProfile of views and game lists in process, and on
PostgreSQL ``EXPLAIN ANALYZE`` of the statements they run.

    python -m bench.scale.cold_profile [--backend sqlite|postgresql] [--views 50] [--top 25]

A small database as `bench.scale.cold` builds it (fewer games), the state cache off, then under
cProfile: ``--views`` views of each long log length (snapshots on and off) and as many first
pages of the game list of the user in 100 games, through Flask's test client. Prints the time
per request of each and the functions that take it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from pathlib import Path

import sqlalchemy as sa

from bench.api import servers
from bench.scale import cold


def profiled(client, paths: list[tuple[str, str]], top: int, title: str) -> None:
    for path, token in paths[:5]:  # the first requests also import things
        client.get(path, headers={"Authorization": f"Bearer {token}"})
    profile = cProfile.Profile()
    started = time.perf_counter()
    profile.enable()
    for path, token in paths:
        response = client.get(path, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, response.get_data()[:300]
    profile.disable()
    per_request = (time.perf_counter() - started) * 1000 / len(paths)
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    print(f"\n=== {title}: {per_request:.2f} ms a request under the profiler ===")
    print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


def explain(url: str, built: dict, top_user_token: str) -> None:
    """EXPLAIN ANALYZE of each statement a cold view and a game list run (PostgreSQL)."""
    from server.auth import hash_token
    from server.db import get_engine

    engine = get_engine(url)
    sets = built["by_length"][max(built["by_length"])]
    game_on, game_off = sets["on"][0], sets["off"][0]
    token = built["players"][game_on]["tokens"][0]
    token_hash, heavy_hash = hash_token(token), hash_token(top_user_token)
    with engine.connect() as connection:
        user_id = connection.execute(sa.text("SELECT id FROM users WHERE token_hash = :h"),
                                     {"h": heavy_hash}).scalar_one()
        version = connection.execute(sa.text("SELECT version FROM games WHERE id = :g"),
                                     {"g": game_on}).scalar_one()
    statements = {
        "caller, game and seat": (
            "SELECT * FROM users LEFT OUTER JOIN games ON games.id = :game_id LEFT OUTER JOIN "
            "seats ON seats.game_id = games.id AND seats.user_id = users.id "
            "WHERE users.token_hash = :token_hash", {"game_id": game_on, "token_hash": token_hash}),
        "nearest snapshot": (
            "SELECT version, state FROM snapshots WHERE game_id = :g AND version > 0 AND "
            "version <= :v ORDER BY version DESC LIMIT 1", {"g": game_on, "v": version}),
        "events after the snapshot": (
            "SELECT payload FROM events WHERE game_id = :g AND seq > :a AND seq <= :v ORDER BY seq",
            {"g": game_on, "a": version // 50 * 50, "v": version}),
        "events, snapshots off (whole log)": (
            "SELECT payload FROM events WHERE game_id = :g AND seq > 0 AND seq <= 100000 "
            "ORDER BY seq", {"g": game_off}),
        "games of the user in 100 games": (
            "SELECT games.*, seats.seat FROM games JOIN seats ON seats.game_id = games.id "
            "WHERE seats.user_id = :u", {"u": user_id}),
        "seats of 20 games": (
            "SELECT seats.*, users.away_until, coalesce(users.name, seats.name) FROM seats "
            "LEFT OUTER JOIN users ON users.id = seats.user_id WHERE seats.game_id IN "
            "(SELECT game_id FROM seats WHERE user_id = :u LIMIT 20)", {"u": user_id}),
    }
    with engine.connect() as connection:
        for title, (sql, params) in statements.items():
            plan = connection.execute(sa.text("EXPLAIN (ANALYZE, BUFFERS) " + sql), params)
            print(f"\n--- EXPLAIN ANALYZE: {title}")
            print("\n".join(row[0] for row in plan))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale.cold_profile",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--per-length", type=int, default=20)
    parser.add_argument("--users", type=int, default=300)
    parser.add_argument("--views", type=int, default=50)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)

    def measure(backend: str, url: str, workdir: Path) -> dict:
        from server import create_app
        from server.migrate import upgrade

        upgrade(url)
        built = cold.build(url, args, random.Random(args.seed))
        app = create_app({"DATABASE_URL": url, "RATE_LIMIT": 0, "STATE_CACHE_SIZE": 0})
        from server.games.cache import CACHE

        CACHE.clear()  # the states the build put there: every read below derives its own
        client = app.test_client()
        rng = random.Random(args.seed)
        players = built["players"]
        for sets in built["by_length"].values():
            for snapshots in ("on", "off"):
                ids = [rng.choice(sets[snapshots]) for _ in range(args.views)]
                profiled(client, [(f"/api/v1/games/{g}/view", rng.choice(players[g]["tokens"]))
                                  for g in ids], args.top,
                         f"{backend}: cold view, {sets['events']} events, snapshots {snapshots}")
        heavy = built["heavy"][100]
        profiled(client, [("/api/v1/games", heavy)] * args.views, args.top,
                 f"{backend}: game list (first page), user in 100 games")
        if backend == "postgresql":
            explain(url, built, heavy)
        return {}

    return servers.on_each_backend("cold_profile", [args.backend], measure)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
