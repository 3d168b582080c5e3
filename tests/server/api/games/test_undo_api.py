"""Undo through the API on both databases: a command with an expected version like any other,
its race with another client, a log that stays append-only, views that show nothing new, and a
turn whose clock goes on."""

from __future__ import annotations

import threading

import pytest
from sqlmodel import func, select

from server import create_app
from server.games.cache import CACHE
from server.storage.db import get_engine, session_scope
from server.storage.models import Event, Game, Outbox
from tests.server.helpers import assert_error
from tests.server.play import create_started_game, seat_map


def legal_of(client, game_id, player):
    return client.get(f"/api/v1/games/{game_id}/legal", headers=player.headers).json


def post(client, game_id, player, command, version):
    return client.post(f"/api/v1/games/{game_id}/commands",
                       json={"command": command, "expected_version": version},
                       headers=player.headers)


def view_of(client, game_id, player, version=None):
    at = "" if version is None else f"?version={version}"
    body = client.get(f"/api/v1/games/{game_id}/view{at}", headers=player.headers).json
    return {k: v for k, v in body.items() if k != "version"}


def reveal_then_move(client, game_id, player):
    """Play a one-hex reveal, then a move onto a tile that asks nothing; the version after the
    reveal and after the move."""
    legal = legal_of(client, game_id, player)
    reveal = next(c for c in legal["commands"] if c["type"] == "reveal" and len(c["hexes"]) == 1)
    revealed = post(client, game_id, player, reveal, legal["version"])
    assert revealed.status_code == 201, revealed.json
    assert {"type": "undo", "seat": reveal["seat"]} not in revealed.json["legal"]
    assert revealed.json["undo_steps"] == 0
    refused = post(client, game_id, player, {"type": "undo"}, revealed.json["version"])
    assert_error(refused, 422, f"nothing to take back since your reveal of {reveal['hexes'][0]}")
    move = next(c for c in revealed.json["legal"] if c["type"] == "move")
    moved = post(client, game_id, player, move, revealed.json["version"])
    assert moved.status_code == 201, moved.json
    return revealed.json["version"], moved.json


@pytest.fixture
def game(client, ada, bob):
    game = create_started_game(client, [ada, bob], turn_deadline_hours=48)
    return game["id"], seat_map(client, game["id"], [ada, bob])


def test_an_undo_goes_back_to_the_reveal_and_the_log_keeps_the_steps(client, game):
    game_id, seats = game
    player, other = seats[0], seats[1]
    after_reveal, moved = reveal_then_move(client, game_id, player)
    assert {"type": "undo", "seat": 0} in moved["legal"] and moved["undo_steps"] >= 1
    legal = legal_of(client, game_id, player)
    assert legal["commands"][-1] == {"type": "undo", "seat": 0}
    assert legal["undo_steps"] == moved["undo_steps"]
    undone = post(client, game_id, player, {"type": "undo"}, moved["version"])
    assert undone.status_code == 201, undone.json
    assert undone.json["version"] == moved["version"] + 1
    [event] = undone.json["events"]
    cancelled = moved["version"] - after_reveal
    assert event["type"] == "steps_undone" and event["payload"] == {
        "type": "steps_undone", "v": 1, "seat": 0, "events": cancelled,
        "steps": moved["undo_steps"]}
    for viewer in (player, other):  # nobody sees anything they did not see after the reveal
        assert view_of(client, game_id, viewer) == view_of(client, game_id, viewer, after_reveal)
    feed = client.get(f"/api/v1/games/{game_id}/events", headers=other.headers).json
    assert [e["seq"] for e in feed["events"]] == list(range(1, undone.json["version"] + 1))
    assert feed["events"][-1]["payload"] == event["payload"]
    assert legal_of(client, game_id, player)["undo_steps"] == 0


def test_an_undo_keeps_the_turn_clock_and_sends_no_mail(app, client, game):
    game_id, seats = game
    _, moved = reveal_then_move(client, game_id, seats[0])
    engine_ = get_engine(app.config["DATABASE_URL"])

    def clock():
        with session_scope(engine_) as session:
            row = session.get(Game, game_id)
            mails = session.exec(select(func.count()).select_from(Outbox)
                                 .where(Outbox.game_id == game_id)).one()
            return (row.turn_started_at, row.deadline_at, row.automatic_due_at,
                    row.next_reminder_at, row.current_seat, mails)

    before = clock()
    assert before[1] is not None  # a 48-hour deadline
    assert post(client, game_id, seats[0], {"type": "undo"}, moved["version"]).status_code == 201
    assert clock() == before


def test_two_clients_racing_at_one_version_land_once(app, client, game):
    """Two undos and two other commands posted at the same expected version: one lands, the
    others answer 409, and the log has no gap or duplicate."""
    game_id, seats = game
    _, moved = reveal_then_move(client, game_id, seats[0])
    other = next(c for c in moved["legal"] if c["type"] != "undo")
    statuses: list[tuple[str, int]] = []

    def attempt(command):
        response = post(app.test_client(), game_id, seats[0], command, moved["version"])
        statuses.append((command["type"], response.status_code))

    threads = [threading.Thread(target=attempt, args=(c,))
               for c in ({"type": "undo"}, other, {"type": "undo"}, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for _, status in statuses) == [201, 409, 409, 409]
    feed = client.get(f"/api/v1/games/{game_id}/events", headers=seats[0].headers).json
    assert [e["seq"] for e in feed["events"]] == list(range(1, feed["version"] + 1))
    stale = post(client, game_id, seats[0], {"type": "undo"}, moved["version"])
    assert_error(stale, 409, "refresh and retry")


def test_the_state_after_an_undo_is_the_same_from_snapshots_without_a_cache(database_url, ada,
                                                                            bob):
    """Every event a snapshot and no state cache: each read replays from the nearest snapshot,
    which holds the undo's base."""
    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "SNAPSHOT_EVERY": 1,
                      "STATE_CACHE_SIZE": 0, "AUTH_FAILURE_LIMIT": 100_000,
                      "ACCOUNT_REQUESTS_PER_HOUR": 100_000})
    client = app.test_client()
    try:
        game = create_started_game(client, [ada, bob])
        game_id = game["id"]
        seats = seat_map(client, game_id, [ada, bob])
        after_reveal, moved = reveal_then_move(client, game_id, seats[0])
        CACHE.clear()
        undone = post(client, game_id, seats[0], {"type": "undo"}, moved["version"])
        assert undone.status_code == 201, undone.json
        CACHE.clear()
        assert view_of(client, game_id, seats[0]) == view_of(client, game_id, seats[0],
                                                             after_reveal)
        with session_scope(get_engine(database_url)) as session:
            types = [e.type for e in session.exec(select(Event).where(Event.game_id == game_id)
                                                   .order_by(Event.seq))]
        assert types[-1] == "steps_undone" and types.count("explorer_moved") == 1
    finally:
        CACHE.size = 256
        CACHE.clear()


def test_a_retried_undo_with_its_idempotency_key_gets_the_one_answer(client, game):
    game_id, seats = game
    _, moved = reveal_then_move(client, game_id, seats[0])
    body = {"command": {"type": "undo"}, "expected_version": moved["version"]}
    headers = {**seats[0].headers, "Idempotency-Key": "undo-once"}
    first = client.post(f"/api/v1/games/{game_id}/commands", json=body, headers=headers)
    again = client.post(f"/api/v1/games/{game_id}/commands", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    feed = client.get(f"/api/v1/games/{game_id}/events", headers=seats[0].headers).json
    assert feed["version"] == moved["version"] + 1
    assert [e["type"] for e in feed["events"]].count("steps_undone") == 1
