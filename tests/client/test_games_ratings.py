"""`iridescia games` against the real server, on SQLite and PostgreSQL: the other players of
each game named with their rating on its track, the games that ended before the ratings
counted."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from client.commands.lobby import short_time
from server.storage.db import session_scope
from server.storage.models import Game
from tests.client.live import LiveServer


@pytest.fixture
def server(tmp_path, database_url):
    live = LiveServer(tmp_path, database_url)
    yield live
    live.close()


def test_games_shows_the_other_players_rating_on_the_games_track(run, server):
    def cli(profile, *args):
        result = run("--profile", profile, *args, env={"IRIDESCIA_SERVER": server.url})
        assert result.exit_code == 0, result.output
        return result.output

    for profile, name in (("ada", "Ada"), ("bob", "Bob")):
        cli(profile, "register", "--name", name, "--email", f"{profile}@example.org")
        cli(profile, "confirm", "--code", server.mailed_code(f"{profile}@example.org"))
    played = []
    for _ in range(2):  # two public games Bob wins
        made = json.loads(cli("ada", "new", "--seats", "2", "--public", "--json"))
        cli("bob", "join", made["join_code"])
        cli("ada", "start", made["id"])
        played.append(made["id"])
    listed = {g["id"]: g for g in json.loads(cli("ada", "games", "--json"))}
    with session_scope(server.db) as session:
        for hour, game_id in enumerate(played):
            seats = {p["name"]: p["seat"] for p in listed[game_id]["players"]}
            game = session.get(Game, game_id)
            game.status, game.finished_at = "finished", datetime(2026, 12, 1, hour, tzinfo=UTC)
            game.outcome = {"seats": [{"seat": seats["Bob"], "rank": 1, "total": 30},
                                      {"seat": seats["Ada"], "rank": 2, "total": 20}],
                            "winners": [seats["Bob"]]}
        session.commit()
    now = json.loads(cli("ada", "new", "--seats", "2", "--json"))
    cli("bob", "join", now["join_code"])
    cli("ada", "start", now["id"])
    games = {g["id"]: g for g in json.loads(cli("ada", "games", "--json"))}
    bob = {p["name"]: p for p in games[now["id"]]["players"]}["Bob"]
    assert bob["rating_provisional"] is True and bob["rating"] > 1000
    game = games[now["id"]]
    turn = "YOUR TURN" if game["is_my_turn"] else "Bob to play"
    rows = cli("ada", "games").splitlines()
    width = len(f"Bob ({bob['rating']}?)")
    assert rows[0] == f"GAME         STATUS    SEATS   PACE  {'TURN':<28} {'WITH':<{width}} DEADLINE"
    [row] = [r for r in rows if r.startswith(now["id"])]
    assert row.startswith(f"{now['id']:<12} active    2       3d    {turn:<28} "
                          f"Bob ({bob['rating']}?) {short_time(game['deadline_at'])} (")
    assert len(rows) == 4  # the two finished games too, each with Bob's rating
    assert sum(f"Bob ({bob['rating']}?)" in r for r in rows) == 3
