"""Whole games through the HTTP API: the export replays to the same scores, and at many points no
answer shows a player anything hidden from them."""

from __future__ import annotations

import hashlib
import random

import pytest
from sqlalchemy import delete
from sqlmodel import select

import engine
from server import create_app
from server.games import service
from server.games.cache import CACHE
from server.storage.db import get_engine, session_scope
from server.storage.models import Game, Snapshot
from tests.server.play import (
    assert_nothing_leaks,
    create_started_game,
    deck_tops,
    face_down_tiles,
    play_one,
    seat_map,
    secrets_hidden_from,
)

CHECK_EVERY = 8


def authoritative_state(database_url: str, game_id: str):
    with session_scope(get_engine(database_url)) as session:
        game = session.get(Game, game_id)
        return service.load_state(session, game), game.seed


def check_hidden_information(client, database_url, game_id, seats, posted=None) -> int:
    """Every answer each seat and a spectator get now hides what they may not know;
    ``posted`` (seat, answer) is the command answer just given to that seat."""
    state, seed = authoritative_state(database_url, game_id)
    checked = 0
    if engine.is_terminal(state):
        return checked  # everything is revealed at the end
    viewers = [(seat, player.headers) for seat, player in seats.items()] + [(None, {})]
    for seat, headers in viewers:
        secrets = secrets_hidden_from(state, seat, seed)
        tops, face_down = deck_tops(state), face_down_tiles(state)
        who = f"seat {seat}" if seat is not None else "a spectator"
        with pytest.raises(AssertionError):  # the search does find secrets where they are
            assert_nothing_leaks(engine.state_to_dict(state), secrets, tops, face_down, "state")
        answers = {
            "view": client.get(f"/api/v1/games/{game_id}/view", headers=headers),
            "feed": client.get(f"/api/v1/games/{game_id}/events?after=0", headers=headers),
            "game": client.get(f"/api/v1/games/{game_id}", headers=headers),
        }
        if seat is not None:
            answers["legal"] = client.get(f"/api/v1/games/{game_id}/legal", headers=headers)
            answers["list"] = client.get("/api/v1/games", headers=headers)
        for name, response in answers.items():
            assert response.status_code == 200, (name, response.json)
            assert_nothing_leaks(response.json, secrets, tops, face_down, f"{name} of {who}")
            checked += 1
        if posted is not None and posted[0] == seat:
            assert_nothing_leaks(posted[1], secrets, tops, face_down, f"command answer of {who}")
            checked += 1
        assert_nothing_leaks(client.get(f"/api/v1/games/{game_id}/export",
                                        headers=headers).json, secrets, tops, face_down,
                             f"export of {who}")
    return checked


def test_a_two_player_game_played_over_http_replays_from_its_export(database_url, register):
    app = create_app({"DATABASE_URL": database_url, "SNAPSHOT_EVERY": 10})
    client = app.test_client()
    ada, bob = register("ada"), register("bob")
    # A removal grace: the finished player chooses their removals over HTTP too (without one the
    # scheduler removes the tile, and legal offers none).
    game = create_started_game(client, [ada, bob], public=True, removal_grace_hours=1)
    game_id = game["id"]
    seats = seat_map(client, game_id, [ada, bob])
    assert sorted(seats) == [0, 1]
    rng = random.Random(20240611)
    views_then: dict[int, dict] = {}
    steps = checks = kept_unasked = 0
    while (posted := play_one(client, game_id, seats, rng)) is not None:
        steps += 1
        # A command that resolves a pending roll first (anything but keep_roll, buying, selling
        # and the die changes) says so in its answer (RULINGS §4).
        seat, answer, command = posted
        kept = any(e["type"] == "roll_kept" and e["payload"]["seat"] == seat
                   for e in answer["events"])
        if kept and command["type"] != "keep_roll":
            assert command["type"] not in ("buy", "sell", "modify_die", "reroll", "roll_market")
            assert answer["notes"] and answer["notes"][0].startswith("your pending roll was kept")
            kept_unasked += 1
        else:
            assert answer["notes"] == []
        assert steps < 5000, "the game does not end"
        if steps % CHECK_EVERY == 0:
            checks += check_hidden_information(client, database_url, game_id, seats, posted)
        if steps % 40 == 0:
            view = client.get(f"/api/v1/games/{game_id}/view", headers=seats[0].headers).json
            views_then[view["version"]] = view
    assert checks > 60
    assert kept_unasked > 0

    final = client.get(f"/api/v1/games/{game_id}", headers=ada.headers).json
    assert final["status"] == "finished"
    export = client.get(f"/api/v1/games/{game_id}/export", headers=bob.headers)
    assert export.status_code == 200
    log = export.json
    assert hashlib.sha256(log["seed"].encode()).hexdigest() == game["seed_hash"] == log["seed_hash"]
    assert len(log["events"]) == final["version"]

    # Re-decide every command offline with the revealed seed: the same events, the same scores.
    state = None
    for entry in log["commands"]:
        command = engine.command_from_dict(entry["command"])
        events = engine.decide(state, command, engine.rng_for(log["seed"], entry["version"]))
        stored = log["events"][entry["version"]:entry["version"] + len(events)]
        assert [engine.event_to_dict(e) for e in events] == [e["payload"] for e in stored]
        state = engine.replay(events, state)
    assert engine.is_terminal(state)
    assert engine.outcome(state).to_dict() == log["outcome"]
    final_view = client.get(f"/api/v1/games/{game_id}/view", headers=ada.headers).json
    assert final_view["outcome"] == log["outcome"]
    assert final_view["over"] is True

    # Earlier views are as they were; snapshots and the cache change nothing.
    CACHE.clear()  # states now come from the nearest snapshot plus the events after it
    assert client.get(f"/api/v1/games/{game_id}/view", headers=ada.headers).json == final_view
    for version, view in views_then.items():
        again = client.get(f"/api/v1/games/{game_id}/view?version={version}",
                           headers=seats[0].headers)
        assert again.json == view
    with session_scope(get_engine(database_url)) as session:
        assert session.exec(select(Snapshot)).first() is not None
        session.execute(delete(Snapshot))
    CACHE.clear()
    for version, view in views_then.items():
        again = client.get(f"/api/v1/games/{game_id}/view?version={version}",
                           headers=seats[0].headers)
        assert again.json == view
    assert client.get(f"/api/v1/games/{game_id}/view", headers=ada.headers).json == final_view


def test_a_solo_game_against_the_rhom_played_by_the_server(database_url, register):
    """The human plays over HTTP; the Rhom's turns go through apply_command the way the
    scheduler plays them. Nothing hidden leaks, and the export replays."""
    from engine.bots.policies import automatic_command
    from server.storage.models import utcnow

    app = create_app({"DATABASE_URL": database_url})
    client = app.test_client()
    ada = register("ada")
    game = client.post("/api/v1/games", json={"seats": 1, "public": True},
                       headers=ada.headers).json
    assert game["status"] == "active" and game["rhom"] is True
    kinds = {p["seat"]: p["kind"] for p in game["players"]}
    assert sorted(kinds.values()) == ["human", "rhom"] and kinds[0] == "rhom"
    seats = {game["my_seat"]: ada}
    rng = random.Random(99)
    steps = 0
    while True:
        steps += 1
        assert steps < 5000
        if play_one(client, game["id"], seats, rng) is None:
            with session_scope(get_engine(database_url)) as session:
                row = session.get(Game, game["id"])
                if row.status == "finished":
                    break
                state = service.load_state(session, row)
                service.apply_command(session, row, automatic_command(state), "server", utcnow())
        if steps % 10 == 0:
            check_hidden_information(client, database_url, game["id"], seats)
    log = client.get(f"/api/v1/games/{game['id']}/export", headers=ada.headers).json
    assert {c["actor"] for c in log["commands"]} == {"server", f"user:{ada.id}"}
    state = None
    for entry in log["commands"]:
        events = engine.decide(state, engine.command_from_dict(entry["command"]),
                               engine.rng_for(log["seed"], entry["version"]))
        state = engine.replay(events, state)
    assert engine.outcome(state).to_dict() == log["outcome"]
