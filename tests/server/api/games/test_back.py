"""POST /games/{id}/back: a player whose seat went absent after missed deadlines comes back."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import select

from server.storage.db import get_engine, session_scope
from server.storage.models import Game, Seat, utcnow
from tests.server.helpers import assert_error
from tests.server.play import create_started_game, seat_map


def _mark_absent(database_url: str, game_id: str, seat: int) -> None:
    """What the scheduler does after missed deadlines: the seat is absent, its turn due now."""
    with session_scope(get_engine(database_url)) as session:
        row = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat == seat)).one()
        row.absent, row.missed_turns = True, 2
        game = session.get(Game, game_id)
        game.automatic_due_at, game.deadline_at = utcnow(), None
        session.add_all([row, game])


def _rows(database_url: str, game_id: str) -> tuple[Game, dict[int, Seat]]:
    with session_scope(get_engine(database_url)) as session:
        seats = session.exec(select(Seat).where(Seat.game_id == game_id)).all()
        return session.get(Game, game_id), {s.seat: s for s in seats}


def test_an_absent_player_comes_back_with_a_full_turn(client, database_url, ada, bob):
    game = create_started_game(client, [ada, bob])
    seats = seat_map(client, game["id"], [ada, bob])
    to_act = game["current_seat"]
    _mark_absent(database_url, game["id"], to_act)
    listed = client.get(f"/api/v1/games/{game['id']}", headers=ada.headers).json
    assert [p["absent"] for p in listed["players"] if p["seat"] == to_act] == [True]

    before = utcnow()
    response = client.post(f"/api/v1/games/{game['id']}/back", headers=seats[to_act].headers)

    assert response.status_code == 200, response.json
    assert response.json["id"] == game["id"]
    assert [p["absent"] for p in response.json["players"]] == [False, False]
    row, rows = _rows(database_url, game["id"])
    assert (rows[to_act].absent, rows[to_act].missed_turns) == (False, 0)
    # No longer played at once: the turn runs to a fresh deadline (72 hours by default).
    assert row.deadline_at is not None and row.deadline_at >= before + timedelta(hours=72)
    assert row.automatic_due_at == row.deadline_at


def test_coming_back_when_not_absent_changes_no_clock(client, database_url, ada, bob):
    game = create_started_game(client, [ada, bob])
    seats = seat_map(client, game["id"], [ada, bob])
    waiting = 1 - game["current_seat"]
    before, _ = _rows(database_url, game["id"])
    response = client.post(f"/api/v1/games/{game['id']}/back", headers=seats[waiting].headers)
    assert response.status_code == 200, response.json
    after, rows = _rows(database_url, game["id"])
    assert (after.deadline_at, after.automatic_due_at, after.turn_started_at) == (
        before.deadline_at, before.automatic_due_at, before.turn_started_at)
    assert not rows[waiting].absent


def test_back_needs_a_token_a_seat_and_an_active_game(client, database_url, ada, bob, eve):
    game = create_started_game(client, [ada, bob], public=True)
    path = f"/api/v1/games/{game['id']}/back"
    assert_error(client.post(path), 401)
    assert_error(client.post(path, headers=eve.headers), 403, "do not play")
    private = create_started_game(client, [ada, bob])
    assert_error(client.post(f"/api/v1/games/{private['id']}/back", headers=eve.headers), 404,
                 "you can see")
    assert_error(client.post("/api/v1/games/nosuchgame/back", headers=ada.headers), 404)
    open_game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    assert_error(client.post(f"/api/v1/games/{open_game['id']}/back", headers=ada.headers), 409,
                 "not being played")
    with session_scope(get_engine(database_url)) as session:
        finished = session.get(Game, game["id"])
        finished.status = "finished"
        session.add(finished)
    assert_error(client.post(path, headers=ada.headers), 409, "not being played")


def test_an_absent_player_who_plays_a_command_is_back(client, database_url, ada, bob):
    """Playing is coming back too: the command clears the seat's absence and missed turns, and
    the decisions that follow wait for the player again instead of being played at once."""
    game = create_started_game(client, [ada, bob])
    seats = seat_map(client, game["id"], [ada, bob])
    to_act = game["current_seat"]
    _mark_absent(database_url, game["id"], to_act)
    legal = client.get(f"/api/v1/games/{game['id']}/legal", headers=seats[to_act].headers).json
    response = client.post(f"/api/v1/games/{game['id']}/commands",
                           json={"command": legal["commands"][0],
                                 "expected_version": legal["version"]},
                           headers=seats[to_act].headers)
    assert response.status_code == 201, response.json
    assert response.json["legal"]  # the first command of a turn: the turn goes on
    row, rows = _rows(database_url, game["id"])
    assert (rows[to_act].absent, rows[to_act].missed_turns) == (False, 0)
    assert row.current_seat == to_act
    # The turn's own deadline again (72 hours from its start by default), not "at once".
    assert row.automatic_due_at == row.deadline_at == row.turn_started_at + timedelta(hours=72)
