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
import re
import sys
import time
from pathlib import Path
from types import SimpleNamespace

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
    """EXPLAIN ANALYZE of the statements a cold view and a game list run (PostgreSQL), as the
    server compiles them; each once as a one-off (custom plan) and once as psycopg runs it after
    its fifth execution on a connection: a prepared statement, whose generic plan PostgreSQL
    may choose for every user alike."""
    from psycopg import sql as pg_sql

    from server.games import listing, lobby, posting, service
    from server.http.auth import hash_token
    from server.storage.db import get_engine

    engine = get_engine(url)
    sets = built["by_length"][max(built["by_length"])]
    game_on, game_off = sets["on"][0], sets["off"][0]
    token_hash = hash_token(built["players"][game_on]["tokens"][0])
    with engine.connect() as connection:
        user_id = connection.execute(sa.text("SELECT id FROM users WHERE token_hash = :h"),
                                     {"h": hash_token(top_user_token)}).scalar_one()
        version = connection.execute(sa.text("SELECT version FROM games WHERE id = :g"),
                                     {"g": game_on}).scalar_one()
        page_ids = [row.id for row in listing.games_page(connection, SimpleNamespace(id=user_id),
                                                         0, 20)[0]]
    statements = {
        "caller, game and seat": (posting._CALLER_GAME_AND_SEAT.statement,
                                  {"game_id": game_on, "token_hash": token_hash}),
        "nearest snapshot": (service._NEAREST_SNAPSHOT.statement,
                             {"game_id": game_on, "above": 0, "version": version}),
        "events, snapshots off (whole log)": (
            service._EVENTS_BETWEEN.statement, {"game_id": game_off, "after": 0, "version": 10**4}),
        "caller of the game list": (posting._CALLER.statement, {"token_hash": token_hash}),
        "page 1 of the user in 100 games": (listing._PAGE.statement,
                                            {"user_id": user_id, "limit": 20, "offset": 0}),
        "seats of the page's 20 games": (lobby._SEATS_OF_GAMES, {"game_ids": page_ids}),
    }
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        for title, (statement, params) in statements.items():
            compiled = statement.compile(dialect=engine.dialect)
            text = compiled.string
            values = compiled.construct_params(params, _check=False)
            if "game_ids" in params:  # an expanding IN: spelled out for EXPLAIN
                text = text.replace("(__[POSTCOMPILE_game_ids])", "%(game_ids)s").replace(
                    "IN %(game_ids)s", "= ANY(%(game_ids)s)")
                values = {**values, "game_ids": list(params["game_ids"])}
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + text, values)
            print(f"\n--- EXPLAIN ANALYZE: {title}")
            print("\n".join(row[0] for row in cursor.fetchall()))
            if "game_ids" in params:
                continue
            names = list(dict.fromkeys(re.findall(r"%\((\w+)\)s", text)))
            numbered = re.sub(r"%\((\w+)\)s", lambda m, names=names: f"${names.index(m.group(1)) + 1}", text)
            cursor.execute("SET plan_cache_mode = force_generic_plan")
            name = f"cold_{len(names)}_{abs(hash(title))}"
            cursor.execute(f"PREPARE {name} AS {numbered}")
            arguments = pg_sql.SQL(", ").join(pg_sql.Literal(values[n]) for n in names)
            cursor.execute(pg_sql.SQL("EXPLAIN (ANALYZE) EXECUTE {}({})").format(
                pg_sql.Identifier(name), arguments))
            print(f"--- the same, prepared, its generic plan: {title}")
            print("\n".join(row[0] for row in cursor.fetchall()))
            cursor.execute("RESET plan_cache_mode")
        raw.rollback()
    finally:
        raw.close()


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
        from server.storage.migrate import upgrade

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
