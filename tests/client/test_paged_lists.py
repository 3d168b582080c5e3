"""The CLI lists every game and every event however the server pages them (GET /games a page
at a time, the feed at most `limit` events an answer), against the real server."""

from __future__ import annotations

import json
import time

from client import config, http


def test_games_lists_every_game_across_pages(run, live, monkeypatch):
    """21 games: one more than the server's page of 20, and then pages of 4."""
    env = {"IRIDESCIA_SERVER": live.url}
    assert run("--profile", "ada", "register", "--name", "Ada", "--email", "ada@example.org",
               env=env).exit_code == 0
    assert run("--profile", "ada", "confirm", "--code", live.mailed_code("ada@example.org"),
               env=env).exit_code == 0
    made = {json.loads(run("--profile", "ada", "new", "--seats", "1", "--json", env=env).output
                       )["id"] for _ in range(21)}
    listed = json.loads(run("--profile", "ada", "games", "--json", env=env).output)
    assert {game["id"] for game in listed} == made and len(listed) == 21
    monkeypatch.setattr(http, "PAGE_SIZE", 4)
    table = run("--profile", "ada", "games", env=env).output.splitlines()
    assert {line.split()[0] for line in table[1:]} == made and len(table) == 22


def test_log_reads_every_event_past_the_feeds_limit(run, live, monkeypatch):
    from client import games as game_helpers

    env = {"IRIDESCIA_SERVER": live.url}
    assert run("--profile", "ada", "register", "--name", "Ada", "--email", "ada@example.org",
               env=env).exit_code == 0
    assert run("--profile", "ada", "confirm", "--code", live.mailed_code("ada@example.org"),
               env=env).exit_code == 0
    game = json.loads(run("--profile", "ada", "new", "--seats", "1", "--json", env=env).output)
    api = http.ApiClient(live.url, config.load().profile("ada").token)
    # The Rhom may start, and autoplay stops at a turn that is not Ada's: play until the log
    # is longer than two pages of three, while the live server plays the Rhom's turns.
    deadline = time.monotonic() + 60
    while game_helpers.fetch_events(api, game["id"])["version"] <= 6:
        assert time.monotonic() < deadline, "the game did not get past 6 events in 60 s"
        assert run("--profile", "ada", "autoplay", game["id"], "--policy", "greedy",
                   "--max-commands", "12", "--quiet", env=env).exit_code == 0
        time.sleep(0.2)
    whole = game_helpers.fetch_events(api, game["id"])
    version = whole["version"]
    assert [e["seq"] for e in whole["events"]] == list(range(1, version + 1))

    original = api.get

    def small_pages(path, **kwargs):
        if path.endswith("/events"):
            kwargs["params"] = {**kwargs["params"], "limit": 3}
        return original(path, **kwargs)

    monkeypatch.setattr(api, "get", small_pages)
    paged = game_helpers.fetch_events(api, game["id"])
    assert paged["events"] == whole["events"] and version > 6

