"""POST /api/v1/seeks (server/seeking/seeks.py): seeks that fit each other make a public game
that starts by itself."""

from __future__ import annotations

import threading

import pytest
from sqlmodel import select

from server import create_app
from server.seeking import seeks
from server.storage.db import app_engine, session_scope
from server.storage.models import Seat
from tests.server.scheduler.helpers import Table


@pytest.fixture
def table(database_url):
    return Table(create_app({"DATABASE_URL": database_url, "TESTING": True}))


def seek(table, player, **body):
    return table.client.post("/api/v1/seeks", json=body,
                             headers={"Authorization": f"Bearer {player.token}"})


def test_two_seeks_that_fit_make_a_game_that_starts_by_itself(table):
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    first = seek(table, ada, seats=2, pace="1d", contribution="tolami")
    assert first.status_code == 201
    assert first.headers["Location"] == f"/api/v1/seeks/{first.get_json()['id']}"
    assert first.get_json()["game_id"] is None
    assert seek(table, cy, seats=2, pace="3d").get_json()["game_id"] is None  # another pace

    second = seek(table, bob, seats=2, pace="1d", contribution="veruko").get_json()
    game_id = second["game_id"]
    assert game_id is not None
    game = table._call("get", f"/games/{game_id}", ada)
    assert game["status"] == "active" and game["public"] and game["pace"] == "1d"
    assert sorted(p["name"] for p in game["players"]) == ["Ada", "Bob"]
    assert table._call("get", f"/seeks/{first.get_json()['id']}", ada)["game_id"] == game_id
    with session_scope(app_engine(table.app)) as session:
        words = set(session.exec(select(Seat.seed_contribution).where(Seat.game_id == game_id)))
    assert words == {"tolami", "veruko"}


def test_three_seats_wait_for_three_players(table):
    ada, bob, cy = table.register("Ada"), table.register("Bob"), table.register("Cy")
    assert seek(table, ada, seats=3).get_json()["game_id"] is None
    assert seek(table, bob, seats=3).get_json()["game_id"] is None
    made = seek(table, cy, seats=3).get_json()["game_id"]
    assert len(table._call("get", f"/games/{made}", ada)["players"]) == 3


def test_a_player_seeks_once_per_kind_and_may_cancel(table):
    ada = table.register("Ada")
    mine = seek(table, ada, seats=2).get_json()
    again = seek(table, ada, seats=2)
    assert again.status_code == 409
    assert again.get_json()["message"] == ("you already seek a game of 2 seats at pace 3d: wait "
                                           "for it, or cancel it first")
    assert [s["id"] for s in table._call("get", "/seeks", ada)] == [mine["id"]]
    cancelled = table.client.delete(f"/api/v1/seeks/{mine['id']}",
                                    headers={"Authorization": f"Bearer {ada.token}"})
    assert cancelled.status_code == 204
    assert table._call("get", "/seeks", ada) == []
    gone = table.client.get(f"/api/v1/seeks/{mine['id']}",
                            headers={"Authorization": f"Bearer {ada.token}"})
    assert gone.status_code == 404
    assert gone.get_json()["message"] == f"you have no seek {mine['id']}: `iridescia seeks` lists yours"


def test_a_seek_for_one_seat_is_refused(table):
    ada = table.register("Ada")
    alone = seek(table, ada, seats=1)
    assert alone.status_code == 422
    assert alone.get_json()["message"] == ("invalid request: seats: Must be greater than or equal "
                                           "to 2 and less than or equal to 4.")


def test_a_seek_id_past_any_column_is_simply_not_found(table):
    """An id no column holds (PostgreSQL refused it: a 500) is a 404 like any other."""
    ada = table.register("Ada")
    answer = table.client.delete("/api/v1/seeks/1090301946107",
                                 headers={"Authorization": f"Bearer {ada.token}"})
    assert answer.status_code == 404
    assert answer.get_json()["message"].startswith("you have no seek 1090301946107")


def test_a_player_id_past_any_column_is_simply_not_found(table):
    """GET /users/{id} with an id no column holds (PostgreSQL refused it: a 500) is a 404."""
    answer = table.client.get("/api/v1/users/8589934593")
    assert answer.status_code == 404
    assert answer.get_json()["message"] == "there is no player 8589934593"


def test_two_players_seeking_at_the_same_moment_make_one_game(table, monkeypatch):
    """Two requests at once, each in its own thread and transaction: each seek is in and
    looking for the other's before either commits (each request waits up to a second there for
    the other to get as far). They are matched one after the other, so the second finds the
    first and they make one game; without that, on PostgreSQL each missed the other's seek."""
    ada, bob = table.register("Ada"), table.register("Bob")
    barrier = threading.Barrier(2, timeout=1.0)
    match = seeks._match

    def both_in_then_match(session, mine, now):
        try:
            barrier.wait()  # both seeks inserted, neither committed
        except threading.BrokenBarrierError:
            pass  # the other request waits for this one's commit: as it should
        match(session, mine, now)

    monkeypatch.setattr(seeks, "_match", both_in_then_match)
    answers = {}

    def seek_as(player):
        answers[player.name] = seek(table, player, seats=2, pace="1d")

    threads = [threading.Thread(target=seek_as, args=(p,)) for p in (ada, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert {name: a.status_code for name, a in answers.items()} == {"Ada": 201, "Bob": 201}
    made = {name: a.get_json()["game_id"] for name, a in answers.items()}
    [game_id] = [g for g in made.values() if g is not None]  # the second seek made it
    game = table._call("get", f"/games/{game_id}", ada)
    assert game["status"] == "active" and sorted(p["name"] for p in game["players"]) == [
        "Ada", "Bob"]
    for player in (ada, bob):
        assert [s["game_id"] for s in table._call("get", "/seeks", player)] == [game_id]
